"""Every MCP tool takes the ``agent_id`` of its call and passes it through: a write is
the user's with that agent, a read gets that agent's level (its mandates) beside the
user's, a forget stays inside the agent's rows. A real client session over stdio against
``cognimem mcp`` as a subprocess on a real SQLite file, checked through ``Memory``."""

from __future__ import annotations

import re
from pathlib import Path

from mcp.types import CallToolResult, TextContent

from cognimem import Memory, Settings
from tests.integration.test_mcp import call, serve

SIGN_OFF = "Always sign off as the Ops bot."


def _text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def _settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, embedding={"model": "hashing"})


async def _agent_mandate(db_url: str) -> None:
    async with Memory.open(settings=_settings(db_url)) as mem:
        await mem.write(SIGN_OFF, agent_id="ops", profile="mandate")


async def test_remember_stores_the_memory_with_the_calls_agent(db_url: str, tmp_path: Path) -> None:
    async with serve(db_url, tmp_path) as session:  # configured for user "ada"
        with_agent = await call(session, "remember", content="I deploy on Tuesdays", agent_id="ops")
        without = await call(session, "remember", content="I keep bees on the roof")
    [deploys] = re.findall(r"mem_\w+", with_agent)
    [bees] = re.findall(r"mem_\w+", without)
    async with Memory.open(settings=_settings(db_url)) as mem:
        assert (await mem.get(deploys)).scope.agent_id == "ops"
        assert (await mem.get(deploys)).scope.user_id == "ada"
        assert (await mem.get(bees)).scope.agent_id is None


async def test_recall_reads_the_calls_agents_level(db_url: str, tmp_path: Path) -> None:
    await _agent_mandate(db_url)
    async with serve(db_url, tmp_path) as session:
        ops = await call(session, "recall", query="how should I sign off?", agent_id="ops")
        sales = await call(session, "recall", query="how should I sign off?", agent_id="sales")
        none = await call(session, "recall", query="how should I sign off?")
    assert SIGN_OFF in ops
    assert SIGN_OFF not in sales
    assert SIGN_OFF not in none


async def test_get_context_reads_and_stores_the_turn_with_the_calls_agent(
    db_url: str, tmp_path: Path
) -> None:
    await _agent_mandate(db_url)
    async with serve(db_url, tmp_path) as session:
        context = await call(
            session,
            "get_context",
            user_message="How should I sign off my emails?",
            assistant_response="As the Ops bot.",
            agent_id="ops",
        )
        sales = await call(
            session, "get_context", user_message="How do I sign off?", agent_id="sales"
        )
    assert SIGN_OFF in context
    assert SIGN_OFF not in sales
    async with Memory.open(settings=_settings(db_url)) as mem:
        turns = await mem.list_items(user_id="ada", statuses=["active"])
        agents = {i.text: i.scope.agent_id for i in turns}
    assert agents["How should I sign off my emails?"] == "ops"
    assert agents["How do I sign off?"] == "sales"


async def test_forget_stays_inside_the_calls_agent(db_url: str, tmp_path: Path) -> None:
    async with serve(db_url, tmp_path) as session:
        stored = await call(session, "remember", content="I deploy on Tuesdays", agent_id="ops")
        [item] = re.findall(r"mem_\w+", stored)
        other = await call(session, "forget", item_ids=[item], agent_id="sales")
        own = await call(session, "forget", item_ids=[item], agent_id="ops")
    assert other == f"forgot 0 memories; not found: {item}"  # not the sales agent's
    assert own == "forgot 1 memory"


async def test_recall_reads_one_shared_level_alone_when_asked(db_url: str, tmp_path: Path) -> None:
    await _agent_mandate(db_url)
    async with Memory.open(settings=_settings(db_url)) as mem:
        await mem.write("Never share prices.", scope={"level": "organisation"}, profile="mandate")
        await mem.write("Ada signs off as the Ops intern.", user_id="ada", agent_id="ops")
    ask = "how should I sign off?"
    async with serve(db_url, tmp_path) as session:  # configured for user "ada"
        ops = await call(session, "recall", query=ask, level="agent", agent_id="ops")
        org = await call(session, "recall", query=ask, level="organisation")
        mixed = await session.call_tool(
            "recall", {"query": ask, "level": "agent", "agent_id": "ops", "user_id": "bob"}
        )
        nobody = await session.call_tool("recall", {"query": ask, "level": "agent"})
        session_level = await session.call_tool(
            "recall", {"query": ask, "level": "organisation", "session_id": "s1"}
        )
    # the agent's level alone: its mandate, not the organisation's, not ada's memory
    assert SIGN_OFF in ops
    assert "Never share prices." not in ops
    assert "Ops intern" not in ops
    assert "Never share prices." in org
    assert SIGN_OFF not in org
    assert "Ops intern" not in org
    # a level's read names no user, and an agent's level needs an agent
    assert mixed.isError
    assert "user_id" in _text(mixed)
    assert nobody.isError
    assert "agent_id" in _text(nobody)
    assert session_level.isError  # a level is read whole
    assert "session_id" in _text(session_level)
