"""Sentences that do not mean what they say give no fact (issue 32, item 5): sarcasm, a
claim taken back in the same sentence or by the next one, a question asked inside a
statement, a wish or daydream without "I wish", others' words about the speaker, "not
that ...", exaggeration, and a joke partner named with laughter. Each beside a real
statement in the same words that must still give its fact. The sentences are new, not
from any probe set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.earnest import is_unmeant, takes_back
from tests.unit.test_figures_of_speech import assert_reads, read


@pytest.mark.parametrize(
    "text",
    [
        # sarcasm, by its markers
        "I'm a huge fan of paying rent /s",
        "I'm allergic to sunshine, said no one ever.",
        "Yeah right, like I'm a vegan.",
        "Oh joy, I'm moving to Fresno.",
        "Sure, because I'm a vegan.",
        "Because obviously I work at Tesla.",
        "Cause, of course, I live in a palace.",
        # a claim taken back in the same sentence
        "I'm a retired astronaut, not really.",
        "I live in Malibu (not really).",
        "I'm a dentist, j/k.",
        # a question inside a statement
        "Trying to work out whether I'm gluten intolerant.",
        "Still figuring out if I'm lactose intolerant.",
        "Can't decide if I'm moving to Reno.",
        "I'm debating if I'm moving to Reno.",
        "Wondering aloud if I'm anemic.",
        # a wish or a daydream
        "Wishing I lived in Lisbon.",
        "My dream would be to live in Paris.",
        # others' words about the speaker
        "My grandson tells everyone I'm a pilot.",
        "My coworkers keep telling the new hires I'm vegan.",
        "My neighbor seems to believe I own a boat.",
        # a denial said as "not that", exaggeration
        "Not that I'm allergic to cats or anything.",
        "I've been vegan since the dawn of time.",
        "My entire life is soccer practice these days.",
    ],
)
def test_a_sentence_that_does_not_mean_it_gives_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm not kidding, I'm allergic to shellfish.", ("policy", "allergy", "shellfish")),
        ("No joking, I'm a paramedic.", ("occupation", "job", "paramedic")),
        ("Not sure if I mentioned it, but I'm a paramedic.", ("occupation", "job", "paramedic")),
        ("I don't know if you remember, but I'm vegan.", ("value", "diet", "vegan")),
        ("Yeah, like I said, I live in Tucson.", ("location", "city", "Tucson")),
        ("Obviously I'm vegan, so no meat please.", ("value", "diet", "vegan")),
        ("Because I live in Denver, I need snow tires.", ("location", "city", "Denver")),
        ("I swim every morning, whether it rains or not.", ("preference", None, "swim")),
        ("I've always liked Patagonia, working there would be cool.", ("preference", None, "")),
        ("I told my boss I'm a vegetarian.", ("value", "diet", "vegetarian")),
        ("I moved to Tucson in March lol.", ("location", "city", "Tucson")),
        ("I'm married to Priya, haha.", ("relationship", None, "Priya")),
        ("I'm a paramedic. Not joking.", ("occupation", "job", "paramedic")),
    ],
)
def test_the_same_words_meant_still_give_their_fact(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    assert_reads(text, expected)


@pytest.mark.parametrize(
    "text",
    [
        "I'm moving to Fresno. Kidding!",
        "I adopted three goats. Just kidding.",
        "I'm 21. Ha, I wish.",
        "I'm a vegan now. Not.",
        "I got a job at NASA. jk",
        "I'm a licensed pilot. I'm joking, of course.",
    ],
)
def test_a_sentence_that_only_takes_back_the_one_before_it_drops_its_facts(text: str) -> None:
    assert read(text) == []


def test_a_later_sentence_is_read_after_a_claim_taken_back() -> None:
    facts = read("I'm moving to Fresno. Kidding! I live in Tucson.")
    assert [(c, v) for c, _, v in facts] == [("location", "Tucson")]


def test_a_take_back_says_nothing_else() -> None:
    assert takes_back("Kidding!")
    assert takes_back("ha, I wish.")
    assert not takes_back("Not joking.")
    assert not takes_back("I wish I could come.")
    assert not takes_back("Not today, I'm busy.")


def test_not_really_after_a_denial_only_says_it_again() -> None:
    assert is_unmeant("I'm a marathon runner, not really.")
    assert not is_unmeant("I don't like horror films, not really.")


@pytest.mark.parametrize(
    "text",
    [
        "I'm allergic to accountability.",  # an act, a trait, a talk, a group, a time
        "I'm allergic to gossip.",
        "I'm allergic to politics.",
        # a role among one's own said as a job
        "I'm the self-appointed photographer of my friend group.",
        "I'm the honorary chef of our house.",
        "I'm a full-time tutor for my kids.",
        "I'm the designated photographer of our household.",
        "I'm a personal chef for my husband, haha.",
    ],
)
def test_a_joke_allergy_or_a_role_at_home_gives_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm allergic to perfume.", ("policy", "allergy", "perfume")),
        ("I'm allergic to wasp stings.", ("policy", "allergy", "wasp stings")),
        ("I'm allergic to ibuprofen.", ("policy", "allergy", "ibuprofen")),
        ("I'm a tutor for a test-prep company.", ("occupation", "job", "tutor")),
        ("I'm the bookkeeper for my family's restaurant.", ("occupation", "job", "bookkeeper")),
        ("I'm an unpaid volunteer coordinator at a shelter.", ("occupation", "job", "volunteer")),
    ],
)
def test_a_real_allergy_or_job_in_the_same_words_is_read(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    assert_reads(text, expected)
