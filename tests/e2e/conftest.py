"""Fixtures of the end-to-end scenarios that run through more than one of cognimem's
faces."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from cognimem import AsyncMemoryClient, Memory, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import serving


@pytest.fixture(params=["memory", "http"])
async def face(
    request: pytest.FixtureRequest, memory_url: str
) -> AsyncIterator[Memory | AsyncMemoryClient]:
    """The async face of each backend: ``Memory`` in-process, and ``AsyncMemoryClient``
    over real HTTP (the real app served by uvicorn on loopback, holding its own
    ``Memory`` of the same database)."""
    if request.param == "memory":
        async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
            yield mem
        return
    key = issue_api_key(memory_url)
    served = Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder())
    with serving(create_app(served)) as url:
        async with AsyncMemoryClient(url, api_key=key, timeout=60) as client:
            yield client


@pytest.fixture
def closes_the_threads_loop() -> Iterator[None]:
    """For a framework's blocking ``run_sync`` (the OpenAI Agents SDK's, Pydantic AI's),
    which runs on the thread's current event loop and leaves the loop it made open for
    its next run: closed here, not left to the garbage collector."""
    yield
    policy = asyncio.get_event_loop_policy()
    policy.get_event_loop().close()
    policy.set_event_loop(None)
