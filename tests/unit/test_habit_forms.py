"""Stances said as habits, defaults and leanings (issue 29, item 1, round ten): "I tend to
pass on X", "I'd never say no to X", "My go-to at the bar is X", "I'm more of a X
drinker", "I gravitate to X", "I usually X"; a reason said after a bare comma kept as a
cause and out of the object; and the same words where they state no stance of the
speaker's (someone else's habit, a question, a one-off, a laugh, "can't stand up").
Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.comma_reasons import cut_reason, gives_comma_reason
from cognimem.ingest.extract.habit_forms import habit_stance, habitual
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY
CAUSAL = FactCategory.CAUSAL


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I tend to pass on buffet breakfasts.", "buffet breakfasts"),
        ("I usually sit out the office quiz.", "office quiz"),
        (
            "We generally turn down invitations to weekday dinners.",
            "invitations to weekday dinners",
        ),
        ("I usually give the motorway a miss on Fridays.", "motorway on Fridays"),
        ("I generally shy away from horror films.", "horror films"),
        ("I'm not much of a drinker.", "drinker"),
        ("I'm not a big reader.", "reader"),
    ],
)
def test_a_habit_of_declining_is_against_its_whole_object(text: str, value: str) -> None:
    assert (POLICY, value, False) in constraints(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'd never say no to a slice of carrot cake.", "slice of carrot cake"),
        ("I never turn down a board game night.", "board game night"),
        ("I'd never pass up a chance to see the sea.", "chance to see the sea"),
        ("My go-to on a rainy day is a bowl of ramen.", "bowl of ramen on a rainy day"),
        ("My usual at the cafe is an oat flat white.", "oat flat white at the cafe"),
        ("Our default for birthdays is a picnic in the park.", "picnic in the park for birthdays"),
        ("My first choice is always the train.", "train"),
        ("Window seats are my usual pick.", "Window seats"),
        ("I'm more of a crossword solver than a sudoku person.", "crossword solver"),
        ("I'm a tea drinker rather than a coffee drinker.", "tea drinker"),
        ("I'm more into folk than metal.", "folk"),
        ("I gravitate to quiet corners in a cafe.", "quiet corners in a cafe"),
        ("I tend to lean toward paperbacks over e-books.", "paperbacks"),
        ("I'm happiest with a quiet table by the window.", "with a quiet table by the window"),
        ("I tend to shop at the market on Saturdays.", "shop at the market on Saturdays"),
        ("We usually book a cottage near the coast.", "book a cottage near the coast"),
        ("I almost always take the stairs.", "take the stairs"),
    ],
)
def test_a_habit_a_default_or_a_leaning_is_for_its_whole_object(text: str, value: str) -> None:
    assert (POLICY, value, True) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "My flatmate tends to pass on invitations.",
        "Would you ever say no to a free upgrade?",
        "I'll pass on your message to Priya.",
        "I'll pass on dessert tonight, thanks.",
        "I can't stand up straight after that hike.",
        "I tend to overthink emails.",
        "I usually forget my keys.",
        "We tend to argue about money.",
        "My go-to cafe is closed today.",
        "My comfort zone is pretty small.",
        "My default answer is no.",
        "My pick is the blue one.",
        "My order is always wrong at that place.",
        "My boss is always late.",
        "I'm not a teacher.",
        "I'm more of a worrier than my sister.",
        "My go-to excuse is the traffic, haha.",
        "I gravitate toward the biscuit tin every hour, lol.",
        "If I were more of a tea drinker I'd buy a pot.",
        "My brother is more of a tea drinker.",
    ],
)
def test_the_same_words_state_no_stance_of_the_speaker(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("I'd rather not wear wool, it makes my neck itch.", "makes my neck itch"),
        ("I tend to avoid loud bars, I can never hear anyone.", "never hear anyone"),
        ("Marathons aren't for me, too much training.", "too much training"),
        ("My go-to is a hotel with a gym so I can train.", "so I can train"),
    ],
)
def test_a_reason_after_a_bare_comma_is_kept_as_a_cause(text: str, reason: str) -> None:
    read = constraints(text)
    assert any(c is CAUSAL and reason in v for c, v, _ in read), read
    # and the object stops before it
    assert not any(c is POLICY and reason in v for c, v, _ in read), read


def test_a_clause_with_no_effect_on_the_speaker_is_cut_and_kept_as_no_cause() -> None:
    read = constraints("I tend to avoid chain cafes, the coffee all tastes burnt.")
    assert read == [(POLICY, "chain cafes", False)]


def test_a_comment_after_a_comma_is_no_reason() -> None:
    text = "I'd rather not sit near the speakers, I promise."
    assert constraints(text) == [(POLICY, "sit near the speakers", False)]


@pytest.mark.parametrize(
    "text",
    [
        "I hate driving, so I always take the train.",  # a result
        "I'm not keen on team sports, I'd rather swim alone.",  # the alternative chosen
    ],
)
def test_a_result_or_an_alternative_after_a_comma_is_no_reason(text: str) -> None:
    read = constraints(text)
    assert not any(c is CAUSAL for c, _, _ in read), read


def test_a_list_after_a_comma_stays_in_the_object() -> None:
    text = "I avoid anything with nuts, seeds or sesame."
    assert (POLICY, "anything with nuts, seeds or sesame", False) in constraints(text)


def test_the_forms_alone() -> None:
    assert habit_stance("I tend to pass on loud bars") == ("loud bars", False)
    assert habit_stance("I'd never say no to a picnic") == ("a picnic", True)
    assert habit_stance("My boss is always late") is None
    assert habitual("I usually walk to work") == "walk to work"
    assert habitual("I usually forget my keys") is None
    assert habitual("I usually walked to work") is None
    assert cut_reason("chain cafes, the coffee all tastes burnt") == "chain cafes"
    assert cut_reason("nuts, seeds or sesame") == "nuts, seeds or sesame"
    assert gives_comma_reason("I skip lunch, it makes me sleepy.", ["lunch"])
    assert not gives_comma_reason("I skip lunch, mornings are long.", ["lunch"])
    assert not gives_comma_reason("I skip lunch, and what about you.", ["lunch"])
