"""A plain love is a choice when its grammar makes it a standard (issue 29): a love of
a specified object ("I love X with Y", "I love X that ...", "I love X, the Y-er the
better") or a love under a condition ("When I travel I love X") becomes a ``policy``
constraint for the whole object; a love of a bare object ("I love pasta") stays a
preference only, and the look-alikes (a wish, the conversation, the listener, the
speaker's own, someone else's love, a love of the past) state no constraint. Sentences
written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.specified_likes import specified_love
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I love ferries with a cabin to sleep in.", "ferries with a cabin to sleep in"),
        ("I love cheeses that smell strong.", "cheeses that smell strong"),
        ("I love sketching boats in the harbour.", "sketching boats in the harbour"),
        ("I love walking my dog along the beach.", "walking my dog along the beach"),
        ("We love picnics by the river.", "picnics by the river"),
        ("I love a cold lemonade, the sourer the better.", "cold lemonade"),
        ("I love a strong cheddar, the more mature the better.", "strong cheddar"),
        ("I love to bake bread at weekends.", "bake bread at weekends"),
        ("I love answering letters the moment they come.",
         "answering letters the moment they come"),
        ("I love a hot chocolate when it snows.", "hot chocolate when it snows"),
    ],
)  # fmt: skip
def test_a_love_of_a_specified_object_is_a_choice(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, True)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("When I travel I love exploring old churches.",
         "exploring old churches when I travel"),
        ("On Saturdays I love a long lie-in.", "long lie-in on Saturdays"),
        ("If it's windy I love flying kites.", "flying kites if it's windy"),
    ],
)  # fmt: skip
def test_a_love_under_a_condition_is_a_rule(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, True)]


@pytest.mark.parametrize(
    "text",
    [
        "I love pasta.",
        "I love going to the gym.",
        "I love old churches.",
        "I love the way you explain things.",
        "I love the idea of a picnic by the river.",
        "I love how the sea looks in winter.",
        "I love it when the trains run on time.",
        "I love my flat in the city.",
        "I love your photos of the harbour.",
        "My sister loves ferries with a cabin.",
        "I loved the picnic by the river yesterday.",
        "I'd love a coffee with oat milk, thanks.",
        "Do you love picnics by the river?",
        "If I had a boat I'd love sailing.",
        "If I had a boat I love sailing.",
    ],
)
def test_a_bare_love_and_the_look_alikes_state_no_constraint(text: str) -> None:
    assert constraints(text) == []


def test_the_object_is_cut_before_a_new_clause() -> None:
    assert specified_love("I love beaches with no one on them, it's so calm") == (
        "beaches with no one on them"
    )
    assert specified_love("I love pasta, it's so easy") is None


@pytest.mark.parametrize(
    "text",
    [
        "I love driving to that lake.",
        "I love the path to the river.",
        "I love Georgian food as well.",
    ],
)
def test_a_determiner_or_a_verb_complement_is_no_post_modifier(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("When I camp I like to sleep in a hammock.", "sleep in a hammock when I camp"),
        ("After a swim I enjoy a hot shower.", "hot shower after a swim"),
        ("If it's foggy I like walking on the beach.", "walking on the beach if it's foggy"),
    ],
)  # fmt: skip
def test_a_plain_like_or_enjoy_under_a_condition_is_a_rule(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, True)]


@pytest.mark.parametrize(
    "text",
    [
        "I like walking on the beach.",
        "I enjoy hot showers with lots of steam.",
        "When I was a boy I liked fishing.",
        "When we arrive I'd like a hot shower.",
        "If I had a tent I'd like to camp more.",
        "My cousin likes to sleep in a hammock when he camps.",
    ],
)
def test_a_plain_like_with_no_condition_or_of_the_past_is_no_rule(text: str) -> None:
    assert constraints(text) == []
