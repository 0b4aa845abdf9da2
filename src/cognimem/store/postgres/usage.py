"""Item usage in PostgreSQL: the ``UsageStore`` role. Counters in the narrow
``item_usage`` table (migration 14), one row per item that was ever used, upserted in
bulk: a read adds to these rows and never rewrites the wide item rows. Rows are locked
in id order, so two reads counting the same items at once cannot deadlock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from cognimem.models import ItemStatus, MemoryItem, Tier
from cognimem.models.clock import to_utc
from cognimem.store.postgres import rows
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.records import ITEM_SELECT, ITEMS_WITH_USAGE, check_counters

if TYPE_CHECKING:
    from asyncpg import Connection


async def add_usage(
    conn: Connection,
    tenant_id: str,
    ids: Sequence[str],
    counts: Mapping[str, int],
    at: datetime | None = None,
) -> None:
    """Add ``counts`` (counter name → increment) to each of the tenant's items ``ids``
    (ids of other tenants, or of no item, are left out); ``at`` sets
    ``last_accessed_at`` (never back in time)."""
    if not ids or not (counts or at is not None):
        return
    check_counters(counts)
    names = list(counts)
    columns = ", ".join(["item_id", "tenant_id", *names, "last_accessed_at"])
    values = ", ".join(f"${n}::int4" for n in range(3, 3 + len(names)))
    stamp = f"${3 + len(names)}::timestamptz"
    sets = [f"{n} = item_usage.{n} + excluded.{n}" for n in names]
    if at is not None:
        sets.append(
            "last_accessed_at = greatest(item_usage.last_accessed_at, excluded.last_accessed_at)"
        )
    await conn.execute(
        f"INSERT INTO item_usage ({columns})"
        f" SELECT id, tenant_id, {values + ', ' if values else ''}{stamp}"
        " FROM items WHERE tenant_id = $1 AND id = ANY($2::text[]) ORDER BY id"
        f" ON CONFLICT (item_id) DO UPDATE SET {', '.join(sets)}",
        tenant_id,
        sorted(set(ids)),
        *counts.values(),
        None if at is None else to_utc(at),
    )


class PostgresUsage(PostgresDatabase):
    """``UsageStore`` on PostgreSQL."""

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        if ids:
            async with self._connection() as conn:
                await add_usage(conn, tenant_id, ids, {"access_count": 1}, at)

    async def record_usage(
        self, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
    ) -> None:
        check_counters(counts)
        if ids and counts:
            async with self._connection() as conn:
                await add_usage(conn, tenant_id, ids, counts)

    async def usage_candidates(
        self, tenant_id: str, namespace: str, user_id: str, limit: int
    ) -> list[MemoryItem]:
        async with self._connection() as conn:
            found = await conn.fetch(
                f"SELECT {ITEM_SELECT} FROM {ITEMS_WITH_USAGE}"
                " WHERE i.tenant_id = $1 AND i.namespace = $2 AND i.user_id = $3"
                " AND i.status = $4 AND (u.item_id IS NOT NULL OR i.tier = $5)"
                " ORDER BY i.seq DESC LIMIT $6",
                tenant_id, namespace, user_id, ItemStatus.ACTIVE.value, Tier.HIGH.value, limit,
            )  # fmt: skip
        return [rows.item_from_row(r) for r in found]
