"""A strong like is a choice for it (issue 29): "I adore X", "I really enjoy X", "I'm a
big fan of X", "I'm a sucker for X", "X is my thing" become a ``policy`` constraint for
the whole object, beside the preference the preference detector reads; the look-alikes
(a wish, what is loved of the conversation, of the listener or of the speaker's own, a
person, a like of the past or of one occasion, a plain "like", "love" or "enjoy") state
no constraint. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract import ExtractionInput
from cognimem.ingest.extract.phrases import join_adjectives
from cognimem.ingest.extract.strong_likes import liked_object, strong_like
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import EXTRACTOR, WHEN, constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I adore Georgian food.", "Georgian food"),
        ("I absolutely love old lighthouses, the windier the better.", "old lighthouses"),
        ("I'm a big fan of small independent bookshops.", "small independent bookshops"),
        ("I'm a total sucker for anything with a plot twist in it.",
         "anything with a plot twist in it"),
        ("I can't get enough of sea swimming.", "sea swimming"),
        ("I'm mad about eighties synth pop.", "eighties synth pop"),
        ("I'm really into bouldering, it's the only sport I stick with.", "bouldering"),
        ("We're obsessed with board games that take all evening.",
         "board games that take all evening"),
        ("I'm a huge Formula One fan.", "Formula One"),
        ("Restoring old radios is my thing.", "Restoring old radios"),
        ("Sourdough is totally my weakness.", "Sourdough"),
        ("Birdwatching is my favourite pastime.", "Birdwatching"),
        ("My favorite thing to do on Sundays is baking bread.", "baking bread"),
        ("I love love love rainy walks.", "rainy walks"),
        ("I've always loved lighthouses.", "lighthouses"),
        ("I really love slow cooking, stews and roasts.", "slow cooking, stews and roasts"),
        ("I really love a cold lager, the colder the better.", "cold lager"),
        ("I really enjoy sketching old churches in pencil.", "sketching old churches in pencil"),
        ("We truly like quiet campsites by a lake.", "quiet campsites by a lake"),
    ],
)  # fmt: skip
def test_a_strong_like_is_a_choice_for_its_whole_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, True)]


def test_the_preference_is_still_read_beside_it() -> None:
    facts = EXTRACTOR.extract_one(ExtractionInput(text="I adore Thai food.", occurred_at=WHEN))
    read = {(f.category, f.predicate, f.value) for f in facts.facts}
    assert read == {(POLICY, "food", "Thai food"), (FactCategory.PREFERENCE, "cuisine", "Thai")}


@pytest.mark.parametrize(
    "text",
    [
        "I love that!",
        "I love it when it rains.",
        "I love how you explained it.",
        "I adore your new haircut.",
        "I love my job.",
        "I love Sarah.",
        "I would love a cup of tea.",
        "I used to love horror movies.",
        "I like Thai food.",
        "I love Thai food.",
        "I enjoy long walks.",
        "I really enjoyed the boat trip yesterday.",
        "I really like your idea.",
        "I'd love a glass of water.",
        "My aunt really enjoys canal boats.",
        "I'm a big fan of your work.",
        "It is my thing to worry.",
        "My favourite colour is teal.",
        "I'm so mad about the parking fine.",
        "I'm mad about missing the last train.",
        "My brother is really into cars.",
    ],
)
def test_the_look_alikes_state_no_constraint(text: str) -> None:
    assert constraints(text) == []


def test_a_wish_is_a_goal_not_a_choice() -> None:
    assert [c for c, _, _ in constraints("I'd love to visit Lisbon someday.")] == [
        FactCategory.GOAL
    ]


def test_the_object_ends_at_a_new_clause_but_keeps_a_list() -> None:
    assert strong_like("I adore Ethiopian food, injera is heaven") == "Ethiopian food"
    assert strong_like("I'm passionate about salsa and it keeps me going") == "salsa"
    assert strong_like("I really love Thai, Indian or Mexican food") == (
        "Thai, Indian or Mexican food"
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("dense, sticky ginger cake with cream", "dense sticky ginger cake with cream"),
        ("quiet, remote beaches", "quiet remote beaches"),
        ("jazz, the louder the better", "jazz, the louder the better"),
        ("herbs, especially mint", "herbs, especially mint"),
        ("tea, coffee and cake", "tea, coffee and cake"),
        ("pizza, obviously", "pizza, obviously"),
        ("Patagonia, working there would be cool", "Patagonia, working there would be cool"),
        ("surfing, it keeps me sane", "surfing, it keeps me sane"),
    ],
)
def test_adjectives_before_their_noun_are_joined(text: str, value: str) -> None:
    assert join_adjectives(text) == value


def test_a_liked_object_keeps_adjectives_split_by_a_comma() -> None:
    assert liked_object("quiet, remote beaches with no crowds") == (
        "quiet, remote beaches with no crowds"
    )
    assert liked_object("jazz, the louder the better") == "jazz"
