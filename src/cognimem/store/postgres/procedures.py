"""Procedural memory in PostgreSQL: the ``ProcedureStore`` role."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cognimem.errors import StaleKnowledge
from cognimem.models import Event, Scope
from cognimem.models.clock import to_utc
from cognimem.models.procedures import Procedure
from cognimem.store.arguments import ProcedureQuery
from cognimem.store.postgres.database import PostgresDatabase, scope_where
from cognimem.store.postgres.rows import Params, decode_time, event_from_row
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

if TYPE_CHECKING:
    from asyncpg import Connection

INSERT_PROCEDURE = insert_sql(lambda n: f"${n}")
_UPDATE = update_sql(lambda n: f"${n}")


async def _check_sources(conn: Connection, created: Sequence[Procedure]) -> None:
    """Refuse new procedures learnt from an event that is gone (erased with its user or
    level while the run decided). The events are held FOR SHARE first: an erasure locks
    its events FOR UPDATE before it reads what to delete or scrub, so it either waits
    for this commit (and then deletes or scrubs these procedures) or is done already."""
    for tenant_id, wanted in source_events(created).items():
        live = await conn.fetch(
            "SELECT id FROM events WHERE tenant_id = $1 AND id = ANY($2::text[]) FOR SHARE",
            tenant_id,
            wanted,
        )
        if len(live) != len(wanted):
            raise StaleKnowledge("an event a new procedure was learnt from was removed")


class PostgresProcedures(PostgresDatabase):
    """``ProcedureStore`` on PostgreSQL."""

    async def conversation_events(
        self, scope: Scope, limit: int, *, by_agent: bool = False
    ) -> list[Event]:
        owner = conversation_owner(scope, by_agent=by_agent)
        params = Params()
        where = scope_where(owner, params)
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE {where}"
                f" ORDER BY occurred_at DESC, seq DESC LIMIT {params.add(limit)}",
                *params.values,
            )
        return [event_from_row(r) for r in reversed(rows)]

    async def list_procedures(self, asked: ProcedureQuery) -> list[Procedure]:
        params = Params(asked.tenant_id, asked.namespace)
        who = owners_sql(
            asked, params.add, lambda ids: f"agent_id = ANY({params.add(ids)}::text[])"
        )
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {PROCEDURE_COLUMNS} FROM procedures WHERE tenant_id = $1"
                f" AND namespace = $2{who}"
                " ORDER BY confidence DESC, observed_count DESC, id"
                f" LIMIT {params.add(asked.limit)}",
                *params.values,
            )
        return [procedure_from_row(r, decode_time) for r in rows]

    async def get_procedures(self, tenant_id: str, ids: Sequence[str]) -> list[Procedure]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {PROCEDURE_COLUMNS} FROM procedures"
                " WHERE tenant_id = $1 AND id = ANY($2::text[])",
                tenant_id,
                wanted,
            )
        found = {r["id"]: procedure_from_row(r, decode_time) for r in rows}
        return [found[i] for i in wanted if i in found]

    async def save_procedures(
        self, created: Sequence[Procedure], updated: Sequence[tuple[Procedure, int]]
    ) -> None:
        async with self._connection() as conn, conn.transaction():
            for p, expected in updated:
                done = await conn.execute(_UPDATE, *update_values(p, to_utc, expected))
                if not str(done).endswith(" 1"):
                    raise StaleKnowledge(f"procedure {p.id} changed since it was read")
            if created:
                await _check_sources(conn, created)
                await conn.executemany(
                    INSERT_PROCEDURE, [procedure_values(p, to_utc, 0) for p in created]
                )
