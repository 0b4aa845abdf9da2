"""Erasing one shared level in SQLite (see ``TransferStore.erase_level``): the rows of
no user and exactly one agent (``None``: the organisation's), in every namespace of the
tenant, and what points at them, inside the caller's transaction. No user's row is
read or changed."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from cognimem.models.admin import ErasureReport
from cognimem.store import records, transfer
from cognimem.store.sqlite import knowledge_writes, scopes

LEVEL = "tenant_id = ? AND user_id IS NULL AND agent_id IS ?"
_IDS = "(SELECT value FROM json_each(?))"  # a JSON list of ids as a subquery


def erase_level(conn: sqlite3.Connection, tenant_id: str, agent_id: str | None) -> ErasureReport:
    """Delete every row of the level (its events, items with their index rows, facts,
    relations, conflicts, history, sessions, procedures and lifecycle runs, and the
    entities of no user only its rows named), bump the versions that date the shared
    rows in every namespace it held, and merge the FTS index."""
    who = (tenant_id, agent_id)
    items = conn.execute(f"SELECT author, text FROM items WHERE {LEVEL}", who).fetchall()
    facts = [r[0] for r in conn.execute(f"SELECT text FROM facts WHERE {LEVEL}", who)]
    events = [r[0] for r in conn.execute(f"SELECT content_hash FROM events WHERE {LEVEL}", who)]
    hashes = transfer.erased_hashes(((a, t) for a, t in items), facts, events)
    namespaces = {
        r[0]
        for table in ("items", "facts", "relations")
        for r in conn.execute(f"SELECT DISTINCT namespace FROM {table} WHERE {LEVEL}", who)
    }
    named = _named_entities(conn, who)
    removed = _delete_rows(conn, who)
    _delete_entities(conn, tenant_id, named, removed)
    for namespace in sorted(namespaces):
        # the shared rows' entry is dated by the namespace's '*' row; their facts and
        # graph by the fact version of no user
        scopes.bump_version(conn, tenant_id, namespace, None, mutation=True)
        knowledge_writes.bump_fact_version(conn, tenant_id, namespace, records.user_key(None))
    if removed.get("items"):
        conn.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")
    return ErasureReport(removed=removed, content_hashes=hashes)


def _named_entities(conn: sqlite3.Connection, who: tuple[str, str | None]) -> list[str]:
    """The entities the level's facts and relations name."""
    found = conn.execute(
        f"SELECT subject_entity_id FROM facts WHERE {LEVEL}"
        f" UNION SELECT object_entity_id FROM facts WHERE {LEVEL}"
        f" UNION SELECT source_entity_id FROM relations WHERE {LEVEL}"
        f" UNION SELECT target_entity_id FROM relations WHERE {LEVEL}",
        who * 4,
    )
    return sorted(r[0] for r in found if r[0] is not None)


def _delete_rows(conn: sqlite3.Connection, who: tuple[str, str | None]) -> dict[str, int]:
    tenant_id, agent_id = who
    sub = {t: f"SELECT id FROM {t} WHERE {LEVEL}" for t in ("items", "events", "facts")}
    sub["conflicts"] = f"SELECT id FROM conflicts WHERE {LEVEL}"
    removed: dict[str, int] = {}

    def delete(name: str, sql: str, params: Sequence[object]) -> None:
        removed[name] = removed.get(name, 0) + conn.execute(sql, params).rowcount

    # what points at the level's rows first, while the subqueries still find them
    delete(
        "history",
        "DELETE FROM history WHERE tenant_id = ? AND (target_id IN"
        f" ({sub['items']}) OR target_id IN ({sub['facts']}) OR target_id IN"
        f" ({sub['conflicts']}) OR event_id IN ({sub['events']}))",
        (tenant_id, *who, *who, *who, *who),
    )
    conn.execute(
        f"DELETE FROM items_fts WHERE rowid IN (SELECT rowid FROM items WHERE {LEVEL})", who
    )
    delete(
        "item_events",
        f"DELETE FROM item_events WHERE item_id IN ({sub['items']})"
        f" OR event_id IN ({sub['events']})",
        (*who, *who),
    )
    delete(
        "relations",
        f"DELETE FROM relations WHERE ({LEVEL}) OR (tenant_id = ? AND fact_id IN ({sub['facts']}))",
        (*who, tenant_id, *who),
    )
    for table in ("items", "events", "facts", "conflicts", "sessions", "procedures"):
        delete(table, f"DELETE FROM {table} WHERE {LEVEL}", who)
    delete(
        "lifecycle_runs",
        "DELETE FROM lifecycle_runs WHERE tenant_id = ? AND user_id = ?",
        (tenant_id, transfer.level_holder(agent_id)),
    )
    return removed


def _delete_entities(
    conn: sqlite3.Connection, tenant_id: str, named: list[str], removed: dict[str, int]
) -> None:
    """Delete the entities of no user in ``named`` that no row left names (another
    level's or a user's fact or relation keeps its entity), with their aliases."""
    if not named:
        removed["entities"] = removed["aliases"] = 0
        return
    gone = [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM entities e WHERE tenant_id = ? AND user_id IS NULL AND id IN {_IDS}"
            " AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.subject_entity_id = e.id"
            "  OR f.object_entity_id = e.id)"
            " AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.source_entity_id = e.id"
            "  OR r.target_entity_id = e.id)",
            (tenant_id, json.dumps(named)),
        )
    ]
    ids = json.dumps(gone)
    removed["aliases"] = conn.execute(
        f"DELETE FROM aliases WHERE tenant_id = ? AND entity_id IN {_IDS}", (tenant_id, ids)
    ).rowcount
    removed["entities"] = conn.execute(
        f"DELETE FROM entities WHERE tenant_id = ? AND id IN {_IDS}", (tenant_id, ids)
    ).rowcount
