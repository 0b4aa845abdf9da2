"""``POST /v1/memory/read`` answered by ``ReadFastPath`` (``api/read_path.py``) answers
exactly as FastAPI's route does, over real HTTP: the same request is sent once as
``application/json`` (the fast path takes it) and once as ``application/json;
charset=utf-8`` (it goes through FastAPI), and the two answers are compared — status,
headers, body — for a read, each auth failure, unstorable text, invalid bodies and the
rate limit; the route's metrics label is the route template either way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.api.read_path import ReadFastPath
from cognimem.models import ContextPacket
from cognimem.providers.fakes import HashingEmbedder
from tests.e2e.http_server import PATIENT, serving

ADMIN_KEY = "admin-key-for-the-fast-path-0123456789"
FAST = "application/json"
FASTAPI = "application/json; charset=utf-8"
# what differs between any two answers
VOLATILE = {"x-request-id", "date"}


@pytest.fixture
def client(memory_url: str) -> Iterator[httpx.Client]:
    settings = Settings.model_validate({"auth": {"admin_key": ADMIN_KEY}})
    memory = Memory.open(memory_url, settings=settings, embedder=HashingEmbedder())
    try:
        with serving(create_app(memory)) as base, httpx.Client(base_url=base, timeout=PATIENT) as c:
            yield c
    finally:
        asyncio.run(memory.aclose())


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The queries the fast path answered itself (the in-thread server shares the class)."""
    seen: list[str] = []
    answer = ReadFastPath._answer

    async def spy(self: ReadFastPath, request: Any, body: Any) -> Any:
        seen.append(body.query)
        return await answer(self, request, body)

    monkeypatch.setattr(ReadFastPath, "_answer", spy)
    return seen


def key(client: httpx.Client, **fields: Any) -> str:
    response = client.post(
        "/v1/admin/keys",
        json={"tenant_id": "acme", **fields},
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    )
    assert response.status_code == 201, response.text
    secret: str = response.json()["secret"]
    return secret


def send(client: httpx.Client, body: bytes, content_type: str, secret: str | None) -> Any:
    headers = {"Content-Type": content_type}
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    response = client.post("/v1/memory/read", content=body, headers=headers)
    kept = {k: v for k, v in response.headers.items() if k not in VOLATILE}
    return response.status_code, kept, response.json()


def both(client: httpx.Client, body: bytes, secret: str | None) -> tuple[Any, Any]:
    return send(client, body, FAST, secret), send(client, body, FASTAPI, secret)


def read_body(query: str = "where does Sam live?", **fields: Any) -> bytes:
    return json.dumps({"query": query, "scope": {"user_id": "sam"}, **fields}).encode()


def test_a_read_answers_alike_and_the_fast_path_answered_it(
    client: httpx.Client, answered: list[str]
) -> None:
    secret = key(client)
    written = client.post(
        "/v1/memory/write",
        json={"content": "Sam lives in Lisbon.", "scope": {"user_id": "sam"}},
        headers={"Authorization": f"Bearer {secret}"},
    )
    assert written.status_code == 200, written.text
    fast, slow = both(client, read_body(), secret)
    assert fast[0] == slow[0] == 200
    # the second read's packet differs in a few digits (its timings): not its length
    fast[1].pop("content-length"), slow[1].pop("content-length")
    assert fast[1] == slow[1]
    assert fast[2].keys() == slow[2].keys()
    assert [i["text"] for i in fast[2]["items"]] == [i["text"] for i in slow[2]["items"]]
    assert "Sam lives in Lisbon." in [i["text"] for i in fast[2]["items"]]
    assert answered == ["where does Sam live?"]  # the charset one went through FastAPI


@pytest.mark.parametrize(
    ("body", "secret", "status"),
    [
        (read_body(), None, 401),  # no key
        (read_body(), "cm_not-a-key", 401),
        (read_body("where\x00"), "good", 422),  # text that cannot be stored
        (read_body(since="not a time"), "good", 422),
        (read_body(limit="many"), "good", 422),
        (read_body(unknown=1), "good", 422),
        (b'{"query": "where', "good", 422),  # invalid JSON
        (b"[1, 2]", "good", 422),
        (b"\xff\xfe", "good", 422),
    ],
)
def test_an_error_answers_alike(
    client: httpx.Client, body: bytes, secret: str | None, status: int
) -> None:
    if secret == "good":
        secret = key(client)
    fast, slow = both(client, body, secret)
    assert fast == slow
    assert fast[0] == status


def test_the_rate_limit_counts_both_paths_alike(client: httpx.Client, answered: list[str]) -> None:
    secret = key(client, rate_limit_per_minute=3)
    statuses = [
        send(client, read_body(), FAST, secret)[0],
        send(client, read_body(), FASTAPI, secret)[0],
        send(client, read_body(limit="many"), FAST, secret)[0],  # FastAPI's 422, counted
    ]
    fast, slow = both(client, read_body(), secret)
    assert statuses == [200, 200, 422]
    assert fast[0] == slow[0] == 429
    # the message and Retry-After say the seconds left, which differ between the two
    assert fast[2]["error"]["type"] == slow[2]["error"]["type"] == "RateLimited"
    assert "retry-after" in fast[1]
    assert "retry-after" in slow[1]
    assert len(answered) == 2  # the first read and the refused one


def test_the_route_template_labels_the_metrics(client: httpx.Client) -> None:
    secret = key(client)
    for _ in range(3):
        assert send(client, read_body(), FAST, secret)[0] == 200
    text = client.get("/metrics", headers={"Authorization": f"Bearer {ADMIN_KEY}"}).text
    count = next(
        line
        for line in text.splitlines()
        if line.startswith("cognimem_http_request_duration_seconds_count")
        and 'route="/v1/memory/read"' in line
        and 'status="200"' in line
    )
    assert float(count.rsplit(" ", 1)[1]) == 3


def test_a_read_answers_the_bytes_the_packet_renders_to(client: httpx.Client) -> None:
    # the answer is the packet's own JSON (``model_dump_json``): compact, keys in field
    # order, non-ASCII text as UTF-8, times and floats as pydantic writes them
    secret = key(client)
    written = client.post(
        "/v1/memory/write",
        json={"content": "Zoë moved to Zürich — 3½ years ago.", "scope": {"user_id": "sam"}},
        headers={"Authorization": f"Bearer {secret}"},
    )
    assert written.status_code == 200, written.text
    response = client.post(
        "/v1/memory/read",
        content=read_body("where did Zoë move?", explain=True),
        headers={"Authorization": f"Bearer {secret}", "Content-Type": FAST},
    )
    assert response.status_code == 200, response.text
    packet = ContextPacket.model_validate_json(response.content)
    assert response.content == packet.model_dump_json().encode()
    assert "Zoë moved to Zürich".encode() in response.content  # not \u-escaped
    assert response.headers["content-type"] == "application/json"
