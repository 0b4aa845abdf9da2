"""Lifecycle leases and the scheduler's view in SQLite: the ``LifecycleStore`` role,
over ``lifecycle_runs`` (one row per level and operation) and the scheduler's query, both
described in ``store/lifecycle_due.py``."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from cognimem.models.clock import from_micros, to_micros
from cognimem.store.lifecycle_due import due_sql, lease_key
from cognimem.store.lifecycle_leases import lease_statements
from cognimem.store.records import user_key
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.types import DueScope, ScopeLease

_SQL = lease_statements(lambda _: "?")


def _time(micros: int | None) -> datetime | None:
    return None if micros is None else from_micros(micros)


class SQLiteLifecycle(SQLiteDatabase):
    """``LifecycleStore`` on SQLite."""

    async def take_lease(self, lease: ScopeLease, *, now: datetime, until: datetime) -> str | None:
        def tx(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(
                "INSERT INTO lifecycle_runs (tenant_id, namespace, user_key, user_id, op,"
                " job_id, holder, lease_token, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + _SQL.take_on_conflict,
                (*lease_key(lease)[:3], lease.user_id, lease.op, lease.job_id, lease.holder,
                 lease.token, to_micros(until), to_micros(now)),
            ).fetchone()  # fmt: skip
            if row is not None:
                return None
            holder = conn.execute(_SQL.holder, lease_key(lease)).fetchone()
            return str(holder[0])

        return await self._db.write(tx)

    async def renew_lease(self, lease: ScopeLease, *, until: datetime) -> bool:
        def tx(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                _SQL.renew,
                (to_micros(until), *lease_key(lease), lease.token),
            )
            return cur.rowcount == 1

        return await self._db.write(tx)

    async def release_lease(
        self, lease: ScopeLease, *, done_from: datetime | None, job_id: str | None
    ) -> None:
        done = None if done_from is None else to_micros(done_from)
        await self._db.write(
            lambda conn: conn.execute(
                _SQL.release,
                (done, job_id if done is not None else None, *lease_key(lease), lease.token),
            )
        )

    async def drop_lease(self, lease: ScopeLease) -> None:
        await self._db.write(
            lambda conn: conn.execute(
                _SQL.drop,
                (*lease_key(lease), lease.token),
            )
        )

    async def drop_runs(self, tenant_id: str, holder: str) -> int:
        def tx(conn: sqlite3.Connection) -> int:
            cur = conn.execute(_SQL.drop_runs, (tenant_id, user_key(holder)))
            return int(cur.rowcount)

        return await self._db.write(tx)

    async def lifecycle_due(self, op: str, *, limit: int, levels: bool = True) -> list[DueScope]:
        sql = due_sql(lambda n: f"?{n}", levels=levels)

        def q(conn: sqlite3.Connection) -> list[DueScope]:
            rows = conn.execute(sql, (op, limit)).fetchall()
            return [
                DueScope(t, ns, u, int(n), int(c), _time(d), _time(f), agent_id=a)
                for t, ns, u, a, n, c, d, f in rows
            ]

        return await self._db.read(q)
