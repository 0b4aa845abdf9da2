"""A thing wanted is no goal, nor a kind of person wished for; a goal said with "want a"
still is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.ingest.extract.wanted_things import wants_a_character, wants_a_thing
from cognimem.models.extraction import ExtractionInput


def facts(text: str) -> list[tuple[str, str]]:
    said = ExtractionInput(text=text, occurred_at=datetime(2026, 3, 1, tzinfo=UTC))
    return [(f.category.value, f.predicate) for f in RuleExtractor().extract_one(said).facts]


@pytest.mark.parametrize(
    "text", ["I want a Tesla so badly.", "I want a new phone.", "We really want a dog."]
)
def test_a_thing_or_animal_wanted_is_no_goal(text: str) -> None:
    assert wants_a_thing(text)
    assert facts(text) == []


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("I want a promotion.", "work"),  # no object: an aim
        ("I want a house by 2030.", "home"),  # a deadline: a plan
        ("I want a baby.", "family"),  # a person
    ],
)
def test_a_goal_said_with_want_a_stays_a_goal(text: str, goal: str) -> None:
    assert not wants_a_thing(text)
    assert facts(text) == [("goal", goal)]


@pytest.mark.parametrize(
    "text",
    [
        "I'd love to be the kind of person who swims before work.",
        "I want to be someone who cooks from scratch.",
        "I'd like to be one of those people who journal daily.",
    ],
)
def test_a_kind_of_person_wished_for_is_no_goal(text: str) -> None:
    assert wants_a_character(text)
    assert facts(text) == []


@pytest.mark.parametrize(
    ("text", "goal"),
    [("I'd love to be a pilot one day.", "work"), ("I'd love to run a marathon.", "fitness")],
)
def test_a_role_or_an_aim_wished_for_stays_a_goal(text: str, goal: str) -> None:
    assert not wants_a_character(text)
    assert facts(text) == [("goal", goal)]
