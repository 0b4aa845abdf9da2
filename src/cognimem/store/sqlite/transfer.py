"""Export, import and erasure in SQLite: the ``TransferStore`` role. The order an
export streams its rows in and how a row becomes a record are shared with PostgreSQL
(``store/transfer.py``); the queries are SQLite's, an erasure's in
``store/sqlite/erasure.py``. Every connection has ``secure_delete`` on, so what an
erasure deletes is zeroed in the file, and ``flush_deleted`` copies the WAL into the
main file and truncates it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import numpy as np

from cognimem.models import Scope
from cognimem.models.admin import ErasureReport, ExportRecord, RecordType
from cognimem.store import records, transfer
from cognimem.store.export_reach import ExportReach
from cognimem.store.procedure_records import PROCEDURE_COLUMNS, procedure_values
from cognimem.store.records import EVENT_COLUMNS, ITEM_SELECT, ITEMS_WITH_USAGE, SESSION_COLUMNS
from cognimem.store.sqlite import knowledge_writes, rows
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.erasure import erase_level, erase_user
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.sqlite.procedures import INSERT_PROCEDURE
from cognimem.store.sqlite.rows import Params, decode_time, encode_time, query
from cognimem.store.sqlite.sessions import session_params
from cognimem.store.types import PendingItem

_EXPORT_PAGE = 500  # rows per read while exporting


class SQLiteTransfer(SQLiteDatabase):
    """``TransferStore`` on SQLite."""

    async def erase_user(self, tenant_id: str, user_id: str) -> ErasureReport:
        report = await self._db.write(lambda conn: erase_user(conn, tenant_id, user_id))
        self._drop_cached(tenant_id)
        return report

    async def erase_level(
        self, tenant_id: str, agent_id: str | None, namespace: str | None
    ) -> ErasureReport:
        report = await self._db.write(
            lambda conn: erase_level(conn, tenant_id, agent_id, namespace)
        )
        self._drop_cached(tenant_id)
        return report

    def _drop_cached(self, tenant_id: str) -> None:
        # the rows are gone and the versions moved on; copies in this process's memory go too
        self._vectors.drop_tenant(tenant_id)
        self._terms.drop_tenant(tenant_id)
        for copies in (self._fact_rows, self._scope_facts, self._graphs):
            copies.drop_tenant(tenant_id)

    def export_records(
        self, scope: Scope, *, all_namespaces: bool = False, level_only: bool = False
    ) -> AsyncIterator[ExportRecord]:
        reach = ExportReach(scope, all_namespaces, level_only)

        async def page(kind: RecordType, after: transfer.Cursor | None) -> transfer.Page:
            return await self._db.read(
                lambda conn: export_page(conn, reach, kind, after, _EXPORT_PAGE)
            )

        return transfer.export_stream(page)

    async def held_ids(self, tenant_id: str, ids: Sequence[str]) -> set[str]:
        return await self._db.read(lambda conn: held_ids(conn, tenant_id, ids))

    async def import_records(
        self, tenant_id: str, records: Sequence[ExportRecord], embeddings: Mapping[str, np.ndarray]
    ) -> dict[str, int]:
        batch = transfer.parse(records, tenant_id)
        return await self._db.write(lambda conn: import_batch(conn, batch, embeddings))

    async def flush_deleted(self) -> None:
        await self._db.truncate_wal()


# -- export ----------------------------------------------------------------------------
def export_page(
    conn: sqlite3.Connection,
    reach: ExportReach,
    kind: RecordType,
    after: transfer.Cursor | None,
    limit: int,
) -> transfer.Page:
    """The ``transfer.Page`` of ``kind`` after ``after``: rows paged by rowid, sessions
    by (namespace, id), aliases by ``transfer.ALIAS_CURSOR``."""
    scope = reach.scope

    def owned(prefix: str = "", agent: bool = True) -> tuple[str, list[object]]:
        bound = Params()
        agent_is = (lambda a: f"IS {bound.add(a)}") if agent else None
        return reach.owned_sql(bound.add, agent_is, prefix), bound.values

    where, params = owned(agent=kind != "entity")
    if kind == "alias":
        return _alias_page(conn, reach, after, limit)
    if kind == "session":
        return _session_page(conn, where, params, after, limit)
    start = 0 if after is None else int(after[0])
    if kind == "history":
        if reach.whole_tenant:
            where = "tenant_id = ?"
        else:
            targets = " OR ".join(
                f"target_id IN (SELECT id FROM {t} WHERE {where})"
                for t in ("items", "facts", "conflicts")
            )
            where, params = f"tenant_id = ? AND ({targets})", [scope.tenant_id, *params * 3]
        sql = f"SELECT rowid AS seq, {records.HISTORY_COLUMNS} FROM history WHERE {where}"
    elif kind == "item":
        where, params = owned("i.")
        return _item_page(conn, where, params, start, limit)
    else:
        table, columns = _TABLES[kind]
        sql = f"SELECT rowid AS seq, {columns} FROM {table} WHERE {where}"
    found = query(conn, f"{sql} AND rowid > ? ORDER BY rowid LIMIT ?", [*params, start, limit])
    return transfer.page(kind, found, limit, decode_time)


def _session_page(
    conn: sqlite3.Connection,
    where: str,
    params: list[object],
    after: transfer.Cursor | None,
    limit: int,
) -> transfer.Page:
    """The sessions matching ``where``, paged by (namespace, id)."""
    keyset, keys = "(namespace, id) > (?, ?)", list(after or ("", ""))
    found = query(
        conn,
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {where} AND {keyset}"
        " ORDER BY namespace, id LIMIT ?",
        [*params, *keys, limit],
    )
    return transfer.page("session", found, limit, decode_time, cursor=("namespace", "id"))


def _item_page(
    conn: sqlite3.Connection, where: str, params: list[object], start: int, limit: int
) -> transfer.Page:
    """The items matching ``where`` (on ``i.``) with their counters and search text,
    after rowid ``start``."""
    sql = (
        f"SELECT i.rowid AS seq, {ITEM_SELECT}, f.search_text FROM {ITEMS_WITH_USAGE}"
        f" LEFT JOIN items_fts f ON f.rowid = i.rowid WHERE {where}"
    )
    found = query(conn, f"{sql} AND i.rowid > ? ORDER BY i.rowid LIMIT ?", [*params, start, limit])
    return transfer.page("item", found, limit, decode_time)


_TABLES: dict[str, tuple[str, str]] = {
    "event": ("events", f"{EVENT_COLUMNS}, processed"),
    "fact": ("facts", records.FACT_COLUMNS),
    "entity": ("entities", records.ENTITY_COLUMNS),
    "relation": ("relations", records.RELATION_COLUMNS),
    "conflict": ("conflicts", records.CONFLICT_COLUMNS),
    "procedure": ("procedures", PROCEDURE_COLUMNS),
}


def _alias_page(
    conn: sqlite3.Connection,
    reach: ExportReach,
    after: transfer.Cursor | None,
    limit: int,
) -> transfer.Page:
    """The aliases ``reach.alias_sql`` names, paged by their order."""
    params = Params()
    where = reach.alias_sql(params.add)
    keys = list(after or ("", "", "", ""))
    found = query(
        conn,
        f"SELECT namespace, {records.ALIAS_COLUMNS} FROM aliases WHERE {where}"
        " AND (namespace, user_key, alias, entity_id) > (?, ?, ?, ?)"
        " ORDER BY namespace, user_key, alias, entity_id LIMIT ?",
        [*params.values, *keys, limit],
    )
    return transfer.page("alias", found, limit, decode_time, cursor=transfer.ALIAS_CURSOR)


# -- import ----------------------------------------------------------------------------
def held_ids(conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    unique = list(dict.fromkeys(ids))
    for part, marks in in_chunks(unique):
        sql = " UNION ".join(
            f"SELECT id FROM {table} WHERE tenant_id = ? AND id IN ({marks})"
            for table in transfer.ROW_TABLES
        )
        params = [p for _ in transfer.ROW_TABLES for p in (tenant_id, *part)]
        found.update(r[0] for r in conn.execute(sql, params))
    return found


def _existing(conn: sqlite3.Connection, table: str, ids: Sequence[str]) -> set[str]:
    """Which ids are stored (in any tenant: ids are unique across the database)."""
    found: set[str] = set()
    unique = list(dict.fromkeys(ids))
    for part, marks in in_chunks(unique):
        found.update(
            r[0] for r in conn.execute(f"SELECT id FROM {table} WHERE id IN ({marks})", part)
        )
    return found


def import_batch(
    conn: sqlite3.Connection, batch: transfer.ImportBatch, embeddings: Mapping[str, np.ndarray]
) -> dict[str, int]:
    """Insert what is not stored yet (by id; aliases and sessions by key)."""
    counts = transfer.zero_counts()
    for event, processed in batch.events:
        cur = conn.execute(
            f"INSERT OR IGNORE INTO events ({EVENT_COLUMNS}, processed)"
            f" VALUES ({', '.join('?' * 16)})",
            (*rows.event_params(event), int(processed)),
        )
        counts["events"] += cur.rowcount
    inserted = rows.insert_items(
        conn,
        [
            PendingItem(
                item=item, embedding=embeddings.get(item.id), embed_text="", search_text=text
            )
            for item, text in batch.items
        ],
        skip_existing=True,
    )
    counts["items"] = len(inserted)
    _import_knowledge(conn, batch, embeddings, counts)
    counts["aliases"] = _import_aliases(conn, batch)
    for session in batch.sessions:
        counts["sessions"] += conn.execute(
            f"INSERT OR IGNORE INTO sessions ({SESSION_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            session_params(session),
        ).rowcount
    for procedure in _new(conn, "procedures", batch.procedures):
        values = procedure_values(procedure, encode_time, procedure.revision)
        counts["procedures"] += conn.execute(INSERT_PROCEDURE, values).rowcount
    return counts


def _new(conn: sqlite3.Connection, table: str, models: Sequence[Any]) -> list[Any]:
    """The models (one per id) whose id is not stored yet."""
    return transfer.unstored(models, _existing(conn, table, transfer.ids_of(models)))


def _import_knowledge(
    conn: sqlite3.Connection,
    batch: transfer.ImportBatch,
    embeddings: Mapping[str, np.ndarray],
    counts: dict[str, int],
) -> None:
    """Write ``batch.new_knowledge`` (what is not stored yet, read in the writer's
    transaction) and count it into ``counts``."""
    ids = batch.knowledge_ids()
    stored = {table: _existing(conn, table, of) for table, of in ids.items()}
    knowledge = batch.new_knowledge(stored, embeddings)
    knowledge_writes.apply(conn, knowledge)
    counts.update(transfer.knowledge_counts(knowledge))


def _import_aliases(conn: sqlite3.Connection, batch: transfer.ImportBatch) -> int:
    """Insert the batch's aliases of stored entities not stored yet; how many."""
    added = 0
    for namespace, alias in batch.aliases:
        tenant = conn.execute(
            "SELECT tenant_id FROM entities WHERE id = ?", (alias.entity_id,)
        ).fetchone()
        if tenant is None:
            continue  # its entity was not imported (another tenant holds that id)
        added += conn.execute(
            "INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id,"
            " source, confidence, use_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                tenant[0], namespace, records.user_key(alias.user_id), alias.alias,
                alias.entity_id, alias.source.value, alias.confidence, alias.use_count,
            ),
        ).rowcount  # fmt: skip
    return added
