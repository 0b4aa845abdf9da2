"""Exact per-scope vector search over a cached float32 matrix.

One matrix per (tenant, namespace, user) holds every embedded item of that scope with
the columns needed to filter; ``scopes.ScopeCache`` keeps it fresh.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from cognimem.blas import single_threaded
from cognimem.store.cache_budget import CacheBudget
from cognimem.store.sqlite.scopes import OWN, ROW_COLUMNS, Columns, ScopeCache, ScopeRef
from cognimem.store.types import ItemFilter

# room a scope's matrix keeps for the rows later writes append, as a share of its rows
_ROOM = 0.25


@dataclass
class ScopeMatrix:
    version: int
    mutations: int
    max_rowid: int
    cols: Columns
    matrix: np.ndarray  # float32 (n, dim)
    # the array ``matrix`` is the first rows of, with room for rows appended later
    # (None: no room); rows past ``matrix`` are written only by ``append``
    buffer: np.ndarray | None = None

    @property
    def rows(self) -> int:
        return len(self.cols)

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes) + self.cols.nbytes

    def append(self, other: ScopeMatrix) -> ScopeMatrix:
        """This entry with the rows a later load found after its last row.

        The rows go into the room left after this entry's rows (made, a quarter of the
        rows larger, when there is none), so a write's few rows do not copy the whole
        matrix: at 100k rows the copy took 0.37 s of CPU per 1000-message write. An
        older entry sharing the array only reads its own first rows; two entries
        appending from the same rows write the same rows there (each load reads the
        rows after ``max_rowid`` in rowid order, and a change to a stored row is a
        mutation, which loads the scope anew)."""
        if len(other.cols) == 0:
            return replace(self, version=other.version, mutations=other.mutations)
        if not len(self.cols) or self.matrix.shape[1] != other.matrix.shape[1]:
            return other
        n, k = self.rows, other.rows
        buffer = self.buffer
        if buffer is None or len(buffer) < n + k:
            buffer = np.empty((n + k + int((n + k) * _ROOM), self.matrix.shape[1]), np.float32)
            buffer[:n] = self.matrix
        buffer[n : n + k] = other.matrix
        return ScopeMatrix(
            version=other.version,
            mutations=other.mutations,
            max_rowid=other.max_rowid,
            cols=self.cols.append(other.cols),
            matrix=buffer[: n + k],
            buffer=buffer,
        )


def load(
    conn: sqlite3.Connection, scope: ScopeRef, after_rowid: int, version: tuple[int, int]
) -> ScopeMatrix:
    rows = scope.rows(
        conn,
        f"SELECT {ROW_COLUMNS}, embedding FROM items i",
        after_rowid,
        " AND embedding IS NOT NULL",
    )
    if rows:
        dim = len(rows[0][OWN]) // 4
        matrix = np.frombuffer(b"".join(r[OWN] for r in rows), dtype=np.float32).reshape(-1, dim)
        max_rowid = int(rows[-1][0])
    else:
        matrix = np.zeros((0, 0), dtype=np.float32)
        max_rowid = after_rowid
    return ScopeMatrix(
        version=version[0],
        mutations=version[1],
        max_rowid=max_rowid,
        cols=Columns.of(rows),
        matrix=matrix,
    )


def cache(budget: CacheBudget, max_scopes: int = 32) -> ScopeCache[ScopeMatrix]:
    return ScopeCache(load, budget.section("sqlite_vectors", max_scopes))


def _rows(m: ScopeMatrix, flt: ItemFilter, dim: int) -> np.ndarray | None:
    """Indexes of the rows of ``m`` that pass ``flt`` (None: none, or another dimension)."""
    if len(m.cols) == 0 or m.matrix.shape[1] != dim:
        return None
    idx = np.flatnonzero(m.cols.allowed(flt))
    return idx if idx.size else None


def search(
    m: ScopeMatrix, flt: ItemFilter, vector: np.ndarray, limit: int
) -> list[tuple[str, float]]:
    """Exact cosine top-``limit`` over the rows of ``m`` that pass ``flt``."""
    return search_many(m, [(flt, limit)], vector)[0]


def search_many(
    m: ScopeMatrix, searches: Sequence[tuple[ItemFilter, int]], vector: np.ndarray
) -> list[list[tuple[str, float]]]:
    """:func:`search` for several filters of one query vector: the full product is
    computed at most once."""
    with single_threaded():
        return _search_many(m, searches, vector)


def _search_many(
    m: ScopeMatrix, searches: Sequence[tuple[ItemFilter, int]], vector: np.ndarray
) -> list[list[tuple[str, float]]]:
    everything: np.ndarray | None = None
    out: list[list[tuple[str, float]]] = []
    for flt, limit in searches:
        idx = _rows(m, flt, vector.shape[0])
        if idx is None or limit <= 0:
            out.append([])
            continue
        # score every row, then keep the allowed ones: copying the allowed rows out of
        # the matrix first costs more than the product itself once a few rows are
        # filtered out (a silenced item, a time window): 100k rows, p95 of the vector
        # step 105 -> ~70 ms. When the filter keeps a small share (one kind: mandates,
        # summaries), copying those rows out is the cheaper way
        if idx.size * 8 < len(m.cols):
            scores = m.matrix[idx] @ vector
        else:
            if everything is None:
                everything = m.matrix @ vector
            scores = everything[idx] if idx.size < len(m.cols) else everything
        k = min(limit, idx.size)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        # the ids and scores of the top rows read out in one go each (not per row)
        out.append(list(zip(m.cols.ids[idx[top]].tolist(), scores[top].tolist(), strict=True)))
    return out


# rows of the scope's matrix per product in :func:`nearest`: every query of a write
# against one block of rows at a time (a block of 4096 rows × 1000 queries is 16 MiB of
# scores), so the matrix is read once per write, not once per few queries
_NEAREST_ROWS = 4096


def nearest(m: ScopeMatrix, flt: ItemFilter, vectors: np.ndarray) -> list[tuple[str, float] | None]:
    """For each row of ``vectors``, the most similar row of ``m`` that passes ``flt``
    (ties: the earliest row).

    Exact, and linear in the scope's rows per query: all the queries go against one
    block of the matrix's rows at a time, keeping each query's best so far. (The
    queries taken 32 at a time against the whole matrix, as before, made BLAS pack the
    whole matrix again for every 32: 1.65 → 0.9 s of CPU for 1000 queries at 100k rows,
    the same rows and scores.)"""
    if len(vectors) == 0:
        return []
    idx = _rows(m, flt, vectors.shape[1])
    if idx is None:
        return [None] * len(vectors)
    every = idx.size == len(m.cols)
    queries = np.ascontiguousarray(vectors, dtype=m.matrix.dtype)
    best = np.full(len(queries), -np.inf, dtype=np.float32)
    where = np.zeros(len(queries), dtype=np.int64)  # positions in ``idx``
    picked = np.arange(len(queries))
    with single_threaded():
        for start in range(0, idx.size, _NEAREST_ROWS):
            end = min(start + _NEAREST_ROWS, idx.size)
            block = m.matrix[start:end] if every else m.matrix[idx[start:end]]
            scores = queries @ block.T  # (queries, rows of the block)
            top = np.argmax(scores, axis=1)
            value = scores[picked, top]
            better = value > best  # strictly: an earlier block keeps a tie
            best[better] = value[better]
            where[better] = top[better] + start
    ids = m.cols.ids[idx[where]].tolist()
    return [(str(i), float(s)) for i, s in zip(ids, best.tolist(), strict=True)]
