"""Erasure in SQLite: a user's rows (``TransferStore.erase_user``) or one shared
level's (``erase_level``: the rows of no user and exactly one agent in every namespace
of the tenant, or of no agent in one namespace — the namespace's level, or the
organisation's in ``ORGANISATION_NAMESPACE``), and what points at them, inside the
caller's transaction. Both run one delete (``_delete_owned``) over the clause that
picks the owner's rows. Every connection has ``secure_delete`` on, so freed space is
zeroed; the FTS index is merged so no segment keeps the erased words."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from cognimem.models.admin import ErasureReport
from cognimem.store import erasure as common
from cognimem.store import records
from cognimem.store.sqlite import knowledge_writes, scopes

USER = "tenant_id = ? AND user_id = ?"
# a level's rows: (tenant, agent, namespace, namespace); a namespace of None: every one
LEVEL = "tenant_id = ? AND user_id IS NULL AND agent_id IS ? AND (? IS NULL OR namespace = ?)"
_IDS = "(SELECT value FROM json_each(?))"  # a JSON list of ids as a subquery


def erase_user(conn: sqlite3.Connection, tenant_id: str, user_id: str) -> ErasureReport:
    """Delete every row of the user (see ``Store.erase_user``), end their own version
    rows and move the namespace-wide ones on."""
    who = (tenant_id, user_id)
    ukey = records.user_key(user_id)
    hashes = _erased_hashes(conn, USER, who)
    item_scopes = {
        r[0] for r in conn.execute(f"SELECT DISTINCT namespace FROM items WHERE {USER}", who)
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

    _scrub_procedures(conn, tenant_id, user_id)
    removed = _delete_owned(conn, USER, who, common.USER_TABLES, alias_key=ukey)
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
            (tenant_id, namespace, knowledge_writes.VERSION_FLOOR, int(version)),
        )
    conn.execute(
        "DELETE FROM fact_versions WHERE tenant_id = ? AND user_key = ?", (tenant_id, ukey)
    )
    _merge_index(conn, removed)
    return ErasureReport(removed=removed, content_hashes=hashes)


def erase_level(
    conn: sqlite3.Connection, tenant_id: str, agent_id: str | None, namespace: str | None
) -> ErasureReport:
    """Delete every row of the level (its events, items with their index rows, facts,
    relations, conflicts, history, sessions, procedures and lifecycle runs, and the
    entities of no user only its rows named), and bump the versions that date the
    shared rows in every namespace it held. No user's row is read or changed, nor
    another level's (``namespace``: the level's one namespace, None every one)."""
    who = (tenant_id, agent_id, namespace, namespace)
    hashes = _erased_hashes(conn, LEVEL, who)
    namespaces = {
        r[0]
        for table in ("items", "facts", "relations")
        for r in conn.execute(f"SELECT DISTINCT namespace FROM {table} WHERE {LEVEL}", who)
    }
    named = _named_entities(conn, who)
    removed = _delete_owned(conn, LEVEL, who, common.LEVEL_TABLES)
    removed["lifecycle_runs"] = conn.execute(
        "DELETE FROM lifecycle_runs WHERE tenant_id = ? AND user_id = ?"
        " AND (? IS NULL OR namespace = ?)",
        (tenant_id, common.level_holder(agent_id), namespace, namespace),
    ).rowcount
    _delete_entities(conn, tenant_id, named, removed)
    for namespace in sorted(namespaces):
        # the shared rows' entry is dated by the namespace's '*' row; their facts and
        # graph by the fact version of no user
        scopes.bump_version(conn, tenant_id, namespace, None, mutation=True)
        knowledge_writes.bump_fact_version(conn, tenant_id, namespace, records.user_key(None))
    _merge_index(conn, removed)
    return ErasureReport(removed=removed, content_hashes=hashes)


def _erased_hashes(conn: sqlite3.Connection, owner: str, who: Sequence[object]) -> list[str]:
    """The content hashes of the owner's texts (``owner``: a clause over ``who``)."""
    items = conn.execute(f"SELECT author, text FROM items WHERE {owner}", who).fetchall()
    facts = [r[0] for r in conn.execute(f"SELECT text FROM facts WHERE {owner}", who)]
    events = [r[0] for r in conn.execute(f"SELECT content_hash FROM events WHERE {owner}", who)]
    return common.erased_hashes(((a, t) for a, t in items), facts, events)


def _merge_index(conn: sqlite3.Connection, removed: dict[str, int]) -> None:
    if removed.get("items"):
        conn.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")


def _delete_owned(
    conn: sqlite3.Connection,
    owner: str,
    who: Sequence[object],
    tables: Sequence[str],
    *,
    alias_key: str | None = None,
) -> dict[str, int]:
    """Delete the rows of ``tables`` that ``owner`` (a clause over ``who``, whose first
    value is the tenant) picks, and first what points at them: the history of their
    items, facts, conflicts and events, the items' event links and index rows, the
    relations their facts back. ``alias_key``: the owner holds entities too; the
    aliases under that key or of its entities, and the relations that touch its
    entities, go as well. How many rows went, by table."""
    tenant_id = who[0]
    sub = {
        t: f"SELECT id FROM {t} WHERE {owner}" for t in ("items", "events", "facts", "conflicts")
    }
    removed: dict[str, int] = {}

    def delete(name: str, sql: str, params: Sequence[object]) -> None:
        removed[name] = removed.get(name, 0) + conn.execute(sql, params).rowcount

    # what points at the owner's rows first, while the subqueries still find them
    delete(
        "history",
        "DELETE FROM history WHERE tenant_id = ? AND (target_id IN"
        f" ({sub['items']}) OR target_id IN ({sub['facts']}) OR target_id IN"
        f" ({sub['conflicts']}) OR event_id IN ({sub['events']}))",
        (tenant_id, *who, *who, *who, *who),
    )
    conn.execute(
        f"DELETE FROM items_fts WHERE rowid IN (SELECT rowid FROM items WHERE {owner})", who
    )
    delete(
        "item_events",
        f"DELETE FROM item_events WHERE item_id IN ({sub['items']})"
        f" OR event_id IN ({sub['events']})",
        (*who, *who),
    )
    backing, backing_params = f"fact_id IN ({sub['facts']})", [*who]
    if alias_key is not None:
        entities = f"SELECT id FROM entities WHERE {owner}"
        delete(
            "aliases",
            f"DELETE FROM aliases WHERE tenant_id = ?"
            f" AND (user_key = ? OR entity_id IN ({entities}))",
            (tenant_id, alias_key, *who),
        )
        backing += f" OR source_entity_id IN ({entities}) OR target_entity_id IN ({entities})"
        backing_params += [*who, *who]
    delete(
        "relations",
        f"DELETE FROM relations WHERE ({owner}) OR (tenant_id = ? AND ({backing}))",
        (*who, tenant_id, *backing_params),
    )
    for table in tables:
        delete(table, f"DELETE FROM {table} WHERE {owner}", who)
    return removed


def _scrub_procedures(conn: sqlite3.Connection, tenant_id: str, user_id: str) -> None:
    """The agents' procedures the user's turns helped learn lose the user's event ids
    (or go: ``store/erasure.py``: ``scrub_procedures``)."""
    erased = {
        r[0]
        for r in conn.execute(
            "SELECT id FROM events WHERE tenant_id = ? AND user_id = ?", (tenant_id, user_id)
        )
    }
    if not erased:
        return
    shared = conn.execute(
        "SELECT id, trigger_text, request_event_ids, source_event_ids FROM procedures"
        " WHERE tenant_id = ? AND user_id IS NULL",
        (tenant_id,),
    ).fetchall()
    touched, requests = common.touched_procedures(shared, erased)
    if not touched:
        return
    asked = sorted(requests)
    said = dict(
        conn.execute(
            f"SELECT id, content FROM events WHERE id IN ({', '.join('?' * len(asked))})", asked
        ).fetchall()
    )
    deleted, kept = common.scrub_procedures(touched, erased, said)
    conn.executemany("DELETE FROM procedures WHERE id = ?", [(i,) for i in deleted])
    conn.executemany(
        "UPDATE procedures SET request_event_ids = ?, source_event_ids = ?,"
        " trigger_terms = ?, revision = revision + 1 WHERE id = ?",
        [(asks, sources, terms, i) for i, asks, sources, terms in kept],
    )


def _named_entities(conn: sqlite3.Connection, who: tuple[object, ...]) -> list[str]:
    """The entities the level's facts and relations name."""
    found = conn.execute(
        common.named_entities(LEVEL),
        who * 4,
    )
    return sorted(r[0] for r in found if r[0] is not None)


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
            f" AND {common.UNNAMED_ENTITY}",
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
