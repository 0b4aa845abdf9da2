"""Verdicts a speaker owns by an idiom (issue 29, item 1): "X is the most tedious job
there is", "X are the highlight of my week", "X is something I'll never get used to", "X
is a crime as far as I'm concerned", "X make me gag", "X give me a rash, so they're
out", "I love X because ..." become a constraint with its polarity and whole object; a
one-off, someone else's clause, a person or a question gives none. Sentences written for
these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.owned_verdicts import owned_verdict
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        (
            "Defrosting the freezer is the most tedious job there is.",
            "Defrosting the freezer",
            False,
        ),
        ("Motorway tolls are the most pointless expense ever for me.", "Motorway tolls", False),
        (
            "Slow cooked stews are the highlight of my winter.",
            "Slow cooked stews",
            True,
        ),
        (
            "Wet football pitches are something I'll never get used to.",
            "Wet football pitches",
            False,
        ),
        ("Cheap perfume is a smell I've never been able to stand.", "Cheap perfume", False),
        ("Salted caramel desserts are the kind I enjoy most.", "Salted caramel desserts", True),
        ("Handwritten lists are the only way I can keep calm.", "Handwritten lists", True),
        ("Boxed wine is a crime as far as I'm concerned.", "Boxed wine", False),
        ("Stiff collars are a form of torture in my book.", "Stiff collars", False),
        ("Oily fish skins make me gag.", "Oily fish skins", False),
        ("Wool jumpers give me a rash, so they're out.", "Wool jumpers", False),
        ("I love crossword puzzles because they slow my mind down.", "crossword puzzles", True),
    ],
)
def test_an_owned_verdict_is_a_stance(text: str, value: str, polarity: bool) -> None:
    assert (POLICY, value, polarity) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "That gig was the highlight of my week.",  # a one-off, in the past
        "This meeting is the most tedious job there is.",
        "Cold showers are something my brother swears by.",  # someone else's clause
        "Swimming is a sport I tried last year.",  # no stance in the clause
        "Paris is the best city.",  # a bare superlative, owned by no tail
        "Is boxed wine a crime as far as you're concerned?",  # a question
        "My sister is the highlight of my week.",  # a person
        "I love it because it is quiet.",  # no thing
        "Sharing a meal is the best thing ever.",  # praise, no choice
    ],
)
def test_a_one_off_another_voice_or_no_stance_is_none(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dentist visits are the least awful chore there is", ("Dentist visits", True)),
        ("Slapstick films make me laugh", ("Slapstick films", True)),  # VADER: for
        ("Group chats are the worst part of my day", ("Group chats", False)),
        ("Garden parties are a thing I look forward to", ("Garden parties", True)),
        ("Garden parties are a thing we planned", None),
        ("Red's my colour, it makes me feel calm", None),  # a second clause in the subject
    ],
)
def test_the_reader_tells_form_and_polarity(text: str, expected: tuple[str, bool] | None) -> None:
    assert owned_verdict(text) == expected
