"""A search result that says when it was answered another way than configured: a
SQLite scope past the index threshold whose HNSW index failed is scanned exactly (the
same answers, more slowly, ``sqlite/ann.py``), and the read's packet (or the write's
result, for its near-duplicate search) says so in ``degraded`` (no silent fallback)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from cognimem.store.types import Candidate

T = TypeVar("T")


class Answered(list[T]):
    """A search's answer and ``degraded``: the entry saying how the search fell back
    (``vector_index: ...``), or None."""

    def __init__(self, found: Iterable[T] = (), degraded: str | None = None) -> None:
        super().__init__(found)
        self.degraded = degraded


class Candidates(Answered[Candidate]):
    """A search's candidates, best first, and how the search fell back."""


class Nearest(Answered[Candidate | None]):
    """:meth:`ItemStore.nearest`'s answer, one per query (None: nothing), and how the
    search fell back."""


def fallbacks(found: Iterable[Sequence[Candidate | None]]) -> list[str]:
    """The distinct ``degraded`` entries of search results, in order (a plain list:
    none)."""
    notes = (f.degraded for f in found if isinstance(f, Answered) and f.degraded)
    return list(dict.fromkeys(notes))


__all__ = ["Answered", "Candidates", "Nearest", "fallbacks"]
