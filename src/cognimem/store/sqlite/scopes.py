"""Per-scope in-memory copies of a scope's items, kept fresh by ``scope_versions``.

The vector matrix (``vectors.py``) and the lexical index (``lexical.py``) each hold one
entry per (tenant, namespace, user) with the columns a search filters on (agent,
session, kind, status, time). An entry is checked against ``scope_versions`` on each
search: unchanged → reuse; only appends since → load just the new rows and append;
anything else (a status, text or vector changed in place, a row deleted) → reload, except
that a cache may bring an entry up after status changes alone (``ScopeCache._refresh``:
the vector matrix re-reads its rows' statuses, ``row_changes`` tells it nothing else
changed). The check is one primary-key lookup, so several processes sharing the file stay
correct.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, NamedTuple, Protocol, Self, TypeVar

import numpy as np

from cognimem.store.cache_budget import BudgetSection
from cognimem.store.scope_columns import Columns as Columns  # vectors.py, lexical.py

ALL_USERS = "*"
# the entry of the rows of no user (the organisation's and its agents'), which a user's
# read searches beside the user's own; it has no row in ``scope_versions`` of its own,
# so it is dated by the namespace's ``*`` row (which every write bumps)
SHARED = "shared"
# the columns every loader selects first, in this order, before its own (the first of
# which is at index OWN)
ROW_COLUMNS = (
    "i.rowid, i.id, i.agent_id, i.session_id, i.kind, i.status, i.occurred_at,"
    " i.event_start, i.event_end"
)
OWN = 9
# a load of the rows after a cached entry's last one reads them by rowid (the table's
# rows past it, whoever's) when there are at most 1/this of the rows the entry holds,
# else through the scope's index: a scan of every one of the scope's index entries, as
# the rowid follows ``status`` and ``occurred_at`` in ``items_scope`` (1M rows: ~90 ms
# a statement, against ~1 ms for the 1,000 rows a write appended, read by rowid)
_BY_ROWID_RATIO = 8


def user_key(user_id: str | None, *, shared: bool = False) -> str:
    if shared:
        return SHARED
    return ALL_USERS if user_id is None else f"u:{user_id}"


class Counters(NamedTuple):
    """A scope's row of ``scope_versions``: ``version`` counts every change of its items,
    ``mutations`` those that are not appends, ``row_changes`` those mutations that are
    not a change of status alone (a row deleted, its text, vector or kind changed)."""

    version: int
    mutations: int
    row_changes: int


NONE = Counters(0, 0, 0)


class Entry(Protocol):
    version: int
    mutations: int
    max_rowid: int

    @property
    def rows(self) -> int: ...

    @property
    def nbytes(self) -> int: ...

    def append(self, other: Self) -> Self: ...


@dataclass(frozen=True)
class ScopeRef:
    """The rows one cache entry holds: a user's in a namespace, all users' (None), or
    with ``shared`` those of no user."""

    tenant_id: str
    namespace: str
    user_id: str | None
    shared: bool = False
    # how many of the scope's rows a cached entry holds already (0: none); a load of the
    # rows after them reads the table's newest rows by rowid when they are few
    held: int = 0

    def rows(
        self, conn: sqlite3.Connection, select: str, after_rowid: int, extra: str = ""
    ) -> list[Any]:
        """Rows of ``select`` (over ``items i``) in this scope after a rowid, in rowid order."""
        return self.cursor(conn, select, after_rowid, extra).fetchall()

    def cursor(
        self,
        conn: sqlite3.Connection,
        select: str,
        after_rowid: int,
        extra: str = "",
        *,
        ordered: bool = True,
    ) -> sqlite3.Cursor:
        """:meth:`rows` as a cursor, for a caller that reads them a part at a time;
        not ``ordered``: in the order of the ``items_scope`` index, which SQLite reads
        them by (in rowid order it sorts them first, in a temporary B-tree: their
        vectors too)."""
        sql, params = self._where(select, after_rowid, extra, self._by_rowid(conn, after_rowid))
        return conn.execute(sql + " ORDER BY i.rowid" if ordered else sql, params)

    def rowids(self, conn: sqlite3.Connection, after_rowid: int) -> np.ndarray:
        """The scope's rowids after a rowid, ascending (int64; one scan of a covering
        index)."""
        by_rowid = self._by_rowid(conn, after_rowid)
        sql, params = self._where("SELECT i.rowid FROM items i", after_rowid, "", by_rowid)
        found = np.fromiter((r[0] for r in conn.execute(sql, params)), dtype=np.int64)
        found.sort()
        return found

    def _by_rowid(self, conn: sqlite3.Connection, after_rowid: int) -> bool:
        """Whether the rows after ``after_rowid`` are read by rowid: an entry holding
        ``held`` rows is brought up to date, and the table holds at most 1/8 as many rows
        past it (one lookup of the table's last rowid tells)."""
        if after_rowid <= 0 or self.held <= 0:
            return False
        last = conn.execute("SELECT max(rowid) FROM items").fetchone()[0]
        return last is not None and (int(last) - after_rowid) * _BY_ROWID_RATIO <= self.held

    def _where(
        self, select: str, after_rowid: int, extra: str, by_rowid: bool = False
    ) -> tuple[str, list[object]]:
        """The scope's rows after a rowid; ``by_rowid``: the scope's columns compared
        as expressions (``+``), so SQLite reads the rows by rowid, not by an index."""
        where, params = self.condition("+" if by_rowid else "")
        return f"{select} WHERE {where} AND i.rowid > ?{extra}", [*params, after_rowid]

    def condition(self, prefix: str = "") -> tuple[str, list[object]]:
        """The scope's rows of ``items i`` as an SQL condition and its parameters: its
        tenant and namespace, and its user (or no user, ``shared``) when it names one;
        ``prefix`` before each column ("+": compared as expressions, not by an index)."""
        sql = f"{prefix}i.tenant_id = ? AND {prefix}i.namespace = ?"
        params: list[object] = [self.tenant_id, self.namespace]
        if self.shared:
            sql += f" AND {prefix}i.user_id IS NULL"
        elif self.user_id is not None:
            sql += f" AND {prefix}i.user_id = ?"
            params.append(self.user_id)
        return sql, params


E = TypeVar("E", bound=Entry)
# (connection, scope, load rows after this rowid, scope counters) -> entry
Loader = Callable[[sqlite3.Connection, ScopeRef, int, Counters], E]


def read_version(conn: sqlite3.Connection, tenant_id: str, namespace: str, ukey: str) -> Counters:
    """The counters of a scope: its own row's, or when it has none (a user never written
    to, or erased) the namespace's ``*`` row's, where ``bump_version`` starts a new row
    from. An erasure bumps the ``*`` row's mutations past anything the user's deleted row
    had, so an entry another process cached of the erased user reloads (as nothing)."""
    row = conn.execute(
        "SELECT version, mutations, row_changes FROM scope_versions"
        " WHERE tenant_id = ? AND namespace = ? AND user_key IN (?, ?)"
        " ORDER BY user_key = ? LIMIT 1",
        (tenant_id, namespace, ukey, ALL_USERS, ALL_USERS),
    ).fetchone()
    return NONE if row is None else Counters(int(row[0]), int(row[1]), int(row[2]))


def owners_in(namespaces: Sequence[str], user_keys: Sequence[str]) -> str:
    """The clause after ``tenant_id = ?`` that picks the rows of several owners: its
    placeholders take ``namespaces`` and then ``user_keys``."""
    return (
        f" AND namespace IN ({', '.join('?' * len(namespaces))})"
        f" AND user_key IN ({', '.join('?' * len(user_keys))})"
    )


def read_versions(
    conn: sqlite3.Connection, tenant_id: str, wanted: Sequence[tuple[str, str]]
) -> list[Counters]:
    """``read_version`` of several (namespace, user key) pairs of a tenant in one
    statement (a search reads its scope's entry and the shared levels' together; each
    statement costs ~50 µs of CPU once a read's vector scan has left the caches cold)."""
    namespaces = list(dict.fromkeys(ns for ns, _ in wanted))
    ukeys = list(dict.fromkeys([*(k for _, k in wanted), ALL_USERS]))
    rows = conn.execute(
        "SELECT namespace, user_key, version, mutations, row_changes FROM scope_versions"
        " WHERE tenant_id = ?" + owners_in(namespaces, ukeys),
        (tenant_id, *namespaces, *ukeys),
    ).fetchall()
    found = {(r[0], r[1]): Counters(int(r[2]), int(r[3]), int(r[4])) for r in rows}
    return [found.get((ns, k), found.get((ns, ALL_USERS), NONE)) for ns, k in wanted]


def bump_version(
    conn: sqlite3.Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    *,
    mutation: bool,
    status_only: bool = False,
) -> None:
    """Mark a user's scope (and the tenant-wide view) as changed, inside the caller's tx:
    rows appended (``mutation`` False), the statuses of stored rows changed and nothing
    else (``status_only``), or any other change of stored rows.

    Every bump of a user's row bumps the namespace's ``*`` row too, so a user's counters
    never exceed the ``*`` row's. A user's row that does not exist (new, or deleted by
    an erasure) starts from the ``*`` row's counters: past any value the user's row ever
    had, so no process can take an entry it cached before the erasure for current.
    """
    step = 1 if mutation else 0
    rows = 1 if mutation and not status_only else 0
    for ukey in dict.fromkeys([user_key(user_id), ALL_USERS]):  # the user's row first
        conn.execute(
            "INSERT INTO scope_versions"
            " (tenant_id, namespace, user_key, version, mutations, row_changes)"
            " SELECT ?, ?, ?, coalesce(max(version), 0) + 1, coalesce(max(mutations), 0) + ?,"
            " coalesce(max(row_changes), 0) + ?"
            " FROM scope_versions WHERE tenant_id = ? AND namespace = ? AND user_key = ?"
            " ON CONFLICT (tenant_id, namespace, user_key) DO UPDATE SET"
            " version = version + 1, mutations = mutations + ?, row_changes = row_changes + ?",
            (tenant_id, namespace, ukey, step, rows, tenant_id, namespace, ALL_USERS, step, rows),
        )


class ScopeCache(Generic[E]):
    """Per-scope entries in a section of the store's :class:`CacheBudget` (least
    recently used evicted beyond its byte cap or the section's count), safe to share
    between reader threads."""

    def __init__(self, load: Loader[E], entries: BudgetSection[E]) -> None:
        self._load = load
        self._entries = entries

    def clear(self) -> None:
        self._entries.clear()

    def drop_tenant(self, tenant_id: str) -> None:
        """Forget every entry of a tenant (after an erasure: none may linger in memory)."""
        self._entries.drop_tenant(tenant_id)

    def holds(self, tenant_id: str, namespace: str, user_id: str | None) -> bool:
        """Whether an entry of the scope is cached (of any version: ``get`` checks it)."""
        return (tenant_id, namespace, user_key(user_id)) in self._entries

    def loaded_rows(self, tenant_id: str, namespace: str, user_id: str | None) -> int | None:
        """How many rows the scope's cached entry holds (of any version); None when none
        is cached."""
        entry = self._entries.get((tenant_id, namespace, user_key(user_id)))
        return None if entry is None else entry.rows

    def get_many(
        self,
        conn: sqlite3.Connection,
        tenant_id: str,
        wanted: Sequence[tuple[str, str | None, bool]],
    ) -> list[E]:
        """``get`` of several entries of a tenant, each (namespace, user_id, shared): when
        every one is cached, their versions are checked in one statement
        (``read_versions``); otherwise each is got (and loaded) on its own."""
        keys = [(tenant_id, ns, user_key(uid, shared=shared)) for ns, uid, shared in wanted]
        cached = [self._entries.get(key) for key in keys]  # now the most recently used
        held = [c for c in cached if c is not None]
        if len(held) == len(keys):
            versions = read_versions(conn, tenant_id, [(k[1], k[2]) for k in keys])
            if all((c.version, c.mutations) == v[:2] for c, v in zip(held, versions, strict=True)):
                return held
        return [self.get(conn, tenant_id, ns, uid, shared=shared) for ns, uid, shared in wanted]

    def get(
        self,
        conn: sqlite3.Connection,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        *,
        shared: bool = False,
    ) -> E:
        """The entry of a user's rows, all users' (None), or (``shared``) those of no user."""
        ukey = user_key(user_id, shared=shared)
        key = (tenant_id, namespace, ukey)
        cached = self._entries.get(key)  # now the most recently used
        if (
            cached is not None
            and (cached.version, cached.mutations)
            == read_version(conn, tenant_id, namespace, ukey)[:2]
        ):
            # current (a read of an unchanged scope): one statement and no rows to read,
            # so no transaction to read them in the version's snapshot
            return cached
        ref = ScopeRef(tenant_id, namespace, None if shared else user_id, shared)
        # read the version and the rows in one snapshot so they agree
        conn.execute("BEGIN")
        try:
            version = read_version(conn, tenant_id, namespace, ukey)
            cached = self._entries.get(key)
            if cached is not None and (cached.version, cached.mutations) == version[:2]:
                return cached
            if cached is not None and cached.mutations != version.mutations:
                cached = self._refresh(conn, ref, cached, version)
            if cached is not None:  # rows appended since (after a refresh too)
                held = replace(ref, held=cached.rows)
                fresh = cached.append(self._load(conn, held, cached.max_rowid, version))
            else:
                fresh = self._load(conn, ref, 0, version)
        finally:
            conn.execute("COMMIT")
        # larger than the whole cap: not kept, this read still searches it
        self._entries.put(key, fresh, fresh.nbytes)
        return fresh

    def _refresh(
        self, conn: sqlite3.Connection, ref: ScopeRef, cached: E, counters: Counters
    ) -> E | None:
        """``cached`` brought up to the mutations of ``counters`` (the rows appended since
        are added after) without loading the scope anew, or None when it must be loaded
        anew: here always; a cache whose entries can re-read what changed overrides it."""
        return None
