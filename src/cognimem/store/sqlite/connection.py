"""SQLite connections: one writer thread, a small reader pool, and a reader connection
per calling thread for the reads cheaper than a hop to the pool.

WAL mode lets readers proceed while the single writer commits; each reader sees a
consistent snapshot, so a reader never observes half of a write transaction.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from cognimem.errors import StoreError, StoreUnavailable

T = TypeVar("T")

_BUSY_TIMEOUT_MS = 10_000


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(
        path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    _use_wal(conn)
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys=ON")
    # a deleted row's bytes are overwritten, not left in free space: what is forgotten
    # or erased cannot be read back from the file (the WAL is truncated after erasure)
    conn.execute("PRAGMA secure_delete=ON")
    return conn


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch to WAL, waiting out another process that holds the file meanwhile.

    Changing the journal mode of a new file needs it to itself, and SQLite answers
    "locked" at once rather than calling the busy handler — two processes opening a new
    file together (the server and ``cognimem keys create``) would otherwise fail.
    """
    deadline = time.monotonic() + _BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.02)


def translate(exc: sqlite3.Error, path: Path) -> StoreError:
    """Map a driver error to the cognimem error tree."""
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and (
        "locked" in text or "busy" in text or "unable to open" in text or "disk I/O" in text
    ):
        return StoreUnavailable(f"SQLite database {path} is unavailable: {text}", retry_after=1.0)
    return StoreError(f"SQLite error on {path}: {text}")


class WriteWatch(Protocol):
    """What sees each write transaction on the writer connection: ``watch`` readies the
    connection just before the transaction (False: not watched this time), ``collect``
    takes what the transaction did just before it commits (a rollback takes it too),
    ``committed`` gets that after the commit (``store/sqlite/fact_changes.py``)."""

    def watch(self, conn: sqlite3.Connection) -> bool: ...

    def collect(self, conn: sqlite3.Connection) -> list[Any]: ...

    def committed(self, seen: list[Any]) -> None: ...


class Connections:
    """Owns the writer connection (one thread) and per-thread reader connections."""

    def __init__(self, path: Path, readers: int = 2, watch: WriteWatch | None = None) -> None:
        self.path = path
        self._watch = watch
        self._writer_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cognimem-w")
        self._reader_pool = ThreadPoolExecutor(max_workers=readers, thread_name_prefix="cognimem-r")
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailable(f"the store for {self.path} is closed", retry_after=0)

    def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn`` with this thread's connection; driver errors translated."""
        try:
            return fn(self._conn())
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    async def _run(self, pool: ThreadPoolExecutor, fn: Callable[[sqlite3.Connection], T]) -> T:
        self._check_open()
        return await asyncio.get_running_loop().run_in_executor(pool, self._call, fn)

    async def read(self, fn: Callable[[sqlite3.Connection], T], *, here: bool = False) -> T:
        """``fn`` with a reader connection, on the reader pool; with ``here``, on the
        calling thread (with a connection of its own). ``here`` is for reads that take
        well under a millisecond — a few rows by key, a bounded list, a search of a
        small scope — where the hop to a pool thread and back, and the wait for the GIL
        on the way back, cost more than the read (a read of 10k items makes eight such
        calls)."""
        if here:
            self._check_open()
            return self._call(fn)
        return await self._run(self._reader_pool, fn)

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` (rolled back on error)."""

        watch = self._watch

        def tx(conn: sqlite3.Connection) -> T:
            # before the transaction, so that a rollback cannot take the watch's tables
            watching = watch is not None and watch.watch(conn)
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
                seen = watch.collect(conn) if watch is not None and watching else None
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            if watch is not None and seen:
                watch.committed(seen)
            return result

        return await self._run(self._writer_pool, tx)

    async def truncate_wal(self) -> None:
        """Copy every committed page into the main file and truncate the WAL to zero
        bytes, so the old versions of deleted rows that the WAL still held are gone.

        Waits (the busy timeout) for readers of older snapshots, in any process; a
        checkpoint they still block raises ``StoreUnavailable`` (retry)."""

        def run(conn: sqlite3.Connection) -> None:
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy:
                raise StoreUnavailable(
                    f"SQLite database {self.path}: a reader kept the WAL from being "
                    "truncated; deleted rows may remain in it until the next checkpoint",
                    retry_after=1.0,
                )

        await self._run(self._writer_pool, run)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._shutdown)

    def _shutdown(self) -> None:
        self._writer_pool.shutdown(wait=True)
        self._reader_pool.shutdown(wait=True)
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
