"""The scale-out store: PostgreSQL with pgvector (HNSW) and tsvector, through asyncpg.

Semantics match ``SQLiteStore`` exactly; what differs is how they are reached:

- every write is one transaction; batches are one ``INSERT ... SELECT FROM unnest(...)``
  per table;
- two processes committing the same message at once are serialised by transaction-level
  advisory locks keyed on the idempotency key (or on scope + role + name + content hash
  for dedupe), so the loser sees the winner's rows and answers ``DUPLICATE``; the unique
  index on idempotency keys stays the final judge (a violation retries the transaction);
- knowledge is written with its messages (or its async job's items) in one transaction;
  a writer first takes an advisory lock per fact key its reconciliation read (with the
  message locks, in one ascending order, so no two writers deadlock on them), then
  checks the read set, so two writers under one key take turns and the second fails
  with ``StaleKnowledge``;
- the HNSW index is created by the first write that carries a vector, for its dimension;
- driver errors are translated at this boundary: an unreachable server is
  ``StoreUnavailable``, anything else ``StoreError``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np

from cognimem.config import redact_url
from cognimem.errors import CognimemError, StoreError, StoreUnavailable, UsageError
from cognimem.models import Event, ItemStatus, MemoryItem, MessageResult, Scope
from cognimem.models.admin import (
    ApiKey,
    ErasureReport,
    ExportRecord,
    ScopeStats,
    Session,
    SessionStatus,
)
from cognimem.models.clock import to_utc
from cognimem.models.knowledge import Alias, Entity, Fact, FactConflict, HistoryEntry, Relation
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
)
from cognimem.store.forgetting import Forgotten
from cognimem.store.postgres import forgetting, keys, pending, rows
from cognimem.store.postgres import knowledge as kn
from cognimem.store.postgres import lifecycle as lc
from cognimem.store.postgres.migrations import (
    VECTOR_DIM_META,
    VECTOR_INDEX_LOCK,
    index_type,
    migrate,
    vector_index_sql,
)

if TYPE_CHECKING:
    from asyncpg import Connection, Pool

T = TypeVar("T")

_EXPORT_PAGE = 500  # rows per query while exporting
_ATTEMPTS = 3  # a commit that loses an idempotency race (or a deadlock) is retried
_URL_OPTIONS = {"min_size": int, "max_size": int, "hnsw_m": int, "hnsw_ef_construction": int}


def _asyncpg() -> ModuleType:
    try:
        import asyncpg
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise UsageError(
            "PostgreSQL support needs asyncpg: pip install 'cognimem[postgres]'"
        ) from exc
    module: ModuleType = asyncpg
    return module


def translate(exc: BaseException, where: str) -> CognimemError:
    """Map a driver or socket error to the cognimem error tree."""
    if isinstance(exc, CognimemError):
        return exc
    apg = _asyncpg()
    unavailable = (
        OSError,  # connection refused, reset, unreachable host
        TimeoutError,  # connect timeout
        apg.PostgresConnectionError,  # includes "connection was closed in the middle"
        apg.CannotConnectNowError,  # starting up or shutting down
        apg.TooManyConnectionsError,
        apg.AdminShutdownError,
        apg.CrashShutdownError,
    )
    if isinstance(exc, unavailable) or (
        isinstance(exc, apg.InterfaceError) and "closed" in str(exc)
    ):
        return StoreUnavailable(
            f"PostgreSQL at {where} is unavailable: {type(exc).__name__}: {exc}",
            retry_after=1.0,
        )
    if isinstance(exc, apg.PostgresError):
        return StoreError(f"PostgreSQL error at {where} ({exc.sqlstate}): {exc}")
    return StoreError(f"PostgreSQL client error at {where}: {type(exc).__name__}: {exc}")


def _dimension(items: Iterable[PendingItem]) -> int | None:
    """The dimension of the first item vector of a write (facts' vectors are not
    indexed, so they do not decide the HNSW index's dimension)."""
    return next((int(p.embedding.shape[0]) for p in items if p.embedding is not None), None)


class PostgresStore:
    """``Store`` on PostgreSQL + pgvector. Any number of processes may share a database."""

    def __init__(
        self,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        hnsw_m: int = 16,
        hnsw_ef_construction: int = 64,
        connect_timeout: float = 10.0,
    ) -> None:
        _asyncpg()
        if not 0 <= min_size <= max_size or max_size < 1:
            raise UsageError(
                f"PostgreSQL pool sizes need 0 <= min_size <= max_size and max_size >= 1,"
                f" got min_size={min_size} max_size={max_size}"
            )
        if hnsw_m < 2 or hnsw_ef_construction < 2 * hnsw_m:
            raise UsageError(
                f"HNSW needs m >= 2 and ef_construction >= 2 * m, got m={hnsw_m}"
                f" ef_construction={hnsw_ef_construction}"
            )
        self.dsn = dsn
        self.min_size = min_size
        self.max_size = max_size
        self.hnsw_m = hnsw_m
        self.hnsw_ef_construction = hnsw_ef_construction
        self.connect_timeout = connect_timeout
        self._where = redact_url(dsn)
        self._pool: Pool | None = None
        self._closed = False
        self._vector_schema = "public"
        self._index_dim: int | None = None  # the HNSW index's dimension, once there is one

    @classmethod
    def from_url(cls, url: str) -> PostgresStore:
        """``postgresql://user:pass@host:port/db?max_size=20`` (also ``postgres://``).

        ``min_size``, ``max_size``, ``hnsw_m`` and ``hnsw_ef_construction`` may be given
        as query parameters; every other parameter goes to the server as usual.
        """
        parts = urlsplit(url)
        scheme = parts.scheme.split("+", 1)[0]  # postgresql+asyncpg:// from SQLAlchemy habits
        if scheme not in ("postgresql", "postgres"):
            raise UsageError(f"not a PostgreSQL URL: {redact_url(url)!r}")
        options: dict[str, Any] = {}
        rest: list[tuple[str, str]] = []
        for name, value in parse_qsl(parts.query, keep_blank_values=True):
            if name in _URL_OPTIONS:
                try:
                    options[name] = _URL_OPTIONS[name](value)
                except ValueError as exc:
                    raise UsageError(f"bad {name}={value!r} in the PostgreSQL URL") from exc
            else:
                rest.append((name, value))
        dsn = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(rest), ""))
        return cls(dsn, **options)

    # -- lifecycle -------------------------------------------------------------------
    async def open(self) -> None:
        """Connect, run pending migrations and start the pool."""
        if self._pool is not None:
            return
        apg = _asyncpg()
        try:
            conn = await apg.connect(self.dsn, timeout=self.connect_timeout)
            try:
                await migrate(conn)
                self._vector_schema = await conn.fetchval(
                    "SELECT n.nspname FROM pg_type t JOIN pg_namespace n"
                    " ON n.oid = t.typnamespace WHERE t.typname = 'vector'"
                )
                dim = await conn.fetchval("SELECT value FROM meta WHERE key = $1", VECTOR_DIM_META)
            except BaseException:
                conn.terminate()
                raise
            await conn.close()
            self._index_dim = None if dim is None else int(dim)
            self._pool = await apg.create_pool(
                self.dsn,
                min_size=self.min_size,
                max_size=self.max_size,
                timeout=self.connect_timeout,
                init=self._init_connection,
            )
        except Exception as exc:
            raise translate(exc, self._where) from exc
        self._closed = False

    async def _init_connection(self, conn: Connection) -> None:
        await conn.set_type_codec(
            "vector",
            schema=self._vector_schema,
            encoder=rows.encode_vector,
            decoder=rows.decode_vector,
            format="binary",
        )

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        self._closed = True
        if pool is not None:
            try:
                await pool.close()
            except Exception:
                pool.terminate()  # the server is gone; drop the sockets

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A pooled connection; every foreign error leaving the block is translated."""
        if self._pool is None:
            if self._closed:
                raise StoreUnavailable(f"the store for {self._where} is closed", retry_after=0)
            raise UsageError("PostgresStore.open() must be awaited before use")
        try:
            async with self._pool.acquire() as conn:
                yield conn
        except CognimemError:
            raise
        except Exception as exc:
            raise translate(exc, self._where) from exc

    async def schema_version(self) -> int:
        async with self._connection() as conn:
            return int(await conn.fetchval("SELECT max(version) FROM schema_migrations") or 0)

    # -- meta ------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        async with self._connection() as conn:
            value = await conn.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key,
                value,
            )

    # -- writes ----------------------------------------------------------------------
    async def find_duplicates(
        self, messages: Sequence[Event], dedupe_window_s: float
    ) -> dict[int, MessageResult]:
        if not messages:
            return {}
        async with self._connection() as conn:
            found = await rows.find_originals(conn, messages, dedupe_window_s)
        for index, original in found.items():
            rows.check_key(messages[index], original)
        return {index: rows.duplicate(original) for index, original in found.items()}

    async def commit(
        self,
        messages: Sequence[PendingMessage],
        dedupe_window_s: float,
        knowledge: Knowledge | None = None,
    ) -> list[MessageResult]:
        if not messages and knowledge is None:
            return []
        strict = knowledge is not None and not knowledge.is_empty()

        async def body(conn: Connection) -> list[MessageResult]:
            # the message locks and the read set's key locks in one ascending order
            await rows.take_locks(
                conn,
                [rows.message_lock(m.event) for m in messages] + kn.read_set_locks(knowledge),
            )
            # a closing session waits for this transaction, or this one sees it closed
            for tenant_id, namespace, session_id in records.named_sessions(messages):
                status = await conn.fetchval(
                    "SELECT status FROM sessions WHERE tenant_id = $1 AND namespace = $2"
                    " AND id = $3 FOR SHARE",
                    tenant_id, namespace, session_id,
                )  # fmt: skip
                if status == SessionStatus.CLOSED.value:
                    raise records.closed_session(session_id)
            if knowledge is not None:
                await kn.check_read_set(conn, knowledge)
            results = await rows.commit_batch(conn, messages, dedupe_window_s, strict=strict)
            if knowledge is not None:
                await self._apply(conn, knowledge)
            return results

        return await self._write(body, _dimension(p for m in messages for p in m.items))

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
        if not events and (knowledge is None or knowledge.is_empty()):
            return []

        async def body(conn: Connection) -> list[str]:
            await rows.take_locks(
                conn, [rows.event_lock(e) for e in events] + kn.read_set_locks(knowledge)
            )
            inserted = await rows.attach_items(conn, items, merges, event_ids)
            if inserted is None:
                return []  # this job (or part of it) was applied already
            if knowledge is not None:
                # after the items, in the same transaction: a stale read set undoes them
                await kn.check_read_set(conn, knowledge)
                await self._apply(conn, knowledge)
            return inserted

        return await self._write(body, _dimension(items))

    async def _apply(self, conn: Connection, knowledge: Knowledge) -> None:
        await kn.apply(conn, knowledge)
        if knowledge.silence_items:
            # vector and lexical search filter on status inside their queries, so this
            # is all it takes for silenced items to drop out of both
            await conn.execute(
                "UPDATE items SET status = $2 WHERE id = ANY($1::text[]) AND status <> $2",
                list(knowledge.silence_items),
                ItemStatus.SILENT.value,
            )

    async def _write(self, body: Callable[[Connection], Awaitable[T]], dim: int | None) -> T:
        """Run ``body`` in a transaction (first building the vector index if this write
        brings the first vector), retrying lost idempotency races and deadlocks."""
        apg = _asyncpg()
        async with self._connection() as conn:
            for attempt in range(1, _ATTEMPTS + 1):
                try:
                    index_dim = self._index_dim
                    async with conn.transaction():
                        if dim is not None and index_dim is None:
                            index_dim = await self._ensure_vector_index(conn, dim)
                        result = await body(conn)
                    self._index_dim = index_dim  # only once the transaction is committed
                    return result
                except apg.UniqueViolationError as exc:
                    # someone committed the same idempotency key without our lock: retry,
                    # and the recheck answers DUPLICATE with the winner's ids
                    if exc.constraint_name != "events_idempotency" or attempt == _ATTEMPTS:
                        raise
                except (apg.DeadlockDetectedError, apg.SerializationError):
                    # a retry rereads everything: a fact another writer changed meanwhile
                    # then fails its revision guard as StaleKnowledge
                    if attempt == _ATTEMPTS:
                        raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def _ensure_vector_index(self, conn: Connection, dim: int) -> int:
        """Inside the first vector-carrying commit: record the dimension, build the index.

        Rolled back with the commit if it fails; the lock makes concurrent first writes
        agree on one dimension.
        """
        await conn.execute("SELECT pg_advisory_xact_lock($1)", VECTOR_INDEX_LOCK)
        stored = await conn.fetchval("SELECT value FROM meta WHERE key = $1", VECTOR_DIM_META)
        if stored is not None:
            return int(stored)
        await conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2)", VECTOR_DIM_META, str(dim)
        )
        sql = vector_index_sql(dim, self.hnsw_m, self.hnsw_ef_construction)
        if sql is not None:
            await conn.execute(sql)
        return dim

    async def unprocessed(self, tenant_id: str, event_ids: Sequence[str]) -> list[str]:
        if not event_ids:
            return []
        async with self._connection() as conn:
            found = {
                r["id"]
                for r in await conn.fetch(
                    "SELECT id FROM events WHERE tenant_id = $1 AND id = ANY($2::text[])"
                    " AND NOT processed",
                    tenant_id,
                    list(event_ids),
                )
            }
        return [e for e in event_ids if e in found]

    async def pending_jobs(self, tenant_id: str, event_ids: Sequence[str]) -> list[PendingJob]:
        if not event_ids:
            return []
        async with self._connection() as conn:
            return await pending.pending_jobs(conn, tenant_id, event_ids)

    async def stranded_jobs(self, recorded_before: datetime, limit: int) -> list[PendingJob]:
        async with self._connection() as conn:
            return await pending.stranded_jobs(conn, recorded_before, limit)

    async def set_item_status(self, tenant_id: str, ids: Sequence[str], status: ItemStatus) -> int:
        if not ids:
            return 0
        async with self._connection() as conn:
            return await _set_status(conn, tenant_id, ids, status)

    async def delete_items(self, tenant_id: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        async with self._connection() as conn:
            return await _delete_items(conn, tenant_id, ids)

    async def forget_items(
        self,
        tenant_id: str,
        ids: Sequence[str],
        status: ItemStatus,
        *,
        now: datetime,
        dry_run: bool = False,
    ) -> Forgotten:
        if not ids:
            return Forgotten()
        if dry_run:
            async with self._connection() as conn:
                items, done, relations = await forgetting.plan(
                    conn, tenant_id, ids, status, lock=False
                )
            return cascade.outcome(items, done, relations)

        async def body(conn: Connection) -> Forgotten:
            items, done, relations = await forgetting.plan(conn, tenant_id, ids, status, lock=True)
            if items:
                targets = [i.id for i in [*items, *done.summaries]]
                if status is ItemStatus.DELETED:
                    await _delete_items(conn, tenant_id, targets)
                else:
                    await _set_status(conn, tenant_id, targets, status)
                await forgetting.apply(conn, done, status, now)
                await kn.insert_history(conn, cascade.history(items, done, status, now))
            return cascade.outcome(items, done, relations)

        return await self._write(body, None)

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        if not ids:
            return
        async with self._connection() as conn:
            await conn.execute(
                "UPDATE items SET access_count = access_count + 1,"
                " loaded_count = loaded_count + 1, last_accessed_at = $1"
                " WHERE tenant_id = $2 AND id = ANY($3::text[])",
                to_utc(at),
                tenant_id,
                list(ids),
            )

    # -- reads -----------------------------------------------------------------------
    async def get_items(self, tenant_id: str, ids: Sequence[str]) -> list[MemoryItem]:
        return await self._by_ids("items", rows.ITEM_COLUMNS, rows.item_from_row, tenant_id, ids)

    async def get_events(self, tenant_id: str, ids: Sequence[str]) -> list[Event]:
        return await self._by_ids("events", rows.EVENT_COLUMNS, rows.event_from_row, tenant_id, ids)

    async def _by_ids(
        self,
        table: str,
        columns: str,
        convert: Callable[[Mapping[str, Any]], T],
        tenant_id: str,
        ids: Sequence[str],
    ) -> list[T]:
        """Rows of ``table`` by id within a tenant, in the order asked; missing ids left out."""
        if not ids:
            return []
        async with self._connection() as conn:
            found = await conn.fetch(
                f"SELECT {columns} FROM {table} WHERE tenant_id = $1 AND id = ANY($2::text[])",
                tenant_id,
                list(ids),
            )
        by_id = {r["id"]: convert(r) for r in found}
        return [by_id[i] for i in ids if i in by_id]

    async def previous_event(
        self, scope: Scope, before: datetime, *, exclude: Sequence[str] = ()
    ) -> Event | None:
        params = rows.Params(scope.tenant_id, scope.namespace, to_utc(before), list(exclude))
        clauses = [
            "tenant_id = $1",
            "namespace = $2",
            "occurred_at <= $3",
            "NOT (id = ANY($4::text[]))",
        ]
        for column, value in (
            ("user_id", scope.user_id),
            ("agent_id", scope.agent_id),
            ("session_id", scope.session_id),
        ):
            # "IS NULL" / "= $n" rather than IS NOT DISTINCT FROM, which no index serves
            clauses.append(
                f"{column} IS NULL" if value is None else f"{column} = {params.add(value)}"
            )
        async with self._connection() as conn:
            row = await conn.fetchrow(
                f"SELECT {rows.EVENT_COLUMNS} FROM events WHERE {' AND '.join(clauses)}"
                " ORDER BY occurred_at DESC, seq DESC LIMIT 1",
                *params.values,
            )
        return None if row is None else rows.event_from_row(row)

    async def count_items(self, flt: ItemFilter) -> int:
        params = rows.Params()
        where = rows.filter_clause(flt, params)
        async with self._connection() as conn:
            count = await conn.fetchval(f"SELECT count(*) FROM items WHERE {where}", *params.values)
        return int(count)

    async def lexical_search(
        self, flt: ItemFilter, terms: Sequence[str], limit: int
    ) -> list[Candidate]:
        if limit <= 0 or not any(t.strip() for t in terms):
            return []
        sql, params = rows.lexical_sql(flt, terms, limit)
        async with self._connection() as conn:
            found = await conn.fetch(sql, *params)
        return [Candidate(item_id=r["id"], score=float(r["score"])) for r in found]

    async def vector_search(
        self, flt: ItemFilter, vector: np.ndarray, limit: int
    ) -> list[Candidate]:
        if limit <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).ravel()
        async with self._connection() as conn:
            found = await self._vector_query(conn, flt, query, limit, explain=False)
        return [Candidate(item_id=r["id"], score=float(r["score"])) for r in found]

    async def vector_searches(
        self, searches: Sequence[tuple[ItemFilter, int]], vector: np.ndarray
    ) -> list[list[Candidate]]:
        query = np.asarray(vector, dtype=np.float32).ravel()
        out: list[list[Candidate]] = []
        async with self._connection() as conn:
            for flt, limit in searches:
                found = (
                    await self._vector_query(conn, flt, query, limit, explain=False)
                    if limit > 0
                    else []
                )
                out.append([Candidate(item_id=r["id"], score=float(r["score"])) for r in found])
        return out

    async def nearest(self, flt: ItemFilter, queries: np.ndarray) -> list[Candidate | None]:
        out: list[Candidate | None] = []
        async with self._connection() as conn:
            for vector in np.asarray(queries, dtype=np.float32):
                found = await self._vector_query(conn, flt, vector.ravel(), 1, explain=False)
                out.append(
                    Candidate(item_id=found[0]["id"], score=float(found[0]["score"]))
                    if found
                    else None
                )
        return out

    async def explain_vector_search(self, flt: ItemFilter, vector: np.ndarray, limit: int) -> str:
        """The query plan ``vector_search`` gets (for operators and tests)."""
        query = np.asarray(vector, dtype=np.float32).ravel()
        async with self._connection() as conn:
            found = await self._vector_query(conn, flt, query, max(limit, 1), explain=True)
        return "\n".join(str(r[0]) for r in found)

    async def _vector_query(
        self, conn: Connection, flt: ItemFilter, query: np.ndarray, limit: int, *, explain: bool
    ) -> list[Any]:
        if self._index_dim is None:  # another process may have written the first vector
            stored = await conn.fetchval("SELECT value FROM meta WHERE key = $1", VECTOR_DIM_META)
            self._index_dim = None if stored is None else int(stored)
        sql, params = rows.vector_sql(flt, query, limit, indexed_dim=self._index_dim)
        if explain:
            sql = "EXPLAIN " + sql
        dim = self._index_dim
        if dim is None or dim != query.shape[0] or index_type(dim) is None:
            return list(await conn.fetch(sql, *params))  # exact scan: no index to tune
        async with conn.transaction():
            # ef_search bounds how many neighbours one pass can return; the iterative
            # scan keeps going when the filter rejects many of them
            await conn.execute(
                f"SET LOCAL hnsw.ef_search = {min(max(40, limit), 1000)};"
                " SET LOCAL hnsw.iterative_scan = relaxed_order"
            )
            return list(await conn.fetch(sql, *params))

    # -- knowledge -------------------------------------------------------------------
    async def find_facts(self, query: FactQuery) -> list[Fact]:
        async with self._connection() as conn:
            return await kn.find_facts(conn, query)

    async def get_facts(self, tenant_id: str, ids: Sequence[str]) -> list[Fact]:
        return await self._by_ids("facts", records.FACT_COLUMNS, kn.fact_from_row, tenant_id, ids)

    async def fact_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> FactRows:
        async with self._connection() as conn:
            found = await conn.fetch(
                "SELECT id, category, scope_tags, text, value, predicate,"
                " embedding::real[] AS vector FROM facts"
                " WHERE tenant_id = $1 AND namespace = $2 AND user_id IS NOT DISTINCT FROM $3"
                " AND status = ANY($4::text[]) ORDER BY recorded_at DESC, seq DESC LIMIT $5",
                tenant_id,
                namespace,
                user_id,
                list(kn.LIVE),
                limit,
            )
        return records.fact_rows(
            [
                (
                    r["id"], r["category"], r["scope_tags"],
                    f"{r['text']} {r['value']} {r['predicate']}",
                    None if r["vector"] is None else np.asarray(r["vector"], np.float32),
                )
                for r in found
            ]
        )  # fmt: skip

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
        async with self._connection() as conn:
            return await kn.find_aliases(
                conn, tenant_id, namespace, user_id, names, all_users=all_users
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
        async with self._connection() as conn:
            return await kn.find_relations(
                conn, tenant_id, namespace, user_id, entity_ids, all_users=all_users
            )

    async def graph_edges(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> list[GraphEdge]:
        async with self._connection() as conn:
            return await kn.graph_edges(conn, tenant_id, namespace, user_id, limit)

    async def find_conflicts(
        self,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        *,
        open_only: bool = True,
        all_users: bool = False,
    ) -> list[FactConflict]:
        async with self._connection() as conn:
            return await kn.find_conflicts(
                conn, tenant_id, namespace, user_id, open_only, all_users=all_users
            )

    async def get_history(self, tenant_id: str, target_id: str) -> list[HistoryEntry]:
        async with self._connection() as conn:
            return await kn.get_history(conn, tenant_id, target_id)

    # -- embedding cache -------------------------------------------------------------
    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        if not hashes:
            return {}
        async with self._connection() as conn:
            found = await conn.fetch(
                "SELECT text_hash, vector FROM embedding_cache"
                " WHERE model = $1 AND text_hash = ANY($2::text[])",
                model,
                list(hashes),
            )
        return {
            r["text_hash"]: np.frombuffer(r["vector"], dtype="<f4").astype(np.float32)
            for r in found
        }

    async def put_embeddings(self, model: str, vectors_: Mapping[str, np.ndarray]) -> None:
        if not vectors_:
            return
        arrays = [np.asarray(v, dtype="<f4").ravel() for v in vectors_.values()]
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO embedding_cache (model, text_hash, dim, vector, created_at)"
                " SELECT $1, h, d, v, $5 FROM unnest($2::text[], $3::int4[], $4::bytea[])"
                " AS t(h, d, v) ON CONFLICT (model, text_hash) DO UPDATE SET"
                " dim = excluded.dim, vector = excluded.vector, created_at = excluded.created_at",
                model,
                list(vectors_),
                [int(a.shape[0]) for a in arrays],
                [a.tobytes() for a in arrays],
                datetime.now(UTC),
            )

    # -- lifecycle: edits, sessions, statistics, erasure, export ---------------------
    async def list_item_ids(self, flt: ItemFilter, limit: int) -> list[str]:
        params = rows.Params()
        where = rows.filter_clause(flt, params)
        async with self._connection() as conn:
            found = await conn.fetch(
                f"SELECT id FROM items WHERE {where} ORDER BY occurred_at DESC, seq DESC"
                f" LIMIT {params.add(limit)}",
                *params.values,
            )
        return [r["id"] for r in found]

    async def update_item(
        self,
        item: MemoryItem,
        *,
        expected: MemoryItem,
        history: HistoryEntry,
        embedding: np.ndarray | None = None,
        search_text: str | None = None,
    ) -> None:
        async def body(conn: Connection) -> None:
            await lc.update_item(conn, item, expected, history, embedding, search_text)

        dim = None if embedding is None else int(np.asarray(embedding).shape[0])
        await self._write(body, dim)

    async def get_conflict(self, tenant_id: str, conflict_id: str) -> FactConflict | None:
        async with self._connection() as conn:
            return await lc.get_conflict(conn, tenant_id, conflict_id)

    async def resolve_conflict(
        self,
        conflict: FactConflict,
        fact_updates: Sequence[FactUpdate],
        history: Sequence[HistoryEntry],
        silence_items: Sequence[str] = (),
    ) -> None:
        async def body(conn: Connection) -> None:
            await lc.resolve_conflict(conn, conflict, fact_updates, history, silence_items)

        await self._write(body, None)

    async def append_history(self, entries: Sequence[HistoryEntry]) -> None:
        if entries:
            async with self._connection() as conn:
                await kn.insert_history(conn, entries)

    async def put_session(self, session: Session) -> None:
        async with self._connection() as conn:
            await lc.put_session(conn, session)

    async def get_session(self, tenant_id: str, namespace: str, session_id: str) -> Session | None:
        async with self._connection() as conn:
            return await lc.get_session(conn, tenant_id, namespace, session_id)

    async def list_sessions(self, scope: Scope, limit: int) -> list[Session]:
        async with self._connection() as conn:
            return await lc.list_sessions(conn, scope, limit)

    async def scope_stats(self, scope: Scope) -> ScopeStats:
        async with self._connection() as conn:
            return await lc.scope_stats(conn, scope)

    async def erase_user(self, tenant_id: str, user_id: str) -> ErasureReport:
        async def body(conn: Connection) -> ErasureReport:
            return await lc.erase_user(conn, tenant_id, user_id)

        return await self._write(body, None)

    async def export_records(
        self, scope: Scope, *, all_namespaces: bool = False
    ) -> AsyncIterator[ExportRecord]:
        for kind in transfer.EXPORT_ORDER:
            after: lc.Cursor | None = None
            while True:
                # a connection per page: a consumer that stops early holds none
                async with self._connection() as conn:
                    page, after = await lc.export_page(
                        conn, kind, scope, all_namespaces, after, _EXPORT_PAGE
                    )
                for rec in page:
                    yield rec
                if after is None:
                    break

    async def held_ids(self, tenant_id: str, ids: Sequence[str]) -> set[str]:
        async with self._connection() as conn:
            return await lc.held_ids(conn, tenant_id, ids)

    async def import_records(
        self, tenant_id: str, records: Sequence[ExportRecord], embeddings: Mapping[str, np.ndarray]
    ) -> dict[str, int]:
        batch = transfer.parse(records, tenant_id)

        async def body(conn: Connection) -> dict[str, int]:
            return await lc.import_batch(conn, batch, embeddings)

        dim = next((int(np.asarray(v).shape[0]) for v in embeddings.values()), None)
        return await self._write(body, dim)

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        if not hashes:
            return 0
        async with self._connection() as conn:
            return await lc.delete_embeddings(conn, hashes)

    async def flush_deleted(self) -> None:
        return None  # dead tuples go when PostgreSQL vacuums (docs/lifecycle.md)

    # -- API keys ----------------------------------------------------------------------
    async def put_api_key(self, key: ApiKey) -> None:
        async with self._connection() as conn:
            await keys.put(conn, key)

    async def find_api_key(self, key_hash: str) -> ApiKey | None:
        async with self._connection() as conn:
            return await keys.find(conn, key_hash)

    async def list_api_keys(self, tenant_id: str | None) -> list[ApiKey]:
        async with self._connection() as conn:
            return await keys.list_keys(conn, tenant_id)

    async def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        async with self._connection() as conn:
            return await keys.revoke(conn, key_id, at)


async def _set_status(
    conn: Connection, tenant_id: str, ids: Sequence[str], status: ItemStatus
) -> int:
    count = await conn.fetchval(
        "WITH changed AS (UPDATE items SET status = $3 WHERE tenant_id = $1"
        " AND id = ANY($2::text[]) AND status <> $3 RETURNING 1)"
        " SELECT count(*) FROM changed",
        tenant_id,
        list(set(ids)),
        status.value,
    )
    return int(count)


async def _delete_items(conn: Connection, tenant_id: str, ids: Sequence[str]) -> int:
    # the row holds the text, tsvector and embedding, so every index forgets it
    count = await conn.fetchval(
        "WITH gone AS (DELETE FROM items WHERE tenant_id = $1 AND id = ANY($2::text[])"
        " RETURNING id), links AS (DELETE FROM item_events"
        " WHERE item_id IN (SELECT id FROM gone)) SELECT count(*) FROM gone",
        tenant_id,
        list(ids),
    )
    return int(count)
