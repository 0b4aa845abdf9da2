"""Lifecycle leases and the scheduler's view in PostgreSQL: the ``LifecycleStore`` role,
over ``lifecycle_runs`` (one row per level and operation) and the scheduler's query, both
described in ``store/lifecycle_due.py``."""

from __future__ import annotations

from datetime import datetime

from cognimem.models.clock import to_utc
from cognimem.store.lifecycle_due import due_sql, lease_key
from cognimem.store.lifecycle_leases import lease_statements
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.records import user_key
from cognimem.store.types import DueScope, ScopeLease

_SQL = lease_statements(lambda n: f"${n}")


class PostgresLifecycle(PostgresDatabase):
    """``LifecycleStore`` on PostgreSQL."""

    async def take_lease(self, lease: ScopeLease, *, now: datetime, until: datetime) -> str | None:
        async with self._connection() as conn, conn.transaction():
            token = await conn.fetchval(
                "INSERT INTO lifecycle_runs (tenant_id, namespace, user_key, op, user_id,"
                " job_id, holder, lease_token, lease_until)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)" + _SQL.take_on_conflict,
                *lease_key(lease), lease.user_id, lease.job_id, lease.holder, lease.token,
                to_utc(until), to_utc(now),
            )  # fmt: skip
            if token is not None:
                return None
            holder = await conn.fetchval(_SQL.holder, *lease_key(lease))
        return str(holder)

    async def renew_lease(self, lease: ScopeLease, *, until: datetime) -> bool:
        async with self._connection() as conn:
            done = await conn.execute(
                _SQL.renew,
                *lease_key(lease),
                to_utc(until),
                lease.token,
            )
        return str(done).endswith(" 1")

    async def release_lease(
        self, lease: ScopeLease, *, done_from: datetime | None, job_id: str | None
    ) -> None:
        async with self._connection() as conn:
            await conn.execute(
                _SQL.release,
                *lease_key(lease),
                None if done_from is None else to_utc(done_from),
                job_id if done_from is not None else None,
                lease.token,
            )

    async def drop_lease(self, lease: ScopeLease) -> None:
        async with self._connection() as conn:
            await conn.execute(
                _SQL.drop,
                *lease_key(lease),
                lease.token,
            )

    async def drop_runs(self, tenant_id: str, holder: str) -> int:
        async with self._connection() as conn:
            done = await conn.execute(_SQL.drop_runs, tenant_id, user_key(holder))
        return int(str(done).rsplit(" ", 1)[-1])

    async def lifecycle_due(self, op: str, *, limit: int, levels: bool = True) -> list[DueScope]:
        sql = due_sql(lambda n: f"${n}", levels=levels)
        async with self._connection() as conn:
            rows = await conn.fetch(sql, op, limit)
        return [
            DueScope(r[0], r[1], r[2], int(r[4]), int(r[5]), r[6], r[7], agent_id=r[3])
            for r in rows
        ]
