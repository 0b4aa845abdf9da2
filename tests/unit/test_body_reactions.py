"""What the speaker's body reacts to is a stance against it (issue 29 item 1): a thing
that hurts a part of the body or a symptom got from it becomes a ``policy`` constraint
against the thing; an injury of the moment, a past occasion, someone else's reaction, a
question and a thing that gives a symptom (a causal fact of its own) state none.
Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.body_reactions import body_reaction
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Carrying a heavy rucksack really hurts my shoulders.", "Carrying a heavy rucksack"),
        ("Bright screens at night strain my eyes.", "Bright screens at night"),
        ("Loud bars set off my tinnitus.", "Loud bars"),
        ("Steep stairs hurt my knees.", "Steep stairs"),
        ("I get carsick on ferries.", "ferries"),
        ("I break out in hives from nickel earrings.", "nickel earrings"),
        ("I get dizzy above ten thousand feet.", "above ten thousand feet"),
    ],
)
def test_a_body_reaction_is_a_stance_against_its_trigger(text: str, value: str) -> None:
    assert (POLICY, value, False) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "Walking still hurts my hip.",
        "The hike hurt my knees.",
        "It hurts my back.",
        "Dinner gave me heartburn.",
        "My son gets carsick on ferries.",
        "It gives me a headache.",
        "Does coffee give you headaches?",
        "If a steep climb hurts my knees, I'll stop.",
        "Cheap wine gives me a headache.",  # a causal fact, read by detect_constraints
    ],
)
def test_no_body_reaction(text: str) -> None:
    assert body_reaction(text) is None
    assert not [c for c in constraints(text) if c[0] is POLICY and not c[2]]
