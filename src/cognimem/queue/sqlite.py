"""The embedded job queue: an outbox table in SQLite.

Rows live in ``queue_jobs`` (its own file or the store's file; in the store's file, the
store queues an ingest job in the transaction that commits its events: ``enqueue_in``).
A claim is one ``BEGIN IMMEDIATE`` transaction on the single writer thread, so two
workers can never take the same row; each claim writes a fresh lease token and a lease
deadline, and a row whose lease ran out is claimable again. ``ack``/``fail`` only touch
the row while it still carries the caller's token.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from dataclasses import astuple
from datetime import timedelta
from pathlib import Path
from typing import Any

from cognimem.errors import NotFound
from cognimem.models.clock import Clock, from_micros, to_micros, utc_now
from cognimem.models.jobs import JobSummary
from cognimem.queue.base import (
    MAX_ATTEMPTS_PREFIX,
    Delivery,
    Job,
    JobListing,
    JobState,
    QueueBase,
    check_enqueue,
    check_limits,
    check_listing,
    check_progress,
    expired_lease_error,
    of_level,
    result_json,
    taken,
)
from cognimem.store.sqlite.connection import Connections
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.types import INGEST_JOB, PendingJob

_POLL_S = 0.05
# a job failed for good (its error, the time; its id)
_FAIL = (
    "UPDATE queue_jobs SET state = 'failed', error = ?, updated_at = ?,"
    " lease_token = NULL, lease_until = NULL WHERE id = ?"
)

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS queue_jobs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    position INTEGER NOT NULL,
    worker TEXT,
    lease_token TEXT,
    lease_until INTEGER,
    progress REAL,
    result TEXT,
    available_at INTEGER
)
""",
    "CREATE INDEX IF NOT EXISTS queue_jobs_state_position ON queue_jobs (state, position)",
)
# columns added after the table's first release: added to an older file when it opens
_ADDED_COLUMNS = {"progress": "REAL", "result": "TEXT", "available_at": "INTEGER"}
_TENANT_INDEX = "CREATE INDEX IF NOT EXISTS queue_jobs_tenant ON queue_jobs (tenant_id, seq)"

_COLUMNS = (
    "id, kind, tenant_id, payload, state, attempts, error, created_at, updated_at, progress, result"
)


def _job(row: sqlite3.Row | tuple[Any, ...]) -> Job:
    return Job(
        id=row[0],
        kind=row[1],
        tenant_id=row[2],
        payload=json.loads(row[3]),
        state=JobState(row[4]),
        attempts=row[5],
        error=row[6],
        created_at=from_micros(row[7]),
        updated_at=from_micros(row[8]),
        progress=row[9],
        result=None if row[10] is None else json.loads(row[10]),
    )


def _next_position(conn: sqlite3.Connection) -> int:
    (top,) = conn.execute("SELECT coalesce(max(position), 0) FROM queue_jobs").fetchone()
    return int(top) + 1


class SqliteJobQueue(QueueBase):
    """A durable job queue in a SQLite file (see the module docstring)."""

    def __init__(
        self,
        path: str | Path,
        *,
        visibility_timeout_s: float = 30.0,
        max_attempts: int = 5,
        clock: Clock = utc_now,
    ) -> None:
        check_limits(visibility_timeout_s, max_attempts)
        self.path = Path(path)
        self.visibility_timeout_s = visibility_timeout_s
        self.max_attempts = max_attempts
        self._clock = clock
        self._db: Connections | None = None

    @property
    def _conns(self) -> Connections:
        if self._db is None:
            self._db = Connections(self.path)
        return self._db

    async def open(self) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            for statement in SCHEMA:
                conn.execute(statement)
            have = {r[1] for r in conn.execute("PRAGMA table_info(queue_jobs)")}
            for column, kind in _ADDED_COLUMNS.items():
                if column not in have:
                    conn.execute(f"ALTER TABLE queue_jobs ADD COLUMN {column} {kind}")
            conn.execute(_TENANT_INDEX)

        await self._conns.write(tx)

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    def clone(self) -> SqliteJobQueue:
        return SqliteJobQueue(
            self.path,
            visibility_timeout_s=self.visibility_timeout_s,
            max_attempts=self.max_attempts,
            clock=self._clock,
        )

    async def _put(self, kind: str, tenant_id: str, body: str, jid: str) -> Job:
        job = await self._conns.write(lambda conn: self._insert(conn, kind, tenant_id, body, jid))
        if job.tenant_id != tenant_id:
            raise taken(jid)
        return job

    def _insert(
        self, conn: sqlite3.Connection, kind: str, tenant_id: str, body: str, job_id: str
    ) -> Job:
        now = self._now()
        conn.execute(
            "INSERT INTO queue_jobs (id, kind, tenant_id, payload, state, created_at,"
            " updated_at, position) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)"
            " ON CONFLICT (id) DO NOTHING",
            (job_id, kind, tenant_id, body, now, now, _next_position(conn)),
        )
        row = conn.execute(f"SELECT {_COLUMNS} FROM queue_jobs WHERE id = ?", (job_id,))
        return _job(row.fetchone())

    def enqueue_in(self, conn: sqlite3.Connection, job: PendingJob) -> None:
        """Queue an ingest job inside the caller's transaction on this queue's file (the
        store's commit of the job's events: the job exists exactly when they do)."""
        body = check_enqueue(INGEST_JOB, job.tenant_id, job.payload(), job.id)
        self._insert(conn, INGEST_JOB, job.tenant_id, body, job.id)

    def shares_file_with(self, path: Path) -> bool:
        """Whether this queue's table lives in the database file at ``path``."""
        return self.path.resolve() == Path(path).resolve()

    async def claim(self, worker: str, *, block_s: float = 0.0) -> Delivery | None:
        deadline = time.monotonic() + max(block_s, 0.0)
        while True:
            delivery = await self._conns.write(lambda conn: self._claim(conn, worker))
            if delivery is not None:
                return delivery
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            await asyncio.sleep(min(_POLL_S, left))

    def _claim(self, conn: sqlite3.Connection, worker: str) -> Delivery | None:
        now = self._now()
        while True:
            row = conn.execute(
                "SELECT id, state, attempts, error, worker FROM queue_jobs"
                " WHERE (state = 'queued' AND (available_at IS NULL OR available_at <= ?))"
                " OR (state = 'running' AND lease_until < ?)"
                " ORDER BY position LIMIT 1",
                (now, now),
            ).fetchone()
            if row is None:
                return None
            jid, state, attempts, error, holder = row
            if state == JobState.RUNNING:
                error = expired_lease_error(holder, self.visibility_timeout_s)
            if attempts + 1 > self.max_attempts:
                conn.execute(_FAIL, (MAX_ATTEMPTS_PREFIX + (error or "unknown"), now, jid))
                continue
            token = f"{jid}:{attempts + 1}:{os.urandom(8).hex()}"
            lease_until = to_micros(from_micros(now) + timedelta(seconds=self.visibility_timeout_s))
            updated = conn.execute(
                "UPDATE queue_jobs SET state = 'running', attempts = attempts + 1, error = ?,"
                " updated_at = ?, worker = ?, lease_token = ?, lease_until = ?"
                f" WHERE id = ? RETURNING {_COLUMNS}",
                (error, now, worker, token, lease_until, jid),
            ).fetchone()
            return Delivery(job=_job(updated), delivery_id=token)

    async def ack(
        self, delivery: Delivery, note: str | None = None, *, result: JobSummary | None = None
    ) -> None:
        now = self._now()
        await self._conns.write(
            lambda conn: conn.execute(
                "UPDATE queue_jobs SET state = 'done', error = :note, updated_at = :now,"
                " lease_token = NULL, lease_until = NULL, result = :result,"
                " progress = CASE WHEN :result IS NULL THEN progress ELSE 1.0 END"
                " WHERE id = :id AND state = 'running' AND lease_token = :token",
                {
                    "note": note,
                    "now": now,
                    "result": result_json(result),
                    "id": delivery.job.id,
                    "token": delivery.delivery_id,
                },
            )
        )

    async def heartbeat(self, delivery: Delivery, progress: float | None = None) -> bool:
        check_progress(progress)
        now = self._now()
        until = to_micros(from_micros(now) + timedelta(seconds=self.visibility_timeout_s))

        def tx(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE queue_jobs SET lease_until = ?, updated_at = ?,"
                " progress = coalesce(?, progress)"
                " WHERE id = ? AND state = 'running' AND lease_token = ?",
                (until, now, progress, delivery.job.id, delivery.delivery_id),
            )
            return cur.rowcount == 1

        return await self._conns.write(tx)

    async def list_jobs(self, listing: JobListing) -> list[Job]:
        tenant_id, kind, state, limit = astuple(listing)
        check_listing(limit)
        where, params = ["tenant_id = ?"], [tenant_id]
        if kind is not None:
            where.append("kind = ?")
            params.append(kind)
        if state is not None:
            where.append("state = ?")
            params.append(JobState(state).value)
        rows = await self._conns.read(
            lambda conn: conn.execute(
                f"SELECT {_COLUMNS} FROM queue_jobs WHERE {' AND '.join(where)}"
                " ORDER BY seq DESC LIMIT ?",
                (*params, limit),
            ).fetchall()
        )
        return [_job(row) for row in rows]

    async def fail(
        self, delivery: Delivery, error: str, *, retry: bool = True, delay_s: float = 0.0
    ) -> None:
        now = self._now()
        available = to_micros(from_micros(now) + timedelta(seconds=max(delay_s, 0.0)))

        def tx(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "SELECT attempts FROM queue_jobs"
                " WHERE id = ? AND state = 'running' AND lease_token = ?",
                (delivery.job.id, delivery.delivery_id),
            ).fetchone()
            if row is None:  # a stale delivery: the job has moved on without this worker
                return
            if retry and row[0] < self.max_attempts:
                conn.execute(
                    "UPDATE queue_jobs SET state = 'queued', error = ?, updated_at = ?,"
                    " position = ?, lease_token = NULL, lease_until = NULL, available_at = ?"
                    " WHERE id = ?",
                    (error, now, _next_position(conn), available, delivery.job.id),
                )
                return
            message = MAX_ATTEMPTS_PREFIX + error if retry else error
            conn.execute(_FAIL, (message, now, delivery.job.id))

        await self._conns.write(tx)

    async def get(self, tenant_id: str, job_id: str) -> Job:
        row = await self._conns.read(
            lambda conn: conn.execute(
                f"SELECT {_COLUMNS} FROM queue_jobs WHERE id = ? AND tenant_id = ?",
                (job_id, tenant_id),
            ).fetchone()
        )
        if row is None:
            raise NotFound("job", job_id)
        return _job(row)

    async def depth(self) -> int:
        row = await self._conns.read(
            lambda conn: conn.execute(
                "SELECT count(*) FROM queue_jobs WHERE state IN ('queued', 'running')"
            ).fetchone()
        )
        return int(row[0])

    async def purge_user(self, tenant_id: str, user_id: str) -> int:
        def tx(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "DELETE FROM queue_jobs WHERE tenant_id = ?"
                " AND json_extract(payload, '$.user_id') = ?",
                (tenant_id, user_id),
            )
            return int(cur.rowcount)

        return await self._conns.write(tx)

    async def purge_level(self, tenant_id: str, agent_id: str | None, namespace: str | None) -> int:
        def tx(conn: sqlite3.Connection) -> int:
            rows = conn.execute(
                "SELECT id, payload FROM queue_jobs WHERE tenant_id = ?"
                " AND json_extract(payload, '$.level') IS NOT NULL",
                (tenant_id,),
            ).fetchall()
            gone = [jid for jid, body in rows if of_level(json.loads(body), agent_id, namespace)]
            for part, marks in in_chunks(gone):
                conn.execute(f"DELETE FROM queue_jobs WHERE id IN ({marks})", part)
            return len(gone)

        return await self._conns.write(tx)

    async def dead_letters(self, limit: int = 100) -> list[Job]:
        rows = await self._conns.read(
            lambda conn: conn.execute(
                f"SELECT {_COLUMNS} FROM queue_jobs WHERE state = 'failed'"
                " ORDER BY updated_at DESC, seq DESC LIMIT ?",
                (limit,),
            ).fetchall()
        )
        return [_job(row) for row in rows]
