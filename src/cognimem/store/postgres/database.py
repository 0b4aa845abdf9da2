"""The PostgreSQL database behind every role: the connection pool, migrations, the
HNSW index's creation, the write transaction every role's writes run in (retrying lost
idempotency races and deadlocks), settings and a scope's counts (the ``Database``
role). Each role's class (``items.py``, ``knowledge.py``, ...) builds on
:class:`PostgresDatabase`; ``PostgresStore`` is all of them. Driver errors are
translated here: an unreachable server is ``StoreUnavailable``, anything else
``StoreError``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Self, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from cognimem.config import redact_url
from cognimem.errors import CognimemError, StoreError, StoreUnavailable, UsageError
from cognimem.models import ItemStatus, Scope
from cognimem.models.admin import ScopeStats
from cognimem.models.knowledge import ConflictStatus
from cognimem.store import records
from cognimem.store.arguments import RowsById
from cognimem.store.cache_budget import DEFAULT_MAX_MB, CacheBudget
from cognimem.store.fact_copies import kept_edges, kept_facts, kept_rows
from cognimem.store.postgres import rows
from cognimem.store.postgres.lexical import LexicalCache
from cognimem.store.postgres.migrations import (
    SET_META,
    VECTOR_DIM_META,
    VECTOR_INDEX_LOCK,
    index_dimension,
    migrate,
    vector_index_sql,
)
from cognimem.store.postgres.planner_stats import PlannerStats
from cognimem.store.postgres.row_copies import RowCopies
from cognimem.store.postgres.rows import Params
from cognimem.store.types import SCOPE_FACTS_KEPT, FactRows, GraphEdge, ScopeFacts

if TYPE_CHECKING:
    from asyncpg import Connection, Pool, Record

T = TypeVar("T")

_ATTEMPTS = 3  # a commit that loses an idempotency race (or a deadlock) is retried
# the array types the store's statements bind (``unnest`` inserts): asyncpg has no codec
# for them until it has asked the server, which it does for each type on the first
# statement that uses it, one catalogue query each (~3 ms of the server's CPU, mostly
# planning): six per connection. A new connection asks for them all in one.
_ARRAY_TYPES = ("timestamptz", "bytea", "int4", "int8", "bool", "jsonb", "float8")
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


load_asyncpg = _asyncpg  # public: the domain source's PostgreSQL driver loads it too


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


class PostgresDatabase:
    """A PostgreSQL database with pgvector. Any number of processes may share it."""

    def __init__(
        self,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        hnsw_m: int = 16,
        hnsw_ef_construction: int = 64,
        connect_timeout: float = 10.0,
        cache_max_bytes: int | None = DEFAULT_MAX_MB << 20,
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
        self._planner_stats = PlannerStats()  # ANALYZE as bulk writes grow the tables
        # in-process copies of scopes, capped in bytes together (cache_budget.py)
        self.cache_budget = CacheBudget(cache_max_bytes)
        self._terms = LexicalCache(self.cache_budget)  # per-scope lexical indexes (lexical.py)
        # copies of what reads decode at a cost, kept while current (row_copies.py)
        budget = self.cache_budget
        self._fact_rows: RowCopies[FactRows] = RowCopies(budget, "postgres_fact_rows", kept_rows)
        self._scope_facts: RowCopies[ScopeFacts] = RowCopies(
            budget, "postgres_scope_facts", kept_facts, SCOPE_FACTS_KEPT
        )
        self._graphs: RowCopies[list[GraphEdge]] = RowCopies(
            budget, "postgres_graph_edges", kept_edges
        )

    @property
    def analyze_failures(self) -> int:
        """The ANALYZEs after bulk writes that failed (``planner_stats.py``)."""
        return self._planner_stats.failures

    @classmethod
    def from_url(cls, url: str, *, cache_max_bytes: int | None = DEFAULT_MAX_MB << 20) -> Self:
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
        return cls(dsn, cache_max_bytes=cache_max_bytes, **options)

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
                dim = await index_dimension(conn)
            except BaseException:
                conn.terminate()
                raise
            await conn.close()
            self._index_dim = dim
            self._pool = await apg.create_pool(
                self.dsn,
                min_size=self.min_size,
                max_size=self.max_size,
                timeout=self.connect_timeout,
                init=self._init_connection,
                reset=_keep_session,
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
        vector = f'"{self._vector_schema}".vector[]'
        await conn.fetchrow("SELECT " + ", ".join(f"NULL::{t}[]" for t in (*_ARRAY_TYPES, vector)))

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        self._closed = True
        self._terms.clear()
        self._fact_rows.clear()
        self._scope_facts.clear()
        self._graphs.clear()
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

    async def get_meta(self, key: str) -> str | None:
        async with self._connection() as conn:
            value = await conn.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        async with self._connection() as conn:
            await conn.execute(SET_META, key, value)

    async def scope_stats(self, scope: Scope) -> ScopeStats:
        async with self._connection() as conn:
            return await _scope_stats(conn, scope)

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
        stored = await index_dimension(conn)
        if stored is not None:
            return stored
        await conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2)", VECTOR_DIM_META, str(dim)
        )
        sql = vector_index_sql(dim, self.hnsw_m, self.hnsw_ef_construction)
        if sql is not None:
            await conn.execute(sql)
        return dim

    async def _by_ids(self, of: RowsById[Record, T], tenant_id: str, ids: Sequence[str]) -> list[T]:
        """``rows_by_ids`` on a pooled connection (none when no id is asked)."""
        if not ids:
            return []
        async with self._connection() as conn:
            return await rows_by_ids(conn, of, tenant_id, ids)


async def _keep_session(conn: Connection) -> None:
    """A pooled connection's reset on release: nothing beyond asyncpg's own (it rolls
    back a transaction left open and drops listeners). The store keeps no session state
    on a pooled connection — its settings are ``SET LOCAL``, its advisory locks
    ``pg_advisory_xact_lock``, it opens no cursor outside a transaction and listens to
    nothing — so the default reset query (``pg_advisory_unlock_all(); CLOSE ALL;
    UNLISTEN *; RESET ALL``) would be one round trip per store call for nothing: a
    batch write makes about a dozen store calls, a read several."""


async def rows_by_ids(
    conn: Connection, of: RowsById[Record, T], tenant_id: str, ids: Sequence[str]
) -> list[T]:
    """The rows ``of`` names by id within a tenant, converted, in the order asked; missing
    ids left out."""
    if not ids:
        return []
    found = await conn.fetch(
        f"SELECT {of.columns} FROM {of.table}"
        f" WHERE {of.prefix}tenant_id = $1 AND {of.prefix}id = ANY($2::text[])",
        tenant_id,
        list(ids),
    )
    by_id = {r["id"]: of.convert(r) for r in found}
    return [by_id[i] for i in ids if i in by_id]


def scope_where(
    scope: Scope, params: Params, *, agent: bool = True, session_column: str | None = "session_id"
) -> str:
    """tenant and namespace always; user, agent and session when the scope sets them
    (and the table has the column)."""
    named = records.scope_filter(scope, agent=agent, session_column=session_column)
    return " AND ".join(f"{c} = {params.add(v)}" for c, v in named)


async def _grouped(conn: Connection, sql: str, params: Params) -> dict[str, int]:
    return {str(r[0]): int(r[1]) for r in await conn.fetch(sql, *params.values)}


async def _scope_stats(conn: Connection, scope: Scope) -> ScopeStats:
    def full() -> tuple[str, Params]:
        params = Params()
        return scope_where(scope, params), params

    async with conn.transaction(isolation="repeatable_read", readonly=True):  # one snapshot
        where, p = full()
        events = await conn.fetchval(f"SELECT count(*) FROM events WHERE {where}", *p.values)
        where, p = full()
        items = await _grouped(
            conn, f"SELECT status, count(*) FROM items WHERE {where} GROUP BY status", p
        )
        where, p = full()
        active = p.add(ItemStatus.ACTIVE.value)
        by_kind = await _grouped(
            conn,
            f"SELECT kind, count(*) FROM items WHERE {where} AND status = {active} GROUP BY kind",
            p,
        )
        where, p = full()
        facts = await _grouped(
            conn, f"SELECT status, count(*) FROM facts WHERE {where} GROUP BY status", p
        )
        p = Params()
        where = scope_where(scope, p, agent=False, session_column=None)
        entities = await conn.fetchval(f"SELECT count(*) FROM entities WHERE {where}", *p.values)
        where, p = full()
        relations = await conn.fetchval(
            f"SELECT count(*) FROM relations WHERE {where} AND active", *p.values
        )
        where, p = full()
        open_ = p.add(ConflictStatus.OPEN.value)
        conflicts = await conn.fetchval(
            f"SELECT count(*) FROM conflicts WHERE {where} AND status = {open_}", *p.values
        )
        p = Params()
        where = scope_where(scope, p, session_column="id")
        sessions = await _grouped(
            conn, f"SELECT status, count(*) FROM sessions WHERE {where} GROUP BY status", p
        )
    return ScopeStats(
        events=int(events),
        items=items,
        items_by_kind=by_kind,
        facts=facts,
        entities=int(entities),
        relations=int(relations),
        open_conflicts=int(conflicts),
        sessions=sessions,
    )
