"""Migration 19 (``fact_times``) on both backends: facts written before it (no
``recorded_to``, no ``valid_from`` for an undated statement, a superseded fact without
``valid_to``) get their times from what is known, and as-of reads then answer."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from cognimem import Memory
from cognimem.config import Settings
from cognimem.providers.fakes import HashingEmbedder

USER = "ana"
JAN = datetime(2025, 1, 10, 9, tzinfo=UTC)
JUN = datetime(2025, 6, 10, 9, tzinfo=UTC)
REWIND = [
    # the facts as the schema before migration 19 held them
    "UPDATE facts SET valid_from = NULL",
    "UPDATE facts SET valid_to = NULL WHERE status = 'active'",
    "UPDATE facts SET valid_to = NULL WHERE value = 'Seattle'",
    "ALTER TABLE facts DROP COLUMN recorded_to",
    "DELETE FROM schema_migrations WHERE version = 19",
]


async def rewind(url: str) -> None:
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            for sql in REWIND:
                conn.execute(sql)
        return
    import asyncpg

    conn = await asyncpg.connect(url, timeout=10)
    try:
        for sql in REWIND:
            await conn.execute(sql)
    finally:
        await conn.close()


async def test_migration_fills_fact_times_from_what_is_known(memory_url: str) -> None:
    at = [JAN]
    settings = Settings()
    async with Memory.open(
        memory_url, settings=settings, embedder=HashingEmbedder(), clock=lambda: at[0]
    ) as mem:
        for when, text in [(JAN, "I live in Seattle."), (JUN, "I moved to Portland.")]:
            at[0] = when
            await mem.write({"content": text, "role": "user", "occurred_at": when}, user_id=USER)
    await rewind(memory_url)
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        facts = {f.value: f for f in await mem.facts(user_id=USER, include_history=True)}
        seattle, portland = facts["Seattle"], facts["Portland"]
        assert (seattle.valid_from, seattle.valid_to, seattle.recorded_to) == (JAN, JUN, JUN)
        assert (portland.valid_from, portland.valid_to, portland.recorded_to) == (JUN, None, None)
        march = datetime(2025, 3, 1, tzinfo=UTC)
        packet = await mem.read("Where do I live?", user_id=USER, as_of=march)
        assert {e.value for e in packet.sections.entries()} == {"Seattle"}
        known = await mem.read("Where do I live?", user_id=USER, as_of_recorded=march)
        assert {e.value for e in known.sections.entries()} == {"Seattle"}
