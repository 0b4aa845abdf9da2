"""The throw-away servers of tests/servers.py: real PostgreSQL + pgvector, real Redis.

Skipped, with the reason, where a server cannot run (see `servers.why_unavailable`);
`bash scripts/provision-services.sh` (as root) installs what they need.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import servers

asyncpg = pytest.importorskip(
    "asyncpg", reason="asyncpg not installed: install the `postgres` extra to test PostgreSQL"
)
redis_asyncio = pytest.importorskip(
    "redis.asyncio", reason="redis not installed: install the `redis` extra to test Redis"
)
redis_exceptions = pytest.importorskip("redis.exceptions")


@pytest.fixture(scope="module")
def pg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[servers.PostgresServer]:
    servers.require("postgres")
    server = servers.start_postgres(tmp_path_factory.mktemp("pg"))
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[servers.RedisServer]:
    servers.require("redis")
    server = servers.start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.destroy()


# ------------------------------------------------------------------------- PostgreSQL


async def test_pgvector_hnsw_cosine_search(pg: servers.PostgresServer) -> None:
    assert pg.dsn == f"postgresql://postgres@127.0.0.1:{pg.port}/cognimem_test"
    conn = await asyncpg.connect(pg.dsn, timeout=10)
    try:
        await conn.execute("CREATE EXTENSION vector")
        await conn.execute("CREATE TABLE items (id int PRIMARY KEY, embedding vector(3) NOT NULL)")
        await conn.execute(
            "CREATE INDEX items_embedding_hnsw ON items USING hnsw (embedding vector_cosine_ops)"
        )
        rows = [(1, "[1,0,0]"), (2, "[0,1,0]"), (3, "[0.9,0.1,0]"), (4, "[0,0,1]")]
        await conn.executemany("INSERT INTO items VALUES ($1, $2::vector)", rows)

        query = "SELECT id FROM items ORDER BY embedding <=> $1::vector LIMIT 2"
        async with conn.transaction():
            await conn.execute("SET LOCAL enable_seqscan = off")
            plan = "\n".join(r[0] for r in await conn.fetch(f"EXPLAIN {query}", "[1,0,0]"))
            assert "items_embedding_hnsw" in plan, plan
            ids = [r["id"] for r in await conn.fetch(query, "[1,0,0]")]
        assert ids == [1, 3]

        distance = await conn.fetchval("SELECT '[1,0,0]'::vector <=> '[0,1,0]'::vector")
        assert distance == pytest.approx(1.0)
        version = await conn.fetchval("SELECT extversion FROM pg_extension WHERE extname='vector'")
        assert tuple(int(x) for x in version.split(".")[:2]) >= (0, 5)
        server_version = await conn.fetchval("SHOW server_version_num")
        assert int(server_version) >= 150000
    finally:
        await conn.execute("DROP TABLE IF EXISTS items; DROP EXTENSION IF EXISTS vector")
        await conn.close()


async def test_pg_trgm_similarity(pg: servers.PostgresServer) -> None:
    conn = await asyncpg.connect(pg.dsn, timeout=10)
    try:
        await conn.execute("CREATE EXTENSION pg_trgm")
        score = await conn.fetchval("SELECT similarity('postgres', 'postgress')")
        assert 0.5 < score < 1.0
    finally:
        await conn.execute("DROP EXTENSION IF EXISTS pg_trgm")
        await conn.close()


async def test_postgres_stop_refuses_then_restart_keeps_data(tmp_path: Path) -> None:
    # Its own cluster, so stopping it cannot disturb the module's other tests.
    servers.require("postgres")
    t0 = time.monotonic()
    server = servers.start_postgres(tmp_path)
    print(
        f"\nthrow-away cluster ready in {time.monotonic() - t0:.2f} s "
        f"(pg_ctl start {server.startup_seconds:.2f} s)",
        file=sys.stderr,
    )
    try:
        conn = await asyncpg.connect(server.dsn, timeout=10)
        try:
            await conn.execute("CREATE TABLE kept (k text PRIMARY KEY)")
            await conn.execute("INSERT INTO kept VALUES ('before restart')")
        finally:
            await conn.close()

        port = server.port
        server.stop(mode="fast")
        assert not server.running
        with pytest.raises(ConnectionRefusedError):
            await asyncpg.connect(server.dsn, timeout=10)

        server.start()
        assert server.port == port
        assert server.running
        conn = await asyncpg.connect(server.dsn, timeout=10)
        try:
            assert await conn.fetchval("SELECT k FROM kept") == "before restart"
        finally:
            await conn.close()
    finally:
        server.destroy()
    assert not server.datadir.exists()


# ------------------------------------------------------------------------------ Redis


async def test_redis_ping_set_get(redis_server: servers.RedisServer) -> None:
    assert redis_server.url == f"redis://127.0.0.1:{redis_server.port}/0"
    client = redis_asyncio.from_url(redis_server.url)
    try:
        assert await client.ping() is True
        assert await client.set("cognimem:test", "value") is True
        assert await client.get("cognimem:test") == b"value"
    finally:
        await client.aclose()


async def test_redis_stop_refuses_then_restart(tmp_path: Path) -> None:
    servers.require("redis")
    server = servers.start_redis(tmp_path)
    try:
        port = server.port
        server.stop()
        assert not server.running
        client = redis_asyncio.from_url(server.url, retry_on_error=[])
        try:
            with pytest.raises(redis_exceptions.ConnectionError):
                await client.ping()
        finally:
            await client.aclose()

        server.start()
        assert server.port == port
        client = redis_asyncio.from_url(server.url)
        try:
            assert await client.ping() is True
            # No persistence: a restarted server starts empty.
            assert await client.dbsize() == 0
        finally:
            await client.aclose()
    finally:
        server.destroy()


def test_why_unavailable_reports_each_service() -> None:
    reasons = servers.why_unavailable()
    assert set(reasons) == {"postgres", "redis"}
    for reason in reasons.values():
        assert reason is None or "provision-services" in reason or "root" in reason
