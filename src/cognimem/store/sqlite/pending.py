"""Unprocessed events and their ingest jobs (async ingestion) in SQLite.

An event committed without its items records the job that derives them and its ingest
profile; from these alone a job can be queued again (a retry of the write, a worker's
sweep). When the embedded job queue lives in the store's own file, the commit of the
events queues their job in the same transaction (:class:`Outbox`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Protocol

from cognimem.store import records
from cognimem.store.base import PendingJob, PendingMessage

_CHUNK = 500  # ids per IN (...) list


class Outbox(Protocol):
    """A job queue whose table is in the store's database file."""

    def enqueue_in(self, conn: sqlite3.Connection, job: PendingJob) -> None:
        """Queue ``job`` (idempotent on its id) inside the caller's transaction."""
        ...


def mark_unprocessed(conn: sqlite3.Connection, pending: PendingMessage) -> None:
    conn.execute(
        "UPDATE events SET processed = 0, job_id = ?, profile = ? WHERE id = ?",
        (pending.job_id, pending.profile, pending.event.id),
    )


def _rows(conn: sqlite3.Connection, sql: str, params: Sequence[object]) -> list[sqlite3.Row]:
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    return cur.execute(sql, params).fetchall()


def _with_members(conn: sqlite3.Connection, seeds: list[sqlite3.Row]) -> list[PendingJob]:
    keys = sorted({r["job_id"] for r in seeds if r["job_id"] is not None})
    members: list[sqlite3.Row] = []
    for start in range(0, len(keys), _CHUNK):
        part = keys[start : start + _CHUNK]
        members += _rows(
            conn,
            f"SELECT rowid, {records.PENDING_COLUMNS} FROM events WHERE processed = 0"
            f" AND job_id IN ({', '.join('?' * len(part))})",
            part,
        )
    members.sort(key=lambda r: r["rowid"])
    return records.pending_jobs(seeds, members)


def pending_jobs(
    conn: sqlite3.Connection, tenant_id: str, event_ids: Sequence[str]
) -> list[PendingJob]:
    seeds: list[sqlite3.Row] = []
    for start in range(0, len(event_ids), _CHUNK):
        part = list(event_ids[start : start + _CHUNK])
        seeds += _rows(
            conn,
            f"SELECT rowid, {records.PENDING_COLUMNS} FROM events WHERE +tenant_id = ?"
            f" AND id IN ({', '.join('?' * len(part))}) AND processed = 0",
            [tenant_id, *part],
        )
    seeds.sort(key=lambda r: r["rowid"])
    return _with_members(conn, seeds)


def stranded_jobs(conn: sqlite3.Connection, recorded_before: int, limit: int) -> list[PendingJob]:
    seeds = _rows(
        conn,
        f"SELECT rowid, {records.PENDING_COLUMNS} FROM events"
        " WHERE processed = 0 AND recorded_at < ? ORDER BY recorded_at, rowid LIMIT ?",
        [recorded_before, limit],
    )
    return _with_members(conn, seeds)
