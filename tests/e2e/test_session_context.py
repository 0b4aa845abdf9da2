"""Sessions as context, not walls: a read or turn naming a session still reads the
user's other sessions and ranks that session's memories up (the ``session`` signal);
``session_only`` reads that session alone. Through ``Memory`` on both backends, the SDK
over the real app, the CLI and MCP."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from cognimem import AsyncMemoryClient, InvalidInput, Memory, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import new_api_key
from tests.e2e.cli_runner import cognimem, cognimem_here
from tests.integration.test_mcp import call, serve

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
MORNING = "I drink green tea in the morning"
EVENING = "I drink green tea in the evening"


async def _two_sessions(face: Any) -> None:
    """Ada's two sessions, each with one memory about green tea."""
    await face.write(MORNING, user_id="ada", session_id="s1", occurred_at=T0)
    later = T0 + timedelta(days=1)
    await face.write(EVENING, user_id="ada", session_id="s2", occurred_at=later)


def _texts(packet: Any) -> list[str]:
    return [i.text for i in packet.items]


async def test_a_session_ranks_its_memories_first_and_reads_the_others(memory: Memory) -> None:
    await _two_sessions(memory)
    for session, own, other in (("s1", MORNING, EVENING), ("s2", EVENING, MORNING)):
        packet = await memory.read("green tea", user_id="ada", session_id=session, explain=True)
        assert _texts(packet)[:2] == [own, other]
        signals = {e.id: e.signals for e in packet.explain if e.type == "item"}
        first, second = packet.items[:2]
        assert signals[first.id]["session"] == 1.0
        assert signals[second.id]["session"] == 0.0
        assert packet.meta["session"] == session


async def test_session_only_keeps_the_wall(memory: Memory) -> None:
    await _two_sessions(memory)
    walled = await memory.read("green tea", user_id="ada", session_id="s2", session_only=True)
    assert _texts(walled) == [EVENING]
    with pytest.raises(InvalidInput) as refused:
        await memory.read("green tea", user_id="ada", session_only=True)
    assert refused.value.field == "session_only"


async def test_a_first_turn_in_a_new_session_sees_what_was_said_before(memory: Memory) -> None:
    said = {"content": "I am allergic to peanuts", "occurred_at": T0}
    await memory.turn(said, "Noted.", user_id="ada", session_id="mon")
    later = {"content": "Can I eat satay? it has peanuts", "occurred_at": T0 + timedelta(days=1)}
    tuesday = await memory.turn(later, user_id="ada", session_id="tue")
    assert "I am allergic to peanuts" in _texts(tuesday.packet)
    walled = await memory.turn(
        "Any satay with peanuts?", user_id="ada", session_id="wed", session_only=True
    )
    assert walled.packet.items == []
    # the turns are stored in their own sessions
    listed = await memory.list_items(scope={"user_id": "ada", "session_id": "tue"})
    assert [i.text for i in listed] == [later["content"]]


@pytest.fixture
async def sdk(db_url: str) -> AsyncIterator[AsyncMemoryClient]:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        key = await new_api_key(memory.store)
        transport = httpx.ASGITransport(app=create_app(memory))
        async with AsyncMemoryClient(
            "http://cognimem.test", api_key=key, transport=transport
        ) as client:
            yield client


async def test_the_sdk_and_http_read_across_sessions_unless_told(sdk: AsyncMemoryClient) -> None:
    await _two_sessions(sdk)
    packet = await sdk.read("green tea", user_id="ada", session_id="s1")
    assert _texts(packet)[:2] == [MORNING, EVENING]
    walled = await sdk.read("green tea", user_id="ada", session_id="s1", session_only=True)
    assert _texts(walled) == [MORNING]
    turned = await sdk.turn("green tea again?", user_id="ada", session_id="s3")
    assert set(_texts(turned.packet)) >= {MORNING, EVENING}
    walled_turn = await sdk.turn("green tea?", user_id="ada", session_id="s4", session_only=True)
    assert walled_turn.packet.items == []
    with pytest.raises(InvalidInput) as refused:
        await sdk.read("green tea", user_id="ada", session_only=True)
    assert refused.value.field == "session_only"


async def test_the_cli_reads_across_sessions_unless_told(db_url: str) -> None:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        await _two_sessions(memory)
    args = ("recall", "green tea", "--user", "ada", "--session", "s2", "--json")
    across = json.loads(cognimem(*args, db_url=db_url).stdout)
    assert [i["text"] for i in across["items"]][:2] == [EVENING, MORNING]
    walled = json.loads(cognimem_here(*args, "--session-only", db_url=db_url).stdout)
    assert [i["text"] for i in walled["items"]] == [EVENING]


async def test_mcp_recall_reads_across_sessions_unless_told(db_url: str, tmp_path: Path) -> None:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        await _two_sessions(memory)
    async with serve(db_url, tmp_path) as session:
        across = await call(session, "recall", query="green tea", session_id="s1")
        walled = await call(
            session, "recall", query="green tea", session_id="s1", session_only=True
        )
    assert MORNING in across
    assert EVENING in across
    assert across.index(MORNING) < across.index(EVENING)
    assert MORNING in walled
    assert EVENING not in walled
