"""`cognimem mcp` as an MCP client sees it: a real client session over stdio against the
server started as a subprocess on a real SQLite file."""

from __future__ import annotations

import re
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

from cognimem import Memory, Settings
from tests.conftest import child_env


@asynccontextmanager
async def serve(
    db_url: str, tmp_path: Path, user: str | None = "ada"
) -> AsyncIterator[ClientSession]:
    """A client session on a fresh ``cognimem mcp`` process configured for ``user``
    (None: no user configured). A context manager, not a fixture: anyio's task groups
    must be entered and left in the same task."""
    env = child_env()
    env |= {"COGNIMEM_DATABASE_URL": db_url, "COGNIMEM_EMBEDDING__MODEL": "hashing"}
    if user is not None:
        env["COGNIMEM_MCP__USER_ID"] = user
    server = StdioServerParameters(command=sys.executable, args=["-m", "cognimem", "mcp"], env=env)
    with (tmp_path / "server-stderr.log").open("w") as errlog:
        async with (
            stdio_client(server, errlog=errlog) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            yield client


async def call(client: ClientSession, tool: str, **arguments: object) -> str:
    result = await client.call_tool(tool, arguments)
    assert not result.isError, _text(result)
    return _text(result)


def _text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


async def test_the_four_tools_are_listed_with_their_arguments(db_url: str, tmp_path: Path) -> None:
    async with serve(db_url, tmp_path) as session:
        listed = await session.list_tools()
    tools = {t.name: t for t in listed.tools}
    assert set(tools) == {"remember", "recall", "forget", "get_context"}
    assert set(tools["remember"].inputSchema["properties"]) == {
        "content", "role", "occurred_at", "user_id", "agent_id",
    }  # fmt: skip
    assert tools["remember"].inputSchema["required"] == ["content"]
    assert set(tools["get_context"].inputSchema["properties"]) == {
        "user_message",
        "assistant_response",
        "user_id",
        "agent_id",
        "preset",
        "ranking",
        "session_id",
        "session_only",
    }
    assert {"preset", "ranking", "session_id", "session_only"} <= set(
        tools["recall"].inputSchema["properties"]
    )
    # every tool takes the user and the agent of the call, none requires them, none
    # takes a tenant
    for tool in tools.values():
        assert "user_id" in tool.inputSchema["properties"]
        assert "agent_id" in tool.inputSchema["properties"]
        assert "user_id" not in tool.inputSchema.get("required", [])
        assert "tenant_id" not in tool.inputSchema["properties"]


async def test_remember_recall_turns_and_forget(db_url: str, tmp_path: Path) -> None:
    async with serve(db_url, tmp_path) as session:
        stored = await call(session, "remember", content="I'm deathly allergic to peanuts.")
        assert stored.startswith("stored: event evt_")
        assert "fact: user:policy:allergy:peanuts = peanuts" in stored
        passport = await call(
            session,
            "remember",
            content="I keep my passport in the red folder",
            occurred_at="2024-03-01T10:00:00+01:00",
        )
        passport_items = re.findall(r"mem_\w+", passport)
        assert passport_items

        packet = await call(session, "recall", query="where is my passport?")
        assert packet.startswith("## Memory")
        assert "I keep my passport in the red folder" in packet
        # "restaurant" is food, as a peanut allergy is: the constraint bears on the question
        restaurant = "Can you recommend a Thai restaurant?"
        assert "peanuts" in await call(session, "recall", query=restaurant)

        context = await call(
            session,
            "get_context",
            user_message="We are moving to Lisbon in June",
            assistant_response="Lisbon in June sounds lovely.",
        )
        assert context.startswith("## Memory")
        assert "moving to Lisbon" not in context  # read before the turn is stored
        after = await call(session, "recall", query="moving to Lisbon in June")
        assert "We are moving to Lisbon in June" in after
        assert "Lisbon in June sounds lovely." in after

        forgot = await call(session, "forget", item_ids=[*passport_items, "mem_unknown"])
        assert forgot.endswith("; not found: mem_unknown")
        assert forgot.startswith(f"forgot {len(passport_items)} memor")
        assert "red folder" not in await call(session, "recall", query="where is my passport?")

    # the scope came from COGNIMEM_MCP__USER_ID, not from the tool calls
    settings = Settings(database_url=db_url, embedding={"model": "hashing"})
    async with Memory.open(settings=settings) as mem:
        assert "peanuts" in (await mem.read("peanuts", user_id="ada")).to_markdown()
        assert (await mem.read("peanuts", user_id="bob")).items == []


async def test_bad_calls_are_tool_errors_with_the_message(db_url: str, tmp_path: Path) -> None:
    async with serve(db_url, tmp_path) as session:
        empty = await session.call_tool("remember", {"content": ""})
        role = await session.call_tool("remember", {"content": "hi", "role": "narrator"})
        limit = await session.call_tool("recall", {"query": "x", "limit": 0})
        # the server is still serving
        assert "No relevant memories" in await call(session, "recall", query="anything at all")
    assert empty.isError
    assert "InvalidInput" in _text(empty)
    assert "content" in _text(empty)
    assert role.isError
    assert "role" in _text(role)
    assert limit.isError
    assert "limit must be between 1 and 200" in _text(limit)


async def test_recall_and_get_context_take_a_preset_and_ranking_overrides(
    db_url: str, tmp_path: Path
) -> None:
    async with serve(db_url, tmp_path) as session:
        await call(session, "remember", content="The park by the station has a dog pond")
        await call(session, "remember", content="Dogs swim in the pond of the park")
        plain = await call(session, "recall", query="dog pond park")
        floored = await call(
            session, "recall", query="dog pond park", preset="precise", ranking={"episode_floor": 1}
        )
        context = await call(
            session, "get_context", user_message="dog pond park", ranking={"episode_floor": 1}
        )
        bad = await session.call_tool("recall", {"query": "x", "ranking": {"mmr_lambda": 2}})
        unknown = await session.call_tool("recall", {"query": "x", "preset": "loud"})
    assert plain.count("pond") == 2
    assert floored.count("pond") == context.count("pond") == 1
    assert bad.isError
    assert "mmr_lambda" in _text(bad)
    assert unknown.isError
    assert "preset" in _text(unknown)


async def test_forget_cannot_reach_another_users_memories(db_url: str, tmp_path: Path) -> None:
    settings = Settings(database_url=db_url, embedding={"model": "hashing"})
    async with Memory.open(settings=settings) as mem:
        theirs = await mem.write("Bob keeps the spare key under the mat.", user_id="bob")
    [bobs_item] = theirs.item_ids
    async with serve(db_url, tmp_path) as session:  # configured for user "ada"
        forgot = await call(session, "forget", item_ids=[bobs_item])
    assert forgot == f"forgot 0 memories; not found: {bobs_item}"
    async with Memory.open(settings=settings) as mem:
        assert (await mem.get(bobs_item)).text == "Bob keeps the spare key under the mat."


async def test_each_call_may_name_its_user(db_url: str, tmp_path: Path) -> None:
    async with serve(db_url, tmp_path) as session:  # configured for user "ada"
        stored = await call(
            session, "remember", content="I keep the canoe in the boathouse", user_id="bob"
        )
        [bobs_item] = re.findall(r"mem_\w+", stored)
        assert "canoe" in await call(session, "recall", query="where is the canoe?", user_id="bob")
        assert "canoe" not in await call(session, "recall", query="where is the canoe?")
        context = await call(
            session, "get_context", user_message="Is the canoe still there?", user_id="bob"
        )
        assert "boathouse" in context
        assert await call(session, "forget", item_ids=[bobs_item]) == (
            f"forgot 0 memories; not found: {bobs_item}"  # not ada's to forget
        )
        assert await call(session, "forget", item_ids=[bobs_item], user_id="bob") == (
            "forgot 1 memory"
        )
        bad = await session.call_tool("recall", {"query": "canoe", "user_id": "not valid!"})
    assert bad.isError
    assert "InvalidInput" in _text(bad)
    settings = Settings(database_url=db_url, embedding={"model": "hashing"})
    async with Memory.open(settings=settings) as mem:
        # get_context wrote its turn for bob (a read ranks a bare question out of items)
        kept = await mem.list_items(user_id="bob", statuses=["active"])
        assert [i.text for i in kept] == ["Is the canoe still there?"]
        assert (await mem.read("canoe", user_id="ada")).items == []


async def test_without_a_configured_user_every_call_must_name_one(
    db_url: str, tmp_path: Path
) -> None:
    settings = Settings(database_url=db_url, embedding={"model": "hashing"})
    async with Memory.open(settings=settings) as mem:
        for user in ("ada", "bob"):
            await mem.write(f"{user} keeps a kayak in the garage", user_id=user)
    async with serve(db_url, tmp_path, user=None) as session:
        refused = {
            tool: await session.call_tool(tool, arguments)
            for tool, arguments in (
                ("recall", {"query": "kayak garage"}),
                ("remember", {"content": "I keep a canoe too"}),
                ("get_context", {"user_message": "where is the kayak?"}),
                ("forget", {"item_ids": ["mem_x"]}),
            )
        }
        named = await call(session, "recall", query="kayak garage", user_id="ada")
    for tool, result in refused.items():
        assert result.isError, tool
        assert "InvalidInput: user_id is required" in _text(result), tool
    assert "ada keeps a kayak" in named
    assert "bob keeps a kayak" not in named
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as conn:
        contents = [row[0] for row in conn.execute("SELECT content FROM events")]
    assert sorted(contents) == [
        "ada keeps a kayak in the garage",
        "bob keeps a kayak in the garage",
    ]
