"""Forgetting items in PostgreSQL: the rows the cascade reads and the fact and relation
changes it writes, inside the caller's transaction (see ``store/forgetting.py``; the
semantics are those of ``store/sqlite/forgetting.py``).

The facts read are locked (``FOR UPDATE``) when the forget writes: a writer reinforcing
one meanwhile waits, then fails its revision guard and retries against the new state."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cognimem.models import ItemKind, ItemStatus
from cognimem.models.clock import to_utc
from cognimem.models.knowledge import ConflictStatus, FactStatus
from cognimem.store.forgetting import (
    CONFLICT_NOTE,
    Cascade,
    ForgottenItem,
    SourcedFact,
    cascade,
)

if TYPE_CHECKING:
    from datetime import datetime

    from asyncpg import Connection

_ITEMS = (
    "SELECT id, tenant_id, status, namespace, user_id FROM items"
    " WHERE tenant_id = $1 AND id = ANY($2::text[])"
)
_FACTS = (
    "SELECT id, key, status, revision, evidence_item_ids, evidence_event_ids FROM facts"
    " WHERE tenant_id = $1 AND namespace = $2 AND user_id IS NOT DISTINCT FROM $3"
    " AND evidence_item_ids ?| $4::text[] ORDER BY seq"
)
_LIVE = (
    "SELECT id FROM items WHERE tenant_id = $1 AND id = ANY($2::text[]) AND status = $3"
    " AND NOT id = ANY($4::text[])"
)
_EVENTS = "SELECT DISTINCT event_id FROM item_events WHERE item_id = ANY($1::text[])"
_KEPT = (
    "SELECT DISTINCT ie.event_id FROM item_events ie JOIN items i ON i.id = ie.item_id"
    " WHERE ie.event_id = ANY($1::text[]) AND NOT ie.item_id = ANY($2::text[])"
    " AND i.status = $3 AND i.kind <> $4"
)
_SUMMARIES = (
    "SELECT i.id, i.status, ie.event_id FROM items i JOIN item_events ie ON ie.item_id = i.id"
    " WHERE i.tenant_id = $1 AND i.kind = $2 AND i.id IN (SELECT item_id FROM item_events"
    " WHERE event_id = ANY($3::text[])) ORDER BY i.seq, ie.event_id"
)
_TRIM = (
    "UPDATE facts f SET evidence_item_ids = t.items, evidence_event_ids = t.events,"
    " revision = f.revision + 1"
    " FROM unnest($1::text[], $2::jsonb[], $3::jsonb[]) AS t(id, items, events)"
    " WHERE f.id = t.id"
)


async def plan(
    conn: Connection, tenant_id: str, ids: Sequence[str], status: ItemStatus, *, lock: bool
) -> tuple[list[ForgottenItem], Cascade, int]:
    """The items of ``ids`` in the tenant, what forgetting them into ``status`` changes,
    and how many graph edges go with the orphaned facts. ``lock``: lock the facts read
    until the transaction ends."""
    found = await _items(conn, tenant_id, ids)
    items = [ForgottenItem(r["id"], r["tenant_id"], ItemStatus(r["status"])) for r in found]
    if not items:
        return [], Cascade(), 0
    forgotten = [i.id for i in items]
    owners = sorted(
        {(r["namespace"], r["user_id"]) for r in found}, key=lambda o: (o[0], o[1] or "")
    )
    facts = await _sourced_facts(conn, tenant_id, owners, forgotten, lock=lock)
    live = await _live_items(conn, tenant_id, facts, forgotten)
    events, gone = await _gone_events(conn, forgotten)
    summaries, summary_events = await _summaries(conn, tenant_id, events)
    done = cascade(
        status,
        set(forgotten),
        facts,
        live,
        gone,
        summaries.values(),
        summary_events,
    )
    return items, done, await _orphaned_relations(conn, done, status)


async def _items(conn: Connection, tenant_id: str, ids: Sequence[str]) -> list[Any]:
    """The rows (id, tenant, status, namespace, user) of the tenant's items of ``ids``,
    in the order of ``ids``."""
    order = {item_id: n for n, item_id in enumerate(ids)}
    return sorted(
        await conn.fetch(_ITEMS, tenant_id, list(dict.fromkeys(ids))), key=lambda r: order[r["id"]]
    )


async def _sourced_facts(
    conn: Connection,
    tenant_id: str,
    owners: Sequence[tuple[str, str | None]],
    forgotten: list[str],
    *,
    lock: bool,
) -> list[SourcedFact]:
    """The facts of each owner (namespace, user) that cite a ``forgotten`` item, locked
    with ``lock``."""
    facts: list[SourcedFact] = []
    for namespace, user_id in owners:
        for r in await conn.fetch(
            _FACTS + (" FOR UPDATE" if lock else ""), tenant_id, namespace, user_id, forgotten
        ):
            facts.append(
                SourcedFact(
                    id=r["id"], tenant_id=tenant_id, namespace=namespace, user_id=user_id,
                    key=r["key"], status=FactStatus(r["status"]), revision=int(r["revision"]),
                    evidence_item_ids=tuple(json.loads(r["evidence_item_ids"])),
                    evidence_event_ids=tuple(json.loads(r["evidence_event_ids"])),
                )
            )  # fmt: skip
    return facts


async def _live_items(
    conn: Connection, tenant_id: str, facts: Sequence[SourcedFact], forgotten: list[str]
) -> set[str]:
    """The facts' other evidence items that are active and not forgotten."""
    cited = sorted({i for f in facts for i in f.evidence_item_ids})
    return {
        r["id"]
        for r in await conn.fetch(_LIVE, tenant_id, cited, ItemStatus.ACTIVE.value, forgotten)
    }


async def _gone_events(conn: Connection, forgotten: list[str]) -> tuple[list[str], set[str]]:
    """The forgotten items' source events, and those of them no live item other than a
    summary still comes from."""
    events = [r["event_id"] for r in await conn.fetch(_EVENTS, forgotten)]
    kept = {
        r["event_id"]
        for r in await conn.fetch(
            _KEPT, events, forgotten, ItemStatus.ACTIVE.value, ItemKind.SUMMARY.value
        )
    }
    return events, set(events) - kept


async def _summaries(
    conn: Connection, tenant_id: str, events: list[str]
) -> tuple[dict[str, ForgottenItem], dict[str, list[str]]]:
    """The summaries that share a source event with ``events``, and every source event
    of each."""
    summary_events: dict[str, list[str]] = {}
    summaries: dict[str, ForgottenItem] = {}
    for r in await conn.fetch(_SUMMARIES, tenant_id, ItemKind.SUMMARY.value, events):
        summaries[r["id"]] = ForgottenItem(r["id"], tenant_id, ItemStatus(r["status"]))
        summary_events.setdefault(r["id"], []).append(r["event_id"])
    return summaries, summary_events


async def _orphaned_relations(conn: Connection, done: Cascade, status: ItemStatus) -> int:
    """How many graph edges go with the orphaned facts (a delete counts the inactive
    ones too)."""
    if not done.orphaned:
        return 0
    condition = "" if status is ItemStatus.DELETED else " AND active"
    return int(
        await conn.fetchval(
            f"SELECT count(*) FROM relations WHERE fact_id = ANY($1::text[]){condition}",
            [f.id for f in done.orphaned],
        )
    )


async def apply(conn: Connection, done: Cascade, status: ItemStatus, now: datetime) -> None:
    """Write the fact, relation and conflict changes of ``done`` (the items are the
    caller's)."""
    orphans = [f.id for f in done.orphaned]
    if orphans:
        await conn.execute(
            "UPDATE conflicts SET status = $1, resolved_at = $2, note = $3"
            " WHERE status = $4 AND fact_ids ?| $5::text[]",
            ConflictStatus.RESOLVED.value,
            to_utc(now),
            CONFLICT_NOTE,
            ConflictStatus.OPEN.value,
            orphans,
        )
    if orphans and status is ItemStatus.DELETED:
        await conn.execute("DELETE FROM relations WHERE fact_id = ANY($1::text[])", orphans)
        await conn.execute("DELETE FROM facts WHERE id = ANY($1::text[])", orphans)
    elif orphans:
        await conn.execute(
            "UPDATE relations SET active = false WHERE fact_id = ANY($1::text[])", orphans
        )
        await conn.execute(
            "UPDATE facts SET status = $2, recorded_to = coalesce(recorded_to, $3),"
            " revision = revision + 1 WHERE id = ANY($1::text[])",
            orphans,
            FactStatus.INVALIDATED.value,
            to_utc(now),
        )
    if done.trimmed:
        await conn.execute(
            _TRIM,
            [t.fact.id for t in done.trimmed],
            [json.dumps(t.item_ids) for t in done.trimmed],
            [json.dumps(t.event_ids) for t in done.trimmed],
        )
