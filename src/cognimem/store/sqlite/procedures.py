"""Procedural memory in SQLite: the ``ProcedureStore`` role."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from cognimem.errors import StaleKnowledge
from cognimem.models import Event, Scope
from cognimem.models.procedures import Procedure
from cognimem.store.arguments import ProcedureQuery
from cognimem.store.procedure_records import (
    PROCEDURE_COLUMNS,
    conversation_owner,
    insert_sql,
    owners_sql,
    procedure_from_row,
    procedure_values,
    source_events,
    update_sql,
    update_values,
)
from cognimem.store.records import EVENT_COLUMNS
from cognimem.store.sqlite.database import SQLiteDatabase, scope_where
from cognimem.store.sqlite.rows import (
    Params,
    count_present,
    decode_time,
    encode_time,
    event_from_row,
    query,
)

INSERT_PROCEDURE = insert_sql(lambda _: "?")
_UPDATE = update_sql(lambda _: "?")


def _check_sources(conn: sqlite3.Connection, created: Sequence[Procedure]) -> None:
    """Refuse new procedures learnt from an event that is gone (erased with its user or
    level while the run decided): they would name it, and state what it said."""
    for tenant_id, wanted in source_events(created).items():
        if count_present(conn, "events", tenant_id, wanted) != len(wanted):
            raise StaleKnowledge("an event a new procedure was learnt from was removed")


class SQLiteProcedures(SQLiteDatabase):
    """``ProcedureStore`` on SQLite."""

    async def conversation_events(
        self, scope: Scope, limit: int, *, by_agent: bool = False
    ) -> list[Event]:
        owner = conversation_owner(scope, by_agent=by_agent)
        where, params = scope_where(owner)

        def q(conn: sqlite3.Connection) -> list[Event]:
            rows = query(
                conn,
                f"SELECT {EVENT_COLUMNS} FROM events WHERE {where}"
                " ORDER BY occurred_at DESC, rowid DESC LIMIT ?",
                [*params, limit],
            )
            return [event_from_row(r) for r in reversed(rows)]

        return await self._db.read(q)

    async def list_procedures(self, asked: ProcedureQuery) -> list[Procedure]:
        params = Params(asked.tenant_id, asked.namespace)

        def agent_in(ids: list[str]) -> str:
            params.values.extend(ids)
            return f"agent_id IN ({', '.join('?' * len(ids))})"

        who = owners_sql(asked, params.add, agent_in)

        return await self._decoded(
            f"SELECT {PROCEDURE_COLUMNS} FROM procedures WHERE tenant_id = ?"
            f" AND namespace = ?{who}"
            " ORDER BY confidence DESC, observed_count DESC, id LIMIT ?",
            [*params.values, asked.limit],
            lambda r: procedure_from_row(r, decode_time),
            here=True,  # at most ``limit`` rows
        )

    async def get_procedures(self, tenant_id: str, ids: Sequence[str]) -> list[Procedure]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []

        def q(conn: sqlite3.Connection) -> list[Procedure]:
            rows = query(
                conn,
                f"SELECT {PROCEDURE_COLUMNS} FROM procedures WHERE tenant_id = ?"
                f" AND id IN ({', '.join('?' * len(wanted))})",
                [tenant_id, *wanted],
            )
            found = {r["id"]: procedure_from_row(r, decode_time) for r in rows}
            return [found[i] for i in wanted if i in found]

        return await self._db.read(q)

    async def save_procedures(
        self, created: Sequence[Procedure], updated: Sequence[tuple[Procedure, int]]
    ) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            for p, expected in updated:
                cur = conn.execute(_UPDATE, update_values(p, encode_time, expected))
                if cur.rowcount != 1:
                    raise StaleKnowledge(f"procedure {p.id} changed since it was read")
            _check_sources(conn, created)
            for p in created:
                conn.execute(INSERT_PROCEDURE, procedure_values(p, encode_time, 0))

        await self._db.write(tx)
