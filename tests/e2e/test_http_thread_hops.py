"""A request spends no hop into the web framework's thread pool: FastAPI runs a plain
``def`` dependency or route there (a thread hop and a GIL hand-off per request, which
under concurrent reads costs CPU the reads need). Checked on the real app over ASGI with
the pool's only thread held, so a request that needed it could not finish."""

from __future__ import annotations

import asyncio

import anyio.to_thread
import httpx

from cognimem import Memory
from cognimem.api import create_app
from cognimem.api.auth import issue_key

# generous: a request that hops into the held pool never finishes, one that does not
# finishes in milliseconds
NEVER = 120


async def test_reads_and_writes_run_nothing_in_the_framework_thread_pool(memory: Memory) -> None:
    _, secret = await issue_key(memory.store, "default")
    app = create_app(memory)
    limiter = anyio.to_thread.current_default_thread_limiter()
    limiter.total_tokens = 1
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {secret}"}
    async with (
        limiter,  # the pool's one thread is taken until the requests are answered
        httpx.AsyncClient(transport=transport, base_url="http://app", headers=headers) as client,
    ):
        wrote = await asyncio.wait_for(
            client.post(
                "/v1/memory/write",
                json={"scope": {"user_id": "ann"}, "content": "I keep bees on the roof"},
            ),
            NEVER,
        )
        read = await asyncio.wait_for(
            client.post(
                "/v1/memory/read",
                json={"scope": {"user_id": "ann"}, "query": "what do I keep?", "limit": 3},
            ),
            NEVER,
        )
    assert wrote.status_code == 200, wrote.text
    assert read.status_code == 200, read.text
    assert "bees" in read.json()["items"][0]["text"]
