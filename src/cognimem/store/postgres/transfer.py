"""Export, import and erasure in PostgreSQL: the ``TransferStore`` role, with the
semantics of ``store/sqlite/transfer.py``. The order an export streams its rows in and
how a row becomes a record are shared (``store/transfer.py``); the queries are
PostgreSQL's, an erasure's in ``store/postgres/erasure.py``. An erasure's dead tuples
stay on disk until PostgreSQL vacuums the tables (autovacuum, or ``VACUUM`` to be
sure)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from cognimem.models import Scope
from cognimem.models.admin import ErasureReport, ExportRecord, RecordType
from cognimem.models.clock import to_utc
from cognimem.store import records, transfer
from cognimem.store.export_reach import ExportReach
from cognimem.store.postgres import item_writes, knowledge_writes, rows
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.postgres.erasure import erase_level, erase_user
from cognimem.store.postgres.locks import advisory_key
from cognimem.store.postgres.procedures import INSERT_PROCEDURE
from cognimem.store.postgres.rows import Params, decode_time
from cognimem.store.postgres.sessions import session_values
from cognimem.store.procedure_records import PROCEDURE_COLUMNS, procedure_values
from cognimem.store.records import (
    EVENT_COLUMNS,
    ITEM_COLUMNS,
    ITEM_SELECT,
    ITEMS_WITH_USAGE,
    SESSION_COLUMNS,
)
from cognimem.store.types import PendingItem, PendingMessage

if TYPE_CHECKING:
    from asyncpg import Connection

# serialises imports: ids are unique across the database, and an import inserts only
# the ids it did not find
IMPORT_LOCK = advisory_key("import")
_EXPORT_PAGE = 500  # rows per query while exporting


class PostgresTransfer(PostgresDatabase):
    """``TransferStore`` on PostgreSQL."""

    async def erase_user(self, tenant_id: str, user_id: str) -> ErasureReport:
        async def body(conn: Connection) -> ErasureReport:
            return await erase_user(conn, tenant_id, user_id)

        try:
            return await self._write(body, None)
        finally:
            self._drop_cached(tenant_id)

    async def erase_level(
        self, tenant_id: str, agent_id: str | None, namespace: str | None
    ) -> ErasureReport:
        async def body(conn: Connection) -> ErasureReport:
            return await erase_level(conn, tenant_id, agent_id, namespace)

        try:
            return await self._write(body, None)
        finally:
            self._drop_cached(tenant_id)

    def _drop_cached(self, tenant_id: str) -> None:
        self._terms.drop_tenant(tenant_id)
        self._fact_rows.drop_tenant(tenant_id)
        self._scope_facts.drop_tenant(tenant_id)
        self._graphs.drop_tenant(tenant_id)

    def export_records(
        self, scope: Scope, *, all_namespaces: bool = False, level_only: bool = False
    ) -> AsyncIterator[ExportRecord]:
        reach = ExportReach(scope, all_namespaces, level_only)

        async def page(kind: RecordType, after: transfer.Cursor | None) -> transfer.Page:
            # a connection per page: a consumer that stops early holds none
            async with self._connection() as conn:
                return await export_page(conn, reach, kind, after, _EXPORT_PAGE)

        return transfer.export_stream(page)

    async def held_ids(self, tenant_id: str, ids: Sequence[str]) -> set[str]:
        async with self._connection() as conn:
            return await held_ids(conn, tenant_id, ids)

    async def import_records(
        self, tenant_id: str, records: Sequence[ExportRecord], embeddings: Mapping[str, np.ndarray]
    ) -> dict[str, int]:
        batch = transfer.parse(records, tenant_id)

        async def body(conn: Connection) -> dict[str, int]:
            return await import_batch(conn, batch, embeddings)

        dim = next((int(np.asarray(v).shape[0]) for v in embeddings.values()), None)
        return await self._write(body, dim)

    async def flush_deleted(self) -> None:
        return None  # dead tuples go when PostgreSQL vacuums (docs/lifecycle.md)


# -- export ----------------------------------------------------------------------------
_TABLES: dict[str, tuple[str, str]] = {
    "event": ("events", f"{EVENT_COLUMNS}, processed"),
    # the counters from item_usage (the planner pushes the filters into the subquery)
    "item": (
        f"(SELECT i.seq, {ITEM_SELECT}, i.search_text FROM {ITEMS_WITH_USAGE}) AS items",
        f"{ITEM_COLUMNS}, search_text",
    ),
    "fact": ("facts", records.FACT_COLUMNS),
    "entity": ("entities", records.ENTITY_COLUMNS),
    "relation": ("relations", records.RELATION_COLUMNS),
    "conflict": ("conflicts", records.CONFLICT_COLUMNS),
    "history": ("history", records.HISTORY_COLUMNS),
    "session": ("sessions", SESSION_COLUMNS),
}


async def export_page(
    conn: Connection,
    reach: ExportReach,
    kind: RecordType,
    after: transfer.Cursor | None,
    limit: int,
) -> transfer.Page:
    """The ``transfer.Page`` of ``kind`` after ``after``: rows paged by ``seq``,
    procedures by id (``COLLATE "C"``), aliases by ``transfer.ALIAS_CURSOR``."""
    params = Params()
    scope = reach.scope

    def agent_is(agent_id: str | None) -> str:
        return "IS NULL" if agent_id is None else f"= {params.add(agent_id)}"

    def owned(agent: bool = True) -> str:
        return reach.owned_sql(params.add, agent_is if agent else None)

    if kind == "alias":
        return await _alias_page(conn, reach, params, after, limit)
    if kind == "procedure":  # no seq column: paged by id
        found = await conn.fetch(
            f"SELECT {PROCEDURE_COLUMNS} FROM procedures WHERE {owned()}"
            f' AND id COLLATE "C" > {params.add("" if after is None else after[0])}'
            f' ORDER BY id COLLATE "C" LIMIT {params.add(limit)}',
            *params.values,
        )
        return transfer.page(kind, found, limit, decode_time, cursor=("id",))
    if kind == "history" and not reach.whole_tenant:
        where = " OR ".join(
            f"target_id IN (SELECT id FROM {t} WHERE {owned()})"
            for t in ("items", "facts", "conflicts")
        )
        where = f"tenant_id = {params.add(scope.tenant_id)} AND ({where})"
    elif kind == "history":
        where = f"tenant_id = {params.add(scope.tenant_id)}"
    else:
        where = owned(agent=kind != "entity")
    table, columns = _TABLES[kind]
    start = 0 if after is None else int(after[0])
    found = await conn.fetch(
        f"SELECT seq, {columns} FROM {table} WHERE {where} AND seq > {params.add(start)}"
        f" ORDER BY seq LIMIT {params.add(limit)}",
        *params.values,
    )
    return transfer.page(kind, found, limit, decode_time)


async def _alias_page(
    conn: Connection,
    reach: ExportReach,
    params: Params,
    after: transfer.Cursor | None,
    limit: int,
) -> transfer.Page:
    """The aliases ``reach.alias_sql`` names, paged by their order."""
    where = reach.alias_sql(params.add)
    keys = [params.add(v) for v in (after or ("", "", "", ""))]
    found = await conn.fetch(
        f"SELECT namespace, {records.ALIAS_COLUMNS} FROM aliases WHERE {where}"
        f' AND (namespace, user_key, alias COLLATE "C", entity_id) > ({", ".join(keys)})'
        ' ORDER BY namespace, user_key, alias COLLATE "C", entity_id'
        f" LIMIT {params.add(limit)}",
        *params.values,
    )
    return transfer.page("alias", found, limit, decode_time, cursor=transfer.ALIAS_CURSOR)


# -- import ----------------------------------------------------------------------------
async def held_ids(conn: Connection, tenant_id: str, ids: Sequence[str]) -> set[str]:
    if not ids:
        return set()
    sql = " UNION ".join(
        f"SELECT id FROM {table} WHERE tenant_id = $1 AND id = ANY($2::text[])"
        for table in transfer.ROW_TABLES
    )
    return {r["id"] for r in await conn.fetch(sql, tenant_id, list(dict.fromkeys(ids)))}


async def _existing(conn: Connection, table: str, ids: Sequence[str]) -> set[str]:
    """Which ids are stored (in any tenant: ids are unique across the database)."""
    if not ids:
        return set()
    found = await conn.fetch(f"SELECT id FROM {table} WHERE id = ANY($1::text[])", list(ids))
    return {r["id"] for r in found}


async def _new(conn: Connection, table: str, models: Sequence[Any]) -> list[Any]:
    """The models (one per id) whose id is not stored yet."""
    return transfer.unstored(models, await _existing(conn, table, transfer.ids_of(models)))


async def _count(conn: Connection, sql: str, *args: object) -> int:
    return int(
        await conn.fetchval(f"WITH added AS ({sql} RETURNING 1) SELECT count(*) FROM added", *args)
    )


async def import_batch(
    conn: Connection, batch: transfer.ImportBatch, embeddings: Mapping[str, np.ndarray]
) -> dict[str, int]:
    """Insert what is not stored yet (by id; aliases and sessions by key)."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", IMPORT_LOCK)
    counts = transfer.zero_counts()
    if batch.events:
        messages = [PendingMessage(event=e, processed=p) for e, p in batch.events]
        counts["events"] = await _count(
            conn, rows.INSERT_EVENTS + " ON CONFLICT DO NOTHING", *rows.event_columns(messages)
        )
    items = await _new(conn, "items", [item for item, _ in batch.items])
    if items:
        search = {item.id: text for item, text in batch.items}
        pending = [
            PendingItem(
                item=i, embedding=embeddings.get(i.id), embed_text="", search_text=search[i.id]
            )
            for i in items
        ]
        await item_writes.insert_items(conn, pending)
        counts["items"] = len(pending)
    await _import_knowledge(conn, batch, embeddings, counts)
    if batch.aliases:
        counts["aliases"] = await _import_aliases(conn, batch)
    if batch.sessions:
        values = [session_values(s) for s in batch.sessions]
        counts["sessions"] = await _count(
            conn,
            f"INSERT INTO sessions ({SESSION_COLUMNS}) SELECT * FROM unnest($1::text[],"
            " $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],"
            " $8::timestamptz[], $9::jsonb[]) ON CONFLICT DO NOTHING",
            *[[v[c] for v in values] for c in range(9)],
        )
    procedures = await _new(conn, "procedures", batch.procedures)
    if procedures:
        await conn.executemany(
            INSERT_PROCEDURE, [procedure_values(p, to_utc, p.revision) for p in procedures]
        )
        counts["procedures"] = len(procedures)
    return counts


async def _import_knowledge(
    conn: Connection,
    batch: transfer.ImportBatch,
    embeddings: Mapping[str, np.ndarray],
    counts: dict[str, int],
) -> None:
    """Write ``batch.new_knowledge`` (what is not stored yet: no other import adds ids
    meanwhile, under ``IMPORT_LOCK``) and count it into ``counts``."""
    ids = batch.knowledge_ids()
    stored = {table: await _existing(conn, table, of) for table, of in ids.items()}
    knowledge = batch.new_knowledge(stored, embeddings)
    await knowledge_writes.apply(conn, knowledge)
    counts.update(transfer.knowledge_counts(knowledge))


async def _import_aliases(conn: Connection, batch: transfer.ImportBatch) -> int:
    """Insert the batch's aliases of stored entities not stored yet; how many."""
    return await _count(
        conn,
        "INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,"
        " confidence, use_count) SELECT e.tenant_id, a.ns, a.uk, a.alias, a.eid, a.src,"
        " a.conf, a.uses FROM unnest($1::text[], $2::text[], $3::text[], $4::text[],"
        " $5::text[], $6::float8[], $7::int4[]) AS a(ns, uk, alias, eid, src, conf, uses)"
        " JOIN entities e ON e.id = a.eid ON CONFLICT DO NOTHING",
        [ns for ns, _ in batch.aliases],
        [records.user_key(a.user_id) for _, a in batch.aliases],
        [a.alias for _, a in batch.aliases],
        [a.entity_id for _, a in batch.aliases],
        [a.source.value for _, a in batch.aliases],
        [a.confidence for _, a in batch.aliases],
        [a.use_count for _, a in batch.aliases],
    )
