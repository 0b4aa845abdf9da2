"""Erasure in PostgreSQL, with the semantics of ``store/sqlite/erasure.py``: a user's
rows (``TransferStore.erase_user``) or one shared level's (``erase_level``: the rows of
no user and exactly one agent in every namespace of the tenant, or of no agent in one
namespace — the namespace's level, or the organisation's in ``ORGANISATION_NAMESPACE``),
and what points at them, inside the caller's transaction. Both run one delete
(``_delete_owned``) over the clause that picks the owner's rows. Dead tuples stay on
disk until PostgreSQL vacuums the tables (autovacuum, or ``VACUUM`` to be sure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cognimem.models.admin import ErasureReport
from cognimem.store import erasure as common
from cognimem.store import records

if TYPE_CHECKING:
    from asyncpg import Connection

USER = "tenant_id = $1 AND user_id = $2"
# a level's rows: $1 the tenant, $2 the agent, $3 the namespace (NULL: every one)
LEVEL = (
    "tenant_id = $1 AND user_id IS NULL AND agent_id IS NOT DISTINCT FROM $2"
    " AND ($3::text IS NULL OR namespace = $3)"
)


async def erase_user(conn: Connection, tenant_id: str, user_id: str) -> ErasureReport:
    """Delete every row of the user (see ``Store.erase_user``). Runs in READ COMMITTED:
    each statement after the lock sees what committed before it."""
    who = (tenant_id, user_id)
    ids, hashes = await _lock_owned(conn, USER, who, ("items", "facts", "conflicts", "entities"))
    await _scrub_procedures(conn, tenant_id, user_id)
    removed = await _delete_owned(
        conn, USER, who, ids, common.USER_TABLES, alias_key=records.user_key(user_id)
    )
    return ErasureReport(removed=removed, content_hashes=hashes)


async def erase_level(
    conn: Connection, tenant_id: str, agent_id: str | None, namespace: str | None
) -> ErasureReport:
    """Delete every row of the level (its events, items with their index rows, facts,
    relations, conflicts, history, sessions, procedures and lifecycle runs, and the
    entities of no user only its rows named). No user's row is read or changed, nor
    another level's (``namespace``: the level's one namespace, None every one)."""
    who = (tenant_id, agent_id, namespace)
    ids, hashes = await _lock_owned(conn, LEVEL, who, ("items", "facts", "conflicts"))
    named = await conn.fetch(
        common.named_entities(LEVEL),
        *who,
    )
    removed = await _delete_owned(conn, LEVEL, who, ids, common.LEVEL_TABLES)
    removed["lifecycle_runs"] = await _count(
        conn,
        "DELETE FROM lifecycle_runs WHERE tenant_id = $1 AND user_id = $2"
        " AND ($3::text IS NULL OR namespace = $3)",
        tenant_id,
        common.level_holder(agent_id),
        namespace,
    )
    await _delete_entities(conn, tenant_id, [r[0] for r in named if r[0] is not None], removed)
    return ErasureReport(removed=removed, content_hashes=hashes)


async def _lock_owned(
    conn: Connection, owner: str, who: Sequence[object], tables: Sequence[str]
) -> tuple[dict[str, list[str]], list[str]]:
    """The ids of the owner's rows (``owner``: a clause over ``who``) in events and
    ``tables``, and the content hashes of its texts. The events are locked first, before
    anything is read: a worker attaching items to them holds them FOR SHARE
    (``item_writes.attach_items``), so this waits for its commit and the reads below see
    its items; a worker that comes later waits here and finds no events."""
    locked = await conn.fetch(f"SELECT id FROM events WHERE {owner} ORDER BY id FOR UPDATE", *who)
    ids: dict[str, list[str]] = {"events": [r[0] for r in locked]}
    for table in tables:
        ids[table] = [r[0] for r in await conn.fetch(f"SELECT id FROM {table} WHERE {owner}", *who)]
    items = await conn.fetch(f"SELECT author, text FROM items WHERE {owner}", *who)
    facts = await conn.fetch(f"SELECT text FROM facts WHERE {owner}", *who)
    events = await conn.fetch(f"SELECT content_hash FROM events WHERE {owner}", *who)
    hashes = common.erased_hashes(
        ((r["author"], r["text"]) for r in items),
        (r["text"] for r in facts),
        (r["content_hash"] for r in events),
    )
    return ids, hashes


async def _count(conn: Connection, sql: str, *args: object) -> int:
    """Run a DELETE; how many rows it took."""
    return int(
        await conn.fetchval(f"WITH gone AS ({sql} RETURNING 1) SELECT count(*) FROM gone", *args)
    )


async def _delete_owned(
    conn: Connection,
    owner: str,
    who: Sequence[object],
    ids: Mapping[str, list[str]],
    tables: Sequence[str],
    *,
    alias_key: str | None = None,
) -> dict[str, int]:
    """Delete the rows of ``tables`` that ``owner`` (a clause over ``who``: $1 the
    tenant, $2 the owner) picks, and first what points at them (``ids``: the owner's,
    by table): the history of their items, facts, conflicts and events, the items'
    event links, the relations their facts back. ``alias_key``: the owner holds
    entities too; the aliases under that key or of its entities, and the relations
    that touch its entities, go as well. How many rows went, by table."""
    tenant_id = who[0]
    removed: dict[str, int] = {}
    removed["history"] = await _count(
        conn,
        "DELETE FROM history WHERE tenant_id = $1"
        " AND (target_id = ANY($2::text[]) OR event_id = ANY($3::text[]))",
        tenant_id,
        ids["items"] + ids["facts"] + ids["conflicts"],
        ids["events"],
    )
    removed["item_events"] = await _count(
        conn,
        "DELETE FROM item_events WHERE item_id = ANY($1::text[]) OR event_id = ANY($2::text[])",
        ids["items"],
        ids["events"],
    )
    if alias_key is not None:
        removed["aliases"] = await _count(
            conn,
            "DELETE FROM aliases WHERE tenant_id = $1"
            " AND (user_key = $2 OR entity_id = ANY($3::text[]))",
            tenant_id,
            alias_key,
            ids["entities"],
        )
    facts, entities = f"${len(who) + 1}", f"${len(who) + 2}"  # after the owner's
    removed["relations"] = await _count(
        conn,
        f"DELETE FROM relations WHERE ({owner}) OR (tenant_id = $1"
        f" AND (fact_id = ANY({facts}::text[]) OR source_entity_id = ANY({entities}::text[])"
        f" OR target_entity_id = ANY({entities}::text[])))",
        *who,
        ids["facts"],
        ids.get("entities", []),
    )
    for table in tables:
        removed[table] = await _count(conn, f"DELETE FROM {table} WHERE {owner}", *who)
    return removed


async def _scrub_procedures(conn: Connection, tenant_id: str, user_id: str) -> None:
    """The agents' procedures the user's turns helped learn lose the user's event ids
    (or go: ``store/erasure.py``: ``scrub_procedures``)."""
    erased = {
        r[0]
        for r in await conn.fetch(
            "SELECT id FROM events WHERE tenant_id = $1 AND user_id = $2", tenant_id, user_id
        )
    }
    if not erased:
        return
    shared = await conn.fetch(
        "SELECT id, trigger_text, request_event_ids::text, source_event_ids::text"
        " FROM procedures WHERE tenant_id = $1 AND user_id IS NULL FOR UPDATE",
        tenant_id,
    )
    touched, requests = common.touched_procedures([tuple(r) for r in shared], erased)
    if not touched:
        return
    said = {
        r[0]: r[1]
        for r in await conn.fetch(
            "SELECT id, content FROM events WHERE tenant_id = $1 AND id = ANY($2::text[])",
            tenant_id,
            sorted(requests),
        )
    }
    deleted, kept = common.scrub_procedures(touched, erased, said)
    if deleted:
        await conn.execute("DELETE FROM procedures WHERE id = ANY($1::text[])", deleted)
    if kept:
        await conn.executemany(
            "UPDATE procedures SET request_event_ids = $2::jsonb, source_event_ids = $3::jsonb,"
            " trigger_terms = $4::jsonb, revision = revision + 1 WHERE id = $1",
            kept,
        )


async def _delete_entities(
    conn: Connection, tenant_id: str, named: list[str], removed: dict[str, int]
) -> None:
    """Delete the entities of no user in ``named`` that no row left names (another
    level's or a user's fact or relation keeps its entity), with their aliases."""
    gone = [
        r[0]
        for r in await conn.fetch(
            "SELECT id FROM entities e WHERE tenant_id = $1 AND user_id IS NULL"
            " AND id = ANY($2::text[])"
            f" AND {common.UNNAMED_ENTITY}",
            tenant_id,
            named,
        )
    ]
    for name, sql in (
        ("aliases", "DELETE FROM aliases WHERE tenant_id = $1 AND entity_id = ANY($2::text[])"),
        ("entities", "DELETE FROM entities WHERE tenant_id = $1 AND id = ANY($2::text[])"),
    ):
        removed[name] = await _count(conn, sql, tenant_id, gone)
