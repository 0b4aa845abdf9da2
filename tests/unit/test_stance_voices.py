"""Stances in the voices people type in (issue 29): hedged ("I tend to steer clear
of ..."), idioms with the object first ("X isn't really my bag", "X is a hard no from
me", "X is something I won't touch"), requests with no verb ("please, no X"), an
exclusive said by its alternative ("X or nothing"), a modal before "only", what the
speaker does better with, a comma splice after the object, and a message typed in
lower case. The object stays whole. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY, VALUE = FactCategory.POLICY, FactCategory.VALUE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I tend to steer clear of reality shows with voting.", "reality shows with voting"),
        ("I try to avoid chain coffee shops.", "chain coffee shops"),
        (
            "We stay well away from anything with artificial colouring.",
            "anything with artificial colouring",
        ),
        ("I've gone off crime dramas completely.", "crime dramas"),
        (
            "I've no patience for apps that need a login for everything.",
            "apps that need a login for everything",
        ),
        ("I'm not comfortable with video calls.", "video calls"),
    ],
)
def test_a_hedged_or_idiomatic_refusal_is_against_its_whole_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Escape rooms aren't really my bag.", "Escape rooms"),
        ("Jogging's not really my scene.", "Jogging"),
        ("Board games with dice are a hard no from me.", "Board games with dice"),
        ("Scented candles are banned in this flat.", "Scented candles"),
        ("Loud open offices drive me up the wall.", "Loud open offices"),
        ("Energy drinks are something I won't touch.", "Energy drinks"),
    ],
)
def test_an_object_said_first_then_the_refusal(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Please, no spoilers for the finale.", "spoilers for the finale"),
        ("Nothing with raisins please.", "anything with raisins"),
        (
            "The budget is fine, so nothing with a monthly fee please.",
            "anything with a monthly fee",
        ),
    ],
)
def test_a_request_with_no_verb_is_against_what_it_names(text: str, value: str) -> None:
    assert (POLICY, value, False) in constraints(text)


def test_a_request_that_restates_a_diet_adds_nothing() -> None:
    assert constraints("I'm vegetarian, so no meat please.") == [(VALUE, "vegetarian", True)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Fresh pasta or nothing.", (VALUE, "only Fresh pasta", True)),
        ("I'll only fly direct.", (VALUE, "only fly direct", True)),
        ("I'd much prefer board games over cards.", (POLICY, "board games", True)),
        ("I work much better with music on.", (POLICY, "work better with music on", True)),
    ],
)
def test_a_choice_said_another_way(text: str, found: tuple[FactCategory, str, bool]) -> None:
    assert constraints(text) == [found]


def test_a_new_clause_after_a_comma_ends_the_object() -> None:
    assert constraints("I can't stand films with laugh tracks, they feel so fake.") == [
        (POLICY, "films with laugh tracks", False)
    ]


def test_a_message_typed_in_lower_case_is_read_sentence_by_sentence() -> None:
    found = constraints("ok quick one. i cant stand horror films. any ideas for tonight?")
    assert found == [(POLICY, "horror films", False)]


@pytest.mark.parametrize(
    "text",
    [
        "My brother drives me mad.",
        "I'm not doing anything then.",
        "No worries please, it's fine.",
        "Do you think escape rooms are a hard no for kids?",
    ],
)
def test_talk_that_only_sounds_like_these_stances_is_no_constraint(text: str) -> None:
    assert constraints(text) == []


def test_feeling_better_with_someone_is_no_choice() -> None:
    found = constraints("I feel so much better with you around.")
    assert all(category is not POLICY for category, _, _ in found)
