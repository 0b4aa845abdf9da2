"""Text that can never be stored (a NUL character, an unpaired surrogate) over real HTTP
on both backends: every route refuses it with the same typed 422 naming the field, before
any database sees it; nothing is stored; no error body names the database's user, host,
port or name; and an export never dies half-way on a row that cannot be serialised."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest

from cognimem import Memory
from cognimem.api import create_app
from cognimem.errors import InvalidInput
from cognimem.providers.fakes import HashingEmbedder
from tests.conftest import run_in_thread
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, serving

# a write names whose memory it is (a user here); the cases check other fields
USER = {"user_id": "u"}
NUL = "\x00"
SURROGATE = "\ud800"


@pytest.fixture
def apis(db_url: str, postgres_dsn: str) -> Iterator[dict[str, httpx.Client]]:
    """One served app per backend, each with a key of tenant ``default``."""
    with (
        _client(db_url) as sqlite_api,
        _client(postgres_dsn) as postgres_api,
    ):
        yield {"sqlite": sqlite_api, "postgres": postgres_api}


class _OwnsMemory:
    """The app, closing its Memory (a PostgreSQL pool of the server's loop) when the
    server stops."""

    def __init__(self, memory: Memory) -> None:
        self.app = create_app(memory)
        self.memory = memory

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def closing(message: Any) -> None:
            if message["type"] == "lifespan.shutdown.complete":
                await self.memory.aclose()
            await send(message)

        await self.app(scope, receive, closing if scope["type"] == "lifespan" else send)


@contextmanager
def _client(url: str) -> Iterator[httpx.Client]:
    key = issue_api_key(url)
    app = _OwnsMemory(Memory.open(url, embedder=HashingEmbedder()))
    with (
        serving(app) as base,  # type: ignore[arg-type]
        httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=PATIENT
        ) as http,
    ):
        yield http


def raw(body: dict[str, Any]) -> bytes:
    """JSON with ``\\u0000`` / ``\\ud800`` escapes, as a client would send them."""
    return json.dumps(body, ensure_ascii=True).encode("ascii")


# (method, path, query, body, the field the 422 names); NUL in a path goes as %00
CATALOGUE: list[tuple[str, str, dict[str, str] | None, dict[str, Any] | None, str]] = [
    ("POST", "/v1/memory/write", None, {"content": f"a{NUL}b"}, "content"),
    ("POST", "/v1/memory/write", None, {"content": f"caf{SURROGATE}"}, "content"),
    ("POST", "/v1/memory/write", None, {"content": "hi", "metadata": {"n": NUL}}, "metadata.n"),
    (
        "POST",
        "/v1/memory/write",
        None,
        {"content": "hi", "metadata": {"note": SURROGATE}},
        "metadata.note",
    ),
    (
        "POST",
        "/v1/memory/write",
        None,
        {"content": "hi", "metadata": {"deep": [{"x": 1}, {"y": f"z{SURROGATE}"}]}},
        "metadata.deep[1].y",
    ),
    (
        "POST",
        "/v1/memory/write",
        None,
        {"content": "hi", "metadata": {f"k{NUL}": 1}},
        "metadata.k\\u0000",
    ),
    (
        "POST",
        "/v1/memory/write",
        None,
        {"content": "hi", "metadata": {f"k{SURROGATE}": 1}},
        "metadata.k\\ud800",
    ),
    ("POST", "/v1/memory/write", None, {"content": "hi", "name": f"A{NUL}"}, "name"),
    (
        "POST",
        "/v1/memory/write",
        None,
        {"content": "hi", "idempotency_key": f"k{NUL}"},
        "idempotency_key",
    ),
    ("POST", "/v1/memory/write", None, {"content": "hi", "external_id": SURROGATE}, "external_id"),
    (
        "POST",
        "/v1/memory/write",
        None,
        {"content": "hi", "scope": {"user_id": f"u{NUL}"}},
        "scope.user_id",
    ),
    (
        "POST",
        "/v1/memory/write_batch",
        None,
        {"messages": [{"content": "ok"}, {"content": "hi", "metadata": {"x": NUL}}]},
        "messages[1].metadata.x",
    ),
    ("POST", "/v1/memory/read", None, {"query": f"cat{NUL}"}, "query"),
    ("POST", "/v1/memory/read", None, {"query": SURROGATE}, "query"),
    ("POST", "/v1/memory/read/stream", None, {"query": f"cat{NUL}"}, "query"),
    ("POST", "/v1/memory/turn", None, {"user": {"content": f"hi{NUL}"}}, "user.content"),
    (
        "POST",
        "/v1/memory/turn",
        None,
        {"user": {"content": "hi"}, "assistant": {"content": "yo", "metadata": {"m": SURROGATE}}},
        "assistant.metadata.m",
    ),
    ("POST", "/v1/memory/forget", None, {"ids": ["mem_1", f"mem_{NUL}"]}, "ids[1]"),
    ("POST", "/v1/memory/forget", None, {"query": f"x{NUL}"}, "query"),
    ("POST", "/v1/memory/update", None, {"id": f"mem_{NUL}", "importance": 0.5}, "id"),
    ("POST", "/v1/memory/update", None, {"id": "mem_x", "text": SURROGATE}, "text"),
    ("POST", "/v1/facts/query", None, {"key": f"user:diet{NUL}"}, "key"),
    ("POST", "/v1/facts/query", None, {"key": SURROGATE}, "key"),
    ("GET", "/v1/memory/get/mem_%00", None, None, "item_id"),
    ("GET", "/v1/memory/get/mem_x", {"user_id": f"u{NUL}"}, None, "user_id"),
    ("GET", "/v1/memory/history/fact_%00", None, None, "target_id"),
    ("GET", "/v1/jobs/job_%00", None, None, "job_id"),
    ("POST", "/v1/conflicts/cf_%00/resolve", None, {}, "conflict_id"),
    ("POST", "/v1/conflicts/cf_x/resolve", None, {"note": f"n{NUL}"}, "note"),
    ("POST", "/v1/conflicts/cf_x/resolve", None, {"winner_fact_id": f"f{NUL}"}, "winner_fact_id"),
    ("POST", "/v1/sessions", None, {"session_id": f"s{NUL}"}, "session_id"),
    (
        "POST",
        "/v1/sessions",
        None,
        {"session_id": "s1", "metadata": {"a": SURROGATE}},
        "metadata.a",
    ),
    ("POST", "/v1/sessions/s%00/close", None, {}, "session_id"),
    ("DELETE", "/v1/users/u%00", None, None, "user_id"),
]


def send(api: httpx.Client, method: str, path: str, query: Any, body: Any) -> httpx.Response:
    content = None if body is None else raw(body)
    headers = {} if body is None else {"content-type": "application/json"}
    return api.request(method, path, params=query, content=content, headers=headers)


def stats(api: httpx.Client) -> dict[str, Any]:
    answer = api.post("/v1/stats", json={"scope": {"all_users": True}})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


@pytest.mark.parametrize(
    ("method", "path", "query", "body", "field"),
    CATALOGUE,
    ids=[f"{c[0]} {c[1]} {c[4]}" for c in CATALOGUE],
)
def test_unstorable_text_is_the_same_422_on_both_backends(
    apis: dict[str, httpx.Client],
    method: str,
    path: str,
    query: dict[str, str] | None,
    body: dict[str, Any] | None,
    field: str,
) -> None:
    answers = {}
    for backend, api in apis.items():
        api.post("/v1/memory/write", json={"content": "a memory to keep", "scope": USER})
        before = stats(api)
        response = send(api, method, path, query, body)
        assert response.status_code == 422, (backend, response.text)
        answers[backend] = response.json()
        assert stats(api) == before, backend
    assert answers["sqlite"] == answers["postgres"]
    error = answers["sqlite"]["error"]
    assert error["type"] == "InvalidInput"
    assert error["details"] == {"field": field}
    assert error["message"].startswith(("the key of " + field, field)), error
    assert "NUL" in error["message"] or "surrogate" in error["message"], error


# every way of saying "the body is JSON" that the app reads as JSON (case does not
# matter in a media type; ``+json`` subtypes are JSON too)
JSON_CONTENT_TYPES = [
    "APPLICATION/JSON",
    "Application/Json; charset=UTF-8",
    "application/vnd.api+json",
    "application/merge-patch+json",
]
WITH_BODY = [c for c in CATALOGUE if c[3] is not None]


@pytest.mark.parametrize("content_type", JSON_CONTENT_TYPES)
def test_unstorable_text_is_the_same_422_whatever_the_json_content_type(
    apis: dict[str, httpx.Client], content_type: str
) -> None:
    for backend, api in apis.items():
        for method, path, query, body, field in WITH_BODY:
            plain = send(api, method, path, query, body)
            answer = api.request(
                method,
                path,
                params=query,
                content=raw(body or {}),
                headers={"content-type": content_type},
            )
            assert answer.status_code == 422, (backend, path, answer.text)
            assert answer.json() == plain.json(), (backend, path, field)


def _dsn_parts(dsn: str) -> list[str]:
    parts = urlsplit(dsn)
    return [str(parts.username), str(parts.hostname), str(parts.port), parts.path.lstrip("/")]


def _pg(dsn: str, sql: str) -> None:
    async def go() -> None:
        conn = await asyncpg.connect(dsn, timeout=10)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    run_in_thread(go)


def test_store_errors_never_name_the_database(
    apis: dict[str, httpx.Client], postgres_dsn: str
) -> None:
    api = apis["postgres"]
    # (StoreUnavailable and SchemaMismatch: tests/unit/test_storable_text.py)
    bodies = []
    # a query the database refuses (a missing table): StoreError, 500
    _pg(postgres_dsn, "ALTER TABLE facts RENAME TO facts_away")
    try:
        failed = api.post("/v1/facts/query", json={"scope": {"user_id": "u"}})
    finally:
        _pg(postgres_dsn, "ALTER TABLE facts_away RENAME TO facts")
    assert failed.status_code == 500, failed.text
    assert failed.json()["error"]["type"] == "StoreError"
    bodies.append(failed.text)
    for body in bodies:
        for part in _dsn_parts(postgres_dsn):
            assert part not in body, (part, body)


def _export(api: httpx.Client, scope: dict[str, Any]) -> list[dict[str, Any]]:
    with api.stream("POST", "/v1/memory/export", json={"scope": scope}) as response:
        assert response.status_code == 200
        text = "".join(response.iter_text())  # a cut stream raises here
    return [json.loads(line) for line in text.splitlines()]


def test_a_row_that_cannot_be_serialised_is_an_error_record_not_a_cut_export(
    apis: dict[str, httpx.Client], db_url: str
) -> None:
    """A bad row can only exist on SQLite, written before cognimem refused such text
    (PostgreSQL's jsonb and text refuse NUL and unpaired surrogates themselves): it is
    planted directly in the database file."""
    api = apis["sqlite"]
    for text in ("my cat is called Miso", "I live in Lyon", "I like tea"):
        written = api.post("/v1/memory/write", json={"content": text, "scope": {"user_id": "ada"}})
        assert written.status_code == 200, written.text
    path = Path(db_url.removeprefix("sqlite:///"))
    with sqlite3.connect(path) as conn:
        [(bad_id,)] = conn.execute(
            "SELECT id FROM events WHERE content = 'I live in Lyon'"
        ).fetchall()
        conn.execute("UPDATE events SET metadata = ? WHERE id = ?", ('{"note": "\\ud800"}', bad_id))
    conn.close()

    for scope in ({"user_id": "ada"}, {"all_users": True}):
        records = _export(api, scope)
        errors = [r for r in records if r["type"] == "error"]
        assert errors == [
            {
                "type": "error",
                "data": {
                    "record_type": "event",
                    "id": bad_id,
                    "message": errors[0]["data"]["message"],
                },
            }
        ]
        assert "surrogate" in errors[0]["data"]["message"]
        events = [r["data"]["content"] for r in records if r["type"] == "event"]
        assert sorted(events) == ["I like tea", "my cat is called Miso"]
        # every line after the bad row is there: items of all three messages follow
        assert len([r for r in records if r["type"] == "item"]) >= 3

    # the export (error record included) imports back once the user is erased
    lines = "".join(json.dumps(r) + "\n" for r in _export(api, {"user_id": "ada"}))
    assert api.delete("/v1/users/ada").status_code == 200
    imported = api.post(
        "/v1/memory/import",
        content=lines.encode(),
        headers={"content-type": "application/x-ndjson"},
    )
    assert imported.status_code == 200, imported.text
    assert imported.json()["events"] == 2


NAIVE = "2024-05-01T12:00:00"
# (path, body, the field the 422 names)
NAIVE_TIMES: list[tuple[str, dict[str, Any], str]] = [
    ("/v1/memory/write", {"content": "hi", "occurred_at": NAIVE, "scope": USER}, "occurred_at"),
    (
        "/v1/memory/write_batch",
        {"messages": [{"content": "a"}, {"content": "b", "occurred_at": NAIVE}], "scope": USER},
        "messages[1].occurred_at",
    ),
    ("/v1/memory/read", {"query": "cat", "since": NAIVE, "scope": {"user_id": "u"}}, "since"),
    ("/v1/memory/read", {"query": "cat", "until": NAIVE, "scope": {"user_id": "u"}}, "until"),
    (
        "/v1/memory/read",
        {"query": "cat", "reference_time": NAIVE, "scope": {"user_id": "u"}},
        "reference_time",
    ),
    (
        "/v1/memory/read/stream",
        {"query": "cat", "since": NAIVE, "scope": {"user_id": "u"}},
        "since",
    ),
    (
        "/v1/memory/turn",
        {"user": {"content": "hi", "occurred_at": NAIVE}, "scope": {"user_id": "u"}},
        "user.occurred_at",
    ),
    ("/v1/memory/forget", {"since": NAIVE, "dry_run": True, "scope": {"user_id": "u"}}, "since"),
    ("/v1/memory/forget", {"until": NAIVE, "dry_run": True, "scope": {"user_id": "u"}}, "until"),
]


@pytest.mark.parametrize(("path", "body", "field"), NAIVE_TIMES, ids=[t[2] for t in NAIVE_TIMES])
def test_a_time_without_an_offset_is_refused_on_both_backends(
    apis: dict[str, httpx.Client], path: str, body: dict[str, Any], field: str
) -> None:
    answers = {}
    for backend, api in apis.items():
        before = stats(api)
        response = api.post(path, json=body)
        assert response.status_code == 422, (backend, response.text)
        answers[backend] = response.json()
        assert stats(api) == before
    assert answers["sqlite"] == answers["postgres"]
    error = answers["sqlite"]["error"]
    assert error["details"] == {"field": field}
    assert "offset" in error["message"]
    # with an offset the same request is accepted
    fixed = json.loads(json.dumps(body).replace(NAIVE, NAIVE + "+02:00"))
    assert apis["sqlite"].post(path, json=fixed).status_code in (200, 202)


# (path, body) of a time range with since after until, on every route that takes one
SCOPE = {"user_id": "u"}
REVERSED = {"since": "2025-01-02T00:00:00Z", "until": "2025-01-01T00:00:00Z"}
REVERSED_RANGES: list[tuple[str, dict[str, Any]]] = [
    ("/v1/memory/read", {"query": "cat", "scope": SCOPE, **REVERSED}),
    ("/v1/memory/read/stream", {"query": "cat", "scope": SCOPE, **REVERSED}),
    ("/v1/memory/forget", {"scope": SCOPE, "dry_run": True, **REVERSED}),
    ("/v1/memory/query", {"scope": SCOPE, **REVERSED}),
    # one end with an offset and one without: refused, never compared
    (
        "/v1/memory/query",
        {"scope": SCOPE, "since": "2025-01-02T00:00:00", "until": REVERSED["until"]},
    ),
]


@pytest.mark.parametrize(("path", "body"), REVERSED_RANGES, ids=lambda v: str(v)[:40])
def test_a_range_with_since_after_until_is_refused_on_every_route(
    apis: dict[str, httpx.Client], path: str, body: dict[str, Any]
) -> None:
    answers = {}
    for backend, api in apis.items():
        api.post("/v1/memory/write", json={"content": "my cat is called Tom", "scope": SCOPE})
        before = stats(api)
        response = api.post(path, json=body)
        assert response.status_code == 422, (backend, response.text)
        answers[backend] = response.json()
        assert stats(api) == before
    assert answers["sqlite"] == answers["postgres"]
    assert answers["sqlite"]["error"]["details"] == {"field": "since"}
    assert "since" in answers["sqlite"]["error"]["message"]


async def test_memory_refuses_a_read_with_since_after_until_on_both_backends(
    memory: Memory,
) -> None:
    await memory.write("my cat is called Tom", user_id="u")
    since, until = (datetime.fromisoformat(REVERSED[k]) for k in ("since", "until"))
    with pytest.raises(InvalidInput) as refused:
        await memory.read("cat", user_id="u", since=since, until=until)
    assert refused.value.field == "since"
    assert refused.value.message == "since is after until"


# (path, body with YEAR where the time's year goes, the field the 422 names)
YEARS_OUT: list[tuple[str, dict[str, Any], str]] = [
    ("/v1/memory/write", {"content": "hi", "occurred_at": "YEAR-06-01T00:00:00Z"}, "occurred_at"),
    (
        "/v1/memory/write_batch",
        {"messages": [{"content": "a"}, {"content": "b", "occurred_at": "YEAR-06-01T00:00:00Z"}]},
        "messages.1.occurred_at",
    ),
    ("/v1/memory/read", {"query": "cat", "since": "YEAR-06-01T00:00:00Z", "scope": SCOPE}, "since"),
    ("/v1/memory/forget", {"until": "YEAR-06-01T00:00:00Z", "scope": SCOPE}, "until"),
]


@pytest.mark.parametrize("year", [1899, 9001])
@pytest.mark.parametrize(("path", "body", "field"), YEARS_OUT, ids=[y[2] for y in YEARS_OUT])
def test_a_year_out_of_range_is_refused_as_such_on_both_backends(
    apis: dict[str, httpx.Client], path: str, body: dict[str, Any], field: str, year: int
) -> None:
    sent = json.loads(json.dumps(body).replace("YEAR", str(year)))
    for backend, api in apis.items():
        before = stats(api)
        response = api.post(path, json=sent)
        assert response.status_code == 422, (backend, response.text)
        error = response.json()["error"]
        assert error["details"] == {"field": field}
        assert error["message"] == (
            f"{field}: year {year} is out of range: a time lies in the years 1900-9000"
        )
        assert "offset" not in error["message"]
        assert stats(api) == before


async def test_memory_says_the_same_of_a_year_out_of_range_on_both_backends(
    memory: Memory,
) -> None:
    with pytest.raises(InvalidInput) as refused:
        await memory.write("hi", user_id="u", occurred_at=datetime(1899, 6, 1, tzinfo=UTC))
    assert refused.value.field == "occurred_at"
    assert refused.value.message == (
        "occurred_at: year 1899 is out of range: a time lies in the years 1900-9000"
    )


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (
            "/v1/memory/write",
            {"content": "hi", "metadata": {"blob": "x" * 20_000}, "scope": USER},
            "metadata",
        ),
        (
            "/v1/memory/turn",
            {
                "user": {"content": "hi", "metadata": {"blob": "x" * 20_000}},
                "scope": {"user_id": "u"},
            },
            "user.metadata",
        ),
        ("/v1/sessions", {"session_id": "s1", "metadata": {"blob": "x" * 20_000}}, "metadata"),
    ],
)
def test_metadata_over_the_cap_is_refused_on_both_backends(
    apis: dict[str, httpx.Client], path: str, body: dict[str, Any], field: str
) -> None:
    for backend, api in apis.items():
        before = stats(api)
        response = api.post(path, json=body)
        assert response.status_code == 422, (backend, response.text)
        error = response.json()["error"]
        assert error["details"] == {"field": field}
        assert "16384" in error["message"]
        assert stats(api) == before
        small = json.loads(json.dumps(body).replace("x" * 20_000, "x" * 1_000))
        assert api.post(path, json=small).status_code in (200, 201), backend


@pytest.mark.parametrize("escape", ["\\ud800", "\\u0000"])
def test_postgres_cannot_hold_a_row_that_cannot_be_serialised(
    apis: dict[str, httpx.Client], postgres_dsn: str, escape: str
) -> None:
    """Why the export test plants its bad row on SQLite only: PostgreSQL refuses it."""
    written = apis["postgres"].post(
        "/v1/memory/write", json={"content": "I live in Lyon", "scope": USER}
    )
    assert written.status_code == 200, written.text
    event_id = written.json()["messages"][0]["event_id"]
    with pytest.raises(asyncpg.PostgresError):
        _pg(
            postgres_dsn,
            f'UPDATE events SET metadata = \'{{"note": "{escape}"}}\'::jsonb'
            f" WHERE id = '{event_id}'",
        )


async def test_memory_refuses_ids_that_cannot_be_stored_on_both_backends(memory: Memory) -> None:
    """Not only the HTTP edge: ``Memory`` itself (Python callers, the MCP tools) refuses
    a NUL or a surrogate in an id or key with the same typed error on both backends
    (PostgreSQL answered a StoreError before)."""
    calls: list[tuple[Callable[[], Awaitable[object]], str]] = [
        (lambda: memory.get(f"mem{NUL}"), "item_id"),
        (lambda: memory.delete(f"mem{SURROGATE}"), "item_id"),
        (lambda: memory.history(f"mem{NUL}"), "target_id"),
        (lambda: memory.update(f"mem{NUL}", importance=0.5), "item_id"),
        (lambda: memory.get_events(["evt_ok", f"evt{NUL}"]), "event_ids[1]"),
        (lambda: memory.facts(key=f"user:diet{NUL}", user_id="u"), "key"),
        (lambda: memory.resolve_conflict(f"cfl{NUL}"), "conflict_id"),
        (lambda: memory.forget(ids=[f"mem{NUL}"], user_id="u"), "ids[0]"),
    ]
    for call, field in calls:
        with pytest.raises(InvalidInput) as refused:
            await call()
        assert refused.value.field == field
        assert "NUL" in refused.value.message or "surrogate" in refused.value.message
