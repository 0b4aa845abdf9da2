"""Sessions in SQLite: the ``SessionStore`` role."""

from __future__ import annotations

import sqlite3
from typing import Any

from cognimem.models import Scope
from cognimem.models.admin import Session
from cognimem.store import records, row_values
from cognimem.store.records import SESSION_COLUMNS
from cognimem.store.sqlite.database import SQLiteDatabase, scope_where
from cognimem.store.sqlite.rows import decode_time, encode_time, query


def session_from_row(row: sqlite3.Row) -> Session:
    return records.session_from_row(row, decode_time)


def session_params(s: Session) -> tuple[Any, ...]:
    """The values of ``SESSION_COLUMNS``."""
    return row_values.session_values(s, encode_time)


class SQLiteSessions(SQLiteDatabase):
    """``SessionStore`` on SQLite."""

    async def put_session(self, session: Session) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT OR REPLACE INTO sessions ({SESSION_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                session_params(session),
            )

        await self._db.write(tx)

    async def get_session(self, tenant_id: str, namespace: str, session_id: str) -> Session | None:
        def q(conn: sqlite3.Connection) -> Session | None:
            found = query(
                conn,
                f"SELECT {SESSION_COLUMNS} FROM sessions"
                " WHERE tenant_id = ? AND namespace = ? AND id = ?",
                (tenant_id, namespace, session_id),
            )
            return session_from_row(found[0]) if found else None

        return await self._db.read(q)

    async def list_sessions(self, scope: Scope, limit: int) -> list[Session]:
        where, params = scope_where(scope, session_column="id")

        return await self._decoded(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {where}"
            " ORDER BY created_at DESC, id DESC LIMIT ?",
            [*params, limit],
            session_from_row,
        )
