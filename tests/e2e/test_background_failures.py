"""A background task that fails is counted in ``cognimem_background_failures_total``, as
well as logged: the access counts' flush (on each backend: a real trigger refuses the
write, the counts are kept and written by the next flush once it is dropped), and the
ANALYZE after bulk writes on PostgreSQL (a real server, a database without the tables)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable

import asyncpg

from cognimem import Memory, Settings
from cognimem.config import RecallSettings
from cognimem.metrics import Metrics
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.postgres.planner_stats import PlannerStats
from tests import servers

USER = "ada"
SAID = "The spare key is under the third flowerpot."

REFUSE_SQLITE = (
    "CREATE TRIGGER refuse_usage BEFORE INSERT ON item_usage"
    " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
)
REFUSE_POSTGRES = """
CREATE FUNCTION refuse_usage() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
CREATE TRIGGER refuse_usage BEFORE INSERT OR UPDATE ON item_usage
  FOR EACH ROW EXECUTE FUNCTION refuse_usage();
"""
ALLOW_POSTGRES = "DROP TRIGGER refuse_usage ON item_usage; DROP FUNCTION refuse_usage();"


async def on_database(url: str, sql: str) -> None:
    """Run ``sql`` on the database at ``url`` from a connection of its own."""
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            conn.executescript(sql)
        finally:
            conn.close()
        return
    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def failures(metrics: Metrics, task: str) -> float:
    [got] = [
        v
        for name, labels, v in metrics.samples()
        if name == "cognimem_background_failures_total" and labels == {"task": task}
    ]
    return got


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    """Poll ``check`` until it holds; a generous guard against a hang, not a timing
    assert."""
    async with asyncio.timeout(120):
        while True:
            if await check():
                return
            await asyncio.sleep(0.02)


async def test_a_failed_access_flush_is_counted_and_its_counts_kept(memory_url: str) -> None:
    settings = Settings(recall=RecallSettings(access_flush_s=0.05))
    mem = Memory.open(memory_url, settings=settings, embedder=HashingEmbedder())
    async with mem:
        metrics = Metrics(mem)
        await mem.write(SAID, user_id=USER)
        assert failures(metrics, "access_flush") == 0
        sqlite = memory_url.startswith("sqlite:///")
        await on_database(memory_url, REFUSE_SQLITE if sqlite else REFUSE_POSTGRES)
        await mem.read("Where is the spare key?", user_id=USER)

        async def refused() -> bool:
            return mem.background_failures["access_flush"] >= 1

        await until(refused)
        assert failures(metrics, "access_flush") >= 1
        await on_database(memory_url, "DROP TRIGGER refuse_usage" if sqlite else ALLOW_POSTGRES)

        async def written() -> bool:
            items = await mem.list_items(user_id=USER)
            return [i.access_count for i in items if i.text == SAID] == [1]

        await until(written)  # the kept count, written by a later flush


async def test_a_failed_analyze_is_counted(postgres_server: servers.PostgresServer) -> None:
    # the server's own database has no items or events table: the ANALYZE fails there
    conn = await asyncpg.connect(postgres_server.admin_dsn(), timeout=10)
    try:
        stats = PlannerStats()
        assert await stats.analyze(conn) is False
    finally:
        await conn.close()
    assert stats.failures == 1


async def test_a_postgres_memory_reports_its_analyze_failures(postgres_dsn: str) -> None:
    async with Memory.open(postgres_dsn, embedder=HashingEmbedder()) as mem:
        metrics = Metrics(mem)
        assert failures(metrics, "planner_analyze") == 0
        assert failures(metrics, "access_flush") == 0
