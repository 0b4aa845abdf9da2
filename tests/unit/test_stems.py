"""How words are indexed for lexical search (text/stems.py), and what that finds."""

from __future__ import annotations

import pytest

from cognimem.models import Scope
from cognimem.store.lexical_index import ScopeTerms, batch_postings, search, tokens
from cognimem.store.scope_columns import Columns
from cognimem.store.types import ItemFilter
from cognimem.text.stems import index_stem, index_stems


@pytest.mark.parametrize(
    "family",
    [
        ("mentorship", "mentorships", "mentor", "mentors", "mentored", "mentoring"),
        ("friendship", "friendships", "friend", "friends"),
        ("childhood", "child"),
        ("neighbourhood", "neighbourhoods", "neighbour"),
        ("relationship", "relation", "relations"),
        ("carefully", "careful", "care", "caring"),
        ("friendly", "friend"),
    ],
)
def test_a_derived_noun_and_its_base_share_one_index_term(family: tuple[str, ...]) -> None:
    assert len({index_stem(w) for w in family}) == 1, {w: index_stem(w) for w in family}


@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("spaceship", "space"),  # a thing, not a state of being space
        ("warship", "war"),
        ("worship", "wor"),  # no noun before the suffix
        ("hood", "hoods"),  # the word itself: one term, as any plural
    ],
)
def test_a_compound_or_a_bare_suffix_is_not_cut(word: str, other: str) -> None:
    if word == "hood":
        assert index_stem(word) == index_stem(other) == "hood"
    else:
        assert index_stem(word) != index_stem(other)


def test_short_and_long_words_are_left_whole_and_forms_are_remembered() -> None:
    long = "x" * 65
    assert index_stems(["an", "is", long, "runs"]) == {
        "an": "an",
        "is": "is",
        long: long,
        "runs": "run",
    }


def test_tokens_of_a_text_use_the_index_forms() -> None:
    assert tokens("She joined a Mentorship program; I got mentored!") == [
        "she",
        "join",
        "a",
        "mentor",
        "program",
        "i",
        "got",
        "mentor",
    ]


def test_a_query_for_the_derived_noun_finds_the_base_verb() -> None:
    texts = [
        "I got mentored by a senior engineer yesterday",
        "We planted tomatoes in the garden",
        "The program starts in June",
    ]
    rows = [(i, f"id{i}", None, None, "episode", "active", i, None, None) for i in range(3)]
    lengths, postings = batch_postings(texts)
    entry = ScopeTerms(1, 0, len(texts), Columns.of(rows), lengths, postings)
    flt = ItemFilter(scope=Scope(tenant_id="t1", user_id="u1"))
    assert [i for i, _ in search(entry, flt, ["mentorship"], 5)] == ["id0"]
    assert [i for i, _ in search(entry, flt, ["friendships"], 5)] == []
