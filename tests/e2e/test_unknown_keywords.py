"""A misspelt keyword is refused as Python refuses one, with a ``TypeError`` naming it,
on the calls whose keywords travel as a mapping (``models/requests.py``): never read
past and ignored. On both backends, and through the SDK's request bodies."""

from __future__ import annotations

from typing import Any

import pytest

from cognimem import AsyncMemoryClient, Memory


async def test_a_misspelt_keyword_is_a_type_error_on_memory(memory: Memory) -> None:
    bad: dict[str, Any] = {"user_id": "u1", "limt": 3}
    calls = [
        lambda: memory.list_sessions(**bad),
        lambda: memory.procedures(**bad),
        lambda: memory.run_lifecycle("decay", **bad),
        lambda: memory.create_session("s1", **bad),
        lambda: memory.read("where do I live?", **bad),
        lambda: memory.facts(**bad),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="limt"):
            await call()
    with pytest.raises(TypeError, match="limt"):
        memory.export(**bad)


async def test_the_sdk_refuses_a_misspelt_keyword_before_sending_it() -> None:
    # nothing listens here: the call must fail before any request
    async with AsyncMemoryClient("http://127.0.0.1:9", retries=0) as client:
        bad: dict[str, Any] = {"user_id": "u1", "limt": 3}
        for call in (client.read, client.facts, client.list_items, client.forget):
            with pytest.raises(TypeError, match="limt"):
                await (call("q", **bad) if call == client.read else call(**bad))
