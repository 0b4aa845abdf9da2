"""A value corrected inside its own sentence is read as corrected, and only then."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.corrections import corrected
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("I live in Leeds, sorry, I mean Bradford.", "I live in Bradford."),
        ("I'm a teacher; well, a teaching assistant, to be precise.", "I'm a teaching assistant."),
        ("I moved to Denver in 2019, no wait, 2018.", "I moved to Denver in 2018."),
        ("I live in New York, sorry, San Francisco.", "I live in San Francisco."),
        ("I work at Google, well, Alphabet technically.", "I work at Alphabet."),
    ],
)
def test_a_repair_replaces_what_it_stands_for(said: str, read: str) -> None:
    assert corrected(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "My husband's called Nikos, well, Nick to everyone.",  # a second name, no repair
        "I work at Meta, I mean, I did until May; now I'm at Canva.",  # a clause of its own
        "Thanks, sorry, I was late.",
        "I love jazz, I mean, who doesn't?",
        "Sorry, I mean it.",
        "I live in Leeds, sorry, I mean the one up north near the hills and the moors.",
    ],
)
def test_no_repair_leaves_the_sentence_as_said(said: str) -> None:
    assert corrected(said) == said


def test_only_the_corrected_city_is_recorded() -> None:
    facts = (
        RuleExtractor()
        .extract_one(
            ExtractionInput(
                text="I live in Leeds, sorry, I mean Bradford.",
                occurred_at=datetime(2026, 3, 1, tzinfo=UTC),
            )
        )
        .facts
    )
    assert [(f.predicate, f.value) for f in facts] == [("city", "Bradford")]
