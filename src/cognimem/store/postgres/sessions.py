"""Sessions in PostgreSQL: the ``SessionStore`` role."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cognimem.models import Scope
from cognimem.models.admin import Session
from cognimem.store import records, row_values
from cognimem.store.postgres.database import PostgresDatabase, scope_where
from cognimem.store.postgres.rows import Params, decode_time
from cognimem.store.records import SESSION_COLUMNS

if TYPE_CHECKING:
    from asyncpg import Connection


def session_from_row(row: Mapping[str, Any]) -> Session:
    return records.session_from_row(row, decode_time)


def session_values(s: Session) -> tuple[Any, ...]:
    return row_values.session_values(s, decode_time)


async def put_session(conn: Connection, session: Session) -> None:
    await conn.execute(
        f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        " ON CONFLICT (tenant_id, namespace, id) DO UPDATE SET user_id = excluded.user_id,"
        " agent_id = excluded.agent_id, status = excluded.status,"
        " created_at = excluded.created_at, closed_at = excluded.closed_at,"
        " metadata = excluded.metadata",
        *session_values(session),
    )


async def get_session(
    conn: Connection, tenant_id: str, namespace: str, session_id: str
) -> Session | None:
    row = await conn.fetchrow(
        f"SELECT {SESSION_COLUMNS} FROM sessions"
        " WHERE tenant_id = $1 AND namespace = $2 AND id = $3",
        tenant_id,
        namespace,
        session_id,
    )
    return None if row is None else session_from_row(row)


async def list_sessions(conn: Connection, scope: Scope, limit: int) -> list[Session]:
    params = Params()
    where = scope_where(scope, params, session_column="id")
    found = await conn.fetch(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {where}"
        f" ORDER BY created_at DESC, id DESC LIMIT {params.add(limit)}",
        *params.values,
    )
    return [session_from_row(r) for r in found]


class PostgresSessions(PostgresDatabase):
    """``SessionStore`` on PostgreSQL."""

    async def put_session(self, session: Session) -> None:
        async with self._connection() as conn:
            await put_session(conn, session)

    async def get_session(self, tenant_id: str, namespace: str, session_id: str) -> Session | None:
        async with self._connection() as conn:
            return await get_session(conn, tenant_id, namespace, session_id)

    async def list_sessions(self, scope: Scope, limit: int) -> list[Session]:
        async with self._connection() as conn:
            return await list_sessions(conn, scope, limit)
