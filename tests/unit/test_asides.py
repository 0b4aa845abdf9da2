"""Words about the conversation ("if that helps", "after all", "and no, I don't ...")
are left out before a sentence is read, and nothing else is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.asides import without_asides
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("I live in Leeds, if that helps with the time zone.", "I live in Leeds."),
        ("I'm a welder, in case it matters for the booking.", "I'm a welder."),
        ("I'm 51, if that's relevant.", "I'm 51."),
        ("I'm a vegan, just so you know.", "I'm a vegan."),
        ("For context, I work at Bosch.", "I work at Bosch."),
        ("I didn't buy the van after all.", "I didn't buy the van."),
        ("After all, I'm the one who drives.", "I'm the one who drives."),
        ("I'm a dentist, and no, I don't floss daily.", "I'm a dentist."),
    ],
)
def test_an_aside_is_left_out(said: str, read: str) -> None:
    assert without_asides(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "After all the guests left, I cleaned up.",  # the "after" of a time
        "I'll take the bus if it rains.",  # a condition of the world
        "If that helps, great.",  # nothing would be left
        "Does it matter that I live in Leeds, if that helps?",  # a question
        "I'm a nurse and no one believes me.",  # no answer after a comma
    ],
)
def test_no_aside_leaves_the_sentence_as_said(said: str) -> None:
    assert without_asides(said) == said


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I live in Porto, if that helps with the weather.", [("location", "city", "Porto")]),
        ("I didn't get the house in Bath after all.", []),
        ("I'm a chef, and no, I don't cook at home.", [("occupation", "job", "chef")]),
    ],
)
def test_an_aside_gives_no_fact_of_its_own(said: str, expected: list[tuple[str, ...]]) -> None:
    facts = (
        RuleExtractor()
        .extract_one(ExtractionInput(text=said, occurred_at=datetime(2026, 3, 1, tzinfo=UTC)))
        .facts
    )
    assert [(f.category.value, f.predicate, f.value) for f in facts] == expected
