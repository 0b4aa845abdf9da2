"""Bad input over real HTTP: every kind of malformed request gets a 4xx with the error
shape and a message that names what is wrong, and nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cognimem import Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, serving

LIMIT = 50_000


@pytest.fixture
def api(db_url: str) -> Iterator[httpx.Client]:
    memory = Memory.open(db_url, embedder=HashingEmbedder())
    key = issue_api_key(db_url)
    with (
        serving(create_app(memory, max_body_bytes=LIMIT)) as base,
        httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=PATIENT
        ) as client,
    ):
        yield client


def stored(api: httpx.Client) -> dict[str, Any]:
    """What the tenant holds, across users."""
    answer = api.post("/v1/stats", json={"scope": {"all_users": True}})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def assert_refused(response: httpx.Response, status: int, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"type", "message", "details"}
    for word in words:
        assert word in error["message"], error
    return dict(error)


JSON = {"content-type": "application/json"}
WRITE = "/v1/memory/write"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        pytest.param(b"{not json", 422, ("JSON",), id="invalid-json"),
        pytest.param(b'{"content": "caf\xe9 au lait"}', 400, ("UTF-8",), id="invalid-utf8"),
        pytest.param(b"[1, 2, 3]", 422, (), id="not-an-object"),
        pytest.param(b'{"content": 42}', 422, ("content",), id="wrong-type"),
        pytest.param(b'{"content": ["a"]}', 422, ("content",), id="wrong-type-list"),
        pytest.param(b'{"content": "hi", "colour": "red"}', 422, ("colour",), id="unknown-field"),
        pytest.param(
            b'{"content": "hi", "scope": {"user": "u"}}', 422, ("scope.user",), id="unknown-scope"
        ),
        pytest.param(b'{"content": ""}', 422, ("content",), id="empty-content"),
        pytest.param(b'{"content": "   \\n "}', 422, ("content",), id="blank-content"),
        pytest.param(b'{"content": "hi", "role": "wizard"}', 422, ("role",), id="unknown-role"),
        pytest.param(
            b'{"content": "hi", "scope": {"user_id": "a b/c"}}', 422, ("user_id",), id="bad-id"
        ),
        pytest.param(b"", 422, (), id="empty-body"),
    ],
)
def test_a_malformed_write_is_refused_and_stores_nothing(
    api: httpx.Client, body: bytes, status: int, words: tuple[str, ...]
) -> None:
    before = stored(api)
    assert_refused(api.post(WRITE, content=body, headers=JSON), status, *words)
    assert stored(api) == before


@pytest.mark.parametrize(
    ("body", "at"),
    [
        (b'{"content": "hi", xx}', 18),
        (b'{"content": "hi"', 16),
        (b'{"content": "caf\xc3\xa9", }', 20),  # characters, not bytes
    ],
)
def test_malformed_json_says_where_in_the_body(api: httpx.Client, body: bytes, at: int) -> None:
    error = assert_refused(api.post(WRITE, content=body, headers=JSON), 422)
    assert error["details"] == {"field": "body"}
    assert error["message"].startswith(f"body: invalid JSON at character {at}: "), error


def test_an_oversize_body_is_refused_by_length_before_parsing(api: httpx.Client) -> None:
    before = stored(api)
    error = assert_refused(
        api.post(WRITE, json={"content": "x" * (LIMIT + 1)}), 413, str(LIMIT), "bytes"
    )
    assert error["details"] == {"field": "body"}
    assert stored(api) == before


def test_an_oversize_streamed_body_without_a_length_is_refused(api: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"content": "'
        for _ in range(20):
            yield b"y" * 10_000
        yield b'"}'

    before = stored(api)
    # a generator body goes out chunked: no Content-Length for the server to check
    assert_refused(api.post(WRITE, content=chunks(), headers=JSON), 413, "bytes")
    assert stored(api) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("max_tokens", 10**12),
        ("max_tokens", 0),
        ("max_tokens", -5),
        ("limit", 10**9),
        ("limit", 0),
        ("limit", "ten"),
    ],
)
def test_absurd_read_sizes_are_refused_naming_the_field(
    api: httpx.Client, field: str, value: object
) -> None:
    error = assert_refused(
        api.post(
            "/v1/memory/read",
            json={"query": "anything", "scope": {"user_id": "u"}, field: value},
        ),
        422,
        field,
    )
    assert error["details"]["field"] == field


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/memory/write_batch", {"messages": [{"content": "ok"}, {"content": ""}]}, "messages"),
        ("/v1/memory/write_batch", {"messages": "hello"}, "messages"),
        ("/v1/memory/forget", {"ids": ["a"], "query": "b", "scope": {"user_id": "u"}}, ""),
        ("/v1/memory/forget", {"mode": "shred", "ids": ["a"], "scope": {"user_id": "u"}}, "mode"),
        ("/v1/memory/update", {"id": "mem_x", "importance": 7}, "importance"),
        ("/v1/memory/update", {"id": "mem_x", "feedback": "meh"}, "feedback"),
        ("/v1/facts/query", {"limit": 10**7, "scope": {"user_id": "u"}}, "limit"),
        ("/v1/memory/turn", {"user": {"content": ""}}, "user.content"),
    ],
)
def test_other_routes_refuse_bad_input_and_store_nothing(
    api: httpx.Client, path: str, body: dict[str, Any], field: str
) -> None:
    api.post(WRITE, json={"content": "a memory to keep", "scope": {"user_id": "u"}})
    before = stored(api)
    assert_refused(api.post(path, json=body), 422, field)
    assert stored(api) == before


def test_an_import_with_a_bad_line_stores_nothing(api: httpx.Client) -> None:
    before = stored(api)
    lines = b'{"type": "header", "data": {"format": 1}}\n{"type": "planet", "data": {}}\n'
    error = assert_refused(
        api.post(
            "/v1/memory/import", content=lines, headers={"content-type": "application/x-ndjson"}
        ),
        422,
        "line 2",
    )
    assert error["details"]["field"] == "line 2"
    assert stored(api) == before
