"""The embedded default store: one SQLite file (WAL, FTS5, exact vector search)."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import numpy as np

from cognimem.errors import Conflict, SchemaMismatch, StaleKnowledge, UsageError
from cognimem.models import Event, ItemStatus, MemoryItem, MessageResult, Scope, WriteOutcome
from cognimem.models.admin import (
    ApiKey,
    ErasureReport,
    ExportRecord,
    ScopeStats,
    Session,
    SessionStatus,
)
from cognimem.models.clock import to_micros
from cognimem.models.knowledge import (
    Alias,
    Entity,
    Fact,
    FactConflict,
    HistoryEntry,
    Relation,
)
from cognimem.store import forgetting as cascade
from cognimem.store import records, transfer
from cognimem.store.base import (
    Candidate,
    FactQuery,
    FactRows,
    FactUpdate,
    GraphEdge,
    ItemFilter,
    Knowledge,
    PendingItem,
    PendingJob,
    PendingMessage,
    jobs_of,
)
from cognimem.store.forgetting import Forgotten
from cognimem.store.sqlite import forgetting, keys, lexical, pending, rows, scopes, vectors
from cognimem.store.sqlite import knowledge as kn
from cognimem.store.sqlite import lifecycle as lc
from cognimem.store.sqlite.connection import Connections, connect, translate
from cognimem.store.sqlite.migrations import MIGRATIONS

T = TypeVar("T")

_MAX_PARAMS = 30_000  # SQLite >= 3.32 allows 32766 bound parameters
_FACT_ROWS_CACHED = 256  # user scopes whose scored facts a process keeps
_EXPORT_PAGE = 500  # rows per read while exporting


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


def _migrate(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    applied = {int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations")}
    known = {version for version, _, _ in MIGRATIONS}
    if applied - known:
        raise SchemaMismatch(
            f"the database has schema versions {sorted(applied - known)} that this cognimem "
            "does not know; upgrade cognimem"
        )
    # in version order, whatever the list's: a number may be skipped (one backend's
    # alone) and two branches may append theirs in either order
    for version, name, sql in sorted(MIGRATIONS):
        if version in applied:
            continue
        # executescript commits implicitly, so run the statements one by one in our tx
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (version,)
            ).fetchone():
                conn.execute("ROLLBACK")  # another process applied it meanwhile
                continue
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (version, name, datetime.now(UTC).isoformat()),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def _statements(sql: str) -> list[str]:
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _scope_clause(flt: ItemFilter, alias: str = "") -> tuple[str, list[object]]:
    p = f"{alias}." if alias else ""
    s = flt.scope
    clauses = [f"{p}tenant_id = ?", f"{p}namespace = ?"]
    params: list[object] = [s.tenant_id, s.namespace]
    for column, value in (
        ("user_id", s.user_id),
        ("agent_id", s.agent_id),
        ("session_id", s.session_id),
    ):
        if value is not None:
            clauses.append(f"{p}{column} = ?")
            params.append(value)
    clauses.append(f"{p}status IN ({', '.join('?' * len(flt.statuses))})")
    params += [st.value for st in flt.statuses]
    if flt.kinds is not None:
        clauses.append(f"{p}kind IN ({', '.join('?' * len(flt.kinds))})")
        params += [k.value for k in flt.kinds]
    if flt.since is not None:
        clauses.append(f"{p}occurred_at >= ?")
        params.append(to_micros(flt.since))
    if flt.until is not None:
        clauses.append(f"{p}occurred_at <= ?")
        params.append(to_micros(flt.until))
    if flt.period is not None:
        start, end = (to_micros(t) for t in flt.period)
        clauses.append(
            f"(({p}occurred_at >= ? AND {p}occurred_at < ?)"
            f" OR ({p}event_start < ? AND {p}event_end > ?))"
        )
        params += [start, end, end, start]
    return " AND ".join(clauses), params


class SQLiteStore:
    """``Store`` on a SQLite file. Safe for several processes sharing the file."""

    def __init__(self, path: Path | str, *, readers: int = 2) -> None:
        self.path = Path(path)
        self._db = Connections(self.path, readers=readers)
        self._vectors = vectors.cache()
        self._terms = lexical.cache()
        # per user scope: (fact version, the live facts as a read scores them)
        self._fact_rows: OrderedDict[tuple[str, str, str, int], tuple[int, FactRows]] = (
            OrderedDict()
        )
        self._fact_rows_lock = threading.Lock()
        # per user scope: (fact versions of the user and of the namespace, its edges)
        self._graphs: OrderedDict[
            tuple[str, str, str | None, int], tuple[tuple[int, ...], list[GraphEdge]]
        ] = OrderedDict()
        self._outbox: pending.Outbox | None = None

    @classmethod
    def from_url(cls, url: str) -> SQLiteStore:
        return cls(path_from_url(url))

    def hold_outbox(self, outbox: pending.Outbox) -> None:
        """Queue the jobs of unprocessed events in the transaction that commits them
        (``outbox``: the embedded job queue, whose table is in this same file)."""
        self._outbox = outbox

    # -- lifecycle -------------------------------------------------------------------
    async def open(self) -> None:
        def run() -> None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # migrations manage their own transactions, so they get their own connection
            conn = connect(self.path)
            try:
                _migrate(conn)
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
        self._graphs.clear()

    async def schema_version(self) -> int:
        def q(conn: sqlite3.Connection) -> int:
            row = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
            return int(row[0] or 0)

        return await self._db.read(q)

    # -- meta ------------------------------------------------------------------------
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

    # -- writes ----------------------------------------------------------------------
    async def find_duplicates(
        self, messages: Sequence[Event], dedupe_window_s: float
    ) -> dict[int, MessageResult]:
        def q(conn: sqlite3.Connection) -> dict[int, MessageResult]:
            found: dict[int, MessageResult] = {}
            for index, event in enumerate(messages):
                original = _find_original(conn, event, dedupe_window_s)
                if original is not None:
                    found[index] = original
            return found

        return await self._db.read(q)

    async def commit(
        self,
        messages: Sequence[PendingMessage],
        dedupe_window_s: float,
        knowledge: Knowledge | None = None,
    ) -> list[MessageResult]:
        def tx(conn: sqlite3.Connection) -> list[MessageResult]:
            # in the transaction, so a session closed since the caller checked is seen
            for tenant_id, namespace, session_id in records.named_sessions(messages):
                status = conn.execute(
                    "SELECT status FROM sessions WHERE tenant_id = ? AND namespace = ? AND id = ?",
                    (tenant_id, namespace, session_id),
                ).fetchone()
                if status is not None and status[0] == SessionStatus.CLOSED.value:
                    raise records.closed_session(session_id)
            if knowledge is not None:
                kn.check_read_set(conn, knowledge)
            results: list[MessageResult] = []
            stored: list[PendingMessage] = []
            for message in messages:
                event = message.event
                original = _find_original(conn, event, dedupe_window_s)
                if original is not None:
                    if knowledge is not None and not knowledge.is_empty():
                        raise StaleKnowledge(f"event {event.id} became a duplicate")
                    results.append(original)
                    continue
                conn.execute(rows.INSERT_EVENT, rows.event_params(event))
                if not message.processed:
                    pending.mark_unprocessed(conn, message)
                stored.append(message)
                item_ids = _insert_items(conn, message.items)
                item_ids += _merge(conn, event, message.merged_into)
                outcome = (
                    WriteOutcome.STORED
                    if item_ids or not message.skipped_chunks
                    else (WriteOutcome.SKIPPED_SECRET)
                )
                results.append(
                    MessageResult(
                        event_id=event.id,
                        item_ids=item_ids,
                        outcome=outcome,
                        skipped_chunks=message.skipped_chunks,
                        redactions=message.redactions,
                    )
                )
            if knowledge is not None:
                self._apply(conn, knowledge)
            if self._outbox is not None:
                for job in jobs_of(stored):
                    self._outbox.enqueue_in(conn, job)
            return results

        return await self._db.write(tx)

    def _apply(self, conn: sqlite3.Connection, knowledge: Knowledge) -> None:
        kn.apply(conn, knowledge)
        if knowledge.silence_items:
            _set_status(conn, knowledge.silence_items, ItemStatus.SILENT)

    async def add_items(
        self,
        items: Sequence[PendingItem],
        knowledge: Knowledge | None = None,
        merges: Mapping[str, Sequence[str]] | None = None,
        *,
        event_ids: Sequence[str] = (),
    ) -> list[str]:
        merges = merges or {}
        events = {e for p in items for e in p.item.source_event_ids} | set(merges)
        events |= set(event_ids)

        def tx(conn: sqlite3.Connection) -> list[str]:
            marks = ", ".join("?" * len(events))
            stored, done = conn.execute(
                f"SELECT COUNT(*), COALESCE(SUM(processed), 0) FROM events WHERE id IN ({marks})",
                tuple(events),
            ).fetchone()
            if done or stored < len(events):
                # this job (or part of it) was applied already, or its events were
                # erased meanwhile: deriving items from them would bring them back
                return []
            if knowledge is not None:
                kn.check_read_set(conn, knowledge)
            inserted = _insert_items(conn, items)
            stored = {e.id: e for e in _events_by_id(conn, list(merges))}
            for event_id, targets in merges.items():
                if event_id in stored:  # an event deleted meanwhile has nothing to merge
                    _merge(conn, stored[event_id], targets)
            conn.execute(f"UPDATE events SET processed = 1 WHERE id IN ({marks})", tuple(events))
            if knowledge is not None:
                self._apply(conn, knowledge)
            return inserted

        if not events and (knowledge is None or knowledge.is_empty()):
            return []
        return await self._db.write(tx)

    async def unprocessed(self, tenant_id: str, event_ids: Sequence[str]) -> list[str]:
        if not event_ids:
            return []

        def q(conn: sqlite3.Connection) -> list[str]:
            found = {
                r[0]
                for r in conn.execute(
                    f"SELECT id FROM events WHERE +tenant_id = ? AND id IN"
                    f" ({', '.join('?' * len(event_ids))}) AND processed = 0",
                    (tenant_id, *event_ids),
                )
            }
            return [e for e in event_ids if e in found]

        return await self._db.read(q)

    async def pending_jobs(self, tenant_id: str, event_ids: Sequence[str]) -> list[PendingJob]:
        if not event_ids:
            return []
        return await self._db.read(lambda conn: pending.pending_jobs(conn, tenant_id, event_ids))

    async def stranded_jobs(self, recorded_before: datetime, limit: int) -> list[PendingJob]:
        before = to_micros(recorded_before)
        return await self._db.read(lambda conn: pending.stranded_jobs(conn, before, limit))

    async def set_item_status(self, tenant_id: str, ids: Sequence[str], status: ItemStatus) -> int:
        if not ids:
            return 0

        def tx(conn: sqlite3.Connection) -> int:
            owned = [
                r[0]
                for r in conn.execute(
                    f"SELECT id FROM items WHERE +tenant_id = ? AND id IN"
                    f" ({', '.join('?' * len(ids))})",
                    (tenant_id, *ids),
                )
            ]
            return _set_status(conn, owned, status)

        return await self._db.write(tx)

    async def delete_items(self, tenant_id: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        return await self._db.write(lambda conn: _delete_items(conn, tenant_id, ids))

    async def forget_items(
        self,
        tenant_id: str,
        ids: Sequence[str],
        status: ItemStatus,
        *,
        now: datetime,
        dry_run: bool = False,
    ) -> Forgotten:
        def tx(conn: sqlite3.Connection) -> Forgotten:
            items, done, relations = forgetting.plan(conn, tenant_id, ids, status)
            if dry_run or not items:
                return cascade.outcome(items, done, relations)
            targets = [i.id for i in [*items, *done.summaries]]
            if status is ItemStatus.DELETED:
                _delete_items(conn, tenant_id, targets)
            else:
                _set_status(conn, targets, status)
            forgetting.apply(conn, done, status, now)
            kn.insert_history(conn, cascade.history(items, done, status, now))
            return cascade.outcome(items, done, relations)

        if not ids:
            return Forgotten()
        return await (self._db.read(tx) if dry_run else self._db.write(tx))

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        if not ids:
            return

        def tx(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE items SET access_count = access_count + 1,"
                " loaded_count = loaded_count + 1, last_accessed_at = ?"
                f" WHERE +tenant_id = ? AND id IN ({', '.join('?' * len(ids))})",
                (to_micros(at), tenant_id, *ids),
            )

        await self._db.write(tx)

    # -- reads -----------------------------------------------------------------------
    async def get_items(self, tenant_id: str, ids: Sequence[str]) -> list[MemoryItem]:
        return await self._by_ids("items", rows.ITEM_COLUMNS, rows.item_from_row, tenant_id, ids)

    async def get_events(self, tenant_id: str, ids: Sequence[str]) -> list[Event]:
        return await self._by_ids("events", rows.EVENT_COLUMNS, rows.event_from_row, tenant_id, ids)

    async def _by_ids(
        self,
        table: str,
        columns: str,
        convert: Callable[[sqlite3.Row], T],
        tenant_id: str,
        ids: Sequence[str],
    ) -> list[T]:
        """Rows of ``table`` by id within a tenant, in the order asked; missing ids left out."""
        if not ids:
            return []

        def q(conn: sqlite3.Connection) -> list[T]:
            conn.row_factory = sqlite3.Row
            try:
                # "+tenant_id" keeps SQLite from choosing the scope index (a scan of the
                # whole tenant) over the unique id index: 17 ms -> 1.3 ms at 10k items
                found = conn.execute(
                    f"SELECT {columns} FROM {table}"
                    f" WHERE +tenant_id = ? AND id IN ({', '.join('?' * len(ids))})",
                    (tenant_id, *ids),
                ).fetchall()
            finally:
                conn.row_factory = None
            by_id = {r["id"]: convert(r) for r in found}
            return [by_id[i] for i in ids if i in by_id]

        return await self._db.read(q)

    async def previous_event(
        self, scope: Scope, before: datetime, *, exclude: Sequence[str] = ()
    ) -> Event | None:
        def q(conn: sqlite3.Connection) -> Event | None:
            conn.row_factory = sqlite3.Row
            try:
                row = conn.execute(
                    f"SELECT {rows.EVENT_COLUMNS} FROM events WHERE tenant_id = ?"
                    " AND namespace = ? AND user_id IS ? AND agent_id IS ? AND session_id IS ?"
                    f" AND occurred_at <= ? AND id NOT IN ({', '.join('?' * len(exclude))})"
                    " ORDER BY occurred_at DESC, rowid DESC LIMIT 1",
                    (
                        scope.tenant_id, scope.namespace, scope.user_id, scope.agent_id,
                        scope.session_id, to_micros(before), *exclude,
                    ),
                ).fetchone()  # fmt: skip
            finally:
                conn.row_factory = None
            return None if row is None else rows.event_from_row(row)

        return await self._db.read(q)

    async def count_items(self, flt: ItemFilter) -> int:
        where, params = _scope_clause(flt)

        def q(conn: sqlite3.Connection) -> int:
            return int(
                conn.execute(f"SELECT COUNT(*) FROM items WHERE {where}", params).fetchone()[0]
            )

        return await self._db.read(q)

    async def lexical_search(
        self, flt: ItemFilter, terms: Sequence[str], limit: int
    ) -> list[Candidate]:
        s = flt.scope
        if limit <= 0 or not any(t.strip() for t in terms):
            return []

        def q(conn: sqlite3.Connection) -> list[Candidate]:
            index = self._terms.get(conn, s.tenant_id, s.namespace, s.user_id)
            return [Candidate(i, score) for i, score in lexical.search(index, flt, terms, limit)]

        return await self._db.read(q)

    async def vector_search(
        self, flt: ItemFilter, vector: np.ndarray, limit: int
    ) -> list[Candidate]:
        s = flt.scope
        query = np.asarray(vector, dtype=np.float32)

        def q(conn: sqlite3.Connection) -> list[Candidate]:
            matrix = self._vectors.get(conn, s.tenant_id, s.namespace, s.user_id)
            return [Candidate(i, score) for i, score in vectors.search(matrix, flt, query, limit)]

        return await self._db.read(q)

    async def vector_searches(
        self, searches: Sequence[tuple[ItemFilter, int]], vector: np.ndarray
    ) -> list[list[Candidate]]:
        if not searches:
            return []
        s = searches[0][0].scope
        query = np.asarray(vector, dtype=np.float32)

        def q(conn: sqlite3.Connection) -> list[list[Candidate]]:
            matrix = self._vectors.get(conn, s.tenant_id, s.namespace, s.user_id)
            found = vectors.search_many(matrix, searches, query)
            return [[Candidate(i, score) for i, score in one] for one in found]

        return await self._db.read(q)

    # -- knowledge -------------------------------------------------------------------
    async def find_facts(self, query: FactQuery) -> list[Fact]:
        return await self._db.read(lambda conn: kn.find_facts(conn, query))

    async def get_facts(self, tenant_id: str, ids: Sequence[str]) -> list[Fact]:
        return await self._by_ids("facts", records.FACT_COLUMNS, kn.fact_from_row, tenant_id, ids)

    async def fact_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> FactRows:
        user = records.user_key(user_id)
        cache_key = (tenant_id, namespace, user, limit)

        def q(conn: sqlite3.Connection) -> FactRows:
            # one primary-key read tells whether this process's copy is current
            version = kn.fact_version(conn, tenant_id, namespace, user)
            cached = self._fact_rows.get(cache_key)
            if cached is not None and cached[0] == version:
                return cached[1]
            found = conn.execute(
                # the newest rows are chosen without touching the embedding blobs, which
                # would otherwise be carried through the sort (10 ms -> 3 ms at 1.6k facts)
                "SELECT id, category, scope_tags, text, value, predicate, embedding FROM facts"
                " WHERE rowid IN (SELECT rowid FROM facts WHERE tenant_id = ? AND namespace = ?"
                " AND user_id IS ? AND status IN (?, ?) ORDER BY recorded_at DESC, rowid DESC"
                " LIMIT ?) ORDER BY recorded_at DESC, rowid DESC",
                (tenant_id, namespace, user_id, *kn.LIVE, limit),
            ).fetchall()
            rows = records.fact_rows(
                [(r[0], r[1], r[2], f"{r[3]} {r[4]} {r[5]}", r[6]) for r in found]
            )
            with self._fact_rows_lock:
                self._fact_rows[cache_key] = (version, rows)
                self._fact_rows.move_to_end(cache_key)
                while len(self._fact_rows) > _FACT_ROWS_CACHED:
                    self._fact_rows.popitem(last=False)
            return rows

        return await self._db.read(q)

    async def get_entities(self, tenant_id: str, ids: Sequence[str]) -> list[Entity]:
        return await self._by_ids(
            "entities", records.ENTITY_COLUMNS, kn.entity_from_row, tenant_id, ids
        )

    async def find_aliases(
        self,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        names: Sequence[str] | None,
        *,
        all_users: bool = False,
    ) -> list[Alias]:
        return await self._db.read(
            lambda conn: kn.find_aliases(
                conn, tenant_id, namespace, user_id, names, all_users=all_users
            )
        )

    async def find_relations(
        self,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        entity_ids: Sequence[str],
        *,
        all_users: bool = False,
    ) -> list[Relation]:
        return await self._db.read(
            lambda conn: kn.find_relations(
                conn, tenant_id, namespace, user_id, entity_ids, all_users=all_users
            )
        )

    async def graph_edges(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> list[GraphEdge]:
        cache_key = (tenant_id, namespace, user_id, limit)
        owners = [records.user_key(None)] + ([] if user_id is None else [records.user_key(user_id)])

        def q(conn: sqlite3.Connection) -> list[GraphEdge]:
            # relations are dated by the fact versions of their owners (the user and the
            # namespace): two primary-key reads tell whether this process's copy is current
            version = tuple(kn.fact_version(conn, tenant_id, namespace, o) for o in owners)
            cached = self._graphs.get(cache_key)
            if cached is not None and cached[0] == version:
                return cached[1]
            edges = kn.graph_edges(conn, tenant_id, namespace, user_id, limit)
            with self._fact_rows_lock:
                self._graphs[cache_key] = (version, edges)
                self._graphs.move_to_end(cache_key)
                while len(self._graphs) > _FACT_ROWS_CACHED:
                    self._graphs.popitem(last=False)
            return edges

        return await self._db.read(q)

    async def find_conflicts(
        self,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        *,
        open_only: bool = True,
        all_users: bool = False,
    ) -> list[FactConflict]:
        return await self._db.read(
            lambda conn: kn.find_conflicts(
                conn, tenant_id, namespace, user_id, open_only, all_users=all_users
            )
        )

    async def get_history(self, tenant_id: str, target_id: str) -> list[HistoryEntry]:
        return await self._db.read(lambda conn: kn.get_history(conn, tenant_id, target_id))

    async def nearest(self, flt: ItemFilter, queries: np.ndarray) -> list[Candidate | None]:
        s = flt.scope
        batch = np.asarray(queries, dtype=np.float32)

        def q(conn: sqlite3.Connection) -> list[Candidate | None]:
            matrix = self._vectors.get(conn, s.tenant_id, s.namespace, s.user_id)
            return [
                None if hit is None else Candidate(hit[0], hit[1])
                for hit in vectors.nearest(matrix, flt, batch)
            ]

        return await self._db.read(q)

    # -- embedding cache -------------------------------------------------------------
    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        if not hashes:
            return {}

        def q(conn: sqlite3.Connection) -> dict[str, np.ndarray]:
            out: dict[str, np.ndarray] = {}
            # one query per batch, split only past SQLite's bound-parameter limit
            for start in range(0, len(hashes), _MAX_PARAMS):
                part = hashes[start : start + _MAX_PARAMS]
                for text_hash, blob in conn.execute(
                    "SELECT text_hash, vector FROM embedding_cache"
                    f" WHERE model = ? AND text_hash IN ({', '.join('?' * len(part))})",
                    (model, *part),
                ):
                    out[text_hash] = np.frombuffer(blob, dtype=np.float32).copy()
            return out

        return await self._db.read(q)

    async def put_embeddings(self, model: str, vectors_: Mapping[str, np.ndarray]) -> None:
        if not vectors_:
            return
        now = to_micros(datetime.now(UTC))

        def tx(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT OR REPLACE INTO embedding_cache (model, text_hash, dim, vector, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (model, h, int(v.shape[0]), np.asarray(v, np.float32).tobytes(), now)
                    for h, v in vectors_.items()
                ],
            )

        await self._db.write(tx)

    # -- lifecycle: edits, sessions, statistics, erasure, export ---------------------
    async def list_item_ids(self, flt: ItemFilter, limit: int) -> list[str]:
        where, params = _scope_clause(flt)

        def q(conn: sqlite3.Connection) -> list[str]:
            sql = f"SELECT id FROM items WHERE {where} ORDER BY occurred_at DESC, rowid DESC"
            return [r[0] for r in conn.execute(f"{sql} LIMIT ?", (*params, limit))]

        return await self._db.read(q)

    async def update_item(
        self,
        item: MemoryItem,
        *,
        expected: MemoryItem,
        history: HistoryEntry,
        embedding: np.ndarray | None = None,
        search_text: str | None = None,
    ) -> None:
        await self._db.write(
            lambda conn: lc.update_item(conn, item, expected, history, embedding, search_text)
        )

    async def get_conflict(self, tenant_id: str, conflict_id: str) -> FactConflict | None:
        return await self._db.read(lambda conn: lc.get_conflict(conn, tenant_id, conflict_id))

    async def resolve_conflict(
        self,
        conflict: FactConflict,
        fact_updates: Sequence[FactUpdate],
        history: Sequence[HistoryEntry],
        silence_items: Sequence[str] = (),
    ) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            lc.resolve_conflict(conn, conflict, fact_updates, history)
            _set_status(conn, silence_items, ItemStatus.SILENT)

        await self._db.write(tx)

    async def append_history(self, entries: Sequence[HistoryEntry]) -> None:
        if entries:
            await self._db.write(lambda conn: kn.insert_history(conn, entries))

    async def put_session(self, session: Session) -> None:
        await self._db.write(lambda conn: lc.put_session(conn, session))

    async def get_session(self, tenant_id: str, namespace: str, session_id: str) -> Session | None:
        return await self._db.read(
            lambda conn: lc.get_session(conn, tenant_id, namespace, session_id)
        )

    async def list_sessions(self, scope: Scope, limit: int) -> list[Session]:
        return await self._db.read(lambda conn: lc.list_sessions(conn, scope, limit))

    async def scope_stats(self, scope: Scope) -> ScopeStats:
        return await self._db.read(lambda conn: lc.scope_stats(conn, scope))

    async def erase_user(self, tenant_id: str, user_id: str) -> ErasureReport:
        report = await self._db.write(lambda conn: lc.erase_user(conn, tenant_id, user_id))
        # the rows are gone and the versions moved on; copies in this process's memory go too
        self._vectors.drop_tenant(tenant_id)
        self._terms.drop_tenant(tenant_id)
        with self._fact_rows_lock:
            for key in [k for k in self._fact_rows if k[0] == tenant_id]:
                del self._fact_rows[key]
        return report

    async def export_records(
        self, scope: Scope, *, all_namespaces: bool = False
    ) -> AsyncIterator[ExportRecord]:
        for kind in transfer.EXPORT_ORDER:
            after: lc.Cursor | None = None
            while True:
                page, after = await self._db.read(
                    functools.partial(
                        lc.export_page,
                        kind=kind,
                        scope=scope,
                        all_namespaces=all_namespaces,
                        after=after,
                        limit=_EXPORT_PAGE,
                    )
                )
                for rec in page:
                    yield rec
                if after is None:
                    break

    async def held_ids(self, tenant_id: str, ids: Sequence[str]) -> set[str]:
        return await self._db.read(lambda conn: lc.held_ids(conn, tenant_id, ids))

    async def import_records(
        self, tenant_id: str, records: Sequence[ExportRecord], embeddings: Mapping[str, np.ndarray]
    ) -> dict[str, int]:
        batch = transfer.parse(records, tenant_id)
        return await self._db.write(lambda conn: lc.import_batch(conn, batch, embeddings))

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        if not hashes:
            return 0
        return await self._db.write(lambda conn: lc.delete_embeddings(conn, hashes))

    async def flush_deleted(self) -> None:
        await self._db.truncate_wal()

    # -- API keys ----------------------------------------------------------------------
    async def put_api_key(self, key: ApiKey) -> None:
        await self._db.write(lambda conn: keys.put(conn, key))

    async def find_api_key(self, key_hash: str) -> ApiKey | None:
        return await self._db.read(lambda conn: keys.find(conn, key_hash))

    async def list_api_keys(self, tenant_id: str | None) -> list[ApiKey]:
        return await self._db.read(lambda conn: keys.list_keys(conn, tenant_id))

    async def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        return await self._db.write(lambda conn: keys.revoke(conn, key_id, at))


def _insert_items(conn: sqlite3.Connection, items: Sequence[PendingItem]) -> list[str]:
    """Insert items with their index entries and provenance links; bump scope versions."""
    touched: set[tuple[str, str, str | None]] = set()
    for p in items:
        blob = None if p.embedding is None else np.asarray(p.embedding, np.float32).tobytes()
        cur = conn.execute(rows.INSERT_ITEM, rows.item_params(p.item, blob))
        conn.execute(
            "INSERT INTO items_fts (rowid, search_text) VALUES (?, ?)",
            (cur.lastrowid, p.search_text),
        )
        conn.executemany(
            "INSERT OR IGNORE INTO item_events (item_id, event_id) VALUES (?, ?)",
            [(p.item.id, eid) for eid in p.item.source_event_ids],
        )
        s = p.item.scope
        touched.add((s.tenant_id, s.namespace, s.user_id))
    for tenant_id, namespace, user_id in touched:
        scopes.bump_version(conn, tenant_id, namespace, user_id, mutation=False)
    return [p.item.id for p in items]


def _merge(conn: sqlite3.Connection, event: Event, targets: Sequence[str]) -> list[str]:
    """Add ``event`` to the provenance of existing items; returns those that exist."""
    return [t for t in targets if kn.merge_into(conn, t, event.id, event.external_id)]


def _delete_items(conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str]) -> int:
    marks = ", ".join("?" * len(ids))
    found = conn.execute(
        f"SELECT rowid, id, namespace, user_id FROM items WHERE +tenant_id = ? AND id IN ({marks})",
        (tenant_id, *ids),
    ).fetchall()
    for rowid, item_id, namespace, user_id in found:
        conn.execute("DELETE FROM items_fts WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM item_events WHERE item_id = ?", (item_id,))
        conn.execute("DELETE FROM items WHERE rowid = ?", (rowid,))
        scopes.bump_version(conn, tenant_id, namespace, user_id, mutation=True)
    return len(found)


def _set_status(conn: sqlite3.Connection, ids: Sequence[str], status: ItemStatus) -> int:
    changed = 0
    for item_id in ids:
        row = conn.execute(
            "SELECT tenant_id, namespace, user_id FROM items WHERE id = ? AND status != ?",
            (item_id, status.value),
        ).fetchone()
        if row is None:
            continue
        conn.execute("UPDATE items SET status = ? WHERE id = ?", (status.value, item_id))
        scopes.bump_version(conn, row[0], row[1], row[2], mutation=True)
        changed += 1
    return changed


def _events_by_id(conn: sqlite3.Connection, ids: Sequence[str]) -> list[Event]:
    conn.row_factory = sqlite3.Row
    try:
        found = conn.execute(
            f"SELECT {rows.EVENT_COLUMNS} FROM events WHERE id IN ({', '.join('?' * len(ids))})",
            tuple(ids),
        ).fetchall()
    finally:
        conn.row_factory = None
    return [rows.event_from_row(r) for r in found]


def _find_original(
    conn: sqlite3.Connection, event: Event, dedupe_window_s: float
) -> MessageResult | None:
    s = event.scope
    if event.idempotency_key is not None:
        row = conn.execute(
            "SELECT id, content_hash FROM events WHERE tenant_id = ? AND idempotency_key = ?",
            (s.tenant_id, event.idempotency_key),
        ).fetchone()
        if row is None:
            return None
        if row[1] != event.content_hash:
            raise Conflict(
                f"idempotency key {event.idempotency_key!r} was already used for other content",
                details={"idempotency_key": event.idempotency_key, "event_id": row[0]},
            )
    else:
        window = int(dedupe_window_s * 1_000_000)
        at = to_micros(event.occurred_at)
        row = conn.execute(
            "SELECT id FROM events WHERE tenant_id = ? AND content_hash = ?"
            " AND occurred_at BETWEEN ? AND ? AND namespace = ? AND user_id IS ?"
            " AND agent_id IS ? AND session_id IS ? AND role = ? AND name IS ?"
            " AND idempotency_key IS NULL ORDER BY rowid LIMIT 1",
            (
                s.tenant_id, event.content_hash, at - window, at + window, s.namespace,
                s.user_id, s.agent_id, s.session_id, event.role.value, event.name,
            ),
        ).fetchone()  # fmt: skip
        if row is None:
            return None
    item_ids = [
        r[0]
        for r in conn.execute(
            "SELECT ie.item_id FROM item_events ie JOIN items i ON i.id = ie.item_id"
            " WHERE ie.event_id = ? ORDER BY i.rowid",
            (row[0],),
        )
    ]
    return MessageResult(event_id=row[0], item_ids=item_ids, outcome=WriteOutcome.DUPLICATE)
