"""Keep the planner's statistics of ``items`` and ``events`` current during bulk writes.

A new or fast-growing database has tables the planner has never analysed (autovacuum
looks once a minute and waits for 10 % growth): it then estimates one row per scope
and plans the write path's lookups as scans of the whole namespace, so a bulk import
costs O(n²) server time. Measured (``benchmarks/results/ingest_pg_statements.md``, 2,000
messages in batches of 500 into a fresh database): the near-duplicate search walked the
namespace by btree and sorted every row per query (1.7 s) instead of the HNSW index
(0.12 s with statistics); the duplicate lookup scanned the scope's events per message
(0.42 s; 0.03 s).

So a process that has committed, since it last analysed them, more rows than
``GROWTH`` of what the tables then held (at least ``MIN_ROWS``) runs ``ANALYZE
(SKIP_LOCKED)`` on both after its commit, outside the write's transaction: it never
waits for autovacuum or another process's ANALYZE, and a failure only leaves the old
statistics (logged, and counted in ``failures``:
``cognimem_background_failures_total{task="planner_analyze"}``).

It analyses the columns the write path and the reads filter, join or order on, not the
payload (an item's text, search text, vector, metadata, entities and provenance; an
event's content and metadata), which no condition reads and which were most of the
ANALYZE's time (sorting 384-dimension vectors and long texts: ~40 % at 1,000 items).
A column a query starts to filter on is added here; autovacuum's own ANALYZE, when it
comes, covers every column.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from asyncpg import Connection

log = logging.getLogger(__name__)

MIN_ROWS = 100
GROWTH = 0.2

ITEM_COLUMNS = (
    "seq, id, tenant_id, namespace, user_id, agent_id, session_id, kind, key, external_ids,"
    " author, occurred_at, recorded_at, importance, confidence, tier, status, token_count,"
    " access_count, last_accessed_at, loaded_count, cited_count, success_count,"
    " failure_count, consolidated, supersedes, superseded_by, embedding_model, event_start,"
    " event_end, novelty, change_seq"
)
EVENT_COLUMNS = (
    "seq, id, tenant_id, namespace, user_id, agent_id, session_id, role, name, content_hash,"
    " idempotency_key, external_id, occurred_at, recorded_at, processed, job_id, profile"
)


class PlannerStats:
    """Rows this process wrote since it last analysed, and when to analyse again."""

    def __init__(self) -> None:
        self._written = 0
        self._held = 0.0  # the items' rows at the last ANALYZE, as the planner knew them
        self.failures = 0  # ANALYZEs that failed

    def wrote(self, rows: int) -> bool:
        """Note ``rows`` committed event and item rows; whether to analyse now."""
        self._written += rows
        return self._written >= max(MIN_ROWS, GROWTH * self._held)

    async def analyze(self, conn: Connection) -> bool:
        """ANALYZE items and events (skipping a table someone else is analysing);
        whether it ran."""
        try:
            await conn.execute(
                f"ANALYZE (SKIP_LOCKED) items ({ITEM_COLUMNS}), events ({EVENT_COLUMNS})"
            )
            held = await conn.fetchval(
                "SELECT reltuples FROM pg_class WHERE oid = 'items'::regclass"
            )
        except Exception:  # statistics are an optimisation: the write already committed
            self.failures += 1
            log.warning("ANALYZE of items and events failed", exc_info=True)
            return False
        self._written = 0
        self._held = max(float(held or 0), 0.0)
        return True
