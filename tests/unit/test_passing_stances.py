"""A habit said in the simple past no longer holds, and a request for one occasion is
no constraint (issue 29: no false constraint); the same habits in the present or the
perfect, and requests for good, stay constraints. The sentences are new, not from any
probe or constraint set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.passing import is_request_for_one_occasion, past_habit
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def standing(text: str) -> list[str]:
    """The values of the constraints read from ``text`` that still hold."""
    facts = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [f.value for f in facts if f.category in CONSTRAINT_CATEGORIES and f.holds]


@pytest.mark.parametrize(
    "text",
    [
        "In high school I never wore anything but band T-shirts.",
        "When we lived in Bristol we always took the ferry.",
        "At college I only ever drank instant coffee.",
        "Don't pick the noodle bar tonight, we went there on Monday.",
        "Please skip the museum tomorrow, my feet are sore.",
    ],
)
def test_a_past_habit_or_a_request_for_one_occasion_is_no_standing_constraint(
    text: str,
) -> None:
    assert standing(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I never wear band T-shirts.", "band T-shirts"),
        ("We always take the ferry to the island.", "ferry"),
        ("Next time, please don't book me an early flight.", "early flight"),
        ("Please don't ever book me into a hostel again.", "hostel"),
    ],
)
def test_a_habit_now_or_a_request_for_good_stays_a_constraint(text: str, value: str) -> None:
    assert any(value in v for v in standing(text)), standing(text)


def test_the_perfect_and_the_present_are_no_past_habit() -> None:
    assert past_habit("as a kid I always had dogs")
    assert not past_habit("I've always had dogs")
    assert not past_habit("I only read non-fiction these days")
    assert not past_habit("I never need an alarm")
    assert is_request_for_one_occasion("Please don't book the train tonight.")
    assert not is_request_for_one_occasion("Please don't book the train next time either.")
