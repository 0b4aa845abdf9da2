"""Constraints stated in conversational phrasing that no narrow detector reads: the whole
sentence is kept as the constraint (detect_stances), and small talk still yields none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, FactCategory

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def constraints(text: str) -> list[tuple[FactCategory, str]]:
    facts = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.category, f.value) for f in facts if f.category in CONSTRAINT_CATEGORIES]


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("My rule is simple: phones stay in the hallway at dinner.", FactCategory.POLICY),
        ("Being near the sea matters more to me than a big garden.", FactCategory.VALUE),
        ("We're putting money aside for a bigger flat.", FactCategory.GOAL),
        ("I'm running on fumes these days, the new shifts are brutal.", FactCategory.STATE),
        ("Cycling to the office cured my back trouble.", FactCategory.CAUSAL),
    ],
)
def test_a_stance_in_plain_words_is_a_constraint(text: str, category: FactCategory) -> None:
    assert constraints(text) == [(category, text.rstrip("."))]


@pytest.mark.parametrize(
    "text",
    [
        "I'd love to hear how that turned out.",
        "It makes me so happy to see that.",
        "I can't believe how fast this year is going.",
        "My day was pretty good, nothing special.",
    ],
)
def test_small_talk_and_reactions_are_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # a rule the speaker set, or kept to themselves
        ("We set ourselves a strict rule: screens off by eight.", FactCategory.POLICY),
        ("I keep my salary to myself, even with friends.", FactCategory.POLICY),
        ("I'm at the gym by six every morning because work starts at eight.", FactCategory.POLICY),
        # a value said as what should be
        ("For me holidays should be slow, not packed.", FactCategory.VALUE),
        # a goal whose subject was said once
        ("I have kept off sugar since spring and hope to stay that way.", FactCategory.GOAL),
        # states: a condition, a change just made, a home, things gone wrong
        ("I'm partially deaf in one ear.", FactCategory.STATE),
        ("We just split up after six years.", FactCategory.STATE),
        ("The nurse put me on iron tablets for the anaemia.", FactCategory.STATE),
        ("My father-in-law is living with us until spring.", FactCategory.STATE),
        ("My laptop's been broken for a week.", FactCategory.STATE),
        ("Our boiler died in the cold snap.", FactCategory.STATE),
        ("I don't have a car at the moment.", FactCategory.STATE),
        # causes and effects without "because"
        ("Long walks keep me sane, especially in winter.", FactCategory.CAUSAL),
        ("Cutting my coffee to one cup stopped the headaches.", FactCategory.CAUSAL),
        ("I burned out last spring, so I log off at five now.", FactCategory.CAUSAL),
        ("Our cat gets stressed when we have guests over.", FactCategory.CAUSAL),
    ],
)
def test_more_ways_of_stating_a_constraint(text: str, category: FactCategory) -> None:
    assert (category, text.rstrip(".")) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "Keep me posted!",
        "So now we wait.",
        "I have a rule of thumb for that, but it depends.",
        "I went there every day because it was close.",
        "For us the answer is yes.",
        "I'd love to meet you for coffee.",
        "Our team crashed out of the cup.",
    ],
)
def test_near_misses_stay_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # a value said as what is central to the speaker, or what bothers them
        ("Music is central to my life.", FactCategory.VALUE),
        # ("... annoys me", a verb of feeling VADER rates, is a stance against X:
        # test_feeling_verbs)
        ("Loud chewing really bothers me.", FactCategory.VALUE),
        # a body still mending, a thing old or frail, a term running out
        ("My shoulder is still mending after the op.", FactCategory.STATE),
        ("Our car is a very old hatchback.", FactCategory.STATE),
        ("My visa expires next spring.", FactCategory.STATE),
        # what sets off one the speaker looks after; a duty that follows from a state
        ("Our puppy gets scared by thunder.", FactCategory.CAUSAL),
        ("Since we're on one income, we have to keep groceries cheap.", FactCategory.CAUSAL),
        # a practice kept so many times a day, a rule the speaker is held to
        ("I meditate twice a day.", FactCategory.POLICY),
        # a present state and how long it lasts, a burden still carried, a limit
        ("We're on one salary for the rest of the year.", FactCategory.STATE),
        ("We're living out of boxes till the builders finish.", FactCategory.STATE),
        ("We're still paying back the car loan.", FactCategory.STATE),
        ("I'm hobbling around with a sprained wrist.", FactCategory.STATE),
        ("Our budget took a huge hit after the vet bills.", FactCategory.STATE),
        ("The clinic has me on a strict low-salt plan.", FactCategory.STATE),
    ],
)
def test_further_grammar_of_a_constraint(text: str, category: FactCategory) -> None:
    assert (category, text.rstrip(".")) in constraints(text)


def house_rules(text: str) -> list[tuple[str, bool]]:
    facts = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.value, f.polarity) for f in facts if f.category is FactCategory.POLICY]


@pytest.mark.parametrize(
    ("text", "polarity"),
    [
        # a prohibition as a slogan keeps its "no" in the value
        ("No dogs in the kitchen.", True),
        ("No music after eleven on weeknights.", True),
        # ... a prohibition said otherwise is against what it names
        ("Nothing loud after eleven.", False),
        ("Nobody eats upstairs.", False),
        ("The kids aren't allowed soda on school nights.", False),
        # what is kept where or when
        ("Bikes off the lawn at night.", True),
        ("Chores first, then screens.", True),
        ("The bird stays in its cage at night.", True),
        ("Coats only in the hall closet.", True),
        ("Keys go on the hook by the door, for everyone.", True),
    ],
)
def test_a_house_rule_said_with_no_person_is_a_policy(text: str, polarity: bool) -> None:
    assert house_rules(text) == [(text.rstrip("."), polarity)]


@pytest.mark.parametrize(
    "text",
    [
        # instructions to the assistant and recipes' steps
        "Turn the porch light off for me.",
        "Add the garlic and stir for a minute.",
        "Simmer the beans on low heat until soft.",
        # quoted signs, notices
        'A sign by the pool said "No diving".',
        "The notice on the door says no entry after six.",
        # interjections, news and reports
        "No worries, we can sort it out later.",
        "No rain at all this week.",
        "No one called while you were out.",
        "No parking on our street tomorrow because of the market.",
        # a past state, someone else's, small talk
        "I was on early shifts for the rest of that year.",
        "My cousin is still paying off her student loans.",
        "I'm out of ideas, honestly.",
        "My coach has me on my toes.",
    ],
)
def test_near_misses_of_a_house_rule_stay_no_constraint(text: str) -> None:
    assert constraints(text) == []
