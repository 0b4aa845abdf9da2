"""A user's facts in the compact form a read scores them in (``FactRows``), and the copy
a store makes of a kept one after a write (``FactRows.patched``): the rows no write
touched taken from the kept copy, the others from the facts read again, and what reads
worked out from the kept rows (``FactRows.derived``) carried where it still holds
(``Derived``), so a read after a write decodes a few rows instead of all of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

# a fact's compact row, decoded: id, category, scope tags, words, embedding
FactRowParts = tuple[str, str, list[str], frozenset[str], np.ndarray | None]
# a row of a patched copy: the kept copy's row (its number) or a fact read again
Source = int | FactRowParts


@runtime_checkable
class Derived(Protocol):
    """What reads work out once from a copy of the rows and keep on it, by name, in
    ``FactRows.derived`` (the standing constraint profile, ``recall/profile_read.py``),
    when it can tell whether it holds for the copy a patch makes of those rows."""

    def carried(self, before: FactRows, after: FactRows, changed: frozenset[str]) -> object:
        """This value for ``after`` (``before`` patched; ``changed``: the ids of the rows
        read again or gone), or None when it must be worked out again."""
        ...


@dataclass
class FactRows:
    """The user's live facts in the compact form a read scores them in: parallel
    lists, newest first, and their embeddings as one matrix (a zero row where a fact
    has none)."""

    ids: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    scope_tags: list[list[str]] = field(default_factory=list)
    words: list[frozenset[str]] = field(default_factory=list)  # of text, value, predicate
    matrix: np.ndarray | None = None
    # per row, whether its fact has an embedding (its zero row of ``matrix`` then stands
    # for none): what ``patched`` needs to give the rows' embeddings back as ``of`` took
    # them; None when not known (rows joined for one read, never patched)
    _vectored: np.ndarray | None = field(default=None, repr=False, compare=False)
    # word / tag / category → row numbers, built on first use: a cached FactRows serves
    # many reads, and each read then scores every row with a few array operations
    _postings: tuple[dict[str, np.ndarray], dict[str, np.ndarray], np.ndarray] | None = field(
        default=None, repr=False, compare=False
    )
    # category set → row mask: every read asks the same one or two (read-only arrays)
    _in_categories: dict[frozenset[str], np.ndarray] = field(
        default_factory=dict, repr=False, compare=False
    )
    # what reads work out from these rows once, by name (the standing constraint
    # profile, recall/profile.py): kept with the copy, and carried to the copy a patch
    # makes of it when it says it still holds (``Derived``)
    derived: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, parts: Sequence[FactRowParts]) -> FactRows:
        """The rows of decoded facts, in their order."""
        out = cls()
        vectors: list[np.ndarray | None] = []
        for fact_id, category, tags, words, embedding in parts:
            out.ids.append(fact_id)
            out.categories.append(category)
            out.scope_tags.append(tags)
            out.words.append(words)
            vectors.append(embedding)
        out._vectored = np.array([v is not None for v in vectors], dtype=bool)
        dims = {v.shape[0] for v in vectors if v is not None}
        if len(dims) == 1:
            dim = dims.pop()
            zero = np.zeros(dim, dtype=np.float32)
            out.matrix = np.vstack([zero if v is None else v for v in vectors])
        return out

    def patched(self, sources: Sequence[Source]) -> FactRows | None:
        """The rows ``sources`` lists, in its order: each one of these rows (its number)
        or a fact read again (its parts), equal to ``of`` over every row's parts, and
        what ``derived`` holds carried where it says it still holds. None when these
        rows cannot give their embeddings back (``of`` keeps none of several
        dimensions, ``joined`` rows do not say which rows have one)."""
        if self._vectored is None:
            return None
        out = FactRows()
        kept_at: list[int] = []  # positions in ``out`` of rows of these
        kept: list[int] = []  # ... and their numbers here
        fresh: list[tuple[int, np.ndarray]] = []  # positions of rows read again, vectors
        for at, source in enumerate(sources):
            if isinstance(source, int):
                kept_at.append(at)
                kept.append(source)
                source = (*self._row(source), None)
            elif source[4] is not None:
                fresh.append((at, source[4]))
            out.ids.append(source[0])
            out.categories.append(source[1])
            out.scope_tags.append(source[2])
            out.words.append(source[3])
        from_here = self._vectored[kept]
        if from_here.any() and self.matrix is None:
            return None
        out._vectored = np.zeros(len(sources), dtype=bool)
        out._vectored[kept_at] = from_here
        out._vectored[[at for at, _ in fresh]] = True
        dims = {v.shape[0] for _, v in fresh}
        if self.matrix is not None and from_here.any():
            dims.add(self.matrix.shape[1])
        if len(dims) == 1:
            out.matrix = np.zeros((len(sources), dims.pop()), dtype=np.float32)
            if self.matrix is not None and from_here.any():
                out.matrix[kept_at] = self.matrix[kept]
            for at, vector in fresh:
                out.matrix[at] = vector
        gone = set(self.ids).difference(self.ids[i] for i in kept)
        changed = frozenset(gone.union(s[0] for s in sources if not isinstance(s, int)))
        for name, value in self.derived.items():
            carried = value.carried(self, out, changed) if isinstance(value, Derived) else None
            if carried is not None:
                out.derived[name] = carried
        return out

    def _row(self, i: int) -> tuple[str, str, list[str], frozenset[str]]:
        return self.ids[i], self.categories[i], self.scope_tags[i], self.words[i]

    def _index(self) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], np.ndarray]:
        if self._postings is None:
            words: dict[str, list[int]] = {}
            tags: dict[str, list[int]] = {}
            pairs = zip(self.words, self.scope_tags, strict=True)
            for i, (row_words, row_tags) in enumerate(pairs):
                for w in row_words:
                    words.setdefault(w, []).append(i)
                for t in set(row_tags):
                    tags.setdefault(t, []).append(i)
            self._postings = (
                {w: np.asarray(rows, dtype=np.int64) for w, rows in words.items()},
                {t: np.asarray(rows, dtype=np.int64) for t, rows in tags.items()},
                np.asarray(self.categories, dtype=object),
            )
        return self._postings

    def word_share(self, terms: frozenset[str]) -> np.ndarray:
        """Per row: the share of ``terms`` among the row's words (0 without terms)."""
        counts = np.zeros(len(self.ids), dtype=np.float64)
        if not terms:
            return counts
        words = self._index()[0]
        for term in terms:
            rows = words.get(term)
            if rows is not None:
                counts[rows] += 1.0
        return counts / len(terms)

    def tagged(self, domains: frozenset[str]) -> np.ndarray:
        """Per row: whether one of its scope tags is among ``domains``."""
        hit = np.zeros(len(self.ids), dtype=bool)
        tags = self._index()[1]
        for domain in domains:
            rows = tags.get(domain)
            if rows is not None:
                hit[rows] = True
        return hit

    def in_categories(self, values: frozenset[str]) -> np.ndarray:
        """Per row: whether its category is one of ``values`` (read-only; computed once
        per set of values: ``np.isin`` over 500 rows took 28 us, twice a read)."""
        found = self._in_categories.get(values)
        if found is None:
            found = np.isin(self._index()[2], list(values))
            found.flags.writeable = False
            self._in_categories[values] = found
        return found


def joined(first: FactRows, second: FactRows) -> FactRows:
    """The rows of both, ``first``'s first; one matrix when their embeddings agree in
    dimension (a zero row where a fact has none), else none."""
    out = FactRows(
        ids=[*first.ids, *second.ids],
        categories=[*first.categories, *second.categories],
        scope_tags=[*first.scope_tags, *second.scope_tags],
        words=[*first.words, *second.words],
    )
    matrices = [m for m in (first.matrix, second.matrix) if m is not None]
    if len({m.shape[1] for m in matrices}) == 1:
        dim = matrices[0].shape[1]
        parts = [
            rows.matrix if rows.matrix is not None else np.zeros((len(rows.ids), dim), np.float32)
            for rows in (first, second)
        ]
        out.matrix = np.vstack(parts)
    return out


__all__ = ["Derived", "FactRowParts", "FactRows", "Source", "joined"]
