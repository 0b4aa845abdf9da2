"""Writing knowledge in SQLite: what reconciliation decided (``Knowledge``: entities,
aliases, facts and their updates, relations, conflicts, history), applied inside the
caller's transaction after its read set is checked.

Every change to a user's facts or relations bumps ``fact_versions`` in the same
transaction, so no process serves a cached fact list or graph that no longer matches.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence

import numpy as np

from cognimem.errors import NotFound, StaleKnowledge
from cognimem.models.fact_changes import LIVE, LIVE_VALUES, NO_LONGER_TRUE, StaleItem
from cognimem.models.knowledge import Alias, Entity, HistoryEntry
from cognimem.models.references import (
    COREFERENCE,
    ItemLinks,
    ItemReference,
    linked_items,
    with_links,
)
from cognimem.store import records
from cognimem.store import row_values as kv
from cognimem.store.arguments import Relinked
from cognimem.store.records import (
    ALIAS_COLUMNS,
    CONFLICT_COLUMNS,
    ENTITY_COLUMNS,
    FACT_COLUMNS,
    HISTORY_COLUMNS,
    RELATION_COLUMNS,
    user_key,
)
from cognimem.store.relinking import merged_away, named_entities
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.sqlite.rows import decode_time, encode_time, query
from cognimem.store.types import Knowledge

_UPDATE_FACT = (
    f"UPDATE facts SET {', '.join(f'{c} = ?' for c in kv.FACT_MUTABLE)}"
    " WHERE id = ? AND revision = ?"
)


def check_read_set(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Raise ``StaleKnowledge`` unless every key's live facts are what was reconciled
    and no entity the write names was deleted by a merge back meanwhile."""
    _check_entities(conn, knowledge)
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
                    *LIVE_VALUES,
                    state.agent_id,
                ),
            )
        )
        if found != state.facts:
            raise StaleKnowledge(
                f"facts under key {state.key!r} changed during the write",
                details={"key": state.key},
            )


def _check_entities(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Raise ``StaleKnowledge`` when an entity the write names was deleted by a merge
    back while it was made (``store/relinking.py``: ``merged_away``)."""
    named = named_entities(knowledge)
    for part, marks in in_chunks(named):
        stored = {
            i for (i,) in conn.execute(f"SELECT id FROM entities WHERE id IN ({marks})", part)
        }
        missing = [e for e in part if e not in stored]
        if not missing:
            continue
        deleted = query(
            conn,
            f"SELECT {records.HISTORY_COLUMNS} FROM history WHERE target_type = 'entity'"
            f" AND action = 'deleted' AND target_id IN ({', '.join('?' * len(missing))})",
            missing,
        )
        if gone := merged_away([records.history_from_row(r, decode_time) for r in deleted]):
            raise gone


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
    _link_items(conn, knowledge.item_links)


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
    conn.executemany(
        f"INSERT INTO entities ({ENTITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [kv.entity_values(e, encode_time) for e in knowledge.entities],
    )


def _insert_facts(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    for p in knowledge.facts:
        blob = None if p.embedding is None else np.asarray(p.embedding, np.float32).tobytes()
        conn.execute(
            f"INSERT INTO facts ({FACT_COLUMNS}, embedding) VALUES ({', '.join('?' * 33)})",
            (*kv.fact_row(p.fact, encode_time), blob),
        )


def _update_facts(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    """Each update guarded by the revision the reconciler saw (``StaleKnowledge`` when
    it changed meanwhile); a fact no longer live takes its graph edges with it."""
    for update in knowledge.fact_updates:
        cur = conn.execute(
            _UPDATE_FACT,
            (*kv.fact_mutable(update.fact, encode_time), update.fact.id, update.expected_revision),
        )
        if cur.rowcount != 1:
            raise StaleKnowledge(
                f"fact {update.fact.id} changed during the write", details={"fact": update.fact.id}
            )
        if update.fact.status not in LIVE:
            conn.execute("UPDATE relations SET active = 0 WHERE fact_id = ?", (update.fact.id,))


def _insert_relations(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    conn.executemany(
        f"INSERT INTO relations ({RELATION_COLUMNS}) VALUES ({', '.join('?' * 13)})",
        [kv.relation_values(r, encode_time) for r in knowledge.relations],
    )


def _link_items(conn: sqlite3.Connection, links: Sequence[ItemReference]) -> None:
    """Each item linked to the people its references name (``models/references.py``):
    the entity joins its ``entities``, the resolution its metadata's list."""
    for (tenant_id, item_id), mine in linked_items(links).items():
        row = conn.execute(
            "SELECT entities, metadata FROM items WHERE tenant_id = ? AND id = ?",
            (tenant_id, item_id),
        ).fetchone()
        if row is None:
            continue  # an item this write merged into, deleted meanwhile
        entities, said = with_links(json.loads(row[0]), json.loads(row[1]), mine)
        conn.execute(
            "UPDATE items SET entities = ?,"
            f" metadata = json_set(metadata, '$.{COREFERENCE}', json(?))"
            " WHERE tenant_id = ? AND id = ?",
            (json.dumps(entities), json.dumps(said), tenant_id, item_id),
        )


def _insert_conflicts(conn: sqlite3.Connection, knowledge: Knowledge) -> None:
    conn.executemany(
        f"INSERT INTO conflicts ({CONFLICT_COLUMNS}) VALUES ({', '.join('?' * 14)})",
        [kv.conflict_values(c, encode_time) for c in knowledge.conflicts],
    )


def delete_aliases(
    conn: sqlite3.Connection, entity: Entity, alias: str, user_id: str | None
) -> list[Alias]:
    """Delete ``entity``'s rows of ``alias`` that ``user_id``'s words use; the rows
    deleted (``NotFound`` when none). Reads that cache the user's graph reload."""
    where = (entity.tenant_id, entity.namespace, user_key(user_id), alias, entity.id)
    found = query(
        conn,
        f"SELECT {ALIAS_COLUMNS} FROM aliases"
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


def relink_items(
    conn: sqlite3.Connection,
    entity: Entity,
    user_id: str | None,
    relink: Callable[[ItemLinks], ItemLinks | None],
) -> list[Relinked]:
    """Rewrite the links of ``user_id``'s items (``None``: the items of no user) linked
    to ``entity`` as ``relink`` says; each item rewritten, (before, after)."""
    found = conn.execute(
        "SELECT id, entities, metadata FROM items WHERE tenant_id = ? AND namespace = ?"
        " AND user_id IS ? AND EXISTS (SELECT 1 FROM json_each(items.entities) AS e"
        " WHERE e.value = ?) ORDER BY occurred_at, id",
        (entity.tenant_id, entity.namespace, user_id, entity.id),
    ).fetchall()
    out: list[Relinked] = []
    for item_id, entities, metadata in found:
        before = ItemLinks.stored(item_id, json.loads(entities), json.loads(metadata))
        after = relink(before)
        if after is None:
            continue
        # an item left with no resolution keeps no empty list
        said = json.dumps(after.links) if after.links else None
        conn.execute(
            "UPDATE items SET entities = ?, metadata = CASE WHEN ? IS NULL"
            f" THEN json_remove(metadata, '$.{COREFERENCE}')"
            f" ELSE json_set(metadata, '$.{COREFERENCE}', json(?)) END"
            " WHERE tenant_id = ? AND id = ?",
            (json.dumps(after.entities), said, said, entity.tenant_id, item_id),
        )
        out.append((before, after))
    return out


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
        [kv.history_values(h, encode_time) for h in entries],
    )


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
