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
