"""Stances read by the rule extractor (``detect_choices``): what the speaker is against,
chooses, does only, or keeps to under a condition becomes a constraint whose value is
the whole object, with the stance as its polarity. Sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, FactCategory

EXTRACTOR = RuleExtractor()
WHEN = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def constraints(text: str) -> list[tuple[FactCategory, str, bool]]:
    facts = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [
        (f.category, f.value, f.polarity)
        for f in facts
        if f.category in CONSTRAINT_CATEGORIES and f.holds
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I can't stand podcasts that run over an hour.", "podcasts that run over an hour"),
        (
            "I have no interest in timeshares or anything sold at a seminar.",
            "timeshares or anything sold at a seminar",
        ),
        (
            "I'd rather not sit near the kitchen in restaurants.",
            "sit near the kitchen in restaurants",
        ),
        ("Board games with hour-long setups aren't my thing.", "Board games with hour-long setups"),
        ("We never leave dishes in the sink overnight.", "leave dishes in the sink overnight"),
    ],
)
def test_a_negative_stance_is_a_policy_against_its_whole_object(text: str, value: str) -> None:
    assert constraints(text) == [(FactCategory.POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I prefer window blinds over curtains.", "window blinds"),
        ("I need a desk that faces a window.", "desk that faces a window"),
    ],
)
def test_a_choice_is_a_policy_for_its_object_without_the_option_it_beats(
    text: str, value: str
) -> None:
    assert constraints(text) == [(FactCategory.POLICY, value, True)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I only drink coffee from a French press.", "only drink coffee from a French press"),
        ("I wash my car exclusively by hand.", "only wash my car by hand"),
    ],
)
def test_an_exclusive_habit_is_a_value_wherever_only_stands(text: str, value: str) -> None:
    assert constraints(text) == [(FactCategory.VALUE, value, True)]


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        (
            "When I work from home, I keep my phone in another room.",
            "keep my phone in another room when I work from home",
            True,
        ),
        ("On rainy days I skip the bike.", "bike on rainy days", False),
    ],
)
def test_a_condition_said_first_ends_the_value(text: str, value: str, polarity: bool) -> None:
    assert constraints(text) == [(FactCategory.POLICY, value, polarity)]


def test_a_reasoned_stance_keeps_its_object_without_the_reason() -> None:
    assert (FactCategory.POLICY, "escalators", False) in constraints(
        "I avoid escalators because of my vertigo."
    )


def test_a_stance_and_its_cause_are_both_recorded() -> None:
    found = constraints("I can't drink beer because it gives me a headache.")
    assert (FactCategory.POLICY, "drink beer", False) in found
    assert any(category is FactCategory.CAUSAL for category, _, _ in found)


@pytest.mark.parametrize(
    "text",
    [
        "Do you hate long meetings?",
        "My brother can't stand olives.",
        "I never thought of that.",
        "I don't know what to cook tonight.",
        "I can't wait for the weekend.",
        "I quit my job last spring.",
        "I used to avoid spicy food.",
        "I'm not going to lie, that was fun.",
        "I need a coffee.",
        "If I had a garden, I'd never buy herbs again.",
    ],
)
def test_talk_that_only_sounds_like_a_stance_is_no_constraint(text: str) -> None:
    assert constraints(text) == []
