"""A user's decoded facts and graph edges as a store keeps them in its
:class:`~cognimem.store.cache_budget.CacheBudget`, with their size in bytes.

Both backends keep, per user scope, the live facts a read scores (``FactRows``), the
facts of any status a time-filtered read picks from (``ScopeFacts``) and the graph's
edges (a list of ``GraphEdge``), each while the rows it was built from are current
(SQLite: ``fact_versions``; PostgreSQL: the rows' ``xmin``). They share the byte cap
of the vector and lexical copies. A :class:`Kept` is one such copy with what it was
built from and its bytes: measured from a sample of its objects when it is kept, plus
what it builds later on first use (a ``FactRows``' postings, a ``ScopeFacts``' picked
subsets with theirs), counted by :func:`weigh` when the copy is next taken. A copy
patched after a write (``FactRows`` and ``ScopeFacts``; SQLite: ``sqlite/copy_patch.py``,
PostgreSQL's ``RowCopies``) keeps the bytes per row of the copy it patched
(:func:`resized`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from cognimem.store.cache_budget import array_bytes, sampled_bytes
from cognimem.store.types import FactRows, GraphEdge, ScopeFacts

T = TypeVar("T")
_PER_WORD = 170  # a posting's dict slot and array header (bytes), beside 8 per row


@dataclass(frozen=True)
class Kept(Generic[T]):
    """A copy, the version of the rows it was built from, and its bytes: ``base`` when
    kept, ``postings`` more once it has built its postings (a ``FactRows``; for a
    ``ScopeFacts``, those of all its facts, of which a picked subset builds its share)."""

    version: object
    value: T
    base: int
    postings: int = 0
    # per row, newest first, what the backend orders the rows by (SQLite's
    # ``ScopeFacts``: recorded time and rowid), so a write's rows can be put in place
    order: Sequence[object] = ()


def _postings_bytes(words: Sequence[frozenset[str]], tags: Sequence[list[str]]) -> int:
    """What ``FactRows._index`` builds over these rows: an int64 row number per word and
    tag of a row, a dict slot and an array per distinct one, the categories' array."""
    distinct = len(frozenset().union(*words, *tags))
    per_row = sum(len(w) + len(t) for w, t in zip(words, tags, strict=True))
    return 8 * per_row + _PER_WORD * distinct + 8 * len(words)


def _rows_bytes(rows: FactRows) -> int:
    lists = (rows.ids, rows.categories, rows.scope_tags, rows.words)
    return array_bytes(rows.matrix) + sum(sampled_bytes(x) for x in lists)


def _version_bytes(version: object) -> int:
    """A version's bytes: PostgreSQL's is a row version string per row read."""
    return sampled_bytes(version) if isinstance(version, tuple) else 0


def kept_rows(version: object, rows: FactRows, order: Sequence[object] = ()) -> Kept[FactRows]:
    base = _rows_bytes(rows) + _version_bytes(version)
    base += sampled_bytes(order) if order else 0
    return Kept(version, rows, base, _postings_bytes(rows.words, rows.scope_tags), order)


def kept_facts(
    version: object, facts: ScopeFacts, order: Sequence[object] = ()
) -> Kept[ScopeFacts]:
    words = [p[3] for p in facts.parts]
    tags = [p[2] for p in facts.parts]
    base = sampled_bytes(facts.facts) + sampled_bytes(facts.parts) + _version_bytes(version)
    base += sampled_bytes(order) if order else 0
    return Kept(version, facts, base, _postings_bytes(words, tags), order)


def resized(
    kept: Kept[T], version: object, value: T, rows: int, was: int, order: Sequence[object] = ()
) -> Kept[T]:
    """The copy a patch made of ``kept`` (``was`` rows, now ``rows``), sized at the bytes
    per row its sample measured: sampling thousands of decoded facts again costs more
    than the patch (~10 ms at 2,000)."""
    share = rows / max(1, was)
    return Kept(version, value, round(kept.base * share), round(kept.postings * share), order)


def kept_edges(version: object, edges: list[GraphEdge]) -> Kept[list[GraphEdge]]:
    return Kept(version, edges, sampled_bytes(edges) + _version_bytes(version))


def weigh(kept: Kept[T]) -> int:
    """A copy's bytes now (cheap: a budget weighs an entry under its lock each time it
    is taken)."""
    value: object = kept.value
    if isinstance(value, FactRows):
        return kept.base + (kept.postings if value._postings is not None else 0)
    if isinstance(value, ScopeFacts):
        whole = max(1, len(value.parts))
        picked = 0
        for rows in list(value._picked.values()):
            # the subset's own matrix and lists; its words and tags are the whole's
            picked += array_bytes(rows.matrix) + 4 * 8 * len(rows.ids)
            if rows._postings is not None:
                picked += kept.postings * len(rows.ids) // whole
        return kept.base + picked
    return kept.base


__all__ = ["Kept", "kept_edges", "kept_facts", "kept_rows", "resized", "weigh"]
