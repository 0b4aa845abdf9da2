"""PostgreSQL's per-scope lexical index, held in process as SQLite's is.

Searching the ``tsvector`` column read every row matching any query word (a sixth of a
100k-item scope for an ordinary question, each a wide row): 123 / 232 ms p50 / p95 at
100k. Instead each process keeps, per (tenant, namespace, user), the scope's postings
(``store/lexical_index.py``, the index and BM25 SQLite uses, so both backends rank
alike) and brings them up to date on each search by the change numbers of
``item_changes.py``:

- the namespace's last change number and removal count unchanged → the entry as it is
  (one query of two index lookups per search);
- only the change number moved → load the rows with ``change_seq`` above the entry's, append
  them, and take out of every search the older copy of a row that changed in place (a
  status, a text);
- a removal (a delete, an erasure, a row moved out), or more than a quarter of the
  entry taken out → load the scope again.

The version and the rows are read in one snapshot, so they agree. Ties rank the older
row first (by ``items.seq``), as the SQL search did, wherever catch-up put the row.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import numpy as np

from cognimem.store.cache_budget import BudgetSection, CacheBudget
from cognimem.store.lexical_index import ScopeTerms, batch_postings
from cognimem.store.scope_columns import Columns

if TYPE_CHECKING:
    from asyncpg import Connection

ALL_USERS = "*"
SHARED = "shared"  # the entry of the rows of no user (the organisation's, its agents')
_MICROS = "trunc(extract(epoch FROM {})::float8 * 1000000)::bigint"  # = clock.to_micros
_SELECT = (
    "SELECT change_seq, id, agent_id, session_id, kind, status, "
    + ", ".join(_MICROS.format(c) for c in ("occurred_at", "event_start", "event_end"))
    + ", search_text, seq FROM items WHERE tenant_id = $1 AND namespace = $2"
    " AND change_seq > $3"
)
_TEXT, _SEQ = 9, 10
INLINE_ROWS = 2000  # an entry of more rows is tokenized and searched in a thread
_RELOAD_SHARE = 0.25  # reload once this share of an entry's rows were replaced

Key = tuple[str, str, str]


def _key(tenant_id: str, namespace: str, user_id: str | None, shared: bool = False) -> Key:
    if shared:
        return (tenant_id, namespace, SHARED)
    return (tenant_id, namespace, ALL_USERS if user_id is None else f"u:{user_id}")


async def _version(conn: Connection, tenant_id: str, namespace: str) -> tuple[int, int]:
    """The namespace's last change number and removal count (``item_changes.py``)."""
    row = await conn.fetchrow(
        "SELECT (SELECT max(change_seq) FROM items WHERE tenant_id = $1 AND namespace = $2),"
        " (SELECT removals FROM item_removals WHERE tenant_id = $1 AND namespace = $2)",
        tenant_id,
        namespace,
    )
    return (int(row[0] or 0), int(row[1] or 0))


async def _load(
    conn: Connection, key: Key, user_id: str | None, after: int, version: tuple[int, int]
) -> ScopeTerms:
    """The scope's rows changed after change number ``after`` (-1: every row; rows
    written before migration 17 have 0), in ``seq`` order, as of ``version``."""
    sql, params = _SELECT, [key[0], key[1], after]
    if key[2] == SHARED:
        sql += " AND user_id IS NULL"
    elif user_id is not None:
        sql += " AND user_id = $4"
        params.append(user_id)
    rows: list[Any] = await conn.fetch(sql + " ORDER BY seq", *params)
    texts = [r[_TEXT] for r in rows]
    if len(texts) > INLINE_ROWS:  # tokenizing a scope takes seconds: not on the loop
        lengths, postings = await asyncio.to_thread(batch_postings, texts)
    else:
        lengths, postings = batch_postings(texts)
    return ScopeTerms(
        version=version[0],
        mutations=version[1],
        max_rowid=version[0],  # the snapshot holds every row changed up to it
        cols=Columns.of(rows),
        lengths=lengths,
        postings=postings,
        order=np.array([r[_SEQ] for r in rows], dtype=np.int64),
    )


def _caught_up(cached: ScopeTerms, new: ScopeTerms) -> ScopeTerms:
    """``cached`` with ``new``'s rows appended, an older copy of any of them taken out."""
    old, fresh = cached.order, new.order
    if old is not None and fresh is not None and fresh.size and old.size:
        cached = cached.without(np.flatnonzero(np.isin(old, fresh)))
    return cached.append(new)


class LexicalCache:
    """Per-scope lexical entries in a section of the store's :class:`CacheBudget` (least
    recently used evicted beyond its byte cap or 32 entries), shared by a store's
    connections."""

    def __init__(self, budget: CacheBudget, max_scopes: int = 32) -> None:
        self._entries: BudgetSection[ScopeTerms] = budget.section("postgres_lexical", max_scopes)
        self._loading: dict[Key, asyncio.Lock] = {}

    def clear(self) -> None:
        self._entries.clear()
        self._loading.clear()

    def drop_tenant(self, tenant_id: str) -> None:
        """Forget every entry of a tenant (after an erasure: none may linger in memory)."""
        self._entries.drop_tenant(tenant_id)
        for key in [k for k in self._loading if k[0] == tenant_id]:
            del self._loading[key]

    def holds(self, tenant_id: str, namespace: str, user_id: str | None) -> bool:
        return _key(tenant_id, namespace, user_id) in self._entries

    async def get(
        self,
        conn: Connection,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        *,
        shared: bool = False,
    ) -> ScopeTerms:
        """The entry of a user's rows, all users' (None), or (``shared``) those of no user."""
        key = _key(tenant_id, namespace, user_id, shared)
        cached = self._entries.get(key)
        if cached is not None and (cached.version, cached.mutations) == await _version(
            conn, tenant_id, namespace
        ):
            return cached
        # one load per scope at a time: concurrent searches wait for it, then reuse it
        lock = self._loading.setdefault(key, asyncio.Lock())
        async with lock:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                version = await _version(conn, tenant_id, namespace)
                cached = self._entries.get(key)
                if cached is not None and (cached.version, cached.mutations) == version:
                    return cached
                if (
                    cached is not None
                    and cached.mutations == version[1]
                    and cached.gone() <= _RELOAD_SHARE * len(cached.cols)
                ):
                    new = await _load(conn, key, user_id, cached.max_rowid, version)
                    fresh = _caught_up(cached, new)
                else:
                    fresh = await _load(conn, key, user_id, -1, version)
            # larger than the whole cap: not kept, this search still uses it
            self._entries.put(key, fresh, fresh.nbytes)
        # the locks of scopes no longer held and not loading go (at worst two later
        # loads of one overlap), so they stay as few as the entries
        for k in [k for k, v in self._loading.items() if not v.locked() and k not in self._entries]:
            del self._loading[k]
        return fresh
