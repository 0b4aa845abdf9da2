"""Lifecycle operations in PostgreSQL: item edits, conflict resolution, sessions, scope
statistics, erasure, export and import, with the semantics of
``store/sqlite/lifecycle.py``. Each function runs on the caller's connection (and, for
writes, inside its transaction); ``PostgresStore`` only dispatches.

Nothing is cached in the process here, so there are no versions to bump: the item row
carries its text, tsvector and embedding, and every index follows it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from cognimem.errors import Conflict, NotFound, StaleKnowledge
from cognimem.models import ItemStatus, MemoryItem, Scope
from cognimem.models.admin import (
    ErasureReport,
    ExportRecord,
    RecordType,
    ScopeStats,
    Session,
)
from cognimem.models.clock import to_utc
from cognimem.models.knowledge import ConflictStatus, FactConflict, HistoryEntry
from cognimem.store import records, transfer
from cognimem.store.base import FactUpdate, Knowledge, PendingFact, PendingItem, PendingMessage
from cognimem.store.postgres import knowledge as kn
from cognimem.store.postgres import rows
from cognimem.store.postgres.rows import Params, advisory_key, vector_bytes

if TYPE_CHECKING:
    from asyncpg import Connection

SESSION_COLUMNS = (
    "tenant_id, namespace, id, user_id, agent_id, status, created_at, closed_at, metadata"
)
# serialises imports: ids are unique across the database, and an import inserts only
# the ids it did not find
IMPORT_LOCK = advisory_key("import")


def _time(value: datetime | None) -> datetime | None:
    return None if value is None else to_utc(value)


# -- edits -----------------------------------------------------------------------------
async def update_item(
    conn: Connection,
    item: MemoryItem,
    expected: MemoryItem,
    history: HistoryEntry,
    embedding: np.ndarray | None,
    search_text: str | None,
) -> None:
    guard = " AND ".join(f"{c} = ${n}" for n, c in enumerate(records.EDIT_GUARD_COLUMNS, 16))
    found = await conn.fetchval(
        "UPDATE items SET text = $3, importance = $4, confidence = $5, tier = $6, status = $7,"
        " token_count = $8, cited_count = $9, success_count = $10, failure_count = $11,"
        " embedding_model = $12, metadata = $13::jsonb, event_start = $14, event_end = $15"
        f" WHERE tenant_id = $1 AND id = $2 AND {guard} RETURNING 1",
        item.scope.tenant_id, item.id, item.text, item.importance, item.confidence,
        item.tier.value, item.status.value, item.token_count, item.cited_count,
        item.success_count, item.failure_count, item.embedding_model, json.dumps(item.metadata),
        _time(item.event_start), _time(item.event_end), *records.edit_guard(expected),
    )  # fmt: skip
    if found is None:
        exists = await conn.fetchval(
            "SELECT 1 FROM items WHERE tenant_id = $1 AND id = $2", item.scope.tenant_id, item.id
        )
        if exists is None:
            raise NotFound("memory", item.id)
        raise StaleKnowledge(f"memory {item.id} changed while this edit was made")
    if search_text is not None:
        await conn.execute(
            "UPDATE items SET search_text = $3, embedding = $4 WHERE tenant_id = $1 AND id = $2",
            item.scope.tenant_id,
            item.id,
            search_text,
            None if embedding is None else vector_bytes(embedding),
        )
    await kn.insert_history(conn, [history])


async def get_conflict(conn: Connection, tenant_id: str, conflict_id: str) -> FactConflict | None:
    row = await conn.fetchrow(
        f"SELECT {records.CONFLICT_COLUMNS} FROM conflicts WHERE id = $1 AND tenant_id = $2",
        conflict_id,
        tenant_id,
    )
    return None if row is None else records.conflict_from_row(row, _time)


async def resolve_conflict(
    conn: Connection,
    conflict: FactConflict,
    fact_updates: Sequence[FactUpdate],
    history: Sequence[HistoryEntry],
    silence_items: Sequence[str],
) -> None:
    """The conflict's new state (only while it is still open), the facts it changes
    (guarded by their revisions) and the items it silences."""
    changed = await conn.fetchval(
        "UPDATE conflicts SET status = $3, strategy = $4, winner_fact_id = $5,"
        " resolved_at = $6, note = $7 WHERE id = $1 AND tenant_id = $2 AND status = $8"
        " RETURNING 1",
        conflict.id, conflict.scope.tenant_id, conflict.status.value, conflict.strategy.value,
        conflict.winner_fact_id, _time(conflict.resolved_at), conflict.note,
        ConflictStatus.OPEN.value,
    )  # fmt: skip
    if changed is None:
        if await get_conflict(conn, conflict.scope.tenant_id, conflict.id) is None:
            raise NotFound("conflict", conflict.id)
        raise Conflict(
            f"conflict {conflict.id} was resolved meanwhile", details={"conflict": conflict.id}
        )
    await kn.apply(conn, Knowledge(fact_updates=list(fact_updates), history=list(history)))
    if silence_items:
        await conn.execute(
            "UPDATE items SET status = $3 WHERE tenant_id = $1 AND id = ANY($2::text[])"
            " AND status <> $3",
            conflict.scope.tenant_id,
            list(silence_items),
            ItemStatus.SILENT.value,
        )


# -- sessions --------------------------------------------------------------------------
def _session(row: Mapping[str, Any]) -> Session:
    return records.session_from_row(row, _time)


def _session_values(s: Session) -> tuple[Any, ...]:
    return (
        s.scope.tenant_id, s.scope.namespace, s.id, s.scope.user_id, s.scope.agent_id,
        s.status.value, to_utc(s.created_at), _time(s.closed_at), json.dumps(s.metadata),
    )  # fmt: skip


async def put_session(conn: Connection, session: Session) -> None:
    await conn.execute(
        f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        " ON CONFLICT (tenant_id, namespace, id) DO UPDATE SET user_id = excluded.user_id,"
        " agent_id = excluded.agent_id, status = excluded.status,"
        " created_at = excluded.created_at, closed_at = excluded.closed_at,"
        " metadata = excluded.metadata",
        *_session_values(session),
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
    return None if row is None else _session(row)


def _scope_where(
    scope: Scope, params: Params, *, agent: bool = True, session_column: str | None = "session_id"
) -> str:
    """tenant and namespace always; user, agent and session when the scope sets them
    (and the table has the column)."""
    clauses = [f"tenant_id = {params.add(scope.tenant_id)}"]
    clauses.append(f"namespace = {params.add(scope.namespace)}")
    wanted = [("user_id", scope.user_id)]
    if agent:
        wanted.append(("agent_id", scope.agent_id))
    if session_column is not None:
        wanted.append((session_column, scope.session_id))
    clauses += [f"{column} = {params.add(value)}" for column, value in wanted if value is not None]
    return " AND ".join(clauses)


async def list_sessions(conn: Connection, scope: Scope, limit: int) -> list[Session]:
    params = Params()
    where = _scope_where(scope, params, session_column="id")
    found = await conn.fetch(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {where}"
        f" ORDER BY created_at DESC, id DESC LIMIT {params.add(limit)}",
        *params.values,
    )
    return [_session(r) for r in found]


# -- statistics ------------------------------------------------------------------------
async def _grouped(conn: Connection, sql: str, params: Params) -> dict[str, int]:
    return {str(r[0]): int(r[1]) for r in await conn.fetch(sql, *params.values)}


async def scope_stats(conn: Connection, scope: Scope) -> ScopeStats:
    def full() -> tuple[str, Params]:
        params = Params()
        return _scope_where(scope, params), params

    async with conn.transaction(isolation="repeatable_read", readonly=True):  # one snapshot
        where, p = full()
        events = await conn.fetchval(f"SELECT count(*) FROM events WHERE {where}", *p.values)
        where, p = full()
        items = await _grouped(
            conn, f"SELECT status, count(*) FROM items WHERE {where} GROUP BY status", p
        )
        where, p = full()
        active = p.add(ItemStatus.ACTIVE.value)
        by_kind = await _grouped(
            conn,
            f"SELECT kind, count(*) FROM items WHERE {where} AND status = {active} GROUP BY kind",
            p,
        )
        where, p = full()
        facts = await _grouped(
            conn, f"SELECT status, count(*) FROM facts WHERE {where} GROUP BY status", p
        )
        p = Params()
        where = _scope_where(scope, p, agent=False, session_column=None)
        entities = await conn.fetchval(f"SELECT count(*) FROM entities WHERE {where}", *p.values)
        where, p = full()
        relations = await conn.fetchval(
            f"SELECT count(*) FROM relations WHERE {where} AND active", *p.values
        )
        where, p = full()
        open_ = p.add(ConflictStatus.OPEN.value)
        conflicts = await conn.fetchval(
            f"SELECT count(*) FROM conflicts WHERE {where} AND status = {open_}", *p.values
        )
        p = Params()
        where = _scope_where(scope, p, session_column="id")
        sessions = await _grouped(
            conn, f"SELECT status, count(*) FROM sessions WHERE {where} GROUP BY status", p
        )
    return ScopeStats(
        events=int(events),
        items=items,
        items_by_kind=by_kind,
        facts=facts,
        entities=int(entities),
        relations=int(relations),
        open_conflicts=int(conflicts),
        sessions=sessions,
    )


# -- erasure ---------------------------------------------------------------------------
async def erase_user(conn: Connection, tenant_id: str, user_id: str) -> ErasureReport:
    """Delete every row of the user (see ``Store.erase_user``). Dead tuples stay on disk
    until PostgreSQL vacuums the tables (autovacuum, or ``VACUUM`` to be sure). Runs in
    READ COMMITTED: each statement after the lock sees what committed before it."""
    mine = "tenant_id = $1 AND user_id = $2"
    who = (tenant_id, user_id)
    # first, before anything is read: a worker attaching items to these events holds
    # them FOR SHARE (rows.attach_items), so this waits for its commit and the reads
    # below see its items; a worker that comes later waits here and finds no events
    events_locked = await conn.fetch(
        f"SELECT id FROM events WHERE {mine} ORDER BY id FOR UPDATE", *who
    )
    ids: dict[str, list[str]] = {"events": [r[0] for r in events_locked]}
    for table in ("items", "facts", "conflicts", "entities"):
        ids[table] = [r[0] for r in await conn.fetch(f"SELECT id FROM {table} WHERE {mine}", *who)]
    items = await conn.fetch(f"SELECT author, text FROM items WHERE {mine}", *who)
    facts = await conn.fetch(f"SELECT text FROM facts WHERE {mine}", *who)
    events = await conn.fetch(f"SELECT content_hash FROM events WHERE {mine}", *who)
    hashes = transfer.erased_hashes(
        ((r["author"], r["text"]) for r in items),
        (r["text"] for r in facts),
        (r["content_hash"] for r in events),
    )
    removed: dict[str, int] = {}

    async def delete(name: str, sql: str, *args: object) -> None:
        count = await conn.fetchval(
            f"WITH gone AS ({sql} RETURNING 1) SELECT count(*) FROM gone", *args
        )
        removed[name] = int(count)

    targets = ids["items"] + ids["facts"] + ids["conflicts"]
    await delete(
        "history",
        "DELETE FROM history WHERE tenant_id = $1"
        " AND (target_id = ANY($2::text[]) OR event_id = ANY($3::text[]))",
        tenant_id,
        targets,
        ids["events"],
    )
    await delete(
        "item_events",
        "DELETE FROM item_events WHERE item_id = ANY($1::text[]) OR event_id = ANY($2::text[])",
        ids["items"],
        ids["events"],
    )
    await delete(
        "aliases",
        "DELETE FROM aliases WHERE tenant_id = $1"
        " AND (user_key = $2 OR entity_id = ANY($3::text[]))",
        tenant_id,
        records.user_key(user_id),
        ids["entities"],
    )
    await delete(
        "relations",
        "DELETE FROM relations WHERE tenant_id = $1 AND (user_id = $2"
        " OR source_entity_id = ANY($3::text[]) OR target_entity_id = ANY($3::text[])"
        " OR fact_id = ANY($4::text[]))",
        tenant_id,
        user_id,
        ids["entities"],
        ids["facts"],
    )
    for table in ("items", "events", "facts", "conflicts", "entities", "sessions"):
        await delete(table, f"DELETE FROM {table} WHERE {mine}", *who)
    return ErasureReport(removed=removed, content_hashes=hashes)


async def delete_embeddings(conn: Connection, hashes: Sequence[str]) -> int:
    count = await conn.fetchval(
        "WITH gone AS (DELETE FROM embedding_cache WHERE text_hash = ANY($1::text[])"
        " RETURNING 1) SELECT count(*) FROM gone",
        list(hashes),
    )
    return int(count)


# -- export ----------------------------------------------------------------------------
Cursor = tuple[Any, ...]

_TABLES: dict[str, tuple[str, str]] = {
    "event": ("events", f"{rows.EVENT_COLUMNS}, processed"),
    "item": ("items", f"{rows.ITEM_COLUMNS}, search_text"),
    "fact": ("facts", records.FACT_COLUMNS),
    "entity": ("entities", records.ENTITY_COLUMNS),
    "relation": ("relations", records.RELATION_COLUMNS),
    "conflict": ("conflicts", records.CONFLICT_COLUMNS),
    "history": ("history", records.HISTORY_COLUMNS),
    "session": ("sessions", SESSION_COLUMNS),
}


def _to_record(kind: RecordType, row: Mapping[str, Any]) -> ExportRecord:
    if kind == "event":
        return transfer.record("event", rows.event_from_row(row), processed=row["processed"])
    if kind == "item":
        return transfer.record("item", rows.item_from_row(row), search_text=row["search_text"])
    if kind == "fact":
        return transfer.record("fact", kn.fact_from_row(row))
    if kind == "entity":
        return transfer.record("entity", kn.entity_from_row(row))
    if kind == "relation":
        return transfer.record("relation", records.relation_from_row(row, _time))
    if kind == "conflict":
        return transfer.record("conflict", records.conflict_from_row(row, _time))
    if kind == "session":
        return transfer.record("session", _session(row))
    return transfer.record("history", records.history_from_row(row, _time))


async def export_page(
    conn: Connection,
    kind: RecordType,
    scope: Scope,
    all_namespaces: bool,
    after: Cursor | None,
    limit: int,
) -> tuple[list[ExportRecord], Cursor | None]:
    """One page of one record type, after the cursor; the cursor of the next page (None:
    this was the last)."""
    params = Params()

    def owned() -> str:
        clauses = [f"tenant_id = {params.add(scope.tenant_id)}"]
        if not all_namespaces:
            clauses.append(f"namespace = {params.add(scope.namespace)}")
        if scope.user_id is not None:
            clauses.append(f"user_id = {params.add(scope.user_id)}")
        return " AND ".join(clauses)

    if kind == "alias":
        return await _alias_page(conn, scope, all_namespaces, owned, params, after, limit)
    if kind == "history" and not (scope.user_id is None and all_namespaces):
        where = " OR ".join(
            f"target_id IN (SELECT id FROM {t} WHERE {owned()})"
            for t in ("items", "facts", "conflicts")
        )
        where = f"tenant_id = {params.add(scope.tenant_id)} AND ({where})"
    elif kind == "history":
        where = f"tenant_id = {params.add(scope.tenant_id)}"
    else:
        where = owned()
    table, columns = _TABLES[kind]
    start = 0 if after is None else int(after[0])
    found = await conn.fetch(
        f"SELECT seq, {columns} FROM {table} WHERE {where} AND seq > {params.add(start)}"
        f" ORDER BY seq LIMIT {params.add(limit)}",
        *params.values,
    )
    out = [_to_record(kind, r) for r in found]
    return out, ((found[-1]["seq"],) if len(found) == limit else None)


async def _alias_page(
    conn: Connection,
    scope: Scope,
    all_namespaces: bool,
    owned: Any,
    params: Params,
    after: Cursor | None,
    limit: int,
) -> tuple[list[ExportRecord], Cursor | None]:
    """The user's aliases and the shared aliases of the user's entities (every alias of
    the namespace without a user)."""
    clauses = [f"tenant_id = {params.add(scope.tenant_id)}"]
    if not all_namespaces:
        clauses.append(f"namespace = {params.add(scope.namespace)}")
    if scope.user_id is not None:
        key = params.add(records.user_key(scope.user_id))
        clauses.append(
            f"(user_key = {key} OR entity_id IN (SELECT id FROM entities WHERE {owned()}))"
        )
    keys = [params.add(v) for v in (after or ("", "", "", ""))]
    found = await conn.fetch(
        f"SELECT namespace, {records.ALIAS_COLUMNS} FROM aliases WHERE {' AND '.join(clauses)}"
        f' AND (namespace, user_key, alias COLLATE "C", entity_id) > ({", ".join(keys)})'
        ' ORDER BY namespace, user_key, alias COLLATE "C", entity_id'
        f" LIMIT {params.add(limit)}",
        *params.values,
    )
    out = [
        transfer.record("alias", records.alias_from_row(r), namespace=r["namespace"]) for r in found
    ]
    if len(found) < limit:
        return out, None
    last = found[-1]
    return out, (last["namespace"], last["user_key"], last["alias"], last["entity_id"])


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
    unique = list({m.id: m for m in models}.values())
    known = await _existing(conn, table, [m.id for m in unique])
    return [m for m in unique if m.id not in known]


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
        await rows.insert_items(conn, pending)
        counts["items"] = len(pending)
    knowledge = Knowledge(
        entities=await _new(conn, "entities", batch.entities),
        facts=[
            PendingFact(fact=f, embedding=embeddings.get(f.id), embed_text=f.text)
            for f in await _new(conn, "facts", batch.facts)
        ],
        relations=await _new(conn, "relations", batch.relations),
        conflicts=await _new(conn, "conflicts", batch.conflicts),
        history=await _new(conn, "history", batch.history),
    )
    await kn.apply(conn, knowledge)
    for name, added in (
        ("entities", knowledge.entities), ("facts", knowledge.facts),
        ("relations", knowledge.relations), ("conflicts", knowledge.conflicts),
        ("history", knowledge.history),
    ):  # fmt: skip
        counts[name] = len(added)
    if batch.aliases:
        counts["aliases"] = await _count(
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
    if batch.sessions:
        values = [_session_values(s) for s in batch.sessions]
        counts["sessions"] = await _count(
            conn,
            f"INSERT INTO sessions ({SESSION_COLUMNS}) SELECT * FROM unnest($1::text[],"
            " $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],"
            " $8::timestamptz[], $9::jsonb[]) ON CONFLICT DO NOTHING",
            *[[v[c] for v in values] for c in range(9)],
        )
    return counts
