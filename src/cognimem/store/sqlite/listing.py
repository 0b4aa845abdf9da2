"""The ``ListingStore`` role in SQLite: a tenant's users from its raw events, and items
by scope, status, kind, time, tier and a piece of their text."""

from __future__ import annotations

import sqlite3
from typing import Any

from cognimem.models import ItemKind, MemoryItem
from cognimem.models.directory import ItemText, LevelScope, UserScope, ascii_lower
from cognimem.store import listing
from cognimem.store.records import ITEM_SELECT
from cognimem.store.sqlite import rows
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.items import item_clause
from cognimem.store.types import ItemFilter

# a listing of the rules' kinds reads few rows (a namespace holds few mandates and
# guardrails, and ``items_kind`` seeks them): every read lists them first, on the calling
# thread, where the hop to a reader thread and back costs more than the query
# (benchmarks/results/read_profile.md)
INLINE_LIST_KINDS = frozenset({ItemKind.MANDATE, ItemKind.GUARDRAIL})
INLINE_LIST_ROWS = 80  # the mandates step's listing: 20 of each of four levels


def _seeks_few(flt: ItemFilter, text: ItemText, limit: int) -> bool:
    return (
        flt.kinds is not None
        and INLINE_LIST_KINDS.issuperset(flt.kinds)
        and limit <= INLINE_LIST_ROWS
        and not text.contains
        and text.external_id is None
    )


def _owners(conn: sqlite3.Connection, tenant_id: str, kind: listing.Owner, limit: int) -> list[Any]:
    """The tenant's owners of ``kind`` (``listing.OWNERS``) with their events' count and
    newest recording, newest first."""
    column, owned = listing.OWNERS[kind]
    return conn.execute(
        f"SELECT namespace, {column}, count(*), max(recorded_at) FROM events"
        f" WHERE tenant_id = ? AND {owned} GROUP BY namespace, {column}"
        f" ORDER BY max(recorded_at) DESC, namespace, {column} LIMIT ?",
        (tenant_id, limit),
    ).fetchall()


class SQLiteListing(SQLiteDatabase):
    async def list_users(self, tenant_id: str, limit: int) -> list[UserScope]:
        found = await self._db.read(lambda conn: _owners(conn, tenant_id, "user", limit))
        return listing.user_scopes(found, rows.decode_time)

    async def list_levels(self, tenant_id: str, limit: int) -> list[LevelScope]:
        found = await self._db.read(lambda conn: _owners(conn, tenant_id, "level", limit))
        return listing.level_scopes(found, rows.decode_time)

    async def list_items(self, flt: ItemFilter, text: ItemText, limit: int) -> list[MemoryItem]:
        where, params = item_clause(flt)
        if text.tiers is not None:
            where += f" AND tier IN ({', '.join('?' * len(text.tiers))})"
            params += [t.value for t in text.tiers]
        if text.contains:
            where += " AND instr(lower(text), ?) > 0"
            params.append(ascii_lower(text.contains))
        if text.external_id is not None:
            where += " AND EXISTS (SELECT 1 FROM json_each(external_ids) WHERE value = ?)"
            params.append(text.external_id)

        return await self._decoded(
            # the filters on the items alone; the counters joined from item_usage
            f"SELECT {ITEM_SELECT} FROM (SELECT *, rowid AS row_order FROM items"
            f" WHERE {where} ORDER BY occurred_at DESC, rowid DESC LIMIT ?) i"
            " LEFT JOIN item_usage u ON u.item_id = i.id"
            " ORDER BY i.occurred_at DESC, i.row_order DESC",
            (*params, limit),
            rows.item_from_row,
            here=_seeks_few(flt, text, limit),
        )
