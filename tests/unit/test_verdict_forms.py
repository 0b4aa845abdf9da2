"""Stances said as a verdict on an object said first, or with the object moved before
the speaker (issue 29, item 1, round eleven): "X gets on my nerves", "X is my least
favourite thing", "X wins hands down", "X is something I insist on", "X I give a wide
berth"; and the same words where they state no stance of the speaker's (a person, a
subordinate clause, a laugh). Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.verdict_forms import fronted, verdict
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY
VALUE = FactCategory.VALUE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Umbrellas with bent spokes are my pet peeve.", "Umbrellas with bent spokes"),
        ("Cold showers in winter are my least favourite thing.", "Cold showers in winter"),
        ("Cruise ships have lost their appeal for me.", "Cruise ships"),
        ("Open-plan offices make me want to scream.", "Open-plan offices"),
        ("Printers that jam every week get on my nerves.", "Printers that jam every week"),
        ("Crisps never make it into my trolley.", "Crisps"),
        ("Queues at the post office are a special kind of torture.", "Queues at the post office"),
        ("Phone menus are something I politely decline these days.", "Phone menus"),
        ("Garden centres at Easter I give a wide berth.", "Garden centres at Easter"),
    ],
)
def test_a_verdict_against_its_object_said_first_is_a_stance(text: str, value: str) -> None:
    assert (POLICY, value, False) in constraints(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Quiet pubs with a fire are much more my style.", "Quiet pubs with a fire"),
        ("Paper maps win hands down for me.", "Paper maps"),
        ("Early trains get my vote every time.", "Early trains"),
        ("Written notes are something I insist on.", "written notes"),
        ("I make a point of walking after lunch.", "walking after lunch"),
    ],
)
def test_a_verdict_for_its_object_is_a_stance_for_it(text: str, value: str) -> None:
    assert any(c == POLICY and value.lower() in v.lower() and p for c, v, p in constraints(text))


def test_a_habit_and_nothing_else_is_exclusive() -> None:
    assert (VALUE, "only walk to work", True) in constraints("I walk to work and nothing else.")


def test_a_choice_said_with_it_needs_a_word_of_habit() -> None:
    assert verdict("It's a pot of green tea for me, every single time") == (
        "a pot of green tea",
        True,
        False,
    )
    assert verdict("It's a big day for me") is None


@pytest.mark.parametrize(
    "text",
    [
        "My neighbour gets on my nerves.",  # a person, not a stance
        "Is my commute my least favourite thing?",
        "While I look for a flat, I'm staying with my aunt.",
    ],
)
def test_a_verdict_on_a_person_or_a_question_is_no_stance(text: str) -> None:
    assert constraints(text) == []


def test_a_fronted_object_goes_back_after_its_verb() -> None:
    assert fronted("Phone menus are something I politely decline these days") == (
        "I politely decline Phone menus"
    )
    assert fronted("Long queues I give a wide berth") == "I give Long queues a wide berth"
    assert fronted("Yesterday I went to the park") is None


def test_a_hope_about_someone_else_states_nothing() -> None:
    assert constraints("I really hope my brother stops eating so much junk food.") == []
