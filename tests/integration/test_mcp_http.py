"""The MCP server mounted on the HTTP app (``/v1/mcp/``): a real MCP client session over
streamable HTTP against a uvicorn server on loopback, behind API keys."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, serving


@pytest.fixture
def base_url(db_url: str) -> Iterator[str]:
    settings = Settings.model_validate({"mcp": {"user_id": "ada"}})
    memory = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    with serving(create_app(memory)) as url:
        yield url


@asynccontextmanager
async def session(base_url: str, key: str) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {key}"}
    async with (
        httpx.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(f"{base_url}/v1/mcp/", http_client=http) as (read, write, _),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        yield client


def _text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


async def test_the_tools_over_http_keep_to_the_keys_tenant(base_url: str, db_url: str) -> None:
    acme, globex = issue_api_key(db_url, "acme"), issue_api_key(db_url, "globex")
    async with session(base_url, acme) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == {"remember", "recall", "forget", "get_context"}
        stored = await client.call_tool("remember", {"content": "I keep bees on the roof"})
        assert not stored.isError, _text(stored)
        recalled = await client.call_tool("recall", {"query": "what do I keep on the roof?"})
        assert "I keep bees on the roof" in _text(recalled)
    async with session(base_url, globex) as client:
        other = await client.call_tool("recall", {"query": "bees roof"})
        assert not other.isError, _text(other)
        assert "bees" not in _text(other)
    # the memory went to the key's tenant and the configured user
    async with Memory.open(db_url, embedder=HashingEmbedder()) as memory:
        packet = await memory.read("bees roof", scope={"tenant_id": "acme", "user_id": "ada"})
        assert [i.text for i in packet.items] == ["I keep bees on the roof"]


async def test_no_key_or_a_wrong_key_is_refused(base_url: str) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(base_url=base_url, timeout=PATIENT) as http:
        missing = await http.post("/v1/mcp/", json=body, headers=headers)
        wrong = await http.post(
            "/v1/mcp/", json=body, headers={**headers, "Authorization": "Bearer cm_nope"}
        )
    for response in (missing, wrong):
        assert response.status_code == 401
        assert response.json()["error"]["type"] == "Unauthenticated"
        assert response.headers["www-authenticate"].startswith("Bearer")


async def test_over_http_the_key_picks_the_tenant_and_each_call_its_user(db_url: str) -> None:
    memory = Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder())  # no user
    demo, acme = issue_api_key(db_url, "demo"), issue_api_key(db_url, "acme")
    with serving(create_app(memory)) as url:
        async with session(url, demo) as client:
            stored = await client.call_tool(
                "remember",
                {"content": "I adopted a tabby kitten called Noodle.", "user_id": "ada"},
            )
            assert not stored.isError, _text(stored)
            unnamed = await client.call_tool("recall", {"query": "what is my cat called?"})
            ada = await client.call_tool(
                "recall", {"query": "what is my cat called?", "user_id": "ada"}
            )
            bob = await client.call_tool(
                "recall", {"query": "what is my cat called?", "user_id": "bob"}
            )
        async with session(url, acme) as client:
            # a tenant named in the call changes nothing: the key decides
            other = await client.call_tool(
                "recall", {"query": "kitten Noodle", "user_id": "ada", "tenant_id": "demo"}
            )
    assert unnamed.isError
    assert "user_id is required" in _text(unnamed)
    assert "called Noodle" in _text(ada)
    assert "Noodle" not in _text(bob)
    assert not other.isError, _text(other)
    assert "Noodle" not in _text(other)
    async with Memory.open(db_url, embedder=HashingEmbedder()) as check:
        packet = await check.read("kitten", scope={"tenant_id": "demo", "user_id": "ada"})
    assert [i.text for i in packet.items] == ["I adopted a tabby kitten called Noodle."]


async def test_a_store_failure_over_mcp_names_no_database(postgres_dsn: str) -> None:
    import asyncpg

    async def sql(statement: str) -> None:
        conn = await asyncpg.connect(postgres_dsn, timeout=10)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    memory = Memory.open(postgres_dsn, settings=Settings(), embedder=HashingEmbedder())
    key = issue_api_key(postgres_dsn, "demo")
    with serving(create_app(memory)) as url:
        async with session(url, key) as client:
            await sql("ALTER TABLE facts RENAME TO facts_away")  # the write's commit fails
            try:
                failed = await client.call_tool(
                    "remember", {"content": "I am vegetarian.", "user_id": "ada"}
                )
            finally:
                await sql("ALTER TABLE facts_away RENAME TO facts")
    assert failed.isError
    text = _text(failed)
    assert "StoreError: the store failed" in text
    parts = urlsplit(postgres_dsn)
    for part in (parts.username, parts.hostname, str(parts.port), parts.path.lstrip("/")):
        assert part
        assert part not in text, (part, text)


async def test_each_call_names_its_agent_and_the_keys_level_holds(
    base_url: str, db_url: str
) -> None:
    ada_only = issue_api_key(db_url, "acme", level="user", user_id="ada")
    async with session(base_url, ada_only) as client:
        refused = await client.call_tool("remember", {"content": "I keep bees", "user_id": "bob"})
        assert refused.isError
        assert "PermissionDenied" in _text(refused)
        stored = await client.call_tool(
            "remember", {"content": "I keep bees on the roof", "agent_id": "garden"}
        )
        assert not stored.isError, _text(stored)
        with_agent = await client.call_tool(
            "recall", {"query": "what do I keep on the roof?", "agent_id": "garden"}
        )
        assert "I keep bees on the roof" in _text(with_agent)
        other_agent = await client.call_tool(
            "recall", {"query": "what do I keep on the roof?", "agent_id": "sales"}
        )
        assert not other_agent.isError, _text(other_agent)
        assert "bees" not in _text(other_agent)
