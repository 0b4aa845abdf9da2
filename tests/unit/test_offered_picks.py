"""A stance said of an option offered now gives no standing constraint (issue 29: no
false constraint): a pick with a modal of this reply, a pointer at one offered thing, a
reply that turns down one definite part of an offer, an excuse for one date. Standing
statements in the same words stay constraints. The sentences are new, not from
``constraint_moments_round5.jsonl`` or any other set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.offered_picks import (
    pick_of_an_offer,
    points_at_an_offer,
    turns_down_part_of_an_offer,
)
from cognimem.ingest.extract.one_off_forms import excused_event
from tests.unit.test_passing_stances import standing as constraints


@pytest.mark.parametrize(
    "text",
    [
        # a pick with a modal of this reply
        "I'd go for the walnut desk.",
        "I'll take the corner table, thanks.",
        "We'd go with the later ferry.",
        "I'd choose the evening class.",
        # a pointer at one offered thing
        "I prefer the second one.",
        "I'm not keen on the third option.",
        "I liked the playlist you sent.",
        "Honestly I don't like that one.",
        # a reply that turns down one definite part of an offer
        "Sounds good, but I don't want the window seat.",
        "Okay, but I'd skip the boat tour.",
        # an excuse for one date, or with one engagement
        "I can't swim on Friday because I'm away.",
        "I can't join the book club because I have an exam.",
    ],
)
def test_a_stance_on_an_offered_option_is_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I always go for window seats.", "window seats"),
        ("I'd go for vegetarian dishes.", "vegetarian dishes"),  # a kind, no article
        ("I'd never take the night bus.", "night bus"),  # a negation is a stance
        ("I'd take the train over the plane any day.", "train"),  # a ranking of kinds
        ("I never order that one.", "that one"),  # how often
        ("I take the earlier train because the later one is packed.", "earlier train"),
        ("Sounds good, but I don't eat anything with sesame.", "sesame"),  # a kind
        ("Fine, but I avoid the motorways.", "motorways"),  # a plural is a kind
        ("I can't work on Sundays because I'm at church.", "work on Sundays"),  # a habit
        ("I can't eat the cake because I have a gluten allergy.", "gluten"),  # a trait
    ],
)
def test_the_same_wording_with_a_standing_stance_stays_a_constraint(text: str, value: str) -> None:
    assert any(value in v for v in constraints(text)), constraints(text)


def test_a_pick_is_a_definite_thing_with_a_modal_of_this_reply() -> None:
    assert pick_of_an_offer("I'd go for the blue kettle")
    assert pick_of_an_offer("Let's do the half-past two one")
    assert not pick_of_an_offer("I always go for the blue kettle")
    assert not pick_of_an_offer("I'd go for blue kettles")
    assert not pick_of_an_offer("I'd love to learn the cello")  # a wish, not a pick


def test_the_pointer_must_be_in_the_stance_object() -> None:
    clause = "I take the earlier train because the later one is packed"
    assert not points_at_an_offer(clause, clause)
    assert points_at_an_offer("I'm not sure about that one", "not sure about that one")
    assert not points_at_an_offer("I'd never pick that one again", "pick that one again")


def test_a_thing_the_assistant_gave_is_named_right_before() -> None:
    assert points_at_an_offer("I liked the quiz you made", "liked the quiz you made")
    said = "Cutting back like you mentioned helps me sleep"
    assert not points_at_an_offer(said, said)  # an aside, not a thing given
    said = "Knowing you've got time for me helps"
    assert not points_at_an_offer(said, said)  # a having


def test_a_reply_turns_down_one_definite_part() -> None:
    assert turns_down_part_of_an_offer("Great, but not the museum.", "museum")
    assert not turns_down_part_of_an_offer("I love it, but not the museum.", "museum")
    assert not turns_down_part_of_an_offer("Awful, but not the museum.", "museum")


def test_an_excuse_for_one_date_is_the_refusal() -> None:
    sentence = "I can't run tomorrow because I'm working."
    assert excused_event("I can't run tomorrow", sentence)
    assert not excused_event(
        "I can't run on Mondays", "I can't run on Mondays because I'm working."
    )
