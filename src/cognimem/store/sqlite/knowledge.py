"""Facts, entities, aliases, relations, conflicts and history in SQLite: row
conversions, the in-transaction writer and the queries ``SQLiteStore`` runs."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from cognimem.errors import StaleKnowledge
from cognimem.models.clock import from_micros, to_micros
from cognimem.models.knowledge import (
    Alias,
    ConflictStatus,
    Entity,
    Fact,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.store import records
from cognimem.store.base import FactQuery, GraphEdge, Knowledge
from cognimem.store.records import (
    CONFLICT_COLUMNS,
    ENTITY_COLUMNS,
    FACT_COLUMNS,
    HISTORY_COLUMNS,
    RELATION_COLUMNS,
    user_key,
)

LIVE = (FactStatus.ACTIVE.value, FactStatus.AGING.value)

_FACT_MUTABLE = (
    "text", "scope_tags", "confidence", "confidence_factors", "reinforcement_count",
    "last_validated_at", "status", "superseded_by", "valid_from", "valid_to",
    "evidence_item_ids", "evidence_event_ids", "importance", "revision", "polarity", "value",
)  # fmt: skip


def _micros(value: Any) -> int | None:
    return None if value is None else to_micros(value)


def _time(value: Any) -> datetime | None:
    return None if value is None else from_micros(int(value))


# -- conversions -----------------------------------------------------------------------
def _fact_values(f: Fact) -> dict[str, Any]:
    return {
        "text": f.text,
        "scope_tags": json.dumps(f.scope_tags),
        "confidence": f.confidence,
        "confidence_factors": json.dumps(f.confidence_factors),
        "reinforcement_count": f.reinforcement_count,
        "last_validated_at": to_micros(f.last_validated_at),
        "status": f.status.value,
        "superseded_by": f.superseded_by,
        "valid_from": _micros(f.valid_from),
        "valid_to": _micros(f.valid_to),
        "evidence_item_ids": json.dumps(f.evidence_item_ids),
        "evidence_event_ids": json.dumps(f.evidence_event_ids),
        "importance": f.importance,
        "revision": f.revision,
        "polarity": int(f.polarity),
        "value": f.value,
    }


def fact_from_row(row: sqlite3.Row) -> Fact:
    return records.fact_from_row(row, _time)


def entity_from_row(row: sqlite3.Row) -> Entity:
    return records.entity_from_row(row, _time)


# -- writing ---------------------------------------------------------------------------
def check_read_set(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Raise ``StaleKnowledge`` unless every key's live facts are what was reconciled."""
    for state in knowledge.read_set:
        found = frozenset(
            (r[0], int(r[1]))
            for r in conn.execute(
                "SELECT id, revision FROM facts WHERE tenant_id = ? AND namespace = ?"
                " AND user_id IS ? AND key = ? AND status IN (?, ?)",
                (state.tenant_id, state.namespace, state.user_id, state.key, *LIVE),
            )
        )
        if found != state.facts:
            raise StaleKnowledge(
                f"facts under key {state.key!r} changed during the write",
                details={"key": state.key},
            )


# the fact_versions row (user key '*', which no user has) that new rows start above;
# an erasure raises it past the erased user's version before deleting that row
VERSION_FLOOR = "*"


def bump_fact_version(conn: sqlite3.Connection, tenant_id: str, namespace: str, user: str) -> None:
    conn.execute(
        "INSERT INTO fact_versions (tenant_id, namespace, user_key, version)"
        " SELECT ?, ?, ?, coalesce(max(version), 0) + 1 FROM fact_versions"
        " WHERE tenant_id = ? AND namespace = ? AND user_key = ?"
        " ON CONFLICT (tenant_id, namespace, user_key) DO UPDATE SET version = version + 1",
        (tenant_id, namespace, user, tenant_id, namespace, VERSION_FLOOR),
    )


def fact_version(conn: sqlite3.Connection, tenant_id: str, namespace: str, user: str) -> int:
    row = conn.execute(
        "SELECT version FROM fact_versions WHERE tenant_id = ? AND namespace = ? AND user_key = ?",
        (tenant_id, namespace, user),
    ).fetchone()
    return 0 if row is None else int(row[0])


def apply(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Write ``knowledge`` inside the caller's transaction (after ``check_read_set``)."""
    # the version also dates a scope's graph (relations), which reads cache alongside
    # the fact rows
    changed = {
        (s.tenant_id, s.namespace, user_key(s.user_id))
        for s in [
            *(p.fact.scope for p in knowledge.facts),
            *(u.fact.scope for u in knowledge.fact_updates),
            *(r.scope for r in knowledge.relations),
        ]
    }
    for tenant_id, namespace, user in sorted(changed):
        bump_fact_version(conn, tenant_id, namespace, user)
    for e in knowledge.entities:
        conn.execute(
            f"INSERT INTO entities ({ENTITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                e.id, e.tenant_id, e.namespace, e.user_id, e.name, e.type.value, e.external_ref,
                json.dumps(e.properties), to_micros(e.created_at),
            ),
        )  # fmt: skip
    _upsert_aliases(conn, knowledge)
    for p in knowledge.facts:
        f, s = p.fact, p.fact.scope
        blob = None if p.embedding is None else np.asarray(p.embedding, np.float32).tobytes()
        values = _fact_values(f)
        conn.execute(
            f"INSERT INTO facts ({FACT_COLUMNS}, embedding) VALUES ({', '.join('?' * 31)})",
            (
                f.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, f.key,
                f.subject, f.subject_entity_id, f.predicate, f.category.value, values["value"],
                values["polarity"], f.object_entity_id, f.text, values["scope_tags"],
                f.confidence, values["confidence_factors"], f.reinforcement_count,
                values["last_validated_at"], values["status"], f.superseded_by,
                values["valid_from"], values["valid_to"], to_micros(f.recorded_at),
                values["evidence_item_ids"], values["evidence_event_ids"], f.importance,
                f.revision, f.embedding_model, blob,
            ),
        )  # fmt: skip
    for update in knowledge.fact_updates:
        values = _fact_values(update.fact)
        sets = ", ".join(f"{c} = ?" for c in _FACT_MUTABLE)
        cur = conn.execute(
            f"UPDATE facts SET {sets} WHERE id = ? AND revision = ?",
            (*(values[c] for c in _FACT_MUTABLE), update.fact.id, update.expected_revision),
        )
        if cur.rowcount != 1:
            raise StaleKnowledge(
                f"fact {update.fact.id} changed during the write", details={"fact": update.fact.id}
            )
        if update.fact.status not in (FactStatus.ACTIVE, FactStatus.AGING):
            conn.execute("UPDATE relations SET active = 0 WHERE fact_id = ?", (update.fact.id,))
    for r in knowledge.relations:
        s = r.scope
        conn.execute(
            f"INSERT INTO relations ({RELATION_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                r.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id,
                r.source_entity_id, r.relation, r.target_entity_id, r.fact_id, r.confidence,
                int(r.active), to_micros(r.created_at),
            ),
        )  # fmt: skip
    for c in knowledge.conflicts:
        s = c.scope
        conn.execute(
            f"INSERT INTO conflicts ({CONFLICT_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                c.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, c.key,
                json.dumps(c.fact_ids), c.strategy.value, c.status.value, c.winner_fact_id,
                to_micros(c.created_at), _micros(c.resolved_at), c.note,
            ),
        )  # fmt: skip
    insert_history(conn, knowledge.history)


def insert_history(conn: sqlite3.Connection, entries: Sequence[HistoryEntry]) -> None:
    conn.executemany(
        f"INSERT INTO history ({HISTORY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                h.id, h.tenant_id, h.target_type, h.target_id, h.action, h.actor,
                to_micros(h.at), None if h.before is None else json.dumps(h.before, default=str),
                None if h.after is None else json.dumps(h.after, default=str), h.event_id,
            )
            for h in entries
        ],
    )  # fmt: skip


def _upsert_aliases(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    scopes = {e.id: (e.tenant_id, e.namespace) for e in knowledge.entities}
    for a in knowledge.aliases:
        where = scopes.get(a.entity_id)
        if where is None:
            row = conn.execute(
                "SELECT tenant_id, namespace FROM entities WHERE id = ?", (a.entity_id,)
            ).fetchone()
            if row is None:
                continue  # the entity was deleted meanwhile
            where = (row[0], row[1])
        conn.execute(
            "INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,"
            " confidence, use_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (tenant_id, namespace, user_key, alias, entity_id) DO UPDATE SET"
            " use_count = use_count + 1, confidence = MAX(confidence, excluded.confidence)",
            (*where, user_key(a.user_id), a.alias, a.entity_id, a.source.value, a.confidence,
             a.use_count),
        )  # fmt: skip


def merge_into(conn: sqlite3.Connection, item_id: str, event_id: str, ext: str | None) -> bool:
    """Add ``event_id`` (and its external id) to an existing item's provenance."""
    row = conn.execute(
        "SELECT source_event_ids, external_ids FROM items WHERE id = ?", (item_id,)
    ).fetchone()
    if row is None:
        return False
    sources, externals = json.loads(row[0]), json.loads(row[1])
    if event_id not in sources:
        sources.append(event_id)
    if ext is not None and ext not in externals:
        externals.append(ext)
    conn.execute(
        "UPDATE items SET source_event_ids = ?, external_ids = ? WHERE id = ?",
        (json.dumps(sources), json.dumps(externals), item_id),
    )
    conn.execute(
        "INSERT OR IGNORE INTO item_events (item_id, event_id) VALUES (?, ?)", (item_id, event_id)
    )
    return True


# -- reading ---------------------------------------------------------------------------
def _rows(conn: sqlite3.Connection, sql: str, params: Sequence[object]) -> list[sqlite3.Row]:
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.row_factory = None


def find_facts(conn: sqlite3.Connection, q: FactQuery) -> list[Fact]:
    clauses = ["tenant_id = ?", "namespace = ?"]
    params: list[object] = [q.tenant_id, q.namespace]
    if not q.all_users:
        clauses.append("user_id IS ?")
        params.append(q.user_id)
    if q.keys is not None:
        if not q.keys:
            return []
        # exact, or a multi-valued key below it: ':' < ';' so [k:, k;) is the prefix range
        clauses.append("(" + " OR ".join("key = ? OR (key >= ? AND key < ?)" for _ in q.keys) + ")")
        for k in q.keys:
            params += [k, f"{k}:", f"{k};"]
    if q.statuses is not None:
        clauses.append(f"status IN ({', '.join('?' * len(q.statuses))})")
        params += [s.value for s in q.statuses]
    if q.categories is not None:
        clauses.append(f"category IN ({', '.join('?' * len(q.categories))})")
        params += [c.value for c in q.categories]
    sql = (
        f"SELECT {FACT_COLUMNS} FROM facts WHERE {' AND '.join(clauses)}"
        " ORDER BY recorded_at DESC, rowid DESC LIMIT ?"
    )
    return [fact_from_row(r) for r in _rows(conn, sql, [*params, q.limit])]


def find_aliases(
    conn: sqlite3.Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    names: Sequence[str] | None,
    limit: int = 20_000,
    *,
    all_users: bool = False,
) -> list[Alias]:
    sql = (
        "SELECT entity_id, alias, user_key, source, confidence, use_count FROM aliases"
        " WHERE tenant_id = ? AND namespace = ?"
    )
    params: list[object] = [tenant_id, namespace]
    if not all_users:
        keys = ["", user_key(user_id)] if user_id is not None else [""]
        sql += f" AND user_key IN ({', '.join('?' * len(keys))})"
        params += keys
    if names is not None:
        if not names:
            return []
        sql += f" AND alias IN ({', '.join('?' * len(names))})"
        params += list(names)
    # ties in a fixed order, the same on every backend
    sql += " ORDER BY use_count DESC, alias, entity_id, user_key LIMIT ?"
    return [records.alias_from_row(r) for r in _rows(conn, sql, [*params, limit])]


def find_relations(
    conn: sqlite3.Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    entity_ids: Sequence[str],
    *,
    all_users: bool = False,
) -> list[Relation]:
    if not entity_ids:
        return []
    marks = ", ".join("?" * len(entity_ids))
    visible = "" if all_users else " AND (user_id IS ? OR user_id IS NULL)"
    sql = (
        f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant_id = ? AND namespace = ?"
        f"{visible} AND active = 1"
        f" AND (source_entity_id IN ({marks}) OR target_entity_id IN ({marks}))"
        " ORDER BY rowid"
    )
    owner = [] if all_users else [user_id]
    params = [tenant_id, namespace, *owner, *entity_ids, *entity_ids]
    return [records.relation_from_row(r, _time) for r in _rows(conn, sql, params)]


def graph_edges(
    conn: sqlite3.Connection, tenant_id: str, namespace: str, user_id: str | None, limit: int
) -> list[GraphEdge]:
    # one branch per owner (the user, the namespace) so each reads its own range of
    # relations_user newest first: SQLite uses no index for an OR of the two
    branch = (
        "SELECT rowid FROM (SELECT rowid FROM relations WHERE tenant_id = ? AND namespace = ?"
        " AND user_id IS ? AND active = 1 ORDER BY created_at DESC, rowid DESC LIMIT ?)"
    )
    owners = [None] if user_id is None else [user_id, None]
    sql = (
        "SELECT r.source_entity_id, r.target_entity_id, r.relation, r.confidence, r.fact_id,"
        " f.evidence_item_ids FROM relations r"
        " LEFT JOIN facts f ON f.id = r.fact_id AND f.tenant_id = r.tenant_id"
        f" AND f.status IN (?, ?) WHERE r.rowid IN ({' UNION ALL '.join([branch] * len(owners))})"
        " ORDER BY r.created_at DESC, r.rowid DESC LIMIT ?"
    )
    params: list[object] = [*LIVE]
    for owner in owners:
        params += [tenant_id, namespace, owner, limit]
    return [
        GraphEdge(
            source_entity_id=source,
            target_entity_id=target,
            relation=relation,
            confidence=float(confidence),
            fact_id=fact_id,
            item_ids=() if evidence is None else tuple(json.loads(evidence)),
        )
        for source, target, relation, confidence, fact_id, evidence in conn.execute(
            sql, [*params, limit]
        )
    ]


def find_conflicts(
    conn: sqlite3.Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    open_only: bool,
    *,
    all_users: bool = False,
) -> list[FactConflict]:
    sql = f"SELECT {CONFLICT_COLUMNS} FROM conflicts WHERE tenant_id = ? AND namespace = ?"
    params: list[object] = [tenant_id, namespace]
    if not all_users:
        sql += " AND user_id IS ?"
        params.append(user_id)
    if open_only:
        sql += " AND status = ?"
        params.append(ConflictStatus.OPEN.value)
    return [
        records.conflict_from_row(r, _time) for r in _rows(conn, sql + " ORDER BY rowid", params)
    ]


def get_history(conn: sqlite3.Connection, tenant_id: str, target_id: str) -> list[HistoryEntry]:
    sql = (
        f"SELECT {HISTORY_COLUMNS} FROM history WHERE target_id = ? AND tenant_id = ?"
        " ORDER BY rowid"
    )
    return [records.history_from_row(r, _time) for r in _rows(conn, sql, [target_id, tenant_id])]
