"""More voices of a stance (issue 29, sixth stop): a refusal said as what the speaker is
trying to do, what they ask to be left out, what they always take when it is offered,
a food rule kept until a meal, and a habit said with "get up" under its condition.
Each keeps its whole object and polarity; the look-alikes state none. Sentences
written for these tests."""

from __future__ import annotations

import pytest

from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm trying to cut down on takeaways.", "takeaways"),
        ("I'm trying really hard to cut back on sugar, so keep it healthy.", "sugar"),
    ],
)
def test_a_refusal_said_as_what_the_speaker_is_trying_to_do(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


def test_a_rule_kept_until_a_meal_keeps_the_meal() -> None:
    assert constraints("I never have sugar after dinner.") == [
        (POLICY, "no sugar after dinner", True)
    ]
    assert constraints("I never drink tea after lunch.") == [(POLICY, "no tea after lunch", True)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I always ask them to leave out the onions.", "onions"),
        ("We usually ask for no ice.", "ice"),
        ("When we order pizza I ask them to hold the olives.", "olives when we order pizza"),
    ],
)
def test_what_the_speaker_asks_to_be_left_out_is_against_it(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


def test_what_the_speaker_always_takes_when_offered_is_for_it() -> None:
    said = "Heights scare me, so if there's a ground-floor room I'll always take that."
    assert (POLICY, "ground-floor room", True) in constraints(said)


def test_a_habit_said_with_get_and_a_particle_is_a_rule_under_its_condition() -> None:
    assert constraints("When the kids wake early I get up and make pancakes.") == [
        (POLICY, "get up and make pancakes when the kids wake early", True)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "When you explain it slowly I get it.",
        "If there's any cake left I'll take it.",
        "I asked them to leave out the onions.",
        "I'm trying to figure out what to say.",
    ],
)
def test_the_look_alikes_state_no_constraint(text: str) -> None:
    assert constraints(text) == []
