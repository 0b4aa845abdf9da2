"""Exact per-scope vector search over a cached float32 matrix.

One matrix per (tenant, namespace, user) holds every embedded item of that scope with
the columns needed to filter (agent, session, kind, status, time). A scope's cached
matrix is checked against ``scope_versions`` on each search: unchanged → reuse; only
appends since → load just the new rows; anything else → reload. The check is one
primary-key lookup, so several processes sharing the file stay correct.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from cognimem.blas import single_threaded
from cognimem.models import ItemKind, ItemStatus
from cognimem.models.clock import to_micros
from cognimem.store.base import ItemFilter

ALL_USERS = "*"
# small-integer codes make the kind/status masks numeric (object-array compares are slow)
KIND_CODES = {kind.value: code for code, kind in enumerate(ItemKind)}
STATUS_CODES = {status.value: code for code, status in enumerate(ItemStatus)}


def user_key(user_id: str | None) -> str:
    return ALL_USERS if user_id is None else f"u:{user_id}"


@dataclass
class ScopeMatrix:
    version: int
    mutations: int
    max_rowid: int
    ids: np.ndarray  # object (str)
    matrix: np.ndarray  # float32 (n, dim)
    agent: np.ndarray  # object
    session: np.ndarray  # object
    kind: np.ndarray  # int8 codes (KIND_CODES)
    status: np.ndarray  # int8 codes (STATUS_CODES)
    occurred: np.ndarray  # int64 microseconds

    def append(self, other: ScopeMatrix) -> ScopeMatrix:
        if len(other.ids) == 0:
            return replace(self, version=other.version, mutations=other.mutations)
        return ScopeMatrix(
            version=other.version,
            mutations=other.mutations,
            max_rowid=other.max_rowid,
            ids=np.concatenate([self.ids, other.ids]),
            matrix=np.vstack([self.matrix, other.matrix]) if len(self.ids) else other.matrix,
            agent=np.concatenate([self.agent, other.agent]),
            session=np.concatenate([self.session, other.session]),
            kind=np.concatenate([self.kind, other.kind]),
            status=np.concatenate([self.status, other.status]),
            occurred=np.concatenate([self.occurred, other.occurred]),
        )


def read_version(
    conn: sqlite3.Connection, tenant_id: str, namespace: str, ukey: str
) -> tuple[int, int]:
    row = conn.execute(
        "SELECT version, mutations FROM scope_versions"
        " WHERE tenant_id = ? AND namespace = ? AND user_key = ?",
        (tenant_id, namespace, ukey),
    ).fetchone()
    return (0, 0) if row is None else (int(row[0]), int(row[1]))


def bump_version(
    conn: sqlite3.Connection, tenant_id: str, namespace: str, user_id: str | None, *, mutation: bool
) -> None:
    """Mark a user's scope (and the tenant-wide view) as changed, inside the caller's tx.

    Every bump of a user's row bumps the namespace's ``*`` row too, so a user's counters
    never exceed the ``*`` row's. A user's row that does not exist (new, or deleted by
    an erasure) starts from the ``*`` row's counters: past any value the user's row ever
    had, so no process can take a matrix it cached before the erasure for current.
    """
    step = 1 if mutation else 0
    for ukey in dict.fromkeys([user_key(user_id), ALL_USERS]):  # the user's row first
        conn.execute(
            "INSERT INTO scope_versions (tenant_id, namespace, user_key, version, mutations)"
            " SELECT ?, ?, ?, coalesce(max(version), 0) + 1, coalesce(max(mutations), 0) + ?"
            " FROM scope_versions WHERE tenant_id = ? AND namespace = ? AND user_key = ?"
            " ON CONFLICT (tenant_id, namespace, user_key) DO UPDATE SET"
            " version = version + 1, mutations = mutations + ?",
            (tenant_id, namespace, ukey, step, tenant_id, namespace, ALL_USERS, step),
        )


def _load(
    conn: sqlite3.Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    after_rowid: int,
    version: tuple[int, int],
) -> ScopeMatrix:
    sql = (
        "SELECT rowid, id, agent_id, session_id, kind, status, occurred_at, embedding"
        " FROM items WHERE tenant_id = ? AND namespace = ? AND rowid > ?"
        " AND embedding IS NOT NULL"
    )
    params: list[object] = [tenant_id, namespace, after_rowid]
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    rows = conn.execute(sql + " ORDER BY rowid", params).fetchall()
    if rows:
        dim = len(rows[0][7]) // 4
        matrix = np.frombuffer(b"".join(r[7] for r in rows), dtype=np.float32).reshape(-1, dim)
        max_rowid = int(rows[-1][0])
    else:
        matrix = np.zeros((0, 0), dtype=np.float32)
        max_rowid = after_rowid

    def column(i: int) -> np.ndarray:
        return np.array([r[i] for r in rows], dtype=object)

    return ScopeMatrix(
        version=version[0],
        mutations=version[1],
        max_rowid=max_rowid,
        ids=column(1),
        matrix=matrix,
        agent=column(2),
        session=column(3),
        kind=np.array([KIND_CODES[r[4]] for r in rows], dtype=np.int8),
        status=np.array([STATUS_CODES[r[5]] for r in rows], dtype=np.int8),
        occurred=np.array([r[6] for r in rows], dtype=np.int64),
    )


class VectorCache:
    """Bounded LRU of scope matrices, safe to share between reader threads."""

    def __init__(self, max_scopes: int = 32) -> None:
        self._max = max_scopes
        self._entries: OrderedDict[tuple[str, str, str], ScopeMatrix] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def drop_tenant(self, tenant_id: str) -> None:
        """Forget every matrix of a tenant (after an erasure: none may linger in memory)."""
        with self._lock:
            for key in [k for k in self._entries if k[0] == tenant_id]:
                del self._entries[key]

    def matrix_for(
        self, conn: sqlite3.Connection, tenant_id: str, namespace: str, user_id: str | None
    ) -> ScopeMatrix:
        ukey = user_key(user_id)
        key = (tenant_id, namespace, ukey)
        # read the version and the rows in one snapshot so they agree
        conn.execute("BEGIN")
        try:
            version = read_version(conn, tenant_id, namespace, ukey)
            with self._lock:
                cached = self._entries.get(key)
            if cached is not None and (cached.version, cached.mutations) == version:
                fresh = cached
            elif cached is not None and cached.mutations == version[1]:
                extra = _load(conn, tenant_id, namespace, user_id, cached.max_rowid, version)
                fresh = cached.append(extra)
            else:
                fresh = _load(conn, tenant_id, namespace, user_id, 0, version)
        finally:
            conn.execute("COMMIT")
        with self._lock:
            self._entries[key] = fresh
            self._entries.move_to_end(key)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)
        return fresh


def _rows(m: ScopeMatrix, flt: ItemFilter, dim: int) -> np.ndarray | None:
    """Indexes of the rows of ``m`` that pass ``flt`` (None: none, or another dimension)."""
    if len(m.ids) == 0 or m.matrix.shape[1] != dim:
        return None
    mask = np.isin(m.status, [STATUS_CODES[s.value] for s in flt.statuses])
    scope = flt.scope
    if scope.agent_id is not None:
        mask &= m.agent == scope.agent_id
    if scope.session_id is not None:
        mask &= m.session == scope.session_id
    if flt.kinds is not None:
        mask &= np.isin(m.kind, [KIND_CODES[k.value] for k in flt.kinds])
    if flt.since is not None:
        mask &= m.occurred >= to_micros(flt.since)
    if flt.until is not None:
        mask &= m.occurred <= to_micros(flt.until)
    idx = np.flatnonzero(mask)
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
        if idx.size * 8 < len(m.ids):
            scores = m.matrix[idx] @ vector
        else:
            if everything is None:
                everything = m.matrix @ vector
            scores = everything[idx] if idx.size < len(m.ids) else everything
        k = min(limit, idx.size)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        out.append([(str(m.ids[idx[i]]), float(scores[i])) for i in top])
    return out


_NEAREST_CHUNK = 32  # query vectors per matrix product (bounds the score block's memory)


def nearest(m: ScopeMatrix, flt: ItemFilter, vectors: np.ndarray) -> list[tuple[str, float] | None]:
    """For each row of ``vectors``, the most similar row of ``m`` that passes ``flt``."""
    if len(vectors) == 0:
        return []
    idx = _rows(m, flt, vectors.shape[1])
    if idx is None:
        return [None] * len(vectors)
    out: list[tuple[str, float] | None] = []
    for start in range(0, len(vectors), _NEAREST_CHUNK):
        with single_threaded():
            scores = m.matrix @ vectors[start : start + _NEAREST_CHUNK].T
        if idx.size < len(m.ids):
            scores = scores[idx]
        best = np.argmax(scores, axis=0)
        out += [(str(m.ids[idx[b]]), float(scores[b, j])) for j, b in enumerate(best)]
    return out
