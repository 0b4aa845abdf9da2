"""Figures of speech that state nothing to record (issue 32): an "-ic" word that is a
mood, praise or blame, a fear of a thing of one's own or a politeness, being buried in
work, a joke's age, hearsay said as "word on the street", a mood of the moment, an occasion
missed ("I can't make it"). The
rules read no fact from them, and still read the real statements of the same grammar."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[str, str, str]]:
    found = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.category.value, f.predicate, f.value) for f in found]


def assert_reads(text: str, expected: tuple[str, str | None, str]) -> None:
    """``text`` gives a fact of ``expected``'s category, predicate (``None``: any) and a
    value holding ``expected``'s."""
    category, predicate, value = expected
    found = read(text)
    assert any(c == category and predicate in (None, p) and value in v for c, p, v in found), found


@pytest.mark.parametrize(
    "text",
    [
        # an "-ic" word that names no condition
        "I'm so chaotic.",
        "I'm totally sympathetic.",
        "I'm so artistic.",
        # a fear of a thing of one's own, a politeness
        "I'm scared of my phone bill.",
        "I'm afraid I can't make it.",
        # buried in work
        "I'm swimming in homework this month.",
        "We're snowed under with orders this week.",
        # a joke's age
        "I'm 70 years old at heart.",
        "I'm 30, going on 80.",
        "I'm 25 years old in spirit.",
        # hearsay
        "Rumor is I'm moving to Austin.",
        "Word on the street is that I'm a vegan now.",
        "The gossip is that I'm pregnant.",
        # a mood of the moment
        "I'm so bored right now.",
        "We're really excited these days.",
        # one occasion missed
        "I can't make it to the dinner tonight.",
    ],
)
def test_a_figure_of_speech_reads_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("I'm narcoleptic.", "state", "narcoleptic"),
        ("I'm arachnophobic.", "state", "arachnophobic"),
        ("I'm scared of snakes.", "state", "scared of snakes"),
        ("I'm afraid to drive at night.", "state", "afraid to drive"),
        ("We're drowning in medical debt this month.", "state", "debt"),
        ("I'm 33 years old.", "identity", "33"),
        ("I'm so stressed right now.", "state", "stressed"),
        ("I can't do weekends.", "policy", "weekends"),
    ],
)
def test_the_real_statement_of_the_same_grammar_is_still_read(
    text: str, category: str, value: str
) -> None:
    assert any(c == category and value in v for c, _, v in read(text)), read(text)


def test_a_condition_said_as_an_adjective_is_about_health() -> None:
    assert ("state", "health", "I'm arthritic") in read("I'm arthritic.")
