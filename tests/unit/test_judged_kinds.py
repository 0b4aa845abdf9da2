"""A kind of thing judged by what it is to the speaker, "X is / are <judgement>" (issue
29): the judgement's head word decides the polarity by VADER's lexicon or WordNet's
ordeals, and the object is the whole subject. A one-off, a judgement that classifies,
someone else's opinion, people, a question and a judgement followed by more than "for
me" state no such stance. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.judged_kinds import judged_hint, judged_kind
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        # VADER rates the head
        ("Delayed connecting trains are the worst.", "Delayed connecting trains", False),
        ("Quiet reading rooms in old libraries are a delight for me.",
         "Quiet reading rooms in old libraries", True),
        ("Warm croissants on a Sunday are a real treat.", "Warm croissants on a Sunday", True),
        # WordNet: the head is first of all an ordeal
        ("Self-checkout machines are a nightmare for me.", "Self-checkout machines", False),
        ("Parking near the stadium is a total headache.", "Parking near the stadium", False),
        # a "no-" compound, the idiom of liking
        ("Reality shows are an absolute no-go.", "Reality shows", False),
        ("Crossword puzzles are right up my alley.", "Crossword puzzles", True),
        # a rated word before the head, after "the", said to be the speaker's
        ("Paper maps are the best guide for me.", "Paper maps", True),
        # more after the head, said to be the speaker's (round 18)
        ("Rainy afternoons in a café are the best part of my week.",
         "Rainy afternoons in a café", True),
        ("Small harbour towns are my idea of a perfect weekend.", "Small harbour towns", True),
        ("Lukewarm coffee is the saddest thing in the world for me.", "Lukewarm coffee", False),
        ("Escape rooms are the scariest thing out there for me.", "Escape rooms", False),
        ("Cluttered desks are a waste of space to me.", "Cluttered desks", False),
        ("Loud ringtones are a pet hate of mine.", "Loud ringtones", False),
        ("Hotels with thin walls are far too noisy for me.", "Hotels with thin walls", False),
        ("Karaoke nights are a kind of torture for me.", "Karaoke nights", False),
    ],
)  # fmt: skip
def test_a_judged_kind_is_a_stance_on_its_whole_subject(
    text: str, value: str, polarity: bool
) -> None:
    assert (POLICY, value, polarity) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "The queue at the post office was a nightmare today.",  # one occasion
        "That concert was the worst.",  # one known thing, in the past
        "The bus is the worst this week.",  # more than "for me" after the judgement
        "This weather is a nightmare.",  # a demonstrative: this one
        "My boss is a nightmare.",  # someone's own
        "Last weekend was a joy.",  # a time, not a kind
        "Lisbon is a beautiful city.",  # the head classifies, nothing rates it
        "Smoking is a bad habit.",  # the same
        "Hamsters are the best pets for small children.",  # for someone else
        "Tourists are the worst.",  # people, not a thing
        "My sister says cruises are the worst.",  # someone else's opinion
        "Are night buses the worst?",  # a question
        "Board games are a hobby of mine.",  # a word of linking inside: no judgement
        # round 18: more after the head that is not the speaker's, or a one-off
        "The best part of the trip was the food.",  # a past event
        "Picnics are the best part of summer for kids.",  # for someone else
        "My dad says index funds are his idea of a sensible investment.",  # his
        "Is a long lunch the best part of your week?",  # a question
        "The vet bill was the worst part of my month.",  # one bill, in the past
        "Fresh bread is the best thing I know.",  # a clause after the head
    ],
)
def test_no_judged_kind(text: str) -> None:
    assert judged_kind(text) is None
    assert not [c for c in constraints(text) if c[0] is POLICY]


def test_a_singular_subject_that_shares_a_surname_is_still_a_thing() -> None:
    # WordNet's "Pilates" and "Sessions" are people too; only a plural's singular counts
    assert judged_kind("Pilates is right up my street.") == ("Pilates", True)
    assert judged_kind("Jam sessions are a joy for me.") == ("Jam sessions", True)


def test_a_clause_without_a_copula_or_a_judging_word_is_not_tried() -> None:
    assert not judged_hint(frozenset({"the", "train", "was", "late"}))
    assert not judged_hint(frozenset({"the", "train", "is", "late"}))
    assert judged_hint(frozenset({"queues", "are", "the", "worst"}))
    assert judged_hint(frozenset({"queues", "are", "a", "nightmare"}))
    assert judged_hint(frozenset({"it", "is", "up", "my", "street"}))
    assert judged_hint(frozenset({"walls", "are", "too", "thin", "for", "me"}))
    assert judged_hint(frozenset({"queues", "are", "the", "scariest"}))  # scary
