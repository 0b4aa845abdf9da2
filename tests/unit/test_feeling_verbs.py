"""Stances said with a verb of feeling or avoiding that no phrase list names (issue 29):
the verb's class and kin come from WordNet, its polarity from VADER's lexicon, and the
object is the whole phrase. A one-off, a wish, someone else's feeling, a weakly rated
verb or a plain like state no such stance. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.feeling_verbs import feeling_hint, feeling_stance
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("I abhor glossy paint on kitchen walls.", "glossy paint on kitchen walls", False),
        ("I dread hour-long queues at passport control.", "hour-long queues at passport control",
         False),
        ("I relish long quiet breakfasts on the balcony.", "long quiet breakfasts on the balcony",
         True),
        ("I shun restaurants with laminated picture menus.",
         "restaurants with laminated picture menus", False),
        ("I shy away from boardgames with thick rulebooks.", "boardgames with thick rulebooks",
         False),
        ("Leaf blowers at dawn irritate me.", "Leaf blowers at dawn", False),
        # a whole-sentence value before this reading
        ("Loud chewing really annoys me.", "Loud chewing", False),
    ],
)  # fmt: skip
def test_a_verb_of_feeling_or_avoiding_is_a_stance_on_its_whole_object(
    text: str, value: str, polarity: bool
) -> None:
    assert (POLICY, value, polarity) in constraints(text)


def test_a_negation_turns_the_polarity_over() -> None:
    # the extractor's own "don't" reading takes this sentence first; the form agrees
    assert feeling_stance("I don't relish long motorway drives.") == (
        "long motorway drives.",
        False,
    )


def test_a_condition_or_reason_frames_the_stance() -> None:
    said = constraints("When I'm tired I shy away from crowded bars.")
    assert (POLICY, "crowded bars when I'm tired", False) in said
    said = constraints("I shun cheap umbrellas because they break in a week.")
    assert (POLICY, "cheap umbrellas", False) in said


@pytest.mark.parametrize(
    "text",
    [
        "I dreaded the dentist this morning.",  # the past: one occasion
        "My brother abhors olives.",  # someone else's
        "I hope the ferry is on time.",  # a wish said as a clause
        "I worry about the rent.",  # a preposition, not a thing
        "I resent the new parking rules.",  # "resent" is rated too weakly to decide
        "I want a new phone.",  # "want" too
        "Do long queues irritate you?",  # a question
        "I cherish you.",  # the listener
        "It irritates me.",  # a pronoun, not a thing
        "I care a lot about the garden.",  # a preposition after a degree
    ],
)
def test_no_feeling_stance(text: str) -> None:
    assert feeling_stance(text) is None


def test_a_plain_like_stays_with_the_preference_detector() -> None:
    assert feeling_stance("I love pasta.") is None
    assert feeling_stance("I enjoy long walks.") is None


def test_a_clause_without_such_a_verb_is_not_tried() -> None:
    assert not feeling_hint(frozenset({"the", "train", "was", "late"}))
    assert feeling_hint(frozenset({"i", "abhor", "queues"}))
