"""The forgetting policy's rows and decay in SQLite: the ``RetentionStore`` role.

One statement reads a user's items with their live dependents: the facts citing each
item (``json_each`` over the facts' evidence), the active relations of those facts, and
the summaries, active or silent, whose claims state it (``json_each`` over the claims'
item ids, found through the partial index ``items_summaries``), summed per item in one
grouped union and joined to the items once (three joins, one per kind of dependent,
cost a third more at 100k items).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from cognimem.models import ItemKind
from cognimem.models.fact_changes import LIVE_VALUES
from cognimem.models.knowledge import HistoryEntry
from cognimem.store import retention as common
from cognimem.store.sqlite import knowledge_writes
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.rows import decode_time

_SCOPE = "tenant_id = ? AND namespace = ? AND user_id = ?"
# one shared level's rows (no user; the agent's, or the organisation's: agent NULL)
_LEVEL = "tenant_id = ? AND namespace = ? AND user_id IS NULL AND agent_id IS ?"

ROWS = f"""
WITH cites AS (
    SELECT DISTINCT j.value AS item_id, f.id AS fact_id,
        f.category IN ({", ".join("?" * len(common.CONSTRAINT_VALUES))}) AS is_constraint
    FROM facts f, json_each(f.evidence_item_ids) j
    WHERE f.{_SCOPE} AND f.status IN ({", ".join("?" * len(LIVE_VALUES))})
), deps AS (
    SELECT item_id, sum(facts) AS facts, sum(constraints) AS constraints,
        sum(relations) AS relations, sum(summaries) AS summaries
    FROM (
        SELECT item_id, 1 AS facts, is_constraint AS constraints, 0 AS relations,
            0 AS summaries
        FROM cites
        UNION ALL
        SELECT c.item_id, 0, 0, 1, 0
        FROM cites c JOIN relations r ON r.fact_id = c.fact_id AND r.active = 1
        UNION ALL
        SELECT j2.value, 0, 0, 0, 1
        FROM items s, json_each(s.metadata, '$.consolidation.claims') j1,
            json_each(j1.value, '$.item_ids') j2
        WHERE s.{_SCOPE} AND s.kind = '{ItemKind.SUMMARY.value}'
            AND s.status IN ({", ".join("?" * len(common.CITING_SUMMARY_STATUSES))})
        GROUP BY j2.value, s.id
    ) GROUP BY item_id
)
SELECT i.id, i.kind, i.status, i.tier, i.importance, i.novelty, i.confidence, i.occurred_at,
    i.recorded_at, u.last_accessed_at, coalesce(u.access_count, 0), i.consolidated,
    coalesce(d.facts, 0), coalesce(d.constraints, 0), coalesce(d.relations, 0),
    coalesce(d.summaries, 0)
FROM items i LEFT JOIN deps d ON d.item_id = i.id
    LEFT JOIN item_usage u ON u.item_id = i.id  -- the counters (migration 14)
WHERE i.{_SCOPE} AND i.status IN ({", ".join("?" * len(common.RETAINED_STATUSES))})
"""
LEVEL_ROWS = ROWS.replace(_SCOPE, _LEVEL)


class SQLiteRetention(SQLiteDatabase):
    """``RetentionStore`` on SQLite."""

    async def retention_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, *, agent_id: str | None = None
    ) -> list[common.RetentionRow]:
        scope = (tenant_id, namespace, user_id if user_id is not None else agent_id)
        sql = ROWS if user_id is not None else LEVEL_ROWS
        params = (
            *common.CONSTRAINT_VALUES, *scope, *LIVE_VALUES,
            *scope, *common.CITING_SUMMARY_STATUSES,
            *scope, *common.RETAINED_STATUSES,
        )  # fmt: skip

        def read(conn: sqlite3.Connection) -> list[common.RetentionRow]:
            return [
                common.retention_row(r, _time(r[7]), _time(r[8]), decode_time(r[9]))
                for r in conn.execute(sql, params)
            ]

        return await self._db.read(read)

    async def decay_items(
        self, tenant_id: str, decays: Sequence[common.Decay], history: Sequence[HistoryEntry]
    ) -> list[str]:
        def tx(conn: sqlite3.Connection) -> list[str]:
            changed = [
                d.item_id
                for d in decays
                if conn.execute(
                    "UPDATE items SET importance = ? WHERE tenant_id = ? AND id = ?"
                    " AND importance = ?",
                    (d.after, tenant_id, d.item_id, d.before),
                ).rowcount
                == 1
            ]
            done = set(changed)
            knowledge_writes.insert_history(conn, [h for h in history if h.target_id in done])
            return changed

        if not decays:
            return []
        return await self._db.write(tx)


def _time(micros: object) -> datetime:
    decoded = decode_time(micros)
    assert decoded is not None, "occurred_at and recorded_at are NOT NULL"
    return decoded
