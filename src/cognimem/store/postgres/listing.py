"""The ``ListingStore`` role in PostgreSQL: a tenant's users from its raw events, and
items by scope, status, kind, time, tier and a piece of their text. Text matches as in
SQLite: ASCII letters without regard to case, every other character exactly."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cognimem.models import MemoryItem
from cognimem.models.clock import to_utc
from cognimem.models.directory import ItemText, LevelScope, UserScope, ascii_lower
from cognimem.store import listing
from cognimem.store.postgres import rows
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.records import ITEM_SELECT
from cognimem.store.types import ItemFilter

if TYPE_CHECKING:
    from asyncpg import Connection

# lower() follows the database's locale; translate() lowers ASCII letters only, as
# SQLite's lower() does
_LOWER_TEXT = "translate(text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"


async def _owners(conn: Connection, tenant_id: str, kind: listing.Owner, limit: int) -> list[Any]:
    """The tenant's owners of ``kind`` (``listing.OWNERS``) with their events' count and
    newest recording, newest first."""
    column, owned = listing.OWNERS[kind]
    found = await conn.fetch(
        f"SELECT namespace, {column}, count(*) AS n, max(recorded_at) AS last"
        f" FROM events WHERE tenant_id = $1 AND {owned}"
        f" GROUP BY namespace, {column}"
        f" ORDER BY max(recorded_at) DESC, namespace, {column} LIMIT $2",
        tenant_id,
        limit,
    )
    return list(found)


class PostgresListing(PostgresDatabase):
    async def list_users(self, tenant_id: str, limit: int) -> list[UserScope]:
        async with self._connection() as conn:
            return listing.user_scopes(await _owners(conn, tenant_id, "user", limit), to_utc)

    async def list_levels(self, tenant_id: str, limit: int) -> list[LevelScope]:
        async with self._connection() as conn:
            return listing.level_scopes(await _owners(conn, tenant_id, "level", limit), to_utc)

    async def list_items(self, flt: ItemFilter, text: ItemText, limit: int) -> list[MemoryItem]:
        params = rows.Params()
        where = rows.filter_clause(flt, params)
        if text.tiers is not None:
            where += f" AND tier = ANY({params.add([t.value for t in text.tiers])}::text[])"
        if text.contains:
            where += f" AND strpos({_LOWER_TEXT}, {params.add(ascii_lower(text.contains))}) > 0"
        if text.external_id is not None:
            where += f" AND external_ids @> jsonb_build_array({params.add(text.external_id)}::text)"
        async with self._connection() as conn:
            found = await conn.fetch(
                # the filters on the items alone; the counters joined from item_usage
                f"SELECT {ITEM_SELECT} FROM (SELECT * FROM items WHERE {where}"
                f" ORDER BY occurred_at DESC, seq DESC LIMIT {params.add(limit)}) i"
                " LEFT JOIN item_usage u ON u.item_id = i.id"
                " ORDER BY i.occurred_at DESC, i.seq DESC",
                *params.values,
            )
        return [rows.item_from_row(r) for r in found]
