"""The two database drivers under ``SqlDomainSource``: SQLite (read-only connections in
worker threads, a progress handler enforcing the statement timeout) and PostgreSQL
(an asyncpg pool in a read-only transaction mode with ``statement_timeout`` set on the
server). Each owns its own pool, apart from the memory store's."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from cognimem.config import redact_url
from cognimem.errors import DomainTimeout, DomainUnavailable
from cognimem.store.sqlite.database import path_from_url

if TYPE_CHECKING:
    from asyncpg import Pool

T = TypeVar("T")
Statement = tuple[str, list[Any]]
Rows = list[dict[str, Any]]
# SQLite calls the progress handler every this many virtual machine instructions
_PROGRESS_STEPS = 1_000


class Driver(Protocol):
    backend: str

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def columns(self, table: str) -> dict[str, str] | None:
        """The table's (or view's) columns and their types; None when it does not exist."""

    async def fetch(self, statements: Sequence[Statement]) -> list[Rows]:
        """Run ``statements`` on one pooled connection, each under the timeout."""

    async def fetch_then(
        self, first: Sequence[Statement], then: Callable[[list[Rows]], list[Statement]]
    ) -> tuple[list[Rows], list[Rows]]:
        """Run ``first``, then the statements ``then`` makes of their rows, on one
        connection in one call (no second trip through the pool or a worker thread)."""

    def any_of(self, column: str, values: Sequence[str], type_: str, params: list[Any]) -> str:
        """SQL for "``column`` is one of ``values``", binding them into ``params``."""


def quote(name: str) -> str:
    """An identifier quoted for both dialects (``schema.table`` quoted per part)."""
    return ".".join(f'"{part}"' for part in name.split("."))


class _Fetching:
    """``fetch`` (``fetch_then`` with nothing after it) and ``columns`` (the driver's
    catalogue query, read as name → type), for both drivers."""

    async def columns(self, table: str) -> dict[str, str] | None:
        statement, name, type_ = self._columns_query(table)
        rows = await self.fetch([statement])
        found = {str(r[name]): str(r[type_] or "") for r in rows[0]}
        return found or None

    def _columns_query(self, table: str) -> tuple[Statement, str, str]:
        """The statement listing ``table``'s columns, and its name and type columns."""
        raise NotImplementedError  # pragma: no cover - each driver's

    async def fetch_then(
        self, first: Sequence[Statement], then: Callable[[list[Rows]], list[Statement]]
    ) -> tuple[list[Rows], list[Rows]]:
        raise NotImplementedError  # pragma: no cover - each driver's

    async def fetch(self, statements: Sequence[Statement]) -> list[Rows]:
        first, _ = await self.fetch_then(statements, lambda found: [])
        return first


class SqliteDriver(_Fetching):
    backend = "sqlite"

    def __init__(self, url: str, *, pool_size: int, timeout_ms: int) -> None:
        self.path: Path = path_from_url(url)
        self._size = pool_size
        self._timeout_s = timeout_ms / 1000
        self._pool: asyncio.Queue[sqlite3.Connection] | None = None
        self._all: list[sqlite3.Connection] = []
        # threads of its own: a lookup never queues behind the memory store's work
        self._threads: ThreadPoolExecutor | None = None

    async def open(self) -> None:
        if not self.path.is_file():
            raise DomainUnavailable(
                f"the domain database {self.path} does not exist", backend=self.backend
            )

        def connect() -> sqlite3.Connection:
            conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
            )
            conn.execute("PRAGMA query_only = ON")
            conn.row_factory = sqlite3.Row
            return conn

        pool: asyncio.Queue[sqlite3.Connection] = asyncio.Queue()
        self._threads = ThreadPoolExecutor(self._size, thread_name_prefix="cognimem-domain")
        try:
            for _ in range(self._size):
                conn = await self._in_thread(connect)
                self._all.append(conn)
                pool.put_nowait(conn)
        except sqlite3.Error as exc:
            await self.close()
            raise DomainUnavailable(
                f"cannot open the domain database {self.path}: {exc}", backend=self.backend
            ) from exc
        self._pool = pool

    async def close(self) -> None:
        for conn in self._all:
            conn.close()
        self._all = []
        self._pool = None
        if self._threads is not None:
            self._threads.shutdown(wait=False)
            self._threads = None

    async def _in_thread(self, fn: Callable[[], T]) -> T:
        assert self._threads is not None
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn)

    def _columns_query(self, table: str) -> tuple[Statement, str, str]:
        return (f"PRAGMA table_info({quote(table)})", []), "name", "type"

    async def fetch_then(
        self, first: Sequence[Statement], then: Callable[[list[Rows]], list[Statement]]
    ) -> tuple[list[Rows], list[Rows]]:
        if self._pool is None:
            raise DomainUnavailable("the domain source is not open", backend=self.backend)
        conn = await self._pool.get()

        def both() -> tuple[list[Rows], list[Rows]]:
            found = self._run(conn, first)
            return found, self._run(conn, then(found))

        try:
            return await self._in_thread(both)
        finally:
            self._pool.put_nowait(conn)

    def _run(self, conn: sqlite3.Connection, statements: Sequence[Statement]) -> list[Rows]:
        out: list[Rows] = []
        for sql, params in statements:
            conn.set_progress_handler(_stop_after(self._timeout_s), _PROGRESS_STEPS)
            try:
                out.append([dict(r) for r in conn.execute(sql, params).fetchall()])
            except sqlite3.OperationalError as exc:
                if "interrupted" in str(exc):
                    raise DomainTimeout(
                        f"a domain query on {self.path.name} ran past its"
                        f" {self._timeout_s * 1000:.0f} ms statement timeout",
                        backend=self.backend,
                    ) from exc
                raise DomainUnavailable(
                    f"domain query failed on {self.path.name}: {exc}", backend=self.backend
                ) from exc
            except sqlite3.Error as exc:
                raise DomainUnavailable(
                    f"domain query failed on {self.path.name}: {exc}", backend=self.backend
                ) from exc
            finally:
                conn.set_progress_handler(None, 0)
        return out

    def any_of(self, column: str, values: Sequence[str], type_: str, params: list[Any]) -> str:
        params.extend(values)
        return f"{column} IN ({', '.join('?' * len(values))})"


def _stop_after(seconds: float) -> Callable[[], int]:
    """A progress handler that interrupts the statement once ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    return lambda: int(time.monotonic() > deadline)


class PostgresDriver(_Fetching):
    backend = "postgresql"

    def __init__(self, url: str, *, pool_size: int, timeout_ms: int) -> None:
        self.url = url
        self._where = redact_url(url)
        self._size = pool_size
        self._timeout_ms = timeout_ms
        self._pool: Pool | None = None

    async def open(self) -> None:
        from cognimem.store.postgres.database import load_asyncpg

        apg = load_asyncpg()
        try:
            self._pool = await apg.create_pool(
                self.url,
                min_size=1,
                max_size=self._size,
                timeout=10.0,
                server_settings={
                    "statement_timeout": str(self._timeout_ms),
                    "default_transaction_read_only": "on",
                    "application_name": "cognimem-domain",
                },
            )
        except Exception as exc:
            raise DomainUnavailable(
                f"cannot connect to the domain database {self._where}: {type(exc).__name__}: {exc}",
                backend=self.backend,
            ) from exc

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    def _columns_query(self, table: str) -> tuple[Statement, str, str]:
        schema, _, name = table.rpartition(".")
        sql = (
            "SELECT column_name, udt_name FROM information_schema.columns"
            " WHERE table_name = $1 AND table_schema = "
            + ("$2" if schema else "ANY(current_schemas(false))")
            + " ORDER BY ordinal_position"
        )
        # udt_name is never NULL, so the shared "or ''" changes nothing here
        return (sql, [name, schema] if schema else [name]), "column_name", "udt_name"

    async def fetch_then(
        self, first: Sequence[Statement], then: Callable[[list[Rows]], list[Statement]]
    ) -> tuple[list[Rows], list[Rows]]:
        from cognimem.store.postgres.database import load_asyncpg

        if self._pool is None:
            raise DomainUnavailable("the domain source is not open", backend=self.backend)
        apg = load_asyncpg()
        try:
            async with self._pool.acquire() as conn:
                found = [[dict(r) for r in await conn.fetch(q, *p)] for q, p in first]
                more = [[dict(r) for r in await conn.fetch(q, *p)] for q, p in then(found)]
                return found, more
        except apg.QueryCanceledError as exc:
            raise DomainTimeout(
                f"a domain query on {self._where} ran past its {self._timeout_ms} ms"
                f" statement timeout",
                backend=self.backend,
            ) from exc
        except Exception as exc:
            raise DomainUnavailable(
                f"domain query failed on {self._where}: {type(exc).__name__}: {exc}",
                backend=self.backend,
            ) from exc

    def any_of(self, column: str, values: Sequence[str], type_: str, params: list[Any]) -> str:
        params.append(list(values))
        cast = "" if type_ in ("text", "") else f"::{quote(type_)}[]"
        return f"{column} = ANY(${len(params)}::text[]{cast})"


def driver_for(url: str, *, pool_size: int, timeout_ms: int) -> Driver:
    if url.startswith("sqlite:"):
        return SqliteDriver(url, pool_size=pool_size, timeout_ms=timeout_ms)
    return PostgresDriver(url, pool_size=pool_size, timeout_ms=timeout_ms)
