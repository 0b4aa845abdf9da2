"""``as_of`` and ``as_of_recorded`` through every face: HTTP over a real server and the
SDK against the real app (both backends), the CLI as a subprocess and MCP over stdio.
One life: "I live in Seattle" in January 2025, "I moved to Portland" in June."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from cognimem import AsyncMemoryClient, InvalidInput, Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.conftest import run_in_thread
from tests.doubles import issue_api_key, new_api_key
from tests.e2e.cli_runner import ERROR_LINE, cognimem, cognimem_here
from tests.e2e.http_server import serving
from tests.integration.test_mcp import call, serve

USER = "ana"
LIFE = [
    (datetime(2025, 1, 10, 9, tzinfo=UTC), "I live in Seattle."),
    (datetime(2025, 6, 10, 9, tzinfo=UTC), "I moved to Portland."),
]
MARCH = "2025-03-01T00:00:00+00:00"
LONG_AGO = "2001-01-01T00:00:00+00:00"  # before anything was recorded
KEY = "user:location:city"


def cities(packet: dict[str, Any]) -> set[str]:
    sections = packet["sections"]
    return {
        e["value"]
        for name in ("must_follow", "consider", "facts", "preferences", "needs_validation")
        for e in sections[name]
        if e["key"] == KEY
    }


def lived(url: str) -> None:
    """Write the life into the database at ``url``."""

    async def go() -> None:
        async with Memory.open(url, embedder=HashingEmbedder()) as mem:
            for at, text in LIFE:
                await mem.write({"content": text, "occurred_at": at}, user_id=USER)

    run_in_thread(go)


# -- HTTP ------------------------------------------------------------------------------
@pytest.fixture
def api(memory_url: str) -> Iterator[httpx.Client]:
    lived(memory_url)
    key = issue_api_key(memory_url)
    memory = Memory.open(memory_url, embedder=HashingEmbedder())
    with (
        serving(create_app(memory)) as url,
        httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}) as client,
    ):
        yield client


def http_read(api: httpx.Client, **times: str) -> httpx.Response:
    body = {"query": "Where do I live?", "scope": {"user_id": USER}, **times}
    return api.post("/v1/memory/read", json=body)


def test_http_reads_as_of_a_time(api: httpx.Client) -> None:
    now = http_read(api)
    assert now.status_code == 200, now.text
    assert cities(now.json()) == {"Portland"}
    assert "time_filter" not in now.json()["meta"]
    then = http_read(api, as_of=MARCH).json()
    assert cities(then) == {"Seattle"}
    assert then["meta"]["time_filter"]["valid_source"] == "as_of"
    known = http_read(api, as_of_recorded=LONG_AGO).json()
    assert cities(known) == set()
    assert known["meta"]["time_filter"] == {"recorded_by": LONG_AGO}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("as_of", "2025-03-01T00:00:00"),  # no offset
        ("as_of_recorded", "2025-03-01T00:00:00"),
        ("as_of", "last spring"),
        ("as_of_recorded", 1735689600),  # seconds are not a time here
    ],
)
def test_http_refuses_a_bad_time(api: httpx.Client, field: str, value: object) -> None:
    response = api.post(
        "/v1/memory/read",
        json={"query": "Where do I live?", "scope": {"user_id": USER}, field: value},
    )
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["type"] == "InvalidInput"
    assert field in error["message"]


# -- SDK -------------------------------------------------------------------------------
async def test_sdk_reads_as_of_a_time(memory: Memory) -> None:
    for at, text in LIFE:
        await memory.write({"content": text, "occurred_at": at}, user_id=USER)
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    async with AsyncMemoryClient("http://cognimem.test", transport=transport, api_key=key) as sdk:
        march = datetime.fromisoformat(MARCH)
        then = await sdk.read("Where do I live?", user_id=USER, as_of=march)
        assert {e.value for e in then.sections.entries()} == {"Seattle"}
        known = await sdk.read(
            "Where do I live?", user_id=USER, as_of_recorded=datetime.fromisoformat(LONG_AGO)
        )
        assert known.sections.entries() == []
        assert known.meta["time_filter"] == {"recorded_by": LONG_AGO}
        with pytest.raises(InvalidInput) as caught:
            await sdk.read("Where do I live?", user_id=USER, as_of=datetime(2025, 3, 1))
        assert "as_of" in str(caught.value)


# -- CLI -------------------------------------------------------------------------------
def test_cli_recall_as_of(db_url: str) -> None:
    lived(db_url)
    args = ("recall", "Where do I live?", "--user", USER, "--json")
    then = json.loads(cognimem(*args, "--as-of", MARCH, db_url=db_url).stdout)
    assert cities(then) == {"Seattle"}
    now = json.loads(cognimem_here(*args, db_url=db_url).stdout)
    assert cities(now) == {"Portland"}
    known = json.loads(cognimem_here(*args, "--as-of-recorded", LONG_AGO, db_url=db_url).stdout)
    assert cities(known) == set()
    markdown = cognimem_here(
        "recall", "Where do I live?", "--user", USER, "--as-of", MARCH, db_url=db_url
    )
    assert "Seattle" in markdown.stdout
    assert "Portland" not in markdown.stdout


@pytest.mark.parametrize("option", ["--as-of", "--as-of-recorded"])
def test_cli_refuses_a_bad_time(db_url: str, option: str) -> None:
    bad = cognimem("recall", "x", "--user", USER, option, "2025-03-01", db_url=db_url, check=False)
    assert bad.returncode != 0
    found = ERROR_LINE.search(bad.stderr)
    assert found is not None, bad.stderr
    assert found.group(1) == "InvalidInput"
    assert option in found.group(2)


# -- MCP -------------------------------------------------------------------------------
async def test_mcp_recall_as_of(db_url: str, tmp_path: Path) -> None:
    lived(db_url)
    async with serve(db_url, tmp_path, user=USER) as session:
        listed = await session.list_tools()
        recall = next(t for t in listed.tools if t.name == "recall")
        assert {"as_of", "as_of_recorded"} <= set(recall.inputSchema["properties"])
        then = await call(session, "recall", query="Where do I live?", as_of=MARCH)
        assert "Seattle" in then
        assert "Portland" not in then
        now = await call(session, "recall", query="Where do I live?")
        assert "Portland" in now
        known = await call(session, "recall", query="Where do I live?", as_of_recorded=LONG_AGO)
        assert "Seattle" not in known
        assert "Portland" not in known
        naive = await session.call_tool(
            "recall", {"query": "Where do I live?", "as_of": "2025-03-01T00:00:00"}
        )
        assert naive.isError
