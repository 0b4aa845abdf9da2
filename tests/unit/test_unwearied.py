"""A verb of weariness or of giving up, negated, is a liking (issue 29, item 1: the
polarity of a constraint): "I never tire of X", "I never get bored of X", "I'll never give
up X", "I never skip X" are for X, not a refusal of "tire of X". The near misses keep
their readings: another negated verb is still a refusal ("I never eat X"), and the verb
with no object states nothing. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.unwearied import unwearied
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I never tire of walking along the canal at dusk.", "walking along the canal at dusk"),
        (
            "I never get bored of vinyl records from the seventies.",
            "vinyl records from the seventies",
        ),
        ("We never grow weary of long lunches in the garden.", "long lunches in the garden"),
        ("I'll never give up my Sunday swim.", "Sunday swim"),
        ("I'll never give up on learning the cello.", "learning the cello"),
        ("I never skip my evening stretches.", "evening stretches"),
        ("I don't skip breakfast on workdays.", "breakfast on workdays"),
        ("Crossword puzzles are a habit I never tire of.", "Crossword puzzles"),
        ("I never stop reading detective novels.", "reading detective novels"),
    ],
)
def test_a_negated_verb_of_weariness_is_for_its_object(text: str, value: str) -> None:
    found = constraints(text)
    assert (POLICY, value, True) in found
    assert not [f for f in found if f[2] is False]  # nothing read as against


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I never eat blue cheese.", (POLICY, "no blue cheese", True)),
        ("I never interrupt people in meetings.", (POLICY, "interrupt people in meetings", False)),
        ("I never end my day without tea.", (POLICY, "end my day without tea", False)),
    ],
)
def test_another_negated_verb_is_still_a_refusal(
    text: str, fact: tuple[FactCategory, str, bool]
) -> None:
    assert fact in constraints(text)


@pytest.mark.parametrize(
    "text",
    ["I never tire.", "I never get bored easily.", "I'll never give up!", "I never tire of it."],
)
def test_weariness_with_no_object_states_nothing(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I never tire of board games", "board games"),
        ("I won't get tired of the sea", "the sea"),
        ("I can't stop laughing", None),  # a moment, not a liking
        ("We'll never give up, whatever happens", ""),
        ("I'll never give up, Sam", ""),
        ("I never give up when the weather turns", ""),
        ("I never tire", ""),
        ("I don't get bored easily", ""),
        ("I never eat pork", None),
        ("I never end my day without tea", None),  # WordNet's "end" is no giving up
        ("They never tire of it", None),  # not the speaker's
    ],
)
def test_the_reader_tells_object_none_and_no_form(text: str, expected: str | None) -> None:
    assert unwearied(text) == expected
