"""The HTTP API over real HTTP: a uvicorn server on loopback, an httpx client."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cognimem import Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, serving


@pytest.fixture
def base_url(db_url: str) -> Iterator[str]:
    memory = Memory.open(db_url, embedder=HashingEmbedder())
    with serving(create_app(memory, max_body_bytes=200_000)) as url:
        yield url


@pytest.fixture
def api(base_url: str, db_url: str) -> Iterator[httpx.Client]:
    """A client holding an API key of the default tenant."""
    key = issue_api_key(db_url)
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=PATIENT) as client:
        yield client


def test_health(base_url: str) -> None:
    response = httpx.get(f"{base_url}/v1/health", timeout=PATIENT)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_write_read_round_trip(api: httpx.Client) -> None:
    one = api.post(
        "/v1/memory/write",
        json={
            "content": "I started learning the banjo",
            "name": "Sam",
            "scope": {"user_id": "sam"},
            "external_id": "D1:1",
            "idempotency_key": "w-1",
        },
    )
    assert one.status_code == 200, one.text
    batch = api.post(
        "/v1/memory/write_batch",
        json={
            "scope": {"user_id": "sam"},
            "messages": [
                {"content": "My cat is called Biscuit"},
                {"content": "I live in Leeds"},
            ],
        },
    )
    assert batch.status_code == 200, batch.text
    assert [m["outcome"] for m in batch.json()["messages"]] == ["stored", "stored"]

    retry = api.post(
        "/v1/memory/write",
        json={
            "content": "I started learning the banjo",
            "name": "Sam",
            "scope": {"user_id": "sam"},
            "idempotency_key": "w-1",
        },
    )
    assert retry.json()["messages"][0]["outcome"] == "duplicate"
    assert retry.json()["messages"][0]["event_id"] == one.json()["messages"][0]["event_id"]

    read = api.post(
        "/v1/memory/read",
        json={"query": "which instrument?  banjo", "scope": {"user_id": "sam"}, "limit": 1},
    )
    assert read.status_code == 200
    packet = read.json()
    assert [i["text"] for i in packet["items"]] == ["I started learning the banjo"]
    assert packet["items"][0]["external_ids"] == ["D1:1"]
    assert packet["token_count"] > 0

    markdown = api.post(
        "/v1/memory/read",
        json={"query": "cat", "scope": {"user_id": "sam"}, "format": "markdown"},
    )
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert "Biscuit" in markdown.text

    other = api.post("/v1/memory/read", json={"query": "banjo", "scope": {"user_id": "someone"}})
    assert other.json()["items"] == []


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/memory/write", {"content": "   ", "scope": {"user_id": "u"}}, "content"),
        (
            "/v1/memory/write",
            {"content": "hi", "scope": {"user_id": "u", "planet": "x"}},
            "scope.planet",
        ),
        ("/v1/memory/write", {"content": "hi", "occurred_at": "yesterday-ish"}, "occurred_at"),
        ("/v1/memory/write", {"content": "hi", "tenant_id": "evil"}, "tenant_id"),
        ("/v1/memory/write_batch", {"messages": [{"content": "a"}] * 1001}, "messages"),
        ("/v1/memory/read", {"query": ""}, "query"),
    ],
)
def test_bad_input_is_422_with_the_error_shape(
    api: httpx.Client, path: str, body: dict, field: str
) -> None:  # type: ignore[type-arg]
    response = api.post(path, json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["type"] == "InvalidInput"
    assert field in error["message"]
    # nothing was written
    read = api.post("/v1/memory/read", json={"query": "hi a", "scope": {"user_id": "u"}})
    assert read.json()["items"] == []


def test_oversized_body_is_refused_before_parsing(api: httpx.Client) -> None:
    response = api.post("/v1/memory/write", json={"content": "x" * 300_000})
    assert response.status_code == 413
    assert response.json()["error"]["type"] == "InvalidInput"


def test_invalid_json_is_422(api: httpx.Client) -> None:
    response = api.post(
        "/v1/memory/write",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["type"] == "InvalidInput"


def test_the_server_closes_a_memory_it_opened_and_leaves_an_open_one_open(db_url: str) -> None:
    # a Memory the server opens holds connections of the server's event loop (a
    # PostgreSQL pool): left open, they leak when that loop ends
    unopened = Memory.open(db_url, embedder=HashingEmbedder())
    with serving(create_app(unopened)) as url:
        assert httpx.get(f"{url}/v1/health", timeout=PATIENT).status_code == 200
        assert unopened.is_open
    assert not unopened.is_open


def test_the_server_leaves_an_open_memory_open(tmp_path: Path) -> None:
    memory = Memory.open(f"sqlite:///{tmp_path / 'open.db'}", embedder=HashingEmbedder())
    asyncio.run(memory.start())
    try:
        with serving(create_app(memory)) as url:
            assert httpx.get(f"{url}/v1/health", timeout=PATIENT).status_code == 200
        assert memory.is_open  # its owner closes it
    finally:
        asyncio.run(memory.aclose())
    assert not memory.is_open
