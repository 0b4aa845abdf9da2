"""Lifecycle operations in SQLite: item edits, conflict resolution, sessions, scope
statistics, erasure, export and import. Each function runs inside the caller's
connection (and, for writes, its transaction); ``SQLiteStore`` only dispatches.

Every change to a scope's items bumps ``scope_versions`` and every change to a user's
facts bumps ``fact_versions`` in the same transaction, so no process serves a cached
vector matrix or fact list that no longer matches the rows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

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
from cognimem.models.clock import from_micros, to_micros
from cognimem.models.knowledge import ConflictStatus, FactConflict, HistoryEntry
from cognimem.store import records, transfer
from cognimem.store.base import FactUpdate, Knowledge, PendingFact
from cognimem.store.sqlite import knowledge as kn
from cognimem.store.sqlite import rows, scopes

_CHUNK = 500  # ids per IN (...) list, far below SQLite's bound-parameter limit

SESSION_COLUMNS = (
    "tenant_id, namespace, id, user_id, agent_id, status, created_at, closed_at, metadata"
)


def _time(value: Any) -> datetime | None:
    return None if value is None else from_micros(int(value))


def _blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, np.float32).tobytes()


def _query(conn: sqlite3.Connection, sql: str, params: Sequence[object]) -> list[sqlite3.Row]:
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.row_factory = None


# -- edits -----------------------------------------------------------------------------
def update_item(
    conn: sqlite3.Connection,
    item: MemoryItem,
    expected: MemoryItem,
    history: HistoryEntry,
    embedding: np.ndarray | None,
    search_text: str | None,
) -> None:
    s = item.scope
    row = conn.execute(
        "SELECT rowid, namespace, user_id FROM items WHERE +tenant_id = ? AND id = ?",
        (s.tenant_id, item.id),
    ).fetchone()
    if row is None:
        raise NotFound("memory", item.id)
    rowid, namespace, user_id = row
    guard = " AND ".join(f"{c} = ?" for c in records.EDIT_GUARD_COLUMNS)
    changed = conn.execute(
        "UPDATE items SET text = ?, importance = ?, confidence = ?, tier = ?, status = ?,"
        " token_count = ?, cited_count = ?, success_count = ?, failure_count = ?,"
        " embedding_model = ?, metadata = ?, event_start = ?, event_end = ?"
        f" WHERE rowid = ? AND {guard}",
        (
            item.text, item.importance, item.confidence, item.tier.value, item.status.value,
            item.token_count, item.cited_count, item.success_count, item.failure_count,
            item.embedding_model, json.dumps(item.metadata),
            None if item.event_start is None else to_micros(item.event_start),
            None if item.event_end is None else to_micros(item.event_end), rowid,
            *records.edit_guard(expected),
        ),
    ).rowcount  # fmt: skip
    if changed == 0:
        raise StaleKnowledge(f"memory {item.id} changed while this edit was made")
    if search_text is not None:
        conn.execute("DELETE FROM items_fts WHERE rowid = ?", (rowid,))
        conn.execute(
            "INSERT INTO items_fts (rowid, search_text) VALUES (?, ?)", (rowid, search_text)
        )
        conn.execute("UPDATE items SET embedding = ? WHERE rowid = ?", (_blob(embedding), rowid))
    # a status or a vector changed in place: cached matrices must reload, not append
    scopes.bump_version(conn, s.tenant_id, namespace, user_id, mutation=True)
    kn.insert_history(conn, [history])


def get_conflict(conn: sqlite3.Connection, tenant_id: str, conflict_id: str) -> FactConflict | None:
    found = _query(
        conn,
        f"SELECT {records.CONFLICT_COLUMNS} FROM conflicts WHERE id = ? AND tenant_id = ?",
        (conflict_id, tenant_id),
    )
    return records.conflict_from_row(found[0], _time) if found else None


def resolve_conflict(
    conn: sqlite3.Connection,
    conflict: FactConflict,
    fact_updates: Sequence[FactUpdate],
    history: Sequence[HistoryEntry],
) -> None:
    """The conflict's new state (only while it is still open) and the facts it changes."""
    cur = conn.execute(
        "UPDATE conflicts SET status = ?, strategy = ?, winner_fact_id = ?, resolved_at = ?,"
        " note = ? WHERE id = ? AND tenant_id = ? AND status = ?",
        (
            conflict.status.value, conflict.strategy.value, conflict.winner_fact_id,
            None if conflict.resolved_at is None else to_micros(conflict.resolved_at),
            conflict.note, conflict.id, conflict.scope.tenant_id, ConflictStatus.OPEN.value,
        ),
    )  # fmt: skip
    if cur.rowcount != 1:
        if get_conflict(conn, conflict.scope.tenant_id, conflict.id) is None:
            raise NotFound("conflict", conflict.id)
        raise Conflict(
            f"conflict {conflict.id} was resolved meanwhile", details={"conflict": conflict.id}
        )
    kn.apply(conn, Knowledge(fact_updates=list(fact_updates), history=list(history)))


# -- sessions --------------------------------------------------------------------------
def _session(row: sqlite3.Row) -> Session:
    return records.session_from_row(row, _time)


def _session_params(s: Session) -> tuple[Any, ...]:
    return (
        s.scope.tenant_id, s.scope.namespace, s.id, s.scope.user_id, s.scope.agent_id,
        s.status.value, to_micros(s.created_at),
        None if s.closed_at is None else to_micros(s.closed_at), json.dumps(s.metadata),
    )  # fmt: skip


def put_session(conn: sqlite3.Connection, session: Session) -> None:
    conn.execute(
        f"INSERT OR REPLACE INTO sessions ({SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        _session_params(session),
    )


def get_session(
    conn: sqlite3.Connection, tenant_id: str, namespace: str, session_id: str
) -> Session | None:
    found = _query(
        conn,
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE tenant_id = ? AND namespace = ? AND id = ?",
        (tenant_id, namespace, session_id),
    )
    return _session(found[0]) if found else None


def list_sessions(conn: sqlite3.Connection, scope: Scope, limit: int) -> list[Session]:
    where, params = _scope_where(scope, session_column="id")
    found = _query(
        conn,
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {where}"
        " ORDER BY created_at DESC, id DESC LIMIT ?",
        [*params, limit],
    )
    return [_session(r) for r in found]


# -- statistics ------------------------------------------------------------------------
def _scope_where(
    scope: Scope,
    *,
    agent: bool = True,
    session_column: str | None = "session_id",
    prefix: str = "",
) -> tuple[str, list[object]]:
    """tenant and namespace always; user, agent and session when the scope sets them
    (and the table has the column)."""
    clauses = [f"{prefix}tenant_id = ?", f"{prefix}namespace = ?"]
    params: list[object] = [scope.tenant_id, scope.namespace]
    wanted = [("user_id", scope.user_id)]
    if agent:
        wanted.append(("agent_id", scope.agent_id))
    if session_column is not None:
        wanted.append((session_column, scope.session_id))
    for column, value in wanted:
        if value is not None:
            clauses.append(f"{prefix}{column} = ?")
            params.append(value)
    return " AND ".join(clauses), params


def _grouped(conn: sqlite3.Connection, sql: str, params: Sequence[object]) -> dict[str, int]:
    return {str(k): int(n) for k, n in conn.execute(sql, params)}


def scope_stats(conn: sqlite3.Connection, scope: Scope) -> ScopeStats:
    full, params = _scope_where(scope)
    owner, owner_params = _scope_where(scope, agent=False, session_column=None)
    sessions, session_params = _scope_where(scope, session_column="id")
    conn.execute("BEGIN")  # one snapshot for every count
    try:
        count = conn.execute(f"SELECT count(*) FROM events WHERE {full}", params).fetchone()[0]
        return ScopeStats(
            events=int(count),
            items=_grouped(
                conn, f"SELECT status, count(*) FROM items WHERE {full} GROUP BY status", params
            ),
            items_by_kind=_grouped(
                conn,
                f"SELECT kind, count(*) FROM items WHERE {full} AND status = ? GROUP BY kind",
                [*params, ItemStatus.ACTIVE.value],
            ),
            facts=_grouped(
                conn, f"SELECT status, count(*) FROM facts WHERE {full} GROUP BY status", params
            ),
            entities=int(
                conn.execute(
                    f"SELECT count(*) FROM entities WHERE {owner}", owner_params
                ).fetchone()[0]
            ),
            relations=int(
                conn.execute(
                    f"SELECT count(*) FROM relations WHERE {full} AND active = 1", params
                ).fetchone()[0]
            ),
            open_conflicts=int(
                conn.execute(
                    f"SELECT count(*) FROM conflicts WHERE {full} AND status = ?",
                    [*params, ConflictStatus.OPEN.value],
                ).fetchone()[0]
            ),
            sessions=_grouped(
                conn,
                f"SELECT status, count(*) FROM sessions WHERE {sessions} GROUP BY status",
                session_params,
            ),
        )
    finally:
        conn.execute("COMMIT")


# -- erasure ---------------------------------------------------------------------------
def erase_user(conn: sqlite3.Connection, tenant_id: str, user_id: str) -> ErasureReport:
    """Delete every row of the user (see ``Store.erase_user``; every connection has
    ``secure_delete`` on, so freed space is zeroed), and merge the FTS index so no
    segment keeps the erased words."""
    mine = "tenant_id = ? AND user_id = ?"
    who = (tenant_id, user_id)
    ukey = records.user_key(user_id)
    items = conn.execute(f"SELECT author, text FROM items WHERE {mine}", who).fetchall()
    facts = [r[0] for r in conn.execute(f"SELECT text FROM facts WHERE {mine}", who)]
    events = [r[0] for r in conn.execute(f"SELECT content_hash FROM events WHERE {mine}", who)]
    hashes = transfer.erased_hashes(((a, t) for a, t in items), facts, events)
    item_scopes = {
        r[0] for r in conn.execute(f"SELECT DISTINCT namespace FROM items WHERE {mine}", who)
    } | {
        r[0]
        for r in conn.execute(
            "SELECT namespace FROM scope_versions WHERE tenant_id = ? AND user_key = ?",
            (tenant_id, scopes.user_key(user_id)),
        )
    }
    fact_scopes = conn.execute(
        "SELECT namespace, version FROM fact_versions WHERE tenant_id = ? AND user_key = ?",
        (tenant_id, ukey),
    ).fetchall()

    removed = _delete_rows(conn, tenant_id, user_id)
    # the namespace-wide matrix held the user's rows: a mutation for it, and the user's
    # own version rows go (a later write starts them above anything cached)
    for namespace in sorted(item_scopes):
        scopes.bump_version(conn, tenant_id, namespace, None, mutation=True)
    conn.execute(
        "DELETE FROM scope_versions WHERE tenant_id = ? AND user_key = ?",
        (tenant_id, scopes.user_key(user_id)),
    )
    for namespace, version in fact_scopes:
        conn.execute(
            "INSERT INTO fact_versions (tenant_id, namespace, user_key, version)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (tenant_id, namespace, user_key) DO UPDATE SET"
            " version = max(version, excluded.version)",
            (tenant_id, namespace, kn.VERSION_FLOOR, int(version)),
        )
    conn.execute(
        "DELETE FROM fact_versions WHERE tenant_id = ? AND user_key = ?", (tenant_id, ukey)
    )
    if removed.get("items"):
        conn.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")
    return ErasureReport(removed=removed, content_hashes=hashes)


def _delete_rows(conn: sqlite3.Connection, tenant_id: str, user_id: str) -> dict[str, int]:
    who = (tenant_id, user_id)
    sub = {
        table: f"SELECT id FROM {table} WHERE tenant_id = ? AND user_id = ?"
        for table in ("items", "events", "facts", "conflicts", "entities")
    }
    removed: dict[str, int] = {}

    def delete(name: str, sql: str, params: Sequence[object]) -> None:
        removed[name] = removed.get(name, 0) + conn.execute(sql, params).rowcount

    # what points at the user's rows first, while the subqueries still find them
    delete(
        "history",
        "DELETE FROM history WHERE tenant_id = ? AND (target_id IN"
        f" ({sub['items']}) OR target_id IN ({sub['facts']}) OR target_id IN"
        f" ({sub['conflicts']}) OR event_id IN ({sub['events']}))",
        (tenant_id, *who, *who, *who, *who),
    )
    conn.execute(
        "DELETE FROM items_fts WHERE rowid IN (SELECT rowid FROM items WHERE"
        " tenant_id = ? AND user_id = ?)",
        who,
    )
    delete(
        "item_events",
        f"DELETE FROM item_events WHERE item_id IN ({sub['items']})"
        f" OR event_id IN ({sub['events']})",
        (*who, *who),
    )
    delete(
        "aliases",
        f"DELETE FROM aliases WHERE tenant_id = ? AND (user_key = ?"
        f" OR entity_id IN ({sub['entities']}))",
        (tenant_id, records.user_key(user_id), *who),
    )
    delete(
        "relations",
        "DELETE FROM relations WHERE tenant_id = ? AND (user_id = ?"
        f" OR source_entity_id IN ({sub['entities']}) OR target_entity_id IN"
        f" ({sub['entities']}) OR fact_id IN ({sub['facts']}))",
        (*who, *who, *who, *who),
    )
    for table in ("items", "events", "facts", "conflicts", "entities", "sessions"):
        delete(table, f"DELETE FROM {table} WHERE tenant_id = ? AND user_id = ?", who)
    return removed


def delete_embeddings(conn: sqlite3.Connection, hashes: Sequence[str]) -> int:
    removed = 0
    for start in range(0, len(hashes), _CHUNK):
        part = hashes[start : start + _CHUNK]
        removed += conn.execute(
            f"DELETE FROM embedding_cache WHERE text_hash IN ({', '.join('?' * len(part))})",
            tuple(part),
        ).rowcount
    return removed


# -- export ----------------------------------------------------------------------------
Cursor = tuple[Any, ...]


def export_page(
    conn: sqlite3.Connection,
    kind: RecordType,
    scope: Scope,
    all_namespaces: bool,
    after: Cursor | None,
    limit: int,
) -> tuple[list[ExportRecord], Cursor | None]:
    """One page of one record type, after the cursor; the cursor of the next page (None:
    this was the last)."""
    namespace = None if all_namespaces else scope.namespace

    def owned(prefix: str = "", user: bool = True) -> tuple[str, list[object]]:
        clauses = [f"{prefix}tenant_id = ?"]
        params: list[object] = [scope.tenant_id]
        if namespace is not None:
            clauses.append(f"{prefix}namespace = ?")
            params.append(namespace)
        if user and scope.user_id is not None:
            clauses.append(f"{prefix}user_id = ?")
            params.append(scope.user_id)
        return " AND ".join(clauses), params

    where, params = owned()
    if kind == "alias":
        return _alias_page(conn, scope, namespace, owned, after, limit)
    if kind == "session":
        keyset, keys = "(namespace, id) > (?, ?)", list(after or ("", ""))
        found = _query(
            conn,
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {where} AND {keyset}"
            " ORDER BY namespace, id LIMIT ?",
            [*params, *keys, limit],
        )
        out = [transfer.record("session", _session(r)) for r in found]
        last = (found[-1]["namespace"], found[-1]["id"]) if len(found) == limit else None
        return out, last
    start = 0 if after is None else int(after[0])
    if kind == "history":
        if scope.user_id is None and namespace is None:
            where = "tenant_id = ?"
        else:
            targets = " OR ".join(
                f"target_id IN (SELECT id FROM {t} WHERE {where})"
                for t in ("items", "facts", "conflicts")
            )
            where, params = f"tenant_id = ? AND ({targets})", [scope.tenant_id, *params * 3]
        sql = f"SELECT rowid AS seq, {records.HISTORY_COLUMNS} FROM history WHERE {where}"
    elif kind == "item":
        cols = ", ".join(f"i.{c.strip()}" for c in rows.ITEM_COLUMNS.split(","))
        where, params = owned("i.")
        sql = (
            f"SELECT i.rowid AS seq, {cols}, f.search_text FROM items i"
            f" LEFT JOIN items_fts f ON f.rowid = i.rowid WHERE {where}"
        )
        found = _query(
            conn, f"{sql} AND i.rowid > ? ORDER BY i.rowid LIMIT ?", [*params, start, limit]
        )
        out = [
            transfer.record("item", rows.item_from_row(r), search_text=r["search_text"] or "")
            for r in found
        ]
        return out, ((found[-1]["seq"],) if len(found) == limit else None)
    else:
        table, columns = _TABLES[kind]
        sql = f"SELECT rowid AS seq, {columns} FROM {table} WHERE {where}"
    found = _query(conn, f"{sql} AND rowid > ? ORDER BY rowid LIMIT ?", [*params, start, limit])
    out = [_to_record(kind, r) for r in found]
    return out, ((found[-1]["seq"],) if len(found) == limit else None)


_TABLES: dict[str, tuple[str, str]] = {
    "event": ("events", f"{rows.EVENT_COLUMNS}, processed"),
    "fact": ("facts", records.FACT_COLUMNS),
    "entity": ("entities", records.ENTITY_COLUMNS),
    "relation": ("relations", records.RELATION_COLUMNS),
    "conflict": ("conflicts", records.CONFLICT_COLUMNS),
}


def _to_record(kind: RecordType, row: sqlite3.Row) -> ExportRecord:
    if kind == "event":
        return transfer.record("event", rows.event_from_row(row), processed=bool(row["processed"]))
    if kind == "fact":
        return transfer.record("fact", kn.fact_from_row(row))
    if kind == "entity":
        return transfer.record("entity", kn.entity_from_row(row))
    if kind == "relation":
        return transfer.record("relation", records.relation_from_row(row, _time))
    if kind == "conflict":
        return transfer.record("conflict", records.conflict_from_row(row, _time))
    return transfer.record("history", records.history_from_row(row, _time))


def _alias_page(
    conn: sqlite3.Connection,
    scope: Scope,
    namespace: str | None,
    owned: Any,
    after: Cursor | None,
    limit: int,
) -> tuple[list[ExportRecord], Cursor | None]:
    """The user's aliases and the shared aliases of the user's entities (every alias of
    the namespace without a user)."""
    clauses, params = ["tenant_id = ?"], [scope.tenant_id]
    if namespace is not None:
        clauses.append("namespace = ?")
        params.append(namespace)
    if scope.user_id is not None:
        entities, entity_params = owned()
        clauses.append(f"(user_key = ? OR entity_id IN (SELECT id FROM entities WHERE {entities}))")
        params += [records.user_key(scope.user_id), *entity_params]
    keys = list(after or ("", "", "", ""))
    found = _query(
        conn,
        f"SELECT namespace, {records.ALIAS_COLUMNS} FROM aliases WHERE {' AND '.join(clauses)}"
        " AND (namespace, user_key, alias, entity_id) > (?, ?, ?, ?)"
        " ORDER BY namespace, user_key, alias, entity_id LIMIT ?",
        [*params, *keys, limit],
    )
    out = [
        transfer.record("alias", records.alias_from_row(r), namespace=r["namespace"]) for r in found
    ]
    if len(found) < limit:
        return out, None
    last = found[-1]
    return out, (last["namespace"], last["user_key"], last["alias"], last["entity_id"])


# -- import ----------------------------------------------------------------------------
def held_ids(conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), _CHUNK):
        part = unique[start : start + _CHUNK]
        marks = ", ".join("?" * len(part))
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
    for start in range(0, len(unique), _CHUNK):
        part = unique[start : start + _CHUNK]
        found.update(
            r[0]
            for r in conn.execute(
                f"SELECT id FROM {table} WHERE id IN ({', '.join('?' * len(part))})", part
            )
        )
    return found


def import_batch(
    conn: sqlite3.Connection, batch: transfer.ImportBatch, embeddings: Mapping[str, np.ndarray]
) -> dict[str, int]:
    """Insert what is not stored yet (by id; aliases and sessions by key)."""
    counts = transfer.zero_counts()
    for event, processed in batch.events:
        cur = conn.execute(
            f"INSERT OR IGNORE INTO events ({rows.EVENT_COLUMNS}, processed)"
            f" VALUES ({', '.join('?' * 16)})",
            (*rows.event_params(event), int(processed)),
        )
        counts["events"] += cur.rowcount
    touched: set[tuple[str, str, str | None]] = set()
    for item, search_text in batch.items:
        cur = conn.execute(
            rows.INSERT_ITEM.replace("INSERT INTO", "INSERT OR IGNORE INTO", 1),
            rows.item_params(item, _blob(embeddings.get(item.id))),
        )
        if cur.rowcount != 1:
            continue
        counts["items"] += 1
        conn.execute(
            "INSERT INTO items_fts (rowid, search_text) VALUES (?, ?)",
            (cur.lastrowid, search_text),
        )
        conn.executemany(
            "INSERT OR IGNORE INTO item_events (item_id, event_id) VALUES (?, ?)",
            [(item.id, e) for e in item.source_event_ids],
        )
        s = item.scope
        touched.add((s.tenant_id, s.namespace, s.user_id))
    for tenant_id, namespace, user_id in sorted(touched, key=str):
        scopes.bump_version(conn, tenant_id, namespace, user_id, mutation=False)

    knowledge = Knowledge(
        entities=_new(conn, "entities", batch.entities),
        facts=[
            PendingFact(fact=f, embedding=embeddings.get(f.id), embed_text=f.text)
            for f in _new(conn, "facts", batch.facts)
        ],
        relations=_new(conn, "relations", batch.relations),
        conflicts=_new(conn, "conflicts", batch.conflicts),
        history=_new(conn, "history", batch.history),
    )
    kn.apply(conn, knowledge)
    counts["entities"] = len(knowledge.entities)
    counts["facts"] = len(knowledge.facts)
    counts["relations"] = len(knowledge.relations)
    counts["conflicts"] = len(knowledge.conflicts)
    counts["history"] = len(knowledge.history)
    for namespace, alias in batch.aliases:
        tenant = conn.execute(
            "SELECT tenant_id FROM entities WHERE id = ?", (alias.entity_id,)
        ).fetchone()
        if tenant is None:
            continue  # its entity was not imported (another tenant holds that id)
        counts["aliases"] += conn.execute(
            "INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id,"
            " source, confidence, use_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                tenant[0], namespace, records.user_key(alias.user_id), alias.alias,
                alias.entity_id, alias.source.value, alias.confidence, alias.use_count,
            ),
        ).rowcount  # fmt: skip
    for session in batch.sessions:
        counts["sessions"] += conn.execute(
            f"INSERT OR IGNORE INTO sessions ({SESSION_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _session_params(session),
        ).rowcount
    return counts


def _new(conn: sqlite3.Connection, table: str, models: Sequence[Any]) -> list[Any]:
    """The models (one per id) whose id is not stored yet."""
    unique = list({m.id: m for m in models}.values())
    known = _existing(conn, table, [m.id for m in unique])
    return [m for m in unique if m.id not in known]
