"""Aversions and exclusives in the wider wording of issue 29, item 1: an aversion had or
been ("I have a strong aversion to X", "I'm averse to X", "I refrain from X", "I'm
deeply uncomfortable with X", "I'm not willing to X"), the object said first ("X don't
appeal to me", "X is a turn-off for me", "X tends to overwhelm me", "X is something
I'm not willing to do"), a judgement "I find X intimidating", and "nothing but" said
with the speaker's verb; and what is none: "only" of a time or an amount, a verb of the
past or of the mind before "nothing but", unease about one event, someone else as the
thing said first. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY
VALUE = FactCategory.VALUE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I have a strong aversion to open-plan restaurants.", "open-plan restaurants"),
        ("I have a real dislike of scented bin bags.", "scented bin bags"),
        ("I'm averse to gadgets that need an account.", "gadgets that need an account"),
        ("I refrain from buying anything on credit.", "buying anything on credit"),
        ("I'm deeply uncomfortable with lending money.", "lending money"),
        ("I'm not willing to fly overnight with the kids.", "fly overnight with the kids"),
        ("I find indoor climbing walls intimidating.", "indoor climbing walls"),
    ],
)
def test_an_aversion_had_or_been_is_against_its_whole_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Themed escape rooms don't appeal to me.", "Themed escape rooms"),
        ("Matching family outfits are a big turn-off for me.", "Matching family outfits"),
        ("Busy food markets tend to overwhelm me.", "Busy food markets"),
        ("Night shifts are something I'm not willing to do.", "Night shifts"),
    ],
)
def test_an_aversion_said_of_the_object_first_is_against_it(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I drink nothing but rooibos after six.", "only drink rooibos after six"),
        (
            "We feed the chickens nothing but kitchen scraps.",
            "only feed the chickens kitchen scraps",
        ),
    ],
)
def test_nothing_but_with_the_speakers_verb_is_only_that(text: str, value: str) -> None:
    assert constraints(text) == [(VALUE, value, True)]


@pytest.mark.parametrize(
    "text",
    [
        "I only just got back from the gym.",
        "I only have five minutes before my bus.",
        "I did nothing but sleep on Sunday.",
        "I feel nothing but relief.",
        "I'm uncomfortable with how the interview went.",
        "My landlord doesn't appeal to me.",
    ],
)
def test_a_time_an_event_or_a_person_is_no_constraint(text: str) -> None:
    assert constraints(text) == []
