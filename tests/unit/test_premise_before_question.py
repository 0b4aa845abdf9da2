"""A statement said as the premise of a question to the listener ("I'm vegetarian, what
should I cook?") is the speaker's own and is read whole (issues 29 and 32); a question,
a hypothetical or a sentence that takes itself back gives nothing. Sentences written
for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput

EXTRACTOR = RuleExtractor()
WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def facts(text: str) -> list[tuple[str, str, str, bool]]:
    read = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.category.value, f.predicate, f.value, f.polarity) for f in read if f.holds]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm pescatarian, what can I make for a picnic?", ("value", "diet", "pescatarian", True)),
        ("I'm allergic to sesame, is hummus safe?", ("policy", "allergy", "sesame", True)),
        ("I don't eat lamb, which curry would you pick?", ("policy", "food", "eat lamb", False)),
        (
            "I work as a pharmacist, any tips for long shifts?",
            ("occupation", "job", "pharmacist", True),
        ),
        ("I live in Bristol, where should I go for brunch?", ("location", "city", "Bristol", True)),
    ],
)
def test_a_premise_before_a_question_is_read(text: str, fact: tuple[str, str, str, bool]) -> None:
    assert fact in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Am I allergic to sesame if my lips tingle?",
        "Would I be happier living in Bristol?",
        "I'm basically a walking encyclopedia, right?",
        "If I were a pharmacist, would I earn more?",
        # someone else's word, and a want said as a request, are no premise of the speaker's
        "Priya just asked if I want to come along, what should I say?",
        "I want a thriller to read on the train, what do you suggest?",
        # "have" after "I" is an auxiliary, not a pick of one thing over another
        "I've saved a lot over the past year, how should I invest it?",
    ],
)
def test_a_question_or_a_joke_gives_no_fact(text: str) -> None:
    assert facts(text) == []
