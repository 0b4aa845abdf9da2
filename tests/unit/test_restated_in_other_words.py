"""Second sayings of a fact the rules read, so a restatement has a fact to renew with
(issue 32, item 7): a condition with its subject left out, a named injury in a body
part, and home said as the place."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[str, str, str, bool]]:
    found = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.category.value, f.predicate, f.value, f.holds) for f in found]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Still feeling dizzy.", "dizzy"),
        ("Still feeling run down today.", "run down"),
        ("The bruise on my shin still hurts.", "bruise in my shin"),
        ("The strain in my calf is still sore.", "strain in my calf"),
    ],
)
def test_a_condition_said_again_is_read(text: str, value: str) -> None:
    assert read(text) == [("state", "health", value, True)]


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("Seattle has been home since 2019.", "Seattle"),
        ("Our home is in Leeds now.", "Leeds"),
        ("I call Berlin home these days.", "Berlin"),
    ],
)
def test_home_said_as_the_place_is_where_one_lives(text: str, city: str) -> None:
    assert ("location", "city", city, True) in read(text)


@pytest.mark.parametrize(
    "text",
    ["Home is where the heart is.", "Paris used to be home.", "Boston is home to Harvard."],
)
def test_a_saying_or_a_past_home_is_no_city(text: str) -> None:
    assert not [f for f in read(text) if f[:2] == ("location", "city") and f[3]]
