"""The SQLite database behind every role: the file, its connections, the per-process
caches the roles share, migrations, settings and a scope's counts (the ``Database``
role). Each role's class (``items.py``, ``knowledge.py``, ...) builds on
:class:`SQLiteDatabase`; ``SQLiteStore`` is all of them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, Self, TypeVar

from cognimem.errors import UsageError
from cognimem.models import ItemStatus, Scope
from cognimem.models.admin import ScopeStats
from cognimem.models.knowledge import ConflictStatus
from cognimem.store import records
from cognimem.store.arguments import RowsById
from cognimem.store.cache_budget import DEFAULT_MAX_MB, BudgetSection, CacheBudget
from cognimem.store.fact_copies import Kept, weigh
from cognimem.store.sqlite import lexical, vectors
from cognimem.store.sqlite.ann import DEFAULT_MIN_ROWS, DEFAULT_RETRY_S
from cognimem.store.sqlite.connection import Connections, connect, translate
from cognimem.store.sqlite.fact_changes import FactChangeLog
from cognimem.store.sqlite.migrations import migrate
from cognimem.store.sqlite.rows import query
from cognimem.store.types import SCOPE_FACTS_KEPT, FactRows, GraphEdge, PendingJob, ScopeFacts

T = TypeVar("T")
FACT_ROWS_KEPT = 256  # user scopes whose scored facts (and graphs) a process keeps


def path_from_url(url: str) -> Path:
    """``sqlite:///relative.db``, ``sqlite:////abs/path.db`` or a bare path."""
    if url.startswith("sqlite:///"):
        raw = url.removeprefix("sqlite:///")
    elif url.startswith("sqlite://"):
        raise UsageError(f"bad SQLite URL {url!r}: use sqlite:///path/to/file.db")
    else:
        raw = url
    if not raw or raw == ":memory:":
        raise UsageError("cognimem needs a SQLite file path (sqlite:///path/to/file.db)")
    return Path(raw).expanduser()


class Outbox(Protocol):
    """A job queue whose table is in the store's database file."""

    def enqueue_in(self, conn: sqlite3.Connection, job: PendingJob) -> None:
        """Queue ``job`` (idempotent on its id) inside the caller's transaction."""
        ...


class SQLiteDatabase:
    """One SQLite file. Safe for several processes sharing the file."""

    def __init__(
        self,
        path: Path | str,
        *,
        readers: int = 2,
        cache_max_bytes: int | None = DEFAULT_MAX_MB << 20,
        vector_index_min_rows: int | None = DEFAULT_MIN_ROWS,
        vector_index_retry_s: float = DEFAULT_RETRY_S,
    ) -> None:
        self.path = Path(path)
        # which facts this process's writes changed, so its copies of a scope's facts
        # are patched rather than read whole again (fact_changes.py)
        self._fact_changes = FactChangeLog()
        self._db = Connections(self.path, readers=readers, watch=self._fact_changes)
        # in-process copies of scopes, capped in bytes together (cache_budget.py)
        self.cache_budget = CacheBudget(cache_max_bytes)
        # a scope of at least ``vector_index_min_rows`` embedded items is searched through
        # an HNSW index (None: always exactly; ann.py), built again
        # ``vector_index_retry_s`` after it failed
        self._vectors = vectors.cache(
            self.cache_budget, vector_index_min_rows, retry_s=vector_index_retry_s
        )
        self._terms = lexical.cache(self.cache_budget)
        # per user scope, in the same budget: the live facts as a read scores them, its
        # facts of any status decoded, its graph edges, each with the fact versions it
        # was read at (fact_copies.py)
        self._fact_rows: BudgetSection[Kept[FactRows]] = self.cache_budget.section(
            "sqlite_fact_rows", FACT_ROWS_KEPT, weigh
        )
        self._scope_facts: BudgetSection[Kept[ScopeFacts]] = self.cache_budget.section(
            "sqlite_scope_facts", SCOPE_FACTS_KEPT, weigh
        )
        self._graphs: BudgetSection[Kept[list[GraphEdge]]] = self.cache_budget.section(
            "sqlite_graph_edges", FACT_ROWS_KEPT
        )
        self._outbox: Outbox | None = None

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        cache_max_bytes: int | None = DEFAULT_MAX_MB << 20,
        vector_index_min_rows: int | None = DEFAULT_MIN_ROWS,
        vector_index_retry_s: float = DEFAULT_RETRY_S,
    ) -> Self:
        return cls(
            path_from_url(url),
            cache_max_bytes=cache_max_bytes,
            vector_index_min_rows=vector_index_min_rows,
            vector_index_retry_s=vector_index_retry_s,
        )

    def vector_index_status(self) -> dict[str, object]:
        """How this process's vector searches were answered (``hnsw``, ``exact`` for a
        small scope, ``exact_unindexed`` while a large scope's index is built or when it
        is unavailable, ``exact_filtered`` for a filter allowing few rows), the indexes
        held and being built, the scopes whose index failed (``failed``: built again
        after a back-off) and ``degraded``: why, or None."""
        return self._vectors.indexes.status()

    def wait_for_vector_indexes(self, timeout: float | None = None) -> None:
        """Wait for the vector indexes being built now (tests, benchmarks)."""
        self._vectors.indexes.wait(timeout)

    def hold_outbox(self, outbox: Outbox) -> None:
        """Queue the jobs of unprocessed events in the transaction that commits them
        (``outbox``: the embedded job queue, whose table is in this same file)."""
        self._outbox = outbox

    async def open(self) -> None:
        def run() -> None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # migrations manage their own transactions, so they get their own connection
            conn = connect(self.path)
            try:
                migrate(conn)
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
            finally:
                conn.close()

        await asyncio.to_thread(run)

    async def close(self) -> None:
        await self._db.close()
        self._vectors.clear()
        self._terms.clear()
        self._fact_rows.clear()
        self._scope_facts.clear()
        self._graphs.clear()

    async def schema_version(self) -> int:
        def q(conn: sqlite3.Connection) -> int:
            row = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
            return int(row[0] or 0)

        return await self._db.read(q)

    async def get_meta(self, key: str) -> str | None:
        def q(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            return None if row is None else str(row[0])

        return await self._db.read(q)

    async def set_meta(self, key: str, value: str) -> None:
        def q(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

        await self._db.write(q)

    async def scope_stats(self, scope: Scope) -> ScopeStats:
        return await self._db.read(lambda conn: _scope_stats(conn, scope))

    async def _decoded(
        self,
        sql: str,
        params: Sequence[object],
        decode: Callable[[sqlite3.Row], T],
        *,
        here: bool = False,
    ) -> list[T]:
        """Each row of one query on a reader connection, as ``decode`` makes it (``here``:
        on this thread, for a query that reads a few rows)."""
        return await self._db.read(
            lambda conn: [decode(r) for r in query(conn, sql, params)], here=here
        )

    async def _by_ids(
        self, of: RowsById[sqlite3.Row, T], tenant_id: str, ids: Sequence[str]
    ) -> list[T]:
        """``rows_by_ids`` on a reader connection (none when no id is asked)."""
        if not ids:
            return []
        return await self._db.read(lambda conn: rows_by_ids(conn, of, tenant_id, ids))


def rows_by_ids(
    conn: sqlite3.Connection, of: RowsById[sqlite3.Row, T], tenant_id: str, ids: Sequence[str]
) -> list[T]:
    """The rows ``of`` names by id within a tenant, converted, in the order asked; missing
    ids left out."""
    if not ids:
        return []
    # "+tenant_id" keeps SQLite from choosing the scope index (a scan of the whole
    # tenant) over the unique id index: 17 ms -> 1.3 ms at 10k items
    found = query(
        conn,
        f"SELECT {of.columns} FROM {of.table} WHERE +{of.prefix}tenant_id = ?"
        f" AND {of.prefix}id IN ({', '.join('?' * len(ids))})",
        (tenant_id, *ids),
    )
    by_id = {r["id"]: of.convert(r) for r in found}
    return [by_id[i] for i in ids if i in by_id]


def scope_where(
    scope: Scope,
    *,
    agent: bool = True,
    session_column: str | None = "session_id",
    prefix: str = "",
) -> tuple[str, list[object]]:
    """tenant and namespace always; user, agent and session when the scope sets them
    (and the table has the column)."""
    named = records.scope_filter(scope, agent=agent, session_column=session_column)
    return " AND ".join(f"{prefix}{c} = ?" for c, _ in named), [v for _, v in named]


def _grouped(conn: sqlite3.Connection, sql: str, params: Sequence[object]) -> dict[str, int]:
    return {str(k): int(n) for k, n in conn.execute(sql, params)}


def _scope_stats(conn: sqlite3.Connection, scope: Scope) -> ScopeStats:
    full, params = scope_where(scope)
    owner, owner_params = scope_where(scope, agent=False, session_column=None)
    sessions, session_params = scope_where(scope, session_column="id")
    conn.execute("BEGIN")  # one snapshot for every count
    try:
        count = conn.execute(f"SELECT count(*) FROM events WHERE {full}", params).fetchone()[0]
        return ScopeStats(
            events=int(count),
            items=_grouped(
                conn, f"SELECT status, count(*) FROM items WHERE {full} GROUP BY status", params
            ),
            items_by_kind=_grouped(
                conn,
                # items_kind would serve the GROUP BY from its order, reading every user's
                # rows of the namespace: the scope's index reads only the scope's
                "SELECT kind, count(*) FROM items INDEXED BY items_scope"
                f" WHERE {full} AND status = ? GROUP BY kind",
                [*params, ItemStatus.ACTIVE.value],
            ),
            facts=_grouped(
                conn, f"SELECT status, count(*) FROM facts WHERE {full} GROUP BY status", params
            ),
            entities=int(
                conn.execute(
                    f"SELECT count(*) FROM entities WHERE {owner}", owner_params
                ).fetchone()[0]
            ),
            relations=int(
                conn.execute(
                    f"SELECT count(*) FROM relations WHERE {full} AND active = 1", params
                ).fetchone()[0]
            ),
            open_conflicts=int(
                conn.execute(
                    f"SELECT count(*) FROM conflicts WHERE {full} AND status = ?",
                    [*params, ConflictStatus.OPEN.value],
                ).fetchone()[0]
            ),
            sessions=_grouped(
                conn,
                f"SELECT status, count(*) FROM sessions WHERE {sessions} GROUP BY status",
                session_params,
            ),
        )
    finally:
        conn.execute("COMMIT")
