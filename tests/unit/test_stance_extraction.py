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
        ("I'm exhausted these days, the new shifts are brutal.", FactCategory.STATE),
        ("Cycling to the office cured my back trouble.", FactCategory.CAUSAL),
    ],
)
def test_a_stance_in_plain_words_is_a_constraint(text: str, category: FactCategory) -> None:
    assert constraints(text) == [(category, text.rstrip("."))]


@pytest.mark.parametrize(
    "text",
    [
        "I'd love to hear more about it.",
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
