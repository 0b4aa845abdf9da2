"""Edits in SQLite: the ``EditStore`` role. An item's edit guarded by the state it was
made from, forgetting items with what was derived from them alone (the rules are in
``store/forgetting.py``, the queries in ``sqlite/forgetting.py``), a conflict's
resolution, and history entries."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from cognimem.errors import Conflict, NotFound, StaleKnowledge
from cognimem.models import ItemStatus
from cognimem.models.clock import to_micros
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
from cognimem.store.sqlite import forgetting, knowledge_writes, relinking, rows, scopes, usage
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.sqlite.knowledge import get_conflict
from cognimem.store.types import ConsolidationWrite


def _check_episodes(conn: sqlite3.Connection, write: ConsolidationWrite) -> None:
    """Refuse a pass whose episodes are not all there any more (deleted, or erased with
    their user or level while it ran): its summaries would state them again."""
    wanted = sorted(set(write.consolidated))
    if rows.count_present(conn, "items", write.tenant_id, wanted) != len(wanted):
        raise StaleKnowledge("an episode being consolidated was removed meanwhile")


class SQLiteEdits(SQLiteDatabase):
    """``EditStore`` on SQLite."""

    async def update_item(self, edit: ItemEdit) -> None:
        await self._db.write(lambda conn: update_item(conn, edit))

    async def forget_items(self, request: ItemsForgetting) -> Forgotten:
        tenant_id, status, now = request.tenant_id, request.status, request.now

        def tx(conn: sqlite3.Connection) -> Forgotten:
            items, done, relations = forgetting.plan(conn, tenant_id, request.ids, status)
            if request.dry_run or not items:
                return cascade.outcome(items, done, relations)
            targets = [i.id for i in [*items, *done.summaries]]
            if status is ItemStatus.DELETED:
                rows.delete_items(conn, tenant_id, targets)
            else:
                rows.set_status(conn, targets, status)
            forgetting.apply(conn, done, status, now)
            entries = cascade.history(items, done, status, now, request.actor)
            knowledge_writes.insert_history(conn, entries)
            return cascade.outcome(items, done, relations)

        if not request.ids:
            return Forgotten()
        return await (self._db.read(tx) if request.dry_run else self._db.write(tx))

    async def apply_consolidation(self, write: ConsolidationWrite) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            for old_id in write.replaced:
                found = conn.execute(
                    "SELECT status FROM items WHERE id = ? AND tenant_id = ?",
                    (old_id, write.tenant_id),
                ).fetchone()
                if found is None or found[0] != ItemStatus.ACTIVE.value:
                    raise StaleKnowledge(f"summary {old_id} changed meanwhile")
            _check_episodes(conn, write)
            if write.knowledge is not None:
                knowledge_writes.check_read_set(conn, write.knowledge)
            rows.insert_items(conn, write.summaries)
            if write.replaced:
                rows.set_status(conn, list(write.replaced), ItemStatus.ARCHIVED)
                conn.executemany(
                    "UPDATE items SET superseded_by = ? WHERE id = ?",
                    [(new, old) for old, new in write.replaced.items()],
                )
            for batch, marks in in_chunks(write.consolidated):
                conn.execute(
                    f"UPDATE items SET consolidated = 1 WHERE tenant_id = ? AND id IN ({marks})",
                    (write.tenant_id, *batch),
                )
            knowledge_writes.insert_history(conn, write.history)
            if write.knowledge is not None:
                knowledge_writes.apply(conn, write.knowledge)
                rows.set_status(conn, write.knowledge.silence_items, ItemStatus.SILENT)
                knowledge_writes.mark_stale(conn, write.knowledge.stale_items)

        await self._db.write(tx)

    async def resolve_conflict(self, resolution: ConflictResolution) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            resolve_conflict(conn, resolution)
            rows.set_status(conn, resolution.changes.silence_items, ItemStatus.SILENT)
            knowledge_writes.mark_stale(conn, resolution.changes.stale_items)

        await self._db.write(tx)

    async def remove_aliases(self, deletion: AliasDeletion) -> AliasesRemoved:
        def tx(conn: sqlite3.Connection) -> AliasesRemoved:
            removed = knowledge_writes.delete_aliases(
                conn, deletion.entity, deletion.alias, deletion.user_id
            )
            relinked = knowledge_writes.relink_items(
                conn, deletion.entity, deletion.user_id, deletion.relink
            )
            summaries = relinking.relink_summaries(
                conn, deletion.entity, relinked, deletion.resummarise
            )
            moved = relinking.move_facts(conn, deletion.entity, deletion.user_id, deletion.move)
            knowledge_writes.apply(conn, deletion.then(removed, relinked, summaries, moved))
            relinking.settle_facts(conn, deletion, moved)
            profiles = relinking.archive_profiles(conn, deletion, moved)
            knowledge_writes.apply(conn, deletion.archive(profiles))
            retire = deletion.retire
            if retire is not None and relinking.retire_entity(conn, deletion.entity):
                knowledge_writes.apply(conn, retire)
            return AliasesRemoved(removed, profiles)

        return await self._db.write(tx)

    async def give_alias(self, giving: AliasGiving) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            summaries = relinking.relink_summaries(
                conn, giving.entity, giving.relinked, giving.resummarise
            )
            knowledge_writes.apply(conn, giving.then(summaries))

        await self._db.write(tx)

    async def append_history(self, entries: Sequence[HistoryEntry]) -> None:
        if entries:
            await self._db.write(lambda conn: knowledge_writes.insert_history(conn, entries))


def update_item(conn: sqlite3.Connection, edit: ItemEdit) -> None:
    item, expected, search_text = edit.item, edit.expected, edit.search_text
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
        " kind = ?, token_count = ?, embedding_model = ?, metadata = ?, event_start = ?,"
        f" event_end = ? WHERE rowid = ? AND {guard}",
        (
            item.text, item.importance, item.confidence, item.tier.value, item.status.value,
            item.kind.value, item.token_count, item.embedding_model, json.dumps(item.metadata),
            rows.encode_time(item.event_start), rows.encode_time(item.event_end), rowid,
            *records.edit_guard(expected),
        ),
    ).rowcount  # fmt: skip
    if changed == 0:
        raise StaleKnowledge(f"memory {item.id} changed while this edit was made")
    usage.add_usage(conn, s.tenant_id, [item.id], records.usage_increments(item, expected))
    if search_text is not None:
        conn.execute("DELETE FROM items_fts WHERE rowid = ?", (rowid,))
        conn.execute(
            "INSERT INTO items_fts (rowid, search_text) VALUES (?, ?)", (rowid, search_text)
        )
        conn.execute(
            "UPDATE items SET embedding = ? WHERE rowid = ?", (rows.blob(edit.embedding), rowid)
        )
    # a status or a vector changed in place: cached matrices must reload, not append
    scopes.bump_version(conn, s.tenant_id, namespace, user_id, mutation=True)
    knowledge_writes.insert_history(conn, [edit.history])


def resolve_conflict(conn: sqlite3.Connection, resolution: ConflictResolution) -> None:
    """The conflict's new state (only while it is still open) and the facts it changes."""
    conflict = resolution.conflict
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
    knowledge_writes.apply(conn, resolution.changes)
