"""Writing knowledge in SQLite: what reconciliation decided (``Knowledge``: entities,
aliases, facts and their updates, relations, conflicts, history), applied inside the
caller's transaction after its read set is checked.

Every change to a user's facts or relations bumps ``fact_versions`` in the same
transaction, so no process serves a cached fact list or graph that no longer matches.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from cognimem.errors import NotFound, StaleKnowledge
from cognimem.models.clock import to_micros
from cognimem.models.fact_changes import NO_LONGER_TRUE, StaleItem
from cognimem.models.knowledge import Alias, Entity, Fact, FactStatus, HistoryEntry
from cognimem.store import records
from cognimem.store.records import (
    CONFLICT_COLUMNS,
    ENTITY_COLUMNS,
    FACT_COLUMNS,
    HISTORY_COLUMNS,
    RELATION_COLUMNS,
    user_key,
)
from cognimem.store.sqlite.rows import query
from cognimem.store.types import Knowledge

LIVE = (FactStatus.ACTIVE.value, FactStatus.AGING.value)

_FACT_MUTABLE = (
    "text", "scope_tags", "confidence", "confidence_factors", "reinforcement_count",
    "last_validated_at", "status", "superseded_by", "valid_from", "valid_to",
    "evidence_item_ids", "evidence_event_ids", "importance", "revision", "polarity", "value",
    "recorded_to",
)  # fmt: skip


def _micros(value: Any) -> int | None:
    return None if value is None else to_micros(value)


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
        "recorded_to": _micros(f.recorded_to),
    }


def check_read_set(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Raise ``StaleKnowledge`` unless every key's live facts are what was reconciled."""
    for state in knowledge.read_set:
        found = frozenset(
            (r[0], int(r[1]))
            for r in conn.execute(
                "SELECT id, revision FROM facts WHERE tenant_id = ? AND namespace = ?"
                " AND user_id IS ? AND key = ? AND status IN (?, ?)"
                " AND (user_id IS NOT NULL OR agent_id IS ?)",
                (
                    state.tenant_id,
                    state.namespace,
                    state.user_id,
                    state.key,
                    *LIVE,
                    state.agent_id,
                ),
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
    _bump_fact_versions(conn, knowledge)
    _insert_entities(conn, knowledge)
    _upsert_aliases(conn, knowledge)
    _insert_facts(conn, knowledge)
    _update_facts(conn, knowledge)
    _insert_relations(conn, knowledge)
    _insert_conflicts(conn, knowledge)
    insert_history(conn, knowledge.history)


def _bump_fact_versions(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Bump the version of every user's facts the write changes."""
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


def _insert_entities(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    for e in knowledge.entities:
        conn.execute(
            f"INSERT INTO entities ({ENTITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                e.id, e.tenant_id, e.namespace, e.user_id, e.name, e.type.value, e.external_ref,
                json.dumps(e.properties), to_micros(e.created_at),
            ),
        )  # fmt: skip


def _insert_facts(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    for p in knowledge.facts:
        f, s = p.fact, p.fact.scope
        blob = None if p.embedding is None else np.asarray(p.embedding, np.float32).tobytes()
        values = _fact_values(f)
        conn.execute(
            f"INSERT INTO facts ({FACT_COLUMNS}, embedding) VALUES ({', '.join('?' * 33)})",
            (
                f.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, f.key,
                f.subject, f.subject_entity_id, f.predicate, f.category.value, values["value"],
                values["polarity"], f.object_entity_id, f.text, values["scope_tags"],
                f.confidence, values["confidence_factors"], f.reinforcement_count,
                values["last_validated_at"], values["status"], f.superseded_by,
                values["valid_from"], values["valid_to"], to_micros(f.recorded_at),
                values["evidence_item_ids"], values["evidence_event_ids"], f.importance,
                f.revision, f.embedding_model, json.dumps(f.provenance),
                values["recorded_to"], blob,
            ),
        )  # fmt: skip


def _update_facts(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Each update guarded by the revision the reconciler saw (``StaleKnowledge`` when
    it changed meanwhile); a fact no longer live takes its graph edges with it."""
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


def _insert_relations(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
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


def _insert_conflicts(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
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


def delete_aliases(
    conn: sqlite3.Connection, entity: Entity, alias: str, user_id: str | None
) -> list[Alias]:
    """Delete ``entity``'s rows of ``alias`` that ``user_id``'s words use; the rows
    deleted (``NotFound`` when none). Reads that cache the user's graph reload."""
    where = (entity.tenant_id, entity.namespace, user_key(user_id), alias, entity.id)
    found = query(
        conn,
        "SELECT entity_id, alias, user_key, source, confidence, use_count FROM aliases"
        " WHERE tenant_id = ? AND namespace = ? AND user_key = ? AND alias = ?"
        " AND entity_id = ?",
        where,
    )
    if not found:
        raise NotFound("alias", alias)
    conn.execute(
        "DELETE FROM aliases WHERE tenant_id = ? AND namespace = ? AND user_key = ?"
        " AND alias = ? AND entity_id = ?",
        where,
    )
    bump_fact_version(conn, entity.tenant_id, entity.namespace, user_key(user_id))
    return [records.alias_from_row(r) for r in found]


def mark_stale(conn: sqlite3.Connection, marks: Sequence[StaleItem]) -> None:
    """Mark items as stating what no longer holds; an item marked once keeps its first
    mark (what ended it first)."""
    conn.executemany(
        "UPDATE items SET superseded_by = ?,"
        f" metadata = json_set(metadata, '$.{NO_LONGER_TRUE}', json(?))"
        " WHERE tenant_id = ? AND id = ? AND superseded_by IS NULL",
        [(m.by, json.dumps(m.meta()), m.tenant_id, m.item_id) for m in marks],
    )


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
