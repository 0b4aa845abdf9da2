"""Per-scope vector search over a cached float32 matrix: exact, or through an index.

One matrix per (tenant, namespace, user) holds every embedded item of that scope with
the columns needed to filter and the rows' SQLite rowids; ``scopes.ScopeCache`` keeps it
fresh. After status changes alone (a write silencing the evidence of a superseded
constraint, forgetting) only the statuses of the rows that are not active are read again
(``restatus``: ranges of a covering index, against 0.9–1.0 s of CPU to load every vector
at 100k rows and 0.25 s to reconcile the HNSW index). A scope below the index threshold is scanned
exactly; a larger one is searched through its HNSW index (``ann.py``) for candidates,
which are scored exactly here. A scope of 4,096-20,000 rows keeps an int8 copy of its
matrix (``quantized.py``) that picks the rows its exact scan can return, scored exactly
to the bit: a top-100 search of 10k rows 0.75-0.91 ms of CPU against 1.44-1.53, cold
(``benchmarks/results/read_profile.md``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from cognimem.blas import single_threaded
from cognimem.store.cache_budget import CacheBudget, array_bytes
from cognimem.store.scope_columns import STATUS_CODES
from cognimem.store.sqlite import ann, quantized, vector_rows
from cognimem.store.sqlite.scopes import (
    Columns,
    Counters,
    ScopeCache,
    ScopeRef,
    user_key,
)
from cognimem.store.types import ItemFilter

# in :func:`top_rows`, the fewest scores per block for the blocks' floor
_BLOCKS = 40
_ACTIVE = STATUS_CODES["active"]
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
    # each row's SQLite rowid, ascending (the index's keys)
    rowids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # the scope's cache key (tenant, namespace, user key); None: not a cached scope's
    key: tuple[str, str, str] | None = None
    # the scope's ``row_changes`` the rows were read at (-1: unknown, never refreshed)
    row_changes: int = -1
    # an int8 copy of the first rows, which picks an exact scan's candidates
    # (``quantized.py``); None: every row is scored
    copy: quantized.Quantized | None = None

    @property
    def rows(self) -> int:
        return len(self.cols)

    @property
    def nbytes(self) -> int:
        held = int(self.matrix.nbytes) + self.cols.nbytes + array_bytes(self.rowids)
        return held + (self.copy.nbytes if self.copy is not None else 0)

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
            return replace(
                self,
                version=other.version,
                mutations=other.mutations,
                row_changes=other.row_changes,
            )
        if not len(self.cols) or self.matrix.shape[1] != other.matrix.shape[1]:
            return other
        n, k = self.rows, other.rows
        buffer = self.buffer
        if buffer is None or len(buffer) < n + k:
            buffer = np.empty((n + k + int((n + k) * _ROOM), self.matrix.shape[1]), np.float32)
            buffer[:n] = self.matrix
        buffer[n : n + k] = other.matrix
        copy = self.copy
        if copy is None or n + k - copy.rows > copy.rows * _ROOM:
            copy = quantized.build(buffer[: n + k])
        return ScopeMatrix(
            version=other.version,
            mutations=other.mutations,
            max_rowid=other.max_rowid,
            cols=self.cols.append(other.cols),
            matrix=buffer[: n + k],
            buffer=buffer,
            rowids=np.concatenate([self.rowids, other.rowids]),
            key=self.key,
            row_changes=other.row_changes,
            copy=copy,
        )


def load(
    conn: sqlite3.Connection, scope: ScopeRef, after_rowid: int, version: Counters
) -> ScopeMatrix:
    rows, matrix = vector_rows.read(conn, scope, after_rowid)
    max_rowid = int(rows[-1][0]) if rows else after_rowid
    return ScopeMatrix(
        version=version[0],
        mutations=version[1],
        max_rowid=max_rowid,
        cols=Columns.of(rows),
        matrix=matrix,
        rowids=np.array([r[0] for r in rows], dtype=np.int64),
        key=(scope.tenant_id, scope.namespace, user_key(scope.user_id, shared=scope.shared)),
        row_changes=version.row_changes,
        # the rows after others (appended to an entry) are scored exactly
        copy=quantized.build(matrix) if after_rowid == 0 else None,
    )


def restatus(
    conn: sqlite3.Connection, scope: ScopeRef, m: ScopeMatrix, version: Counters
) -> ScopeMatrix | None:
    """``m`` with its rows' statuses read again, at ``version``'s counters; None when it
    cannot be (rows changed otherwise since it was read: it is loaded anew).

    Reads the (rowid, status) of the scope's rows that are not active, through the
    ``items_scope`` index (one range per status): every other row of ``m`` is active.
    No row of ``m`` is gone, as ``row_changes`` is unchanged (a row deleted bumps it).
    Reading every row's status instead took ~0.7 s of CPU at 1M rows, after each of a
    bulk import's status changes (one per ~3,500 messages); the vectors and the other
    columns are shared with ``m``."""
    if m.row_changes < 0 or m.row_changes != version.row_changes or len(m.rowids) != m.rows:
        return None
    others = [s for s, code in STATUS_CODES.items() if code != _ACTIVE]
    where, params = scope.condition()
    sql = f"SELECT i.rowid, i.status FROM items i WHERE {where}"
    sql += f" AND i.status IN ({', '.join('?' * len(others))})"
    found = conn.execute(sql, [*params, *others]).fetchall()
    codes = np.full(m.rows, _ACTIVE, dtype=np.int8)
    if found and m.rows:
        rowids = np.fromiter((r[0] for r in found), dtype=np.int64, count=len(found))
        changed = np.fromiter((STATUS_CODES[r[1]] for r in found), dtype=np.int8, count=len(found))
        pos = np.minimum(np.searchsorted(m.rowids, rowids), m.rows - 1)
        held = m.rowids[pos] == rowids  # rows appended after ``m`` are the caller's
        codes[pos[held]] = changed[held]
    cols = replace(m.cols, status=codes)
    return replace(m, version=version.version, mutations=version.mutations, cols=cols)


class VectorCache(ScopeCache[ScopeMatrix]):
    """The scopes' matrices and, for the large ones, their indexes (``ann.py``), each in
    the store's budget; clearing or dropping a tenant drops both."""

    def __init__(
        self,
        budget: CacheBudget,
        min_rows: int | None,
        max_scopes: int = 32,
        retry_s: float = ann.DEFAULT_RETRY_S,
    ) -> None:
        super().__init__(load, budget.section("sqlite_vectors", max_scopes))
        self.indexes = ann.VectorIndexes(budget, min_rows, max_scopes=max_scopes, retry_s=retry_s)

    def _refresh(
        self, conn: sqlite3.Connection, ref: ScopeRef, cached: ScopeMatrix, counters: Counters
    ) -> ScopeMatrix | None:
        return restatus(conn, ref, cached, counters)

    def indexed(self, tenant_id: str, namespace: str, user_id: str | None) -> bool:
        """Whether the scope's cached matrix has an index caught up with its rows."""
        key = (tenant_id, namespace, user_key(user_id))
        m = self._entries.get(key)
        return m is not None and m.key is not None and self.indexes.caught_up(key, m)

    def clear(self) -> None:
        super().clear()
        self.indexes.clear()

    def drop_tenant(self, tenant_id: str) -> None:
        super().drop_tenant(tenant_id)
        self.indexes.drop_where(lambda key: key[0] == tenant_id)


def cache(
    budget: CacheBudget,
    min_rows: int | None = ann.DEFAULT_MIN_ROWS,
    max_scopes: int = 32,
    retry_s: float = ann.DEFAULT_RETRY_S,
) -> VectorCache:
    return VectorCache(budget, min_rows, max_scopes, retry_s)


def _rows(m: ScopeMatrix, flt: ItemFilter, dim: int) -> np.ndarray | None:
    """Indexes of the rows of ``m`` that pass ``flt`` (None: none, or another dimension)."""
    if len(m.cols) == 0 or m.matrix.shape[1] != dim:
        return None
    idx = np.flatnonzero(m.cols.allowed(flt))
    return idx if idx.size else None


def _index(m: ScopeMatrix, indexes: ann.VectorIndexes | None) -> ann.ScopeIndex | None:
    """The index of ``m``'s scope caught up with it; None: scanned exactly."""
    if indexes is None or m.key is None or len(m.rowids) != m.rows:
        return None
    return indexes.index_for(m.key, m)


def _method(m: ScopeMatrix, indexes: ann.VectorIndexes | None) -> str:
    """How a search with no index was answered, for the counts: a small scope, or a
    large one whose index is being built or is unavailable."""
    if indexes is None or indexes.min_rows is None or m.rows < indexes.min_rows:
        return "exact"
    return "exact_unindexed"


def fallback(m: ScopeMatrix, indexes: ann.VectorIndexes | None) -> str | None:
    """The ``degraded`` entry of a search of ``m`` scanned exactly because its scope's
    index failed (``ann.VectorIndexes.failure``); None when it was not."""
    if indexes is None or m.key is None or _method(m, indexes) != "exact_unindexed":
        return None
    problem = indexes.failure(m.key)
    return None if problem is None else f"vector_index: {problem}; scanned exactly"


def search(
    m: ScopeMatrix,
    flt: ItemFilter,
    vector: np.ndarray,
    limit: int,
    indexes: ann.VectorIndexes | None = None,
) -> list[tuple[str, float]]:
    """Cosine top-``limit`` over the rows of ``m`` that pass ``flt``."""
    return search_many(m, [(flt, limit)], vector, indexes)[0]


def search_many(
    m: ScopeMatrix,
    searches: Sequence[tuple[ItemFilter, int]],
    vector: np.ndarray,
    indexes: ann.VectorIndexes | None = None,
) -> list[list[tuple[str, float]]]:
    """:func:`search` for several filters of one query vector: the full product is
    computed at most once. Through the scope's index when it has one (``indexes``)."""
    if not m.rows:  # an empty entry (a shared level no item is in): nothing to compute
        if indexes is not None and searches:
            indexes.count(_method(m, indexes), len(searches))
        return [[] for _ in searches]
    with single_threaded():
        index = _index(m, indexes)
        out: list[list[tuple[str, float]] | None] = [None] * len(searches)
        if index is not None and indexes is not None:
            for n, (flt, limit) in enumerate(searches):
                out[n] = _indexed(m, indexes, index, flt, vector, limit)
        exact = [n for n, found in enumerate(out) if found is None]
        if indexes is not None and len(exact) < len(searches):
            indexes.count("hnsw", len(searches) - len(exact))
        if exact:
            if indexes is not None:
                indexes.count("exact_filtered" if index else _method(m, indexes), len(exact))
            hits = _search_many(m, [searches[n] for n in exact], vector)
            for n, hit in zip(exact, hits, strict=True):
                out[n] = hit
        return [found or [] for found in out]


def _indexed(
    m: ScopeMatrix,
    indexes: ann.VectorIndexes,
    index: ann.ScopeIndex,
    flt: ItemFilter,
    vector: np.ndarray,
    limit: int,
) -> list[tuple[str, float]] | None:
    """The top ``limit`` of the index's candidates that pass ``flt``, scored exactly;
    None when a scan of the allowed rows is the cheaper (or the only sure) way."""
    if len(m.cols) == 0 or m.matrix.shape[1] != vector.shape[0] or limit <= 0:
        return []
    mask = m.cols.allowed(flt)
    allowed = int(np.count_nonzero(mask))
    take = ann.take_for(limit, m.rows, allowed)
    while True:
        if indexes.exact_is_cheaper(allowed, m.rows, take):
            return None
        with index.lock:
            keys = index.candidates(vector[None, :], take)[0]
            held = len(index)
        pos = ann.positions(m.rowids, keys)
        pos = pos[pos >= 0]
        pos = pos[mask[pos]]
        if len(pos) >= limit or take >= held:
            break
        take *= 4
    scores = m.matrix[pos] @ vector
    top = np.lexsort((pos, -scores))[:limit]  # ties: the earlier row
    return list(zip(m.cols.ids[pos[top]].tolist(), scores[top].tolist(), strict=True))


def _search_many(
    m: ScopeMatrix, searches: Sequence[tuple[ItemFilter, int]], vector: np.ndarray
) -> list[list[tuple[str, float]]]:
    everything: np.ndarray | None = None
    estimates: tuple[np.ndarray, np.ndarray] | None = None
    out: list[list[tuple[str, float]]] = []
    for flt, limit in searches:
        idx = _rows(m, flt, vector.shape[0])
        if idx is None or limit <= 0:
            out.append([])
            continue
        if m.copy is not None and idx.size * 8 >= len(m.cols):
            estimates = estimates or m.copy.scores(vector)
            if estimates is not None:
                out.append(_picked(m, m.copy, estimates, idx, limit, vector))
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
        top = top_rows(scores, limit)
        # the ids and scores of the top rows read out in one go each (not per row)
        out.append(list(zip(m.cols.ids[idx[top]].tolist(), scores[top].tolist(), strict=True)))
    return out


def _picked(
    m: ScopeMatrix,
    copy: quantized.Quantized,
    estimates: tuple[np.ndarray, np.ndarray],
    idx: np.ndarray,
    limit: int,
    vector: np.ndarray,
) -> list[tuple[str, float]]:
    """The top ``limit`` rows of ``idx`` as the whole product finds them: the int8
    copy's candidates scored exactly, to the bit (``quantized.py``)."""
    rows = quantized.candidates(copy, *estimates, idx, limit)
    scores = quantized.exact(m.matrix, rows, vector, copy.group)
    top = top_rows(scores, limit)
    return list(zip(m.cols.ids[rows[top]].tolist(), scores[top].tolist(), strict=True))


def top_rows(scores: np.ndarray, limit: int) -> np.ndarray:
    """Positions of the ``limit`` highest ``scores``, highest first (ties: the earlier
    position, as through the index: ``_indexed``).

    Only the scores at or above a floor are sorted. With at least 40 × ``limit`` scores
    the floor is the least of the maxima of ``limit`` blocks of the scores: ``limit``
    different scores, so the ``limit``-th highest is at least that. On a 10k-row scope
    a few hundred scores pass it (limit 100), found in ~45 µs against ~100 for
    ``np.argpartition`` over every score. With fewer scores the floor is the
    ``limit``-th highest itself (``np.partition``)."""
    n = scores.size
    k = min(limit, n)
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    picked = np.arange(n)
    if k < n:
        blocks = n // k
        if blocks >= _BLOCKS:
            floor = scores[: k * blocks].reshape(k, blocks).max(axis=1).min()
        else:
            floor = -np.partition(-scores, k - 1)[k - 1]
        above = np.flatnonzero(scores >= floor)
        if above.size >= k:  # fewer only when a score is NaN: every row is sorted
            picked = above
    order = np.lexsort((picked, -scores[picked]))[:k]
    return picked[order]


# rows of the scope's matrix per product in :func:`nearest`: every query of a write
# against one block of rows at a time (a block of 4096 rows × 1000 queries is 16 MiB of
# scores), so the matrix is read once per write, not once per few queries
_NEAREST_ROWS = 4096


def nearest(
    m: ScopeMatrix,
    flt: ItemFilter,
    vectors: np.ndarray,
    indexes: ann.VectorIndexes | None = None,
) -> list[tuple[str, float] | None]:
    """For each row of ``vectors``, the most similar row of ``m`` that passes ``flt``
    (ties: the earliest row).

    Through the scope's index when it has one: each query's candidates scored exactly,
    the best allowed one kept (a query none of whose candidates is allowed is scanned
    exactly). Otherwise exact, and linear in the scope's rows per query: all the queries
    go against one block of the matrix's rows at a time, keeping each query's best so
    far. (The queries taken 32 at a time against the whole matrix, as before, made BLAS
    pack the whole matrix again for every 32: 1.65 → 0.9 s of CPU for 1000 queries at
    100k rows, the same rows and scores.)"""
    if len(vectors) == 0:
        return []
    idx = _rows(m, flt, vectors.shape[1])
    if idx is None:
        return [None] * len(vectors)
    queries = np.ascontiguousarray(vectors, dtype=m.matrix.dtype)
    with single_threaded():
        index = _index(m, indexes)
        take = ann.take_for(1, m.rows, idx.size)
        if index is None or indexes is None or indexes.exact_is_cheaper(idx.size, m.rows, take):
            if indexes is not None:
                indexes.count("exact_filtered" if index else _method(m, indexes), len(queries))
            best, where = _nearest_exact(m, idx, queries)
        else:
            best, where = _nearest_indexed(m, index, idx, queries, take)
            indexes.count("hnsw", len(queries))
    ids = m.cols.ids[where].tolist()
    return [(str(i), float(s)) for i, s in zip(ids, best.tolist(), strict=True)]


def _nearest_indexed(
    m: ScopeMatrix, index: ann.ScopeIndex, idx: np.ndarray, queries: np.ndarray, take: int
) -> tuple[np.ndarray, np.ndarray]:
    """(best score, row) of each query among its ``take`` candidates that are rows of
    ``idx``; the queries with none are scanned exactly."""
    with index.lock:
        keys = index.candidates(queries, take)
    pos = ann.positions(m.rowids, keys)
    allowed = np.zeros(m.rows, dtype=bool)
    allowed[idx] = True
    best = np.full(len(queries), -np.inf, dtype=np.float32)
    where = np.zeros(len(queries), dtype=np.int64)
    missed = []
    for q, row in enumerate(pos):
        row = row[row >= 0]
        row = row[allowed[row]]
        if not len(row):
            missed.append(q)
            continue
        scores = m.matrix[row] @ queries[q]
        top = np.lexsort((row, -scores))[0]  # ties: the earlier row
        best[q], where[q] = scores[top], row[top]
    if missed:
        best[missed], where[missed] = _nearest_exact(m, idx, queries[missed])
    return best, where


def _nearest_exact(
    m: ScopeMatrix, idx: np.ndarray, queries: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(best score, row) of each query over the rows ``idx``, exactly."""
    every = idx.size == len(m.cols)
    best = np.full(len(queries), -np.inf, dtype=np.float32)
    where = np.zeros(len(queries), dtype=np.int64)  # positions in ``idx``
    picked = np.arange(len(queries))
    for start in range(0, idx.size, _NEAREST_ROWS):
        end = min(start + _NEAREST_ROWS, idx.size)
        block = m.matrix[start:end] if every else m.matrix[idx[start:end]]
        scores = queries @ block.T  # (queries, rows of the block)
        top = np.argmax(scores, axis=1)
        value = scores[picked, top]
        better = value > best  # strictly: an earlier block keeps a tie
        best[better] = value[better]
        where[better] = top[better] + start
    return best, idx[where]
