"""Forms the rules read for the speaker and now for anyone (issue 32, twelfth round): an
activity done often with what or where it is done between ("I run along the canal every
evening", "I go kayaking most weekends", "I knit in my spare time"); an illness named by
a word WordNet files under ill health after a verb of living with one ("battling
lymphoma"); a workplace said with a shift between ("I work nights at a bakery"); a home
said with whom one lives or what one rents ("I live with my wife in Porto", "I rent a
flat in Ghent"). Each beside the same grammar that states nothing. The sentences are
new, not from any probe set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput
from tests.unit.test_figures_of_speech import assert_reads, read

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I run along the canal every evening.", ("preference", "activity", "run")),
        ("I go kayaking most weekends.", ("preference", "activity", "kayaking")),
        ("I knit in my spare time.", ("preference", "hobby", "knit")),
        ("I bake bread on Sundays.", ("preference", "hobby", "bake bread")),
        ("I'm battling lymphoma.", ("state", "health", "lymphoma")),
        ("I suffer from sciatica.", ("state", "health", "sciatica")),
        ("I'm in remission.", ("state", "health", "remission")),
        ("I work nights at a bakery.", ("occupation", "employer", "bakery")),
        ("I work the late shift at a supermarket.", ("occupation", "employer", "supermarket")),
        ("I drive for a construction company.", ("occupation", "employer", "company")),
        ("I live with my wife in Porto.", ("location", "city", "Porto")),
        ("I live alone in a small flat in Ghent.", ("location", "city", "Ghent")),
        ("I rent a cottage in Galway.", ("location", "city", "Galway")),
        ("I live on a farm outside Lincoln.", ("location", "city", "Lincoln")),
    ],
)
def test_the_speaker_says_it(text: str, expected: tuple[str, str, str]) -> None:
    assert_reads(text, expected)


@pytest.mark.parametrize(
    "text",
    [
        "I eat lunch every day.",  # no pastime
        "I check my email every morning.",
        "I'm battling traffic every morning.",  # no illness
        "I'm fighting with my sister.",
        "I'm struggling with my workload.",
        "I rent a car in Denver.",  # no home
        "My uncle is a walking dictionary.",  # a figure of a person
        "My wife is a human calculator.",
        "I'm a huge fan of paying taxes, as you can imagine.",  # left to see through
        "I'm on fire at the office lately.",  # a boast, no state
    ],
)
def test_the_same_grammar_states_nothing(text: str) -> None:
    assert read(text) == []


def test_a_job_after_a_word_true_of_anyone_is_still_a_job() -> None:
    assert_reads("My sister is a human rights lawyer.", ("occupation", "job", "lawyer"))


def _facts_of(text: str, context: tuple[str, ...] = ()) -> list[tuple[str, str, str, str]]:
    message = ExtractionInput(text=text, occurred_at=WHEN, context=context)
    found = RuleExtractor().extract_one(message).facts
    return [(f.subject, f.category.value, f.predicate, f.value) for f in found]


def test_a_pronouns_habit_illness_work_and_home_are_the_persons() -> None:
    context = ("My friend Oskar is in great shape.",)
    assert ("Oskar", "preference", "activity", "cycle") in _facts_of(
        "He cycles to the office every day.", context
    )
    assert ("Oskar", "state", "health", "lymphoma") in _facts_of("He's battling lymphoma.", context)
    assert ("Oskar", "occupation", "employer", "pharmacy") in _facts_of(
        "He works weekends at a pharmacy.", context
    )
    assert ("Oskar", "location", "city", "Tallinn") in _facts_of(
        "He lives with his partner in Tallinn.", context
    )
