"""Lifecycle leases and the scheduler's view in SQLite: the ``LifecycleStore`` role.

One row per (user scope, operation) in ``lifecycle_runs``: the lease of the run holding
it (token and deadline) and when the last completed run began (``done_from``).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from cognimem.models.clock import from_micros, to_micros
from cognimem.store.records import user_key
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.types import DueScope, ScopeLease

_KEY = "tenant_id = ? AND namespace = ? AND user_key = ? AND op = ?"


def _key(lease: ScopeLease) -> tuple[str, str, str, str]:
    return (lease.tenant_id, lease.namespace, user_key(lease.user_id), lease.op)


def _time(micros: int | None) -> datetime | None:
    return None if micros is None else from_micros(micros)


class SQLiteLifecycle(SQLiteDatabase):
    """``LifecycleStore`` on SQLite."""

    async def take_lease(self, lease: ScopeLease, *, now: datetime, until: datetime) -> str | None:
        def tx(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(
                "INSERT INTO lifecycle_runs (tenant_id, namespace, user_key, user_id, op,"
                " job_id, holder, lease_token, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tenant_id, namespace, user_key, op) DO UPDATE SET"
                " job_id = excluded.job_id, holder = excluded.holder,"
                " lease_token = excluded.lease_token, lease_until = excluded.lease_until"
                " WHERE lifecycle_runs.lease_token IS NULL OR lifecycle_runs.lease_until < ?"
                " OR lifecycle_runs.job_id = excluded.job_id"
                " RETURNING lease_token",
                (*_key(lease)[:3], lease.user_id, lease.op, lease.job_id, lease.holder,
                 lease.token, to_micros(until), to_micros(now)),
            ).fetchone()  # fmt: skip
            if row is not None:
                return None
            holder = conn.execute(
                f"SELECT job_id FROM lifecycle_runs WHERE {_KEY}", _key(lease)
            ).fetchone()
            return str(holder[0])

        return await self._db.write(tx)

    async def renew_lease(self, lease: ScopeLease, *, until: datetime) -> bool:
        def tx(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                f"UPDATE lifecycle_runs SET lease_until = ? WHERE {_KEY} AND lease_token = ?",
                (to_micros(until), *_key(lease), lease.token),
            )
            return cur.rowcount == 1

        return await self._db.write(tx)

    async def release_lease(
        self, lease: ScopeLease, *, done_from: datetime | None, job_id: str | None
    ) -> None:
        done = None if done_from is None else to_micros(done_from)
        await self._db.write(
            lambda conn: conn.execute(
                "UPDATE lifecycle_runs SET holder = NULL, lease_token = NULL,"
                " lease_until = NULL, done_from = coalesce(?, done_from),"
                f" last_job_id = coalesce(?, last_job_id) WHERE {_KEY} AND lease_token = ?",
                (done, job_id if done is not None else None, *_key(lease), lease.token),
            )
        )

    async def lifecycle_due(self, op: str, *, limit: int) -> list[DueScope]:
        def q(conn: sqlite3.Connection) -> list[DueScope]:
            rows = conn.execute(
                "WITH new_items AS (SELECT i.tenant_id, i.namespace, i.user_id,"
                "  count(*) AS n, min(i.recorded_at) AS first FROM items i"
                "  LEFT JOIN lifecycle_runs r"
                "  ON r.tenant_id = i.tenant_id AND r.namespace = i.namespace"
                "  AND r.user_key = 'u:' || i.user_id AND r.op = ?"
                "  WHERE i.user_id IS NOT NULL AND i.kind = 'episode' AND i.status = 'active'"
                "  AND (r.done_from IS NULL OR i.recorded_at > r.done_from)"
                "  GROUP BY i.tenant_id, i.namespace, i.user_id),"
                " closed AS (SELECT s.tenant_id, s.namespace, s.user_id, count(*) AS n"
                "  FROM sessions s LEFT JOIN lifecycle_runs r"
                "  ON r.tenant_id = s.tenant_id AND r.namespace = s.namespace"
                "  AND r.user_key = 'u:' || s.user_id AND r.op = ?"
                "  WHERE s.user_id IS NOT NULL AND s.status = 'closed'"
                "  AND (r.done_from IS NULL OR s.closed_at > r.done_from)"
                "  GROUP BY s.tenant_id, s.namespace, s.user_id),"
                " scopes AS (SELECT tenant_id, namespace, user_id FROM new_items"
                "  UNION SELECT tenant_id, namespace, user_id FROM closed)"
                " SELECT s.tenant_id, s.namespace, s.user_id, coalesce(i.n, 0),"
                "  coalesce(c.n, 0), r.done_from, i.first FROM scopes s"
                " LEFT JOIN new_items i ON i.tenant_id = s.tenant_id"
                "  AND i.namespace = s.namespace AND i.user_id = s.user_id"
                " LEFT JOIN closed c ON c.tenant_id = s.tenant_id"
                "  AND c.namespace = s.namespace AND c.user_id = s.user_id"
                " LEFT JOIN lifecycle_runs r ON r.tenant_id = s.tenant_id"
                "  AND r.namespace = s.namespace AND r.user_key = 'u:' || s.user_id"
                "  AND r.op = ?"
                " ORDER BY coalesce(i.n, 0) DESC, s.tenant_id, s.namespace, s.user_id"
                " LIMIT ?",
                (op, op, op, limit),
            ).fetchall()
            return [
                DueScope(t, ns, u, int(n), int(c), _time(d), _time(f))
                for t, ns, u, n, c, d, f in rows
            ]

        return await self._db.read(q)
