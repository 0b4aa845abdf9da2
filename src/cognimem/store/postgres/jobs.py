"""Unprocessed events and their ingest jobs (async ingestion) in PostgreSQL: the
``JobStore`` role.

An event committed without its items records the job that derives them and its ingest
profile; from these alone a job can be queued again (a retry of the write, a worker's
sweep), so a crash between committing the events and queuing the job in Redis strands
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from cognimem.models.clock import to_utc
from cognimem.store import records
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.types import PendingJob

if TYPE_CHECKING:
    from asyncpg import Connection, Record


async def _with_members(conn: Connection, seeds: Sequence[Record]) -> list[PendingJob]:
    keys = sorted({r["job_id"] for r in seeds if r["job_id"] is not None})
    members = await conn.fetch(
        f"SELECT {records.PENDING_COLUMNS} FROM events WHERE NOT processed"
        " AND job_id = ANY($1::text[]) ORDER BY seq",
        keys,
    )
    return records.pending_jobs(seeds, members)


async def pending_jobs(
    conn: Connection, tenant_id: str, event_ids: Sequence[str]
) -> list[PendingJob]:
    seeds = await conn.fetch(
        f"SELECT {records.PENDING_COLUMNS} FROM events WHERE tenant_id = $1"
        " AND id = ANY($2::text[]) AND NOT processed ORDER BY seq",
        tenant_id,
        list(event_ids),
    )
    return await _with_members(conn, seeds)


async def stranded_jobs(
    conn: Connection, recorded_before: datetime, limit: int
) -> list[PendingJob]:
    seeds = await conn.fetch(
        f"SELECT {records.PENDING_COLUMNS} FROM events WHERE NOT processed"
        " AND recorded_at < $1 ORDER BY recorded_at, seq LIMIT $2",
        to_utc(recorded_before),
        limit,
    )
    return await _with_members(conn, seeds)


class PostgresJobs(PostgresDatabase):
    """``JobStore`` on PostgreSQL."""

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
            return await pending_jobs(conn, tenant_id, event_ids)

    async def stranded_jobs(self, recorded_before: datetime, limit: int) -> list[PendingJob]:
        async with self._connection() as conn:
            return await stranded_jobs(conn, recorded_before, limit)
