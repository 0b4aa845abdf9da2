"""Preferences said to an assistant that the extractor used to miss (issue 29): a bare or
purposeful favourite and a practice the speaker likes to keep are stances for their
whole object; a habit of switching something off is a stance against it; "to" inside a
relative clause no longer cuts a choice's object. A favourite of a kind, a plain love,
a question and someone else's favourite state none. Sentences written for these
tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.choice_objects import relative_to, switched_off
from cognimem.models.extraction import ExtractionInput
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import EXTRACTOR, WHEN, constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("Thin-crust pizza is my absolute favourite.", "Thin-crust pizza", True),
        ("Late evening is my favourite time for a swim.", "Late evening for a swim", True),
        ("I like to keep a spare charger in my bag.", "keep a spare charger in my bag", True),
        ("When I'm writing I turn off my phone.", "phone when I'm writing", False),
        ("On holiday I always switch work email off.", "work email on holiday", False),
        (
            "When I move house I always hire a van that comes to the door.",
            "hire a van that comes to the door when I move house",
            True,
        ),
    ],
)  # fmt: skip
def test_the_form_is_a_stance_on_its_whole_object(text: str, value: str, polarity: bool) -> None:
    assert (POLICY, value, polarity) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "Thin-crust pizza is my favourite food.",
        "Is thin-crust pizza your favourite?",
        "My brother's favourite is thin-crust pizza.",
        "That is my favourite.",
        "I love thin-crust pizza.",
        "Do you like to keep a spare charger?",
    ],
)
def test_the_look_alikes_state_no_constraint(text: str) -> None:
    assert [c for c in constraints(text) if c[0] is POLICY] == []


def test_a_choice_is_still_cut_before_the_option_it_is_preferred_to() -> None:
    assert not relative_to("tea", " to the coffee here")
    assert relative_to("a van that comes", " to the door")
    assert switched_off("turn on the heating") == ("turn on the heating", True)
    assert switched_off("shut the blinds off") == ("the blinds", False)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Lemon drizzle is my absolute favourite bake.", "Lemon drizzle"),
        ("Night swims are my favourite part of any holiday.", "Night swims"),
        ("Sweet peas are my favourite thing to grow.", "Sweet peas"),
        ("Rowing on the lake is what I enjoy most.", "Rowing on the lake"),
        ("What I love best is a long walk after dinner.", "long walk after dinner"),
    ],
)
def test_a_favourite_of_an_unknown_kind_or_what_is_enjoyed_most(text: str, value: str) -> None:
    assert (FactCategory.POLICY, value, True) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "Rowing on the lake is what I enjoy most.",
        "Sweet peas are my favourite thing to grow.",
    ],
)
def test_enjoyed_most_is_not_a_preference_for_most(text: str) -> None:
    facts = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    assert not [f for f in facts if f.value.lower() in {"most", "best"}]


@pytest.mark.parametrize(
    "text",
    [
        "Pho is my favourite dish.",  # a kind the preference detector reads
        "My son's favourite bake is flapjack.",
        "Is rowing what you enjoy most?",
    ],
)
def test_no_new_top_like(text: str) -> None:
    assert not [c for c in constraints(text) if c[0] is FactCategory.POLICY]
