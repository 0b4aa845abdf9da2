"""Item usage in SQLite: the ``UsageStore`` role. Counters in the narrow ``item_usage``
table (migration 14), one row per item that was ever used, upserted in bulk: a read
adds to these rows and never rewrites the wide item rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

from cognimem.models import ItemStatus, MemoryItem, Tier
from cognimem.models.clock import to_micros
from cognimem.store.records import (
    ITEM_SELECT,
    ITEMS_WITH_USAGE,
)
from cognimem.store.sqlite import rows
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.types import Access
from cognimem.store.usage import UsageCounting, counter_upsert


def add_usage(
    conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
) -> None:
    """``counter_upsert``'s statement on ``conn``."""
    sql = counter_upsert(
        ids,
        counts,
        values=", ".join(["?"] * len(counts)),
        where=f"+tenant_id = ? AND id IN ({', '.join('?' * len(ids))})",
    )
    if sql is not None:
        conn.execute(sql, (*counts.values(), tenant_id, *ids))


def add_accesses(conn: sqlite3.Connection, accesses: Sequence[Access]) -> None:
    """Each entry's reads added to its item's ``access_count``, ``last_accessed_at``
    moved to its ``at`` (never back); entries of no item (or of another tenant's) are
    left out; ``check_accesses`` first."""
    conn.executemany(
        "INSERT INTO item_usage (item_id, tenant_id, access_count, last_accessed_at)"
        " SELECT id, tenant_id, ?, ? FROM items WHERE id = ? AND +tenant_id = ?"
        " ON CONFLICT (item_id) DO UPDATE SET"
        " access_count = item_usage.access_count + excluded.access_count,"
        " last_accessed_at = max(coalesce(item_usage.last_accessed_at, 0),"
        " excluded.last_accessed_at)",
        [(a.count, to_micros(a.at), a.item_id, a.tenant_id) for a in accesses],
    )


class SQLiteUsage(SQLiteDatabase, UsageCounting):
    """``UsageStore`` on SQLite."""

    async def _add_accesses(self, accesses: Sequence[Access]) -> None:
        await self._db.write(lambda conn: add_accesses(conn, accesses))

    async def _add_usage(
        self, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
    ) -> None:
        await self._db.write(lambda conn: add_usage(conn, tenant_id, ids, counts))

    async def usage_candidates(
        self, tenant_id: str, namespace: str, user_id: str, limit: int
    ) -> list[MemoryItem]:
        return await self._decoded(
            f"SELECT {ITEM_SELECT} FROM {ITEMS_WITH_USAGE}"
            " WHERE i.tenant_id = ? AND i.namespace = ? AND i.user_id = ?"
            " AND i.status = ? AND (u.item_id IS NOT NULL OR i.tier = ?)"
            " ORDER BY i.rowid DESC LIMIT ?",
            (tenant_id, namespace, user_id, ItemStatus.ACTIVE.value, Tier.HIGH.value, limit),
            rows.item_from_row,
        )
