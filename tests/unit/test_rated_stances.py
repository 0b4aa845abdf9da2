"""Stances whose polarity is the valence VADER's lexicon gives their judging word (issue
29): "I find X ADJ", "X makes me (feel) ADJ", "I'm not ADJ on X", "I have no NOUN in X"
are against or for X by how the lexicon rates the one word that judges, with the
extractor's own negation; a weakly rated word, a symptom, a person or a question state
no stance. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.rated_stances import rated_hint, rated_stance
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("I find long walks along the canal calming.", "long walks along the canal", True),
        ("I find crowded street markets stressful.", "crowded street markets", False),
        ("Early flights make me miserable.", "Early flights", False),
        ("Long hikes in the hills leave me feeling happy.", "Long hikes in the hills", True),
        ("I'm not fond of heavy cream sauces.", "heavy cream sauces", False),
        ("I'm not comfortable leaving my cat with strangers.", "leaving my cat with strangers",
         False),
        ("We have no interest in timeshare presentations.", "timeshare presentations", False),
        ("I've no love for open-plan offices.", "open-plan offices", False),
    ],
)  # fmt: skip
def test_a_rated_judgement_is_a_stance_on_its_whole_object(
    text: str, value: str, polarity: bool
) -> None:
    assert (POLICY, value, polarity) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "I find it calming.",  # a pronoun, not a thing
        "I'm not sure about the new menu.",  # "sure" is rated too weakly to judge
        "Dairy makes me feel sick.",  # a symptom: a causal fact
        "My boss makes me miserable.",  # a person
        "I'm not happy with you.",  # the listener
        "Do early flights make you miserable?",  # a question
        "I find the new timetable confusing.",  # "confusing" judges too weakly
    ],
)
def test_no_rated_stance(text: str) -> None:
    assert rated_stance(text) is None


def test_a_clause_without_a_rated_word_is_not_tried() -> None:
    assert not rated_hint(frozenset({"i", "find", "the", "timetable", "confusing"}))
    assert rated_hint(frozenset({"i", "find", "markets", "stressful"}))
