"""One-offs said in the words of a stance give no constraint (issue 29: no false
constraint): a bad feeling of one occasion or of one event, a choice among the options
offered now, an excuse for one event, a made thing broken. Standing statements of the
same wording stay constraints. The sentences are new, not from
``constraint_moments_round4.jsonl`` or any other set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.one_off_forms import (
    choice_offered_now,
    excused_event,
    feeling_of_one_event,
    feeling_of_the_day,
)
from tests.unit.test_passing_stances import standing as constraints


@pytest.mark.parametrize(
    "text",
    [
        # a bad feeling as the reason of a stance for one occasion
        "I'd rather not go out tonight, I'm exhausted.",
        # a bad feeling with a reason in the past
        "I'm in a bad mood because my train was cancelled.",
        "I'm stressed because the builder cancelled on us.",
        # a made thing broken is no injury (WordNet's first sense of the object)
        "I'm upset because I broke my favourite vase.",
        "I broke my laptop last week.",
        # a choice among the options offered now
        "I'd rather the morning appointment.",
        "I'd rather the blue kettle out of those two.",
        # an excuse for one event
        "I can't come to the party because I'm working.",
        "I won't make the meeting, my car broke down.",
        "I can't do the quiz night since I'm away.",
    ],
)
def test_a_one_off_in_the_words_of_a_stance_is_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm scared of dogs because one bit me.", "dogs"),
        ("I'd rather not take night buses.", "night buses"),
        ("I can't climb stairs because of my knee.", "climb stairs"),
        ("I can't eat wheat because I'm coeliac.", "wheat"),
        ("I can't do the stairs since I'm on crutches.", "stairs"),
        ("I have a sore throat today.", "sore throat"),
        ("I'm so stressed right now.", "stressed"),  # a feeling of its own time
        ("I broke my wrist last month.", "broke my wrist"),
    ],
)
def test_the_same_wording_with_a_standing_stance_stays_a_constraint(text: str, value: str) -> None:
    assert any(value in v for v in constraints(text)), constraints(text)


def test_a_feeling_is_bad_by_vader_or_a_mood_by_wordnet() -> None:
    assert feeling_of_the_day("I'm miserable today")
    assert feeling_of_the_day("I'm in a foul mood tonight")
    assert not feeling_of_the_day("I'm vegetarian")  # VADER rates no trait
    assert not feeling_of_the_day("I'm happy today")  # nothing to keep from, nothing kept
    assert not feeling_of_the_day("I'm scared of spiders")  # a feeling with an object


def test_a_feeling_of_one_event_has_its_reason_in_the_past() -> None:
    assert feeling_of_one_event("I'm upset because the cake collapsed")
    assert not feeling_of_one_event("I'm anxious because I have a phobia")
    assert not feeling_of_one_event("I'm scared of dogs because one bit me")


def test_a_choice_offered_now_is_one_singular_thing() -> None:
    assert choice_offered_now("I'd rather the window table")
    assert not choice_offered_now("I'd rather the early sessions")  # a plural is a kind
    assert not choice_offered_now("I'd rather the kids stayed home")  # a clause
    assert not choice_offered_now("I'd rather not take the bus")


def test_an_excuse_is_the_refusal_not_its_reason() -> None:
    sentence = "I can't make the recital, my daughter is sick."
    assert excused_event("I can't make the recital", sentence)
    assert not excused_event("my daughter is sick", sentence)
    assert not excused_event(
        "I can't sleep on the ground", "I can't sleep on the ground because of my back."
    )
    assert not excused_event("I can't eat the cake", "I can't eat the cake because I'm diabetic.")
