"""Unprocessed events and their ingest jobs (async ingestion) in SQLite: the
``JobStore`` role.

An event committed without its items records the job that derives them and its ingest
profile; from these alone a job can be queued again (a retry of the write, a worker's
sweep). When the embedded job queue lives in the store's own file, the commit of the
events queues their job in the same transaction (``database.Outbox``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from cognimem.models.clock import to_micros
from cognimem.store import records
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.sqlite.rows import query
from cognimem.store.types import PendingJob


def _with_members(conn: sqlite3.Connection, seeds: list[sqlite3.Row]) -> list[PendingJob]:
    keys = sorted({r["job_id"] for r in seeds if r["job_id"] is not None})
    members: list[sqlite3.Row] = []
    for part, marks in in_chunks(keys):
        members += query(
            conn,
            f"SELECT rowid, {records.PENDING_COLUMNS} FROM events WHERE processed = 0"
            f" AND job_id IN ({marks})",
            part,
        )
    members.sort(key=lambda r: r["rowid"])
    return records.pending_jobs(seeds, members)


def pending_jobs(
    conn: sqlite3.Connection, tenant_id: str, event_ids: Sequence[str]
) -> list[PendingJob]:
    seeds: list[sqlite3.Row] = []
    for part, marks in in_chunks(event_ids):
        seeds += query(
            conn,
            f"SELECT rowid, {records.PENDING_COLUMNS} FROM events WHERE +tenant_id = ?"
            f" AND id IN ({marks}) AND processed = 0",
            [tenant_id, *part],
        )
    seeds.sort(key=lambda r: r["rowid"])
    return _with_members(conn, seeds)


def stranded_jobs(conn: sqlite3.Connection, recorded_before: int, limit: int) -> list[PendingJob]:
    seeds = query(
        conn,
        f"SELECT rowid, {records.PENDING_COLUMNS} FROM events"
        " WHERE processed = 0 AND recorded_at < ? ORDER BY recorded_at, rowid LIMIT ?",
        [recorded_before, limit],
    )
    return _with_members(conn, seeds)


class SQLiteJobs(SQLiteDatabase):
    """``JobStore`` on SQLite."""

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
        return await self._db.read(lambda conn: pending_jobs(conn, tenant_id, event_ids))

    async def stranded_jobs(self, recorded_before: datetime, limit: int) -> list[PendingJob]:
        before = to_micros(recorded_before)
        return await self._db.read(lambda conn: stranded_jobs(conn, before, limit))
