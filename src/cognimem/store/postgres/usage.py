"""Item usage in PostgreSQL: the ``UsageStore`` role. Counters in the narrow
``item_usage`` table (migration 14), one row per item that was ever used, upserted in
bulk: a read adds to these rows and never rewrites the wide item rows. Rows are locked
in id order, so two reads counting the same items at once cannot deadlock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cognimem.models import ItemStatus, MemoryItem, Tier
from cognimem.models.clock import to_utc
from cognimem.store.postgres import rows
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.records import (
    ITEM_SELECT,
    ITEMS_WITH_USAGE,
)
from cognimem.store.types import Access
from cognimem.store.usage import UsageCounting, counter_upsert

if TYPE_CHECKING:
    from asyncpg import Connection


async def add_usage(
    conn: Connection, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
) -> None:
    """``counter_upsert``'s statement on ``conn``, the items locked in id order."""
    sql = counter_upsert(
        ids,
        counts,
        values=", ".join(f"${n}::int4" for n in range(3, 3 + len(counts))),
        where="tenant_id = $1 AND id = ANY($2::text[]) ORDER BY id",
    )
    if sql is not None:
        await conn.execute(sql, tenant_id, sorted(set(ids)), *counts.values())


async def add_accesses(conn: Connection, accesses: Sequence[Access]) -> None:
    """Each entry's reads added to its item's ``access_count``, ``last_accessed_at``
    moved to its ``at`` (never back), in one statement; entries of no item (or of
    another tenant's) are left out; ``check_accesses`` first."""
    await conn.execute(
        "INSERT INTO item_usage (item_id, tenant_id, access_count, last_accessed_at)"
        " SELECT i.id, i.tenant_id, a.n, a.at"
        " FROM unnest($1::text[], $2::text[], $3::int4[], $4::timestamptz[])"
        " AS a (tenant_id, item_id, n, at)"
        " JOIN items i ON i.id = a.item_id AND i.tenant_id = a.tenant_id ORDER BY i.id"
        " ON CONFLICT (item_id) DO UPDATE SET"
        " access_count = item_usage.access_count + excluded.access_count,"
        " last_accessed_at = greatest(item_usage.last_accessed_at, excluded.last_accessed_at)",
        [a.tenant_id for a in accesses],
        [a.item_id for a in accesses],
        [a.count for a in accesses],
        [to_utc(a.at) for a in accesses],
    )


class PostgresUsage(PostgresDatabase, UsageCounting):
    """``UsageStore`` on PostgreSQL."""

    async def _add_accesses(self, accesses: Sequence[Access]) -> None:
        async with self._connection() as conn:
            await add_accesses(conn, accesses)

    async def _add_usage(
        self, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
    ) -> None:
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
