"""Edits in PostgreSQL: the ``EditStore`` role, with the semantics of
``store/sqlite/edits.py``. An item's edit guarded by the state it was made from,
forgetting items with what was derived from them alone (the rules are in
``store/forgetting.py``, the queries in ``postgres/forgetting.py``), a conflict's
resolution, and history entries. Nothing is cached in the process here, so there are no
versions to bump: the item row carries its text, tsvector and embedding, and every
index follows it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cognimem.errors import Conflict, NotFound, StaleKnowledge
from cognimem.models import ItemStatus
from cognimem.models.knowledge import ConflictStatus, HistoryEntry
from cognimem.store import forgetting as cascade
from cognimem.store import records
from cognimem.store.arguments import (
    AliasDeletion,
    AliasesRemoved,
    AliasGiving,
    ConflictResolution,
    ItemEdit,
    ItemsForgetting,
)
from cognimem.store.forgetting import Forgotten
from cognimem.store.postgres import forgetting, knowledge_writes, relinking, usage
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.postgres.item_writes import insert_items
from cognimem.store.postgres.knowledge import get_conflict
from cognimem.store.postgres.rows import decode_time, vector_bytes
from cognimem.store.types import ConsolidationWrite

if TYPE_CHECKING:
    from asyncpg import Connection


async def _check_episodes(conn: Connection, write: ConsolidationWrite) -> None:
    """Refuse a pass whose episodes are not all there any more (deleted, or erased with
    their user or level while it ran): its summaries would state them again. Their
    events are held FOR SHARE first: an erasure locks its events FOR UPDATE before it
    reads what to delete, so it either waits for this commit (and deletes the summary
    too) or has committed already (and the episodes are found gone)."""
    wanted = sorted(set(write.consolidated))
    if not wanted:
        return
    await conn.execute(
        "SELECT 1 FROM events WHERE id IN (SELECT event_id FROM item_events"
        " WHERE item_id = ANY($1::text[])) FOR SHARE",
        wanted,
    )
    live = await conn.fetchval(
        "SELECT count(*) FROM items WHERE tenant_id = $1 AND id = ANY($2::text[])",
        write.tenant_id,
        wanted,
    )
    if int(live) != len(wanted):
        raise StaleKnowledge("an episode being consolidated was removed meanwhile")


class PostgresEdits(PostgresDatabase):
    """``EditStore`` on PostgreSQL."""

    async def update_item(self, edit: ItemEdit) -> None:
        async def body(conn: Connection) -> None:
            await update_item(conn, edit)

        dim = None if edit.embedding is None else int(np.asarray(edit.embedding).shape[0])
        await self._write(body, dim)

    async def apply_consolidation(self, write: ConsolidationWrite) -> None:
        async def body(conn: Connection) -> None:
            if write.replaced:
                live = await conn.fetchval(
                    "SELECT count(*) FROM (SELECT id FROM items WHERE tenant_id = $1"
                    " AND id = ANY($2::text[]) AND status = 'active' FOR UPDATE) AS live",
                    write.tenant_id,
                    list(write.replaced),
                )
                if int(live) != len(write.replaced):
                    raise StaleKnowledge("a summary being replaced changed meanwhile")
            await _check_episodes(conn, write)
            if write.knowledge is not None:
                await knowledge_writes.check_read_set(conn, write.knowledge)
            await insert_items(conn, write.summaries)
            if write.replaced:
                await conn.execute(
                    "UPDATE items SET status = 'archived', superseded_by = r.new_id"
                    " FROM unnest($2::text[], $3::text[]) AS r(old_id, new_id)"
                    " WHERE items.tenant_id = $1 AND items.id = r.old_id",
                    write.tenant_id,
                    list(write.replaced),
                    list(write.replaced.values()),
                )
            if write.consolidated:
                await conn.execute(
                    "UPDATE items SET consolidated = true WHERE tenant_id = $1"
                    " AND id = ANY($2::text[])",
                    write.tenant_id,
                    write.consolidated,
                )
            await knowledge_writes.insert_history(conn, write.history)
            if write.knowledge is not None:
                await knowledge_writes.apply(conn, write.knowledge)
                silenced = write.knowledge.silence_items
                await _set_status(conn, write.tenant_id, silenced, ItemStatus.SILENT)
                await knowledge_writes.mark_stale(conn, write.knowledge.stale_items)

        embedded = [p.embedding for p in write.summaries if p.embedding is not None]
        dim = int(np.asarray(embedded[0]).shape[0]) if embedded else None
        await self._write(body, dim)

    async def resolve_conflict(self, resolution: ConflictResolution) -> None:
        async def body(conn: Connection) -> None:
            await resolve_conflict(conn, resolution)
            await knowledge_writes.mark_stale(conn, resolution.changes.stale_items)

        await self._write(body, None)

    async def remove_aliases(self, deletion: AliasDeletion) -> AliasesRemoved:
        async def body(conn: Connection) -> AliasesRemoved:
            if deletion.retire is not None:  # a write naming it waits, or sees it gone
                await relinking.hold_entity(conn, deletion.entity)
            removed = await knowledge_writes.delete_aliases(
                conn, deletion.entity, deletion.alias, deletion.user_id
            )
            relinked = await knowledge_writes.relink_items(
                conn, deletion.entity, deletion.user_id, deletion.relink
            )
            summaries = await relinking.relink_summaries(
                conn, deletion.entity, relinked, deletion.resummarise
            )
            moved = await relinking.move_facts(
                conn, deletion.entity, deletion.user_id, deletion.move
            )
            await knowledge_writes.apply(conn, deletion.then(removed, relinked, summaries, moved))
            await relinking.settle_facts(conn, deletion, moved)
            profiles = await relinking.archive_profiles(conn, deletion, moved)
            await knowledge_writes.apply(conn, deletion.archive(profiles))
            retire = deletion.retire
            if retire is not None and await relinking.retire_entity(conn, deletion.entity):
                await knowledge_writes.apply(conn, retire)
            return AliasesRemoved(removed, profiles)

        return await self._write(body, None)

    async def give_alias(self, giving: AliasGiving) -> None:
        async def body(conn: Connection) -> None:
            summaries = await relinking.relink_summaries(
                conn, giving.entity, giving.relinked, giving.resummarise
            )
            await knowledge_writes.apply(conn, giving.then(summaries))

        await self._write(body, None)

    async def append_history(self, entries: Sequence[HistoryEntry]) -> None:
        if entries:
            async with self._connection() as conn:
                await knowledge_writes.insert_history(conn, entries)

    async def forget_items(self, request: ItemsForgetting) -> Forgotten:
        if not request.ids:
            return Forgotten()
        if request.dry_run:
            async with self._connection() as conn:
                items, done, relations = await forgetting.plan(
                    conn, request.tenant_id, request.ids, request.status, lock=False
                )
            return cascade.outcome(items, done, relations)
        return await self._write(lambda conn: _forget(conn, request), None)


async def _forget(conn: Connection, request: ItemsForgetting) -> Forgotten:
    tenant_id, status, now = request.tenant_id, request.status, request.now
    items, done, relations = await forgetting.plan(conn, tenant_id, request.ids, status, lock=True)
    if items:
        targets = [i.id for i in [*items, *done.summaries]]
        if status is ItemStatus.DELETED:
            await _delete_items(conn, tenant_id, targets)
        else:
            await _set_status(conn, tenant_id, targets, status)
        await forgetting.apply(conn, done, status, now)
        await knowledge_writes.insert_history(
            conn, cascade.history(items, done, status, now, request.actor)
        )
    return cascade.outcome(items, done, relations)


async def _set_status(
    conn: Connection, tenant_id: str, ids: Sequence[str], status: ItemStatus
) -> int:
    count = await conn.fetchval(
        "WITH changed AS (UPDATE items SET status = $3 WHERE tenant_id = $1"
        " AND id = ANY($2::text[]) AND status <> $3 RETURNING 1)"
        " SELECT count(*) FROM changed",
        tenant_id,
        list(set(ids)),
        status.value,
    )
    return int(count)


async def _delete_items(conn: Connection, tenant_id: str, ids: Sequence[str]) -> int:
    # the row holds the text, tsvector and embedding, so every index forgets it
    count = await conn.fetchval(
        "WITH gone AS (DELETE FROM items WHERE tenant_id = $1 AND id = ANY($2::text[])"
        " RETURNING id), links AS (DELETE FROM item_events"
        " WHERE item_id IN (SELECT id FROM gone)) SELECT count(*) FROM gone",
        tenant_id,
        list(ids),
    )
    return int(count)


async def update_item(conn: Connection, edit: ItemEdit) -> None:
    item, expected, search_text = edit.item, edit.expected, edit.search_text
    guard = " AND ".join(f"{c} = ${n}" for n, c in enumerate(records.EDIT_GUARD_COLUMNS, 14))
    found = await conn.fetchval(
        "UPDATE items SET text = $3, importance = $4, confidence = $5, tier = $6, status = $7,"
        " token_count = $8, embedding_model = $9, metadata = $10::jsonb, event_start = $11,"
        f" event_end = $12, kind = $13 WHERE tenant_id = $1 AND id = $2 AND {guard} RETURNING 1",
        item.scope.tenant_id, item.id, item.text, item.importance, item.confidence,
        item.tier.value, item.status.value, item.token_count, item.embedding_model,
        json.dumps(item.metadata), decode_time(item.event_start), decode_time(item.event_end),
        item.kind.value, *records.edit_guard(expected),
    )  # fmt: skip
    if found is None:
        exists = await conn.fetchval(
            "SELECT 1 FROM items WHERE tenant_id = $1 AND id = $2", item.scope.tenant_id, item.id
        )
        if exists is None:
            raise NotFound("memory", item.id)
        raise StaleKnowledge(f"memory {item.id} changed while this edit was made")
    await usage.add_usage(
        conn, item.scope.tenant_id, [item.id], records.usage_increments(item, expected)
    )
    if search_text is not None:
        await conn.execute(
            "UPDATE items SET search_text = $3, embedding = $4 WHERE tenant_id = $1 AND id = $2",
            item.scope.tenant_id,
            item.id,
            search_text,
            None if edit.embedding is None else vector_bytes(edit.embedding),
        )
    await knowledge_writes.insert_history(conn, [edit.history])


async def resolve_conflict(conn: Connection, resolution: ConflictResolution) -> None:
    """The conflict's new state (only while it is still open), the facts it changes
    (guarded by their revisions) and the items it silences."""
    conflict, changes = resolution.conflict, resolution.changes
    changed = await conn.fetchval(
        "UPDATE conflicts SET status = $3, strategy = $4, winner_fact_id = $5,"
        " resolved_at = $6, note = $7 WHERE id = $1 AND tenant_id = $2 AND status = $8"
        " RETURNING 1",
        conflict.id, conflict.scope.tenant_id, conflict.status.value, conflict.strategy.value,
        conflict.winner_fact_id, decode_time(conflict.resolved_at), conflict.note,
        ConflictStatus.OPEN.value,
    )  # fmt: skip
    if changed is None:
        if await get_conflict(conn, conflict.scope.tenant_id, conflict.id) is None:
            raise NotFound("conflict", conflict.id)
        raise Conflict(
            f"conflict {conflict.id} was resolved meanwhile", details={"conflict": conflict.id}
        )
    await knowledge_writes.apply(conn, changes)
    if changes.silence_items:
        await conn.execute(
            "UPDATE items SET status = $3 WHERE tenant_id = $1 AND id = ANY($2::text[])"
            " AND status <> $3",
            conflict.scope.tenant_id,
            list(changes.silence_items),
            ItemStatus.SILENT.value,
        )
