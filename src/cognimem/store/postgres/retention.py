"""The forgetting policy's rows and decay in PostgreSQL: the ``RetentionStore`` role.

One statement reads a user's items with their live dependents: the facts citing each
item (``jsonb_array_elements_text`` over the facts' evidence), the active relations of
those facts, and the summaries, active or silent, whose claims state it (a JSON path
over the claims' item ids), each counted once per item and joined to the items.
"""

from __future__ import annotations

from collections.abc import Sequence

from cognimem.models import ItemKind
from cognimem.models.clock import to_utc
from cognimem.models.fact_changes import LIVE_VALUES
from cognimem.models.knowledge import HistoryEntry
from cognimem.store import retention as common
from cognimem.store.postgres import knowledge_writes
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.postgres.rows import decode_time

ROWS = """
WITH cites AS (
    SELECT DISTINCT j.item_id, f.id AS fact_id, f.category
    FROM facts f, jsonb_array_elements_text(f.evidence_item_ids) AS j(item_id)
    WHERE f.tenant_id = $1 AND f.namespace = $2 AND f.user_id = $3
        AND f.status = ANY($4::text[])
), by_fact AS (
    SELECT item_id, count(*) AS facts,
        count(*) FILTER (WHERE category = ANY($5::text[])) AS constraints
    FROM cites GROUP BY item_id
), by_relation AS (
    SELECT c.item_id, count(*) AS relations
    FROM cites c JOIN relations r ON r.fact_id = c.fact_id AND r.active
    GROUP BY c.item_id
), by_summary AS (
    SELECT j.item_id #>> '{}' AS item_id, count(DISTINCT s.id) AS summaries
    FROM items s, jsonb_path_query(s.metadata, '$.consolidation.claims[*].item_ids[*]')
        AS j(item_id)
    WHERE s.tenant_id = $1 AND s.namespace = $2 AND s.user_id = $3
        AND s.kind = $6 AND s.status = ANY($7::text[])
    GROUP BY 1
)
SELECT i.id, i.kind, i.status, i.tier, i.importance, i.novelty, i.confidence, i.occurred_at,
    i.recorded_at, u.last_accessed_at, coalesce(u.access_count, 0) AS access_count,
    i.consolidated, coalesce(bf.facts, 0) AS facts, coalesce(bf.constraints, 0) AS constraints,
    coalesce(br.relations, 0) AS relations, coalesce(bs.summaries, 0) AS summaries
FROM items i
LEFT JOIN by_fact bf ON bf.item_id = i.id
LEFT JOIN by_relation br ON br.item_id = i.id
LEFT JOIN by_summary bs ON bs.item_id = i.id
LEFT JOIN item_usage u ON u.item_id = i.id  -- the counters (migration 14)
WHERE i.tenant_id = $1 AND i.namespace = $2 AND i.user_id = $3
    AND i.status = ANY($8::text[])
"""
# one shared level's rows (no user; the agent's, or the organisation's: agent NULL)
LEVEL_ROWS = ROWS
for _alias in ("f", "s", "i"):
    LEVEL_ROWS = LEVEL_ROWS.replace(
        f"{_alias}.user_id = $3",
        f"{_alias}.user_id IS NULL AND {_alias}.agent_id IS NOT DISTINCT FROM $3::text",
    )


class PostgresRetention(PostgresDatabase):
    """``RetentionStore`` on PostgreSQL."""

    async def retention_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, *, agent_id: str | None = None
    ) -> list[common.RetentionRow]:
        sql, owner = (ROWS, user_id) if user_id is not None else (LEVEL_ROWS, agent_id)
        async with self._connection() as conn:
            found = await conn.fetch(
                sql, tenant_id, namespace, owner, list(LIVE_VALUES),
                list(common.CONSTRAINT_VALUES), ItemKind.SUMMARY.value,
                list(common.CITING_SUMMARY_STATUSES), list(common.RETAINED_STATUSES),
            )  # fmt: skip
        return [
            common.retention_row(r, to_utc(r[7]), to_utc(r[8]), decode_time(r[9])) for r in found
        ]

    async def decay_items(
        self, tenant_id: str, decays: Sequence[common.Decay], history: Sequence[HistoryEntry]
    ) -> list[str]:
        if not decays:
            return []
        async with self._connection() as conn, conn.transaction():
            found = await conn.fetch(
                "UPDATE items i SET importance = d.after FROM unnest($2::text[],"
                " $3::float8[], $4::float8[]) AS d(id, before, after)"
                " WHERE i.tenant_id = $1 AND i.id = d.id AND i.importance = d.before"
                " RETURNING i.id",
                tenant_id,
                [d.item_id for d in decays],
                [d.before for d in decays],
                [d.after for d in decays],
            )
            done = {r[0] for r in found}
            await knowledge_writes.insert_history(conn, [h for h in history if h.target_id in done])
        return [d.item_id for d in decays if d.item_id in done]
