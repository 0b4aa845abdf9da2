"""A kind of thing judged by a noun and the speaker's relative clause (issue 29, round
18): "X is a chore I can't stand" is read as "I can't stand X", a stance on the whole
subject, not on the clause's last verb. Someone else's clause, a question, an exclusive
"the only X I ..." and a clause with a second clause inside are not put back.
Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.judged_relatives import judged_relative
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "back"),
    [
        ("Ironing shirts is a chore I can't stand.", "I can't stand Ironing shirts"),
        ("Crossword books are a gift I always welcome.", "I always welcome Crossword books"),
        ("Board games are a way of relaxing I really enjoy.",
         "I really enjoy Board games"),
        ("Night buses are a thing that I won't take anymore.",
         "I won't take Night buses anymore"),
    ],
)  # fmt: skip
def test_the_clause_is_put_back_in_the_usual_order(text: str, back: str) -> None:
    assert judged_relative(text) == back


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("Ironing shirts is a chore I can't stand.", "Ironing shirts", False),
        ("Scented candles are a gift I refuse to buy.", "buy Scented candles", False),
        ("Long queues at airports are a hassle I could do without.",
         "Long queues at airports", False),
        ("Crossword puzzles are a habit I really enjoy.", "Crossword puzzles", True),
        ("Paper diaries are a tool I swear by.", "Paper diaries", True),
    ],
)  # fmt: skip
def test_a_kind_judged_by_the_speakers_clause_is_a_stance(
    text: str, value: str, polarity: bool
) -> None:
    assert (POLICY, value, polarity) in constraints(text)


def test_the_clauses_last_verb_is_not_taken_for_its_object() -> None:
    # the first reading recorded a stance against "stand"
    said = "Ironing shirts is a chore I can't stand."
    assert not [c for c in constraints(said) if c[1] == "stand"]


def test_a_past_clause_put_back_states_nothing() -> None:
    assert constraints("Paris is a city I visited last year.") == []


@pytest.mark.parametrize(
    "text",
    [
        "My coach says burpees are an exercise he can't stand.",  # his opinion
        "Burpees are an exercise he can't stand.",  # someone else's clause
        "Is weeding a task you can't stand?",
        "Oat milk is the only milk I drink.",
        "Cash is a habit I stick to when I travel.",
        "Dark mode is a must for every app I use.",
    ],
)
def test_not_put_back(text: str) -> None:
    assert judged_relative(text) is None
