"""A refusal or dislike said in the moment is no standing constraint (issue 29: no
false constraint): its clause names the present occasion ("right now", "tonight") or its
object is the present instance ("answer that", "drive in this sleet"). The same verbs
with a kind of thing as the object stay constraints. The sentences are new, not from
``constraint_moments.jsonl`` or any other set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.passing import in_the_moment, present_occasion
from tests.unit.test_passing_stances import standing as constraints


@pytest.mark.parametrize(
    "text",
    [
        "I refuse to repeat that.",
        "I'm not willing to drive in this sleet.",
        "I refrain from replying to that.",
        "I won't wear this jacket.",
        "I refuse to sign that form.",
        "I'd rather not bake right now.",
        "I hate this printer right now.",
        "I can't stand this printer right now.",
        "I don't want to bake right now.",
        "I'm not willing to sit through more of this.",
    ],
)
def test_a_stance_in_the_moment_is_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I refuse to repeat gossip.", "gossip"),
        ("I'm not willing to drive in sleet.", "drive in sleet"),
        ("I refrain from replying to angry emails.", "angry emails"),
        ("I won't wear wool jackets.", "wool jackets"),
        ("I never read this kind of magazine.", "this kind of magazine"),
        ("I avoid shops that play loud music.", "shops that play loud music"),
        ("I avoid sugar these days.", "sugar"),
        # a state is of the present by nature: its time does not make it a moment's
        ("I sprained my wrist this morning.", "sprained my wrist"),
        ("I have a sore throat today.", "sore throat"),
    ],
)
def test_the_same_verbs_with_a_kind_of_thing_stay_a_constraint(text: str, value: str) -> None:
    assert any(value in v for v in constraints(text)), constraints(text)


def test_the_object_and_the_clause_are_read_for_the_moment() -> None:
    assert in_the_moment("I won't eat this", "eat this")
    assert in_the_moment("I refrain from commenting on that", "commenting on that")
    assert in_the_moment("I refuse to take that train", "take that train")
    assert not in_the_moment("I avoid anything with garlic in it", "anything with garlic in it")
    assert not in_the_moment("I hate shops that play loud music", "shops that play loud music")
    assert not in_the_moment("I never watch this kind of film", "this kind of film")
    # a pointer said with "again" or "anymore" turns down every repeat of it
    assert not in_the_moment("I'd rather not do that again", "do that")
    assert not in_the_moment("I'm not willing to do this anymore", "do this")
    # but a time naming the present occasion still makes it one
    assert in_the_moment("I'm not going to sit through this layover again today", "sit through")
    # the object half a stance reader asks before reading a stance: an occasion at its end
    assert present_occasion("doing anything then")
    assert present_occasion("anything tonight")
    assert not present_occasion("do that")
    assert in_the_moment("I refuse to repeat that", "I refuse to repeat that")
    assert in_the_moment("I don't want to cook tonight", "cook")
    assert not in_the_moment("From today I don't eat meat", "eat meat")


# the sentences below are new, not from ``constraint_moments_round2.jsonl`` or any other set
@pytest.mark.parametrize(
    "text",
    [
        # a time dated from today, a week or shorter, or wholly ahead
        "I'm not having pudding at the christening next Sunday.",
        "I won't drive to the match next Saturday.",
        "We're not eating out next weekend.",
        "I won't go near the high street this week.",
        "We're not redecorating the hall next month.",
        # a day that comes round again, said of a plan
        "I'm not driving to the match on Saturday.",
        "I'm not wearing a tie to the gala on the 12th.",
        # a demonstrative naming one piece of talk or one event after a preposition
        "I'd rather not mention money in this email.",
        "I'd rather not use jargon in this summary.",
        # a wish of the moment, turned down
        "I don't feel like pasta.",
        "I don't feel like watching a film.",
    ],
)
def test_a_stance_for_one_date_or_one_instance_is_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a time that comes round again, in the simple present: a habit
        ("I don't go to the market on Saturdays.", "market"),
        ("I never fly at Christmas.", "fly"),
        # a period now that the stance holds through, a span, a start
        ("I'm not doing any long-haul trips this year.", "long-haul trips"),
        ("I'm not drinking for the next two weeks.", "drinking"),
        ("From next week I'm not eating sugar.", "eating sugar"),
        # a past event the weekday may date, a repeat
        ("I won't eat mussels after what happened on Saturday.", "mussels"),
        ("I'm not eating prawns again after Friday's dinner.", "prawns"),
        # a place after a demonstrative, a kind of talk, a standing dislike of a wish
        ("I won't work weekends in this job.", "work weekends"),
        ("I avoid podcasts that interview celebrities.", "podcasts that interview celebrities"),
        ("I'm never in the mood for karaoke.", "karaoke"),
        # a goal's time is when it is to be reached; a progressive state keeps its time
        ("We're putting money aside for a sailing course next year.", "sailing course"),
        ("I'm taking antibiotics right now.", "antibiotics"),
    ],
)
def test_a_time_or_a_pointer_that_does_not_name_one_occasion_keeps_the_constraint(
    text: str, value: str
) -> None:
    assert any(value in v.lower() for v in constraints(text)), constraints(text)


def test_times_are_read_against_a_reference() -> None:
    from datetime import UTC, datetime

    from cognimem.text.temporal import find_times

    when = datetime(2024, 3, 6, 12, tzinfo=UTC)
    clause = "I'm not eating meat next week"
    times = find_times(clause, when)
    assert in_the_moment(clause, "eating meat", times=times, reference=when)
    clause = "I'm not eating meat this year"
    times = find_times(clause, when)
    assert not in_the_moment(clause, "eating meat", times=times, reference=when)
    with pytest.raises(ValueError, match="reference"):
        in_the_moment(clause, "eating meat", times=times)


# the sentences below are new, not from ``constraint_moments_round3.jsonl`` or any other set
@pytest.mark.parametrize(
    "text",
    [
        # a request about this reply, ended by a courtesy
        "No bullet points in this summary please.",
        # a demonstrative naming a lot or an amount in front of the speaker
        "No ketchup on this lot of chips.",
        "I'd rather not iron this pile of shirts.",
        # a quality of one pointed thing: a reaction to what is seen
        "I don't like the size of that kitchen table.",
        # an object that is one past event
        "I hate how the cake turned out.",
        "I hate the way that meeting ended.",
        # the speaker too much of something for one occasion
        "I'm far too tired to cook right now.",
        # a passing state for part of one day
        "I'm exhausted this evening.",
        "I'm so sore this morning.",
        # a plan for one date, in the progressive
        "I'm skipping the staff party this week.",
    ],
)
def test_a_reaction_a_passing_state_or_a_plan_is_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a kind after "this", a place, not a lot of something
        ("No shoes in this flat.", "no shoes"),
        # a quality of a kind of thing, not of one pointed thing
        ("I don't like the taste of coriander.", "coriander"),
        # "how" and a verb in the present: how things are, not one event
        ("I hate how loud open-plan offices are.", "open-plan offices"),
        # too much of something for good, not for an occasion
        ("I'm too old for night clubs these days.", "too old"),
        # a state of having, and one of being over days
        ("I have a stiff neck this morning.", "stiff neck"),
        ("I'm on antibiotics this week.", "antibiotics"),
        # a plan over no date, and a progressive with no object
        ("I'm cutting out sugar.", "sugar"),
        ("I'm fasting right now.", "fasting"),
    ],
)
def test_the_same_shapes_on_a_kind_or_a_lasting_state_keep_the_constraint(
    text: str, value: str
) -> None:
    assert any(value in v.lower() for v in constraints(text)), constraints(text)
