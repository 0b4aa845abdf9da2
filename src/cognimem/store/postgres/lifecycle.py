"""Lifecycle leases and the scheduler's view in PostgreSQL: the ``LifecycleStore`` role.

One row per (user scope, operation) in ``lifecycle_runs``: the lease of the run holding
it (token and deadline) and when the last completed run began (``done_from``).
"""

from __future__ import annotations

from datetime import datetime

from cognimem.models.clock import to_utc
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.records import user_key
from cognimem.store.types import DueScope, ScopeLease

_KEY = "tenant_id = $1 AND namespace = $2 AND user_key = $3 AND op = $4"


def _key(lease: ScopeLease) -> tuple[str, str, str, str]:
    return (lease.tenant_id, lease.namespace, user_key(lease.user_id), lease.op)


class PostgresLifecycle(PostgresDatabase):
    """``LifecycleStore`` on PostgreSQL."""

    async def take_lease(self, lease: ScopeLease, *, now: datetime, until: datetime) -> str | None:
        async with self._connection() as conn, conn.transaction():
            token = await conn.fetchval(
                "INSERT INTO lifecycle_runs (tenant_id, namespace, user_key, op, user_id,"
                " job_id, holder, lease_token, lease_until)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                " ON CONFLICT (tenant_id, namespace, user_key, op) DO UPDATE SET"
                " job_id = excluded.job_id, holder = excluded.holder,"
                " lease_token = excluded.lease_token, lease_until = excluded.lease_until"
                " WHERE lifecycle_runs.lease_token IS NULL OR lifecycle_runs.lease_until < $10"
                " OR lifecycle_runs.job_id = excluded.job_id"
                " RETURNING lease_token",
                *_key(lease), lease.user_id, lease.job_id, lease.holder, lease.token,
                to_utc(until), to_utc(now),
            )  # fmt: skip
            if token is not None:
                return None
            holder = await conn.fetchval(
                f"SELECT job_id FROM lifecycle_runs WHERE {_KEY}", *_key(lease)
            )
        return str(holder)

    async def renew_lease(self, lease: ScopeLease, *, until: datetime) -> bool:
        async with self._connection() as conn:
            done = await conn.execute(
                f"UPDATE lifecycle_runs SET lease_until = $5 WHERE {_KEY} AND lease_token = $6",
                *_key(lease),
                to_utc(until),
                lease.token,
            )
        return str(done).endswith(" 1")

    async def release_lease(
        self, lease: ScopeLease, *, done_from: datetime | None, job_id: str | None
    ) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "UPDATE lifecycle_runs SET holder = NULL, lease_token = NULL,"
                " lease_until = NULL, done_from = coalesce($5, done_from),"
                f" last_job_id = coalesce($6, last_job_id) WHERE {_KEY} AND lease_token = $7",
                *_key(lease),
                None if done_from is None else to_utc(done_from),
                job_id if done_from is not None else None,
                lease.token,
            )

    async def lifecycle_due(self, op: str, *, limit: int) -> list[DueScope]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "WITH new_items AS (SELECT i.tenant_id, i.namespace, i.user_id,"
                "  count(*) AS n, min(i.recorded_at) AS first FROM items i"
                "  LEFT JOIN lifecycle_runs r"
                "  ON r.tenant_id = i.tenant_id AND r.namespace = i.namespace"
                "  AND r.user_key = 'u:' || i.user_id AND r.op = $1"
                "  WHERE i.user_id IS NOT NULL AND i.kind = 'episode' AND i.status = 'active'"
                "  AND (r.done_from IS NULL OR i.recorded_at > r.done_from)"
                "  GROUP BY i.tenant_id, i.namespace, i.user_id),"
                " closed AS (SELECT s.tenant_id, s.namespace, s.user_id, count(*) AS n"
                "  FROM sessions s LEFT JOIN lifecycle_runs r"
                "  ON r.tenant_id = s.tenant_id AND r.namespace = s.namespace"
                "  AND r.user_key = 'u:' || s.user_id AND r.op = $1"
                "  WHERE s.user_id IS NOT NULL AND s.status = 'closed'"
                "  AND (r.done_from IS NULL OR s.closed_at > r.done_from)"
                "  GROUP BY s.tenant_id, s.namespace, s.user_id),"
                " scopes AS (SELECT tenant_id, namespace, user_id FROM new_items"
                "  UNION SELECT tenant_id, namespace, user_id FROM closed)"
                " SELECT s.tenant_id, s.namespace, s.user_id, coalesce(i.n, 0) AS n,"
                "  coalesce(c.n, 0) AS c, r.done_from, i.first FROM scopes s"
                " LEFT JOIN new_items i ON i.tenant_id = s.tenant_id"
                "  AND i.namespace = s.namespace AND i.user_id = s.user_id"
                " LEFT JOIN closed c ON c.tenant_id = s.tenant_id"
                "  AND c.namespace = s.namespace AND c.user_id = s.user_id"
                " LEFT JOIN lifecycle_runs r ON r.tenant_id = s.tenant_id"
                "  AND r.namespace = s.namespace AND r.user_key = 'u:' || s.user_id"
                "  AND r.op = $1"
                " ORDER BY 4 DESC, 1, 2, 3 LIMIT $2",
                op,
                limit,
            )
        return [DueScope(r[0], r[1], r[2], int(r[3]), int(r[4]), r[5], r[6]) for r in rows]
