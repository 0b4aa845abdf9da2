"""What a PostgreSQL bulk write costs the server beyond its rows: vectors kept in their
rows (migration 26), the driver's type lookups made once per connection, and the
planner statistics limited to the columns queries read."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import numpy as np
import pytest

from cognimem.models import Scope
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store import ItemFilter, PendingMessage
from cognimem.store.postgres import PostgresStore
from tests import servers
from tests.contract.builders import ALICE, WINDOW
from tests.contract.conftest import message

WIDE = HashingEmbedder(dim=384)  # the default local model's width: a row over 2 kB

_TOAST = (
    "SELECT c.relname, pg_relation_size(c.reltoastrelid) AS toasted, c.reloptions"
    " FROM pg_class c WHERE c.relname IN ('items', 'facts')"
)


async def _sql(dsn: str, sql: str) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        return list(await conn.fetch(sql))
    finally:
        await conn.close()


@pytest.fixture
async def blank_dsn(postgres_server: servers.PostgresServer) -> AsyncIterator[str]:
    """An empty database (no migrations yet)."""
    name = f"cost_{uuid.uuid4().hex[:12]}"
    await _sql(postgres_server.admin_dsn(), f"CREATE DATABASE {name}")
    try:
        yield postgres_server.admin_dsn(name)
    finally:
        await _sql(postgres_server.admin_dsn(), f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _wide(texts: list[str], scope: Scope = ALICE) -> list[PendingMessage]:
    """Messages whose items carry 384-dimension vectors and a few hundred characters."""
    out = []
    for text in texts:
        pending = message(text, scope)
        for p in pending.items:
            p.embedding = WIDE.embed_sync([text])[0]
        out.append(pending)
    return out


def _said(i: int) -> str:
    return f"note {i}: " + " ".join(f"word{(i * 7 + j) % 97}" for j in range(60))


async def test_postgres_rows_keep_their_vectors_after_migration_26(
    blank_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows written before version 26 keep their TOASTed vectors and read alike; rows
    written after it hold theirs inline, so the TOAST tables do not grow."""
    from cognimem.store.postgres import migrations

    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", [g for g in migrations.MIGRATIONS if g[0] < 26])
        old = PostgresStore(blank_dsn, min_size=0)
        await old.open()
        try:
            await old.commit(_wide([_said(i) for i in range(20)]), WINDOW)
        finally:
            await old.close()
    before = {r["relname"]: r["toasted"] for r in await _sql(blank_dsn, _TOAST)}
    assert before["items"] > 0  # a row over 2 kB: its vector went out of line
    store = PostgresStore(blank_dsn, min_size=0)
    await store.open()
    try:
        await store.commit(_wide([_said(i) for i in range(20, 60)]), WINDOW)
        for i in (3, 41):  # one row of each: its own vector finds it first, exactly
            query = WIDE.embed_sync([_said(i)])[0]
            [best] = await store.vector_search(ItemFilter(scope=ALICE), query, 1)
            [item] = await store.get_items("t1", [best.item_id])
            assert item.text == _said(i)
            assert best.score == pytest.approx(float(query @ query), abs=1e-5)
    finally:
        await store.close()
    after = {r["relname"]: r for r in await _sql(blank_dsn, _TOAST)}
    assert after["items"]["toasted"] == before["items"]
    assert "toast_tuple_target=8160" in after["facts"]["reloptions"]
    sizes = await _sql(blank_dsn, "SELECT min(pg_column_size(i.*)) FROM items i WHERE seq > 20")
    assert sizes[0][0] > 2032  # the new rows were over TOAST's threshold, yet inline


async def test_postgres_a_write_looks_up_no_types(postgres_dsn: str) -> None:
    """asyncpg asks the server about a type it has no codec for (its catalogue query
    ``typeinfo_tree``) on the first statement that binds it; the store's connections
    ask, when they open, for every array type the writes bind, so a batch write on a
    connection's first use makes no such lookup."""
    queries: list[str] = []
    store = PostgresStore(postgres_dsn, min_size=1, max_size=1)
    await store.open()
    try:
        async with store._connection() as conn:  # the pool's one connection, as it opened
            conn.add_query_logger(lambda record: queries.append(record.query))
        said = _wide([_said(i) for i in range(5)])
        await store.find_duplicates([m.event for m in said], WINDOW)
        await store.commit(said, WINDOW)
        await store.put_embeddings("m", {"h": np.ones(384, dtype=np.float32)})
        await store.nearest(ItemFilter(scope=ALICE), np.stack([WIDE.embed_sync(["x"])[0]] * 2))
    finally:
        await store.close()
    assert any("INSERT INTO items" in q for q in queries)  # the logger saw the writes
    assert [q for q in queries if "typeinfo_tree" in q] == []


async def test_postgres_planner_statistics_skip_the_payload_columns(
    blank_dsn: str,
) -> None:
    """The bulk writes' ANALYZE gives the columns queries filter on statistics and
    leaves out texts, vectors and metadata, which no condition reads."""
    from cognimem.store.postgres.planner_stats import MIN_ROWS

    store = PostgresStore(blank_dsn, min_size=0)
    await store.open()
    try:
        await store.commit(_wide([_said(i) for i in range(MIN_ROWS)]), WINDOW)
    finally:
        await store.close()
    found = await _sql(
        blank_dsn,
        "SELECT tablename, attname FROM pg_stats WHERE tablename IN ('items', 'events')",
    )
    analysed = {(r["tablename"], r["attname"]) for r in found}
    assert {("items", "namespace"), ("items", "status"), ("events", "content_hash")} <= analysed
    skipped = {("items", c) for c in ("embedding", "text", "search_text", "metadata")}
    assert not analysed & (skipped | {("events", "content")})
