"""Likes and dislikes in plainer voices are stances (issue 29): a like said against its
alternative, what the speaker's body reacts badly to, what spoils a thing for them and
what they will not be near become a ``policy`` constraint for the whole object with the
right polarity; a plain "I love X", a wish, a question and someone else's like or
reaction state none. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.like_forms import like_form
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("I like a glossy finish rather than a satin one.", "glossy finish", True),
        ("We enjoy quiet campsites more than busy ones.", "quiet campsites", True),
        ("I really like hiking over cycling.", "hiking", True),
        ("My stomach reacts badly to raw onion.", "raw onion", False),
        ("I react really badly to strong perfume.", "strong perfume", False),
        ("Laugh tracks ruin a sitcom for me.", "Laugh tracks", False),
        ("Loud music spoils any dinner for us.", "Loud music", False),
        ("I don't want to be anywhere near a motorway.", "motorway", False),
        ("We don't want to live next to a busy road.", "busy road", False),
        ("Cheesy thrillers are my guilty pleasure.", "Cheesy thrillers", True),
    ],
)  # fmt: skip
def test_a_plainer_like_or_dislike_is_a_stance_on_its_whole_object(
    text: str, value: str, polarity: bool
) -> None:
    assert (POLICY, value, polarity) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "I love a good thunderstorm.",
        "I like to swim before work.",
        "I'd like tea rather than coffee.",
        "Do you like tea more than coffee?",
        "I like you more than him.",
        "My son likes trains more than cars.",
        "My son reacts badly to penicillin.",
        "That ruins it for me.",
        "My favourite colour is teal.",
    ],
)
def test_the_look_alikes_state_no_constraint(text: str) -> None:
    assert constraints(text) == []


def test_the_alternative_is_kept_for_the_caller_to_cut() -> None:
    assert like_form("I like a window seat rather than an aisle one") == (
        "a window seat rather than an aisle one",
        True,
    )
    assert like_form("My skin reacts badly to wool") == ("wool", False)
    assert like_form("I love a good thunderstorm") is None
