"""Erasing one shared level in PostgreSQL, with the semantics of
``store/sqlite/level_erasure.py``: the rows of no user and exactly one agent (``None``:
the organisation's), in every namespace of the tenant, and what points at them, inside
the caller's transaction. No user's row is read or changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cognimem.models.admin import ErasureReport
from cognimem.store import transfer

if TYPE_CHECKING:
    from asyncpg import Connection

LEVEL = "tenant_id = $1 AND user_id IS NULL AND agent_id IS NOT DISTINCT FROM $2"


async def erase_level(conn: Connection, tenant_id: str, agent_id: str | None) -> ErasureReport:
    """Delete every row of the level (its events, items with their index rows, facts,
    relations, conflicts, history, sessions, procedures and lifecycle runs, and the
    entities of no user only its rows named)."""
    who = (tenant_id, agent_id)
    # first, as erase_user: a worker attaching items to these events waits for this
    # transaction, and one that comes later finds no events
    events = await conn.fetch(
        f"SELECT id, content_hash FROM events WHERE {LEVEL} ORDER BY id FOR UPDATE", *who
    )
    ids: dict[str, list[str]] = {"events": [r["id"] for r in events]}
    for table in ("items", "facts", "conflicts"):
        ids[table] = [r[0] for r in await conn.fetch(f"SELECT id FROM {table} WHERE {LEVEL}", *who)]
    items = await conn.fetch(f"SELECT author, text FROM items WHERE {LEVEL}", *who)
    facts = await conn.fetch(f"SELECT text FROM facts WHERE {LEVEL}", *who)
    hashes = transfer.erased_hashes(
        ((r["author"], r["text"]) for r in items),
        (r["text"] for r in facts),
        (r["content_hash"] for r in events),
    )
    named = await conn.fetch(
        f"SELECT subject_entity_id FROM facts WHERE {LEVEL}"
        f" UNION SELECT object_entity_id FROM facts WHERE {LEVEL}"
        f" UNION SELECT source_entity_id FROM relations WHERE {LEVEL}"
        f" UNION SELECT target_entity_id FROM relations WHERE {LEVEL}",
        *who,
    )
    removed = await _delete_rows(conn, who, ids)
    await _delete_entities(conn, tenant_id, [r[0] for r in named if r[0] is not None], removed)
    return ErasureReport(removed=removed, content_hashes=hashes)


async def _delete_rows(
    conn: Connection, who: tuple[str, str | None], ids: dict[str, list[str]]
) -> dict[str, int]:
    tenant_id, agent_id = who
    removed: dict[str, int] = {}

    async def delete(name: str, sql: str, *args: object) -> None:
        count = await conn.fetchval(
            f"WITH gone AS ({sql} RETURNING 1) SELECT count(*) FROM gone", *args
        )
        removed[name] = int(count)

    await delete(
        "history",
        "DELETE FROM history WHERE tenant_id = $1"
        " AND (target_id = ANY($2::text[]) OR event_id = ANY($3::text[]))",
        tenant_id,
        ids["items"] + ids["facts"] + ids["conflicts"],
        ids["events"],
    )
    await delete(
        "item_events",
        "DELETE FROM item_events WHERE item_id = ANY($1::text[]) OR event_id = ANY($2::text[])",
        ids["items"],
        ids["events"],
    )
    await delete(
        "relations",
        f"DELETE FROM relations WHERE ({LEVEL}) OR (tenant_id = $1 AND fact_id = ANY($3::text[]))",
        *who,
        ids["facts"],
    )
    for table in ("items", "events", "facts", "conflicts", "sessions", "procedures"):
        await delete(table, f"DELETE FROM {table} WHERE {LEVEL}", *who)
    await delete(
        "lifecycle_runs",
        "DELETE FROM lifecycle_runs WHERE tenant_id = $1 AND user_id = $2",
        tenant_id,
        transfer.level_holder(agent_id),
    )
    return removed


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
            " AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.subject_entity_id = e.id"
            "  OR f.object_entity_id = e.id)"
            " AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.source_entity_id = e.id"
            "  OR r.target_entity_id = e.id)",
            tenant_id,
            named,
        )
    ]
    for name, sql in (
        ("aliases", "DELETE FROM aliases WHERE tenant_id = $1 AND entity_id = ANY($2::text[])"),
        ("entities", "DELETE FROM entities WHERE tenant_id = $1 AND id = ANY($2::text[])"),
    ):
        count = await conn.fetchval(
            f"WITH gone AS ({sql} RETURNING 1) SELECT count(*) FROM gone", tenant_id, gone
        )
        removed[name] = int(count)
