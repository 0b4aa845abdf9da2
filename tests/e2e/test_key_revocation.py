"""A server keeps the keys it has looked up (``api/key_cache.py``) while the store's
key-change count stands still: a key revoked by another process (the CLI) or changed by
hand in the database is refused on the very next request, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import httpx

from cognimem import Memory
from cognimem.api import create_app
from cognimem.api.auth import issue_key
from cognimem.providers.fakes import HashingEmbedder
from tests.e2e.cli_runner import cognimem
from tests.e2e.test_auth import bearer, make_settings, running

READ = {"query": "where do I live?", "scope": {"user_id": "sam"}}


@asynccontextmanager
async def served(url: str) -> AsyncIterator[tuple[Memory, httpx.AsyncClient]]:
    """A memory on ``url`` and its app, lifespan entered, behind an in-process client."""
    mem = Memory.open(url, settings=make_settings(), embedder=HashingEmbedder())
    async with mem, running(create_app(mem)) as client:
        yield mem, client


async def statuses(client: httpx.AsyncClient, secret: str, times: int) -> list[int]:
    return [
        (await client.post("/v1/memory/read", json=READ, headers=bearer(secret))).status_code
        for _ in range(times)
    ]


async def test_a_key_revoked_by_another_process_is_refused_on_the_next_request(
    memory_url: str,
) -> None:
    async with served(memory_url) as (mem, client):
        key, secret = await issue_key(mem.store, "acme")
        _, kept = await issue_key(mem.store, "acme")
        assert await statuses(client, secret, 3) == [200, 200, 200]  # looked up, then kept
        assert await statuses(client, kept, 1) == [200]

        cognimem("keys", "revoke", key.id, db_url=memory_url)

        assert await statuses(client, secret, 2) == [401, 401]
        assert await statuses(client, kept, 1) == [200]  # the other key is looked up again


async def test_a_key_issued_by_another_process_works_on_its_first_request(
    memory_url: str,
) -> None:
    async with served(memory_url) as (mem, client):
        _, first = await issue_key(mem.store, "acme")
        assert await statuses(client, first, 2) == [200, 200]
        async with Memory.open(memory_url, embedder=HashingEmbedder()) as other:
            _, secret = await issue_key(other.store, "acme")
        assert await statuses(client, secret, 1) == [200]


async def test_a_key_revoked_by_hand_in_the_database_is_refused_on_the_next_request(
    memory_url: str,
) -> None:
    async with served(memory_url) as (mem, client):
        key, secret = await issue_key(mem.store, "acme")
        assert await statuses(client, secret, 2) == [200, 200]

        await revoke_by_hand(memory_url, key.id)

        assert await statuses(client, secret, 1) == [401]


async def revoke_by_hand(url: str, key_id: str) -> None:
    """``UPDATE api_keys`` on a connection of its own, as an operator would."""
    now = datetime.now(UTC)
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ?",
                (int(now.timestamp() * 1_000_000), key_id),
            )
        return
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("UPDATE api_keys SET revoked_at = $1 WHERE id = $2", now, key_id)
    finally:
        await conn.close()
