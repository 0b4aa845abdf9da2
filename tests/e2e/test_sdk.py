"""The SDK end to end: ``AsyncMemoryClient`` against the real app in-process (both
backends), ``MemoryClient`` against a real server; errors and retries."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from cognimem import (
    AsyncMemoryClient,
    CognimemError,
    ContextPacket,
    InvalidInput,
    Memory,
    MemoryClient,
    Message,
    NotFound,
    RateLimited,
    Settings,
    StoreError,
    StoreUnavailable,
    UsageError,
    WriteOutcome,
    WriteResult,
)
from cognimem.api import create_app
from cognimem.client import ClientError, TransportError
from cognimem.models.knowledge import FactCategory
from cognimem.providers.fakes import HashingEmbedder
from cognimem.queue import JobState
from tests.doubles import issue_api_key, new_api_key
from tests.e2e.http_server import free_port, serving

BASE = "http://cognimem.test"
T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def in_process(app: ASGIApp, **kwargs: Any) -> AsyncMemoryClient:
    return AsyncMemoryClient(BASE, transport=httpx.ASGITransport(app=app), **kwargs)


@pytest.fixture
async def client(memory: Memory) -> AsyncIterator[AsyncMemoryClient]:
    key = await new_api_key(memory.store)
    async with in_process(create_app(memory), api_key=key) as sdk:
        yield sdk


@pytest.fixture
async def sqlite_memory(db_url: str) -> AsyncIterator[Memory]:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        yield mem


@pytest.fixture
async def sqlite_key(sqlite_memory: Memory) -> str:
    return await new_api_key(sqlite_memory.store)


# -- the scenarios ---------------------------------------------------------------------
async def test_write_then_read_sees_it_and_nobody_else_does(client: AsyncMemoryClient) -> None:
    result = await client.write(
        "I adopted a rescue greyhound called Pepper",
        user_id="alice",
        name="Alice",
        occurred_at=T0,
        external_id="D1:1",
        metadata={"session": 1},
    )
    assert isinstance(result, WriteResult)
    assert [m.outcome for m in result.messages] == [WriteOutcome.STORED]
    await client.write("My sister plays the cello", user_id="alice")

    packet = await client.read("what is my dog called?", user_id="alice", limit=1)
    assert isinstance(packet, ContextPacket)
    [item] = packet.items
    assert item.text == "I adopted a rescue greyhound called Pepper"
    assert item.author == "Alice"
    assert item.occurred_at == T0
    assert item.external_ids == ["D1:1"]
    assert item.source_event_ids == result.event_ids
    assert "Pepper" in packet.to_markdown()

    assert (await client.read("greyhound Pepper", user_id="bob")).items == []
    assert (await client.read("greyhound Pepper", scope={"user_id": "bob"})).items == []


async def test_users_items_by_external_id_and_raw_events_over_http(
    client: AsyncMemoryClient,
) -> None:
    """The browsing calls the framework integrations use: ``list_items`` (by the
    external id a write gave its message), ``users`` and ``get_events``."""
    written = await client.write(
        "Pepper is a greyhound", user_id="alice", external_id="note-1", metadata={"k": 1}
    )
    await client.write("Pepper likes naps", user_id="alice", external_id="note-2")
    await client.write("Rex is a terrier", user_id="bob", external_id="note-1")

    [item] = await client.list_items(user_id="alice", external_id="note-1")
    assert (item.text, item.external_ids, item.metadata) == (
        "Pepper is a greyhound",
        ["note-1"],
        {"k": 1},
    )
    assert len(await client.list_items(all_users=True, external_id="note-1")) == 2
    assert await client.list_items(user_id="alice", external_id="note-3") == []
    assert [i.text for i in await client.list_items(user_id="alice", contains="naps")] == [
        "Pepper likes naps"
    ]
    overview = await client.users()
    assert sorted(u.user_id for u in overview.users) == ["alice", "bob"]
    [event] = await client.get_events(item.source_event_ids)
    assert (event.id, event.content, event.external_id) == (
        written.event_ids[0],
        "Pepper is a greyhound",
        "note-1",
    )
    assert await client.get_events([]) == []
    with pytest.raises(UsageError):
        await client.users(tenant_id="other")


async def test_get_by_id_names_the_namespace_as_memory_does(
    memory: Memory, client: AsyncMemoryClient
) -> None:
    """Over HTTP a call by id names its namespace (``default`` unless said): ``get``
    takes a ``scope``, and ``Memory.get`` takes the same one."""
    written = await client.write("Lunch at the canteen", user_id="ada", scope={"namespace": "work"})
    [item_id] = written.item_ids
    at_work = {"namespace": "work"}
    assert (await client.get(item_id, scope=at_work)).text == "Lunch at the canteen"
    assert (await client.get(item_id, scope={**at_work, "user_id": "ada"})).id == item_id
    assert (await memory.get(item_id, scope={**at_work, "user_id": "ada"})).id == item_id
    assert (await memory.get(item_id)).id == item_id  # in-process: the whole tenant
    for outside in ({}, {**at_work, "user_id": "bob"}):
        with pytest.raises(NotFound):
            await client.get(item_id, scope=outside)
    with pytest.raises(NotFound):
        await memory.get(item_id, scope={"namespace": "default"})


async def test_write_batch_and_an_idempotent_retry(client: AsyncMemoryClient) -> None:
    batch = await client.write_batch(
        [
            "I live in Leeds",
            {"content": "My cat is called Biscuit", "idempotency_key": "cat"},
            Message(content="I started learning the banjo", name="Sam"),
        ],
        scope={"user_id": "sam", "namespace": "home"},
    )
    assert [m.outcome for m in batch.messages] == [WriteOutcome.STORED] * 3
    retry = await client.write(
        "My cat is called Biscuit",
        scope={"user_id": "sam", "namespace": "home"},
        idempotency_key="cat",
    )
    assert retry.messages[0].outcome is WriteOutcome.DUPLICATE
    assert retry.event_ids == [batch.messages[1].event_id]
    packet = await client.read("banjo", scope={"user_id": "sam", "namespace": "home"}, limit=1)
    assert [i.text for i in packet.items] == ["I started learning the banjo"]


async def test_a_write_without_a_key_is_deduplicated_as_memory_s_is(
    memory: Memory, client: AsyncMemoryClient
) -> None:
    """The SDK sends a message without a key at the time of the call, so its own repeat
    (after a lost answer) is a duplicate; it makes up no key, which would leave the
    message out of the dedupe window: said twice, a message is one event, as through
    ``Memory``, and a document sent again is the one stored."""
    before = datetime.now(UTC)
    first = await client.write("I take the 8:10 train", user_id="gil")
    again = await client.write("I take the 8:10 train", user_id="gil")
    assert [m.outcome for m in again.messages] == [WriteOutcome.DUPLICATE]
    assert again.event_ids == first.event_ids
    [event] = await client.get_events(first.event_ids)
    assert event.idempotency_key is None
    assert before <= event.occurred_at <= datetime.now(UTC)  # the call's time
    via_memory = await memory.write("I take the 8:10 train", user_id="gil")
    assert via_memory.event_ids == first.event_ids

    document = "Chapter one. The lighthouse keeper counted the ships."
    stored = await client.write_batch([document], user_id="gil", profile="document")
    later = await client.write_batch([document], user_id="gil", profile="document")
    assert [m.outcome for m in later.messages] == [WriteOutcome.DUPLICATE]
    assert later.event_ids == stored.event_ids
    # a caller's own key is sent as given (and so is its own message)
    keyed = await client.write("I take the 8:10 train", user_id="gil", idempotency_key="t1")
    assert [m.outcome for m in keyed.messages] == [WriteOutcome.STORED]
    [event] = await client.get_events(keyed.event_ids)
    assert event.idempotency_key == "t1"


async def test_read_with_timezone_and_reference_time(client: AsyncMemoryClient) -> None:
    # one note a day at 23:30 UTC, which is 08:30 the next day in Tokyo
    start = datetime(2024, 5, 1, 23, 30, tzinfo=UTC)
    await client.write_batch(
        [
            Message(content=f"day {i + 1} I went to the climbing gym", occurred_at=start + i * DAY)
            for i in range(31)
        ],
        user_id="u",
    )
    reference = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
    utc = await client.read("what did I do last week?", user_id="u", reference_time=reference)
    assert sorted(i.occurred_at.day for i in utc.items) == [20, 21, 22, 23, 24, 25, 26]
    tokyo = await client.read(
        "what did I do last week?",
        user_id="u",
        reference_time=reference,
        timezone="Asia/Tokyo",
        limit=50,
    )
    assert sorted(i.occurred_at.day for i in tokyo.items) == [19, 20, 21, 22, 23, 24, 25]
    window = await client.read(
        "climbing gym",
        user_id="u",
        since=datetime(2024, 5, 10, tzinfo=UTC),
        until=datetime(2024, 5, 12, tzinfo=UTC),
        kinds=["episode"],
        preset="lexical",
    )
    assert sorted(i.occurred_at.day for i in window.items) == [10, 11]


async def test_explain_returns_the_explanations(client: AsyncMemoryClient) -> None:
    await client.write("I'm deathly allergic to peanuts.", user_id="u", occurred_at=T0)
    for i in range(6):
        await client.write(f"Note {i} about the garden shed.", user_id="u", occurred_at=T0)
    packet = await client.read(
        "Can you recommend a Thai restaurant near the garden?", user_id="u", limit=3, explain=True
    )
    assert packet.explain is not None
    returned = [e for e in packet.explain if e.type == "item" and e.outcome == "returned"]
    assert {e.id for e in returned} == {i.id for i in packet.items}
    [allergy] = [e for e in packet.explain if e.type == "fact"]
    assert allergy.outcome == "section:must_follow"
    assert (await client.read("garden", user_id="u")).explain is None


async def test_facts_query_and_get_fact(client: AsyncMemoryClient) -> None:
    result = await client.write("My name is Alice.", user_id="u1", occurred_at=T0)
    await client.write("I love Italian food.", user_id="u1", occurred_at=T0)
    fact = await client.get_fact("user:identity:name", user_id="u1")
    assert fact.value == "Alice"
    assert fact.category is FactCategory.IDENTITY
    assert result.knowledge.facts_created == [fact.id]
    preferences = await client.facts(categories=["preference"], user_id="u1")
    assert [f.value for f in preferences] == ["Italian"]
    assert [f.key for f in await client.facts(key=["user:identity:name"], user_id="u1")] == [
        "user:identity:name"
    ]
    assert len(await client.facts(user_id="u1", include_history=True, limit=10)) == 2
    assert await client.facts(user_id="someone-else") == []
    with pytest.raises(NotFound) as exc:
        await client.get_fact("user:identity:name", user_id="someone-else")
    assert (exc.value.kind, exc.value.id) == ("fact", "user:identity:name")
    with pytest.raises(UsageError):
        await client.facts(key=["user:identity:name", "user:preference:cuisine"], user_id="u1")


async def test_get_job_in_async_mode(db_url: str) -> None:
    settings = Settings.model_validate({"ingest": {"mode": "async"}})
    async with Memory.open(db_url, settings=settings, embedder=HashingEmbedder()) as mem:
        key = await new_api_key(mem.store)
        async with in_process(create_app(mem), api_key=key) as sdk:
            result = await sdk.write("Portugal, the beaches were lovely.", user_id="u")
            assert result.mode == "async"
            assert result.job_id is not None
            assert (await sdk.get_job(result.job_id)).state is JobState.QUEUED
            await mem.process_next_job("w1")
            assert (await sdk.get_job(result.job_id)).state is JobState.DONE
            read = await sdk.read("Portugal beaches", user_id="u")
            assert [i.text for i in read.items] == ["Portugal, the beaches were lovely."]
            with pytest.raises(NotFound):
                await sdk.get_job("no-such-job")


# -- the same errors as Memory ---------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "args", "kwargs"),
    [
        pytest.param("write", ("   ",), {"user_id": "u"}, id="empty-content"),
        pytest.param("write_batch", (["ok", ""],), {"user_id": "u"}, id="empty-in-batch"),
        pytest.param("write", ("hi",), {"scope": {"user_id": "u", "x": "y"}}, id="scope-field"),
        pytest.param("write", ("hi",), {"user_id": "bad id!"}, id="bad-user-id"),
        pytest.param("write", ("hi",), {"profile": "nope"}, id="unknown-profile"),
        pytest.param("read", ("",), {"user_id": "u"}, id="empty-query"),
        pytest.param("read", ("cats",), {"max_tokens": 0}, id="bad-max-tokens"),
        pytest.param("read", ("cats",), {"user_id": "u", "preset": "nope"}, id="unknown-preset"),
        pytest.param("read", ("cats",), {"timezone": "Mars/Olympus"}, id="bad-timezone"),
        pytest.param("read", ("cats",), {"limit": 0}, id="bad-limit"),
        pytest.param("update", ("mem_x",), {"tier": "urgent"}, id="bad-tier"),
        pytest.param("update", ("mem_x",), {"feedback": "meh"}, id="bad-feedback"),
        pytest.param("update", ("mem_x",), {"importance": 2.0}, id="bad-importance"),
        pytest.param("facts", (), {"user_id": "u", "categories": ["hobby"]}, id="bad-category"),
        pytest.param("facts", (), {"user_id": "u", "limit": 0}, id="bad-fact-limit"),
        pytest.param("get_fact", ("user:identity:name",), {"user_id": "u"}, id="no-fact"),
        pytest.param("get_job", ("j1",), {}, id="no-queue"),
    ],
)
async def test_an_invalid_call_raises_what_memory_raises(
    memory: Memory,
    client: AsyncMemoryClient,
    method: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    with pytest.raises(CognimemError) as direct:
        await getattr(memory, method)(*args, **kwargs)
    with pytest.raises(CognimemError) as remote:
        await getattr(client, method)(*args, **kwargs)
    assert type(remote.value) is type(direct.value)
    assert remote.value.message == direct.value.message
    assert remote.value.details == direct.value.details
    if isinstance(direct.value, InvalidInput):
        assert isinstance(remote.value, InvalidInput)
        assert remote.value.field == direct.value.field
    # nothing was written
    assert (await memory.read("hi cats ok", user_id="u")).items == []


async def test_the_tenant_is_not_the_clients_to_pick(client: AsyncMemoryClient) -> None:
    with pytest.raises(UsageError, match="tenant"):
        await client.write("hi", scope={"tenant_id": "t2", "user_id": "u"})
    with pytest.raises(UsageError, match="tenant"):
        await client.get_job("j1", tenant_id="t2")
    # the default tenant, spelled out, is what the server uses anyway
    await client.write("I drink green tea", scope={"tenant_id": "default", "user_id": "u"})
    assert len((await client.read("green tea", user_id="u")).items) == 1


# -- retries and unexpected answers ----------------------------------------------------
class Scripted:
    """A tiny ASGI app: answers the scripted responses first, then hands every request to
    the real app. Counts requests and keeps the last request's headers."""

    def __init__(self, app: ASGIApp, *script: Response) -> None:
        self.app = app
        self.script = list(script)
        self.requests = 0
        self.headers: dict[str, str] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.requests += 1
            self.headers = {k.decode(): v.decode() for k, v in scope["headers"]}
            if self.script:
                await self.script.pop(0)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def error(status: int, type_: str, retry_after: str | None = "0") -> Response:
    headers = {} if retry_after is None else {"Retry-After": retry_after}
    body = {"error": {"type": type_, "message": f"scripted {status}"}}
    return JSONResponse(body, status_code=status, headers=headers)


async def test_429_is_retried_after_retry_after(sqlite_memory: Memory) -> None:
    app = Scripted(create_app(sqlite_memory), error(429, "RateLimited"), error(429, "RateLimited"))
    key = await new_api_key(sqlite_memory.store)
    async with in_process(app, retries=2, api_key=key) as sdk:
        result = await sdk.write("I play the oboe", user_id="u")
        assert app.requests == 3
        assert app.headers["authorization"] == f"Bearer {key}"
        assert [m.outcome for m in result.messages] == [WriteOutcome.STORED]
        assert len((await sdk.read("oboe", user_id="u")).items) == 1
    with pytest.raises(UsageError, match="closed"):
        await sdk.read("oboe", user_id="u")


async def test_500_is_not_retried(sqlite_memory: Memory, sqlite_key: str) -> None:
    app = Scripted(create_app(sqlite_memory), error(500, "StoreError"))
    async with in_process(app, api_key=sqlite_key, retries=5) as sdk:
        with pytest.raises(StoreError) as exc:
            await sdk.read("oboe", user_id="u")
    assert type(exc.value) is StoreError
    assert exc.value.message == "scripted 500"
    assert app.requests == 1


async def test_503_is_retried_up_to_retries_then_raised(
    sqlite_memory: Memory, sqlite_key: str
) -> None:
    app = Scripted(create_app(sqlite_memory), *[error(503, "StoreUnavailable")] * 5)
    async with in_process(app, api_key=sqlite_key, retries=2) as sdk:
        with pytest.raises(StoreUnavailable) as exc:
            await sdk.read("oboe", user_id="u")
    assert app.requests == 3
    assert exc.value.retry_after == 0


async def test_503_without_retry_after_backs_off_and_a_long_retry_after_is_not_awaited(
    sqlite_memory: Memory,
    sqlite_key: str,
) -> None:
    app = Scripted(create_app(sqlite_memory), error(503, "StoreUnavailable", retry_after=None))
    async with in_process(app, api_key=sqlite_key, retries=1, backoff=0.01) as sdk:
        assert (await sdk.read("oboe", user_id="u")).items == []
    assert app.requests == 2
    app = Scripted(create_app(sqlite_memory), error(503, "StoreUnavailable", retry_after="3600"))
    async with in_process(app, api_key=sqlite_key, retries=3, max_backoff=5) as sdk:
        with pytest.raises(StoreUnavailable) as exc:
            await sdk.read("oboe", user_id="u")
    assert app.requests == 1
    assert exc.value.retry_after == 3600


async def test_a_429_that_persists_is_rate_limited(sqlite_memory: Memory, sqlite_key: str) -> None:
    app = Scripted(create_app(sqlite_memory), *[error(429, "RateLimited", retry_after="2")] * 2)
    async with in_process(app, api_key=sqlite_key, retries=0) as sdk:
        with pytest.raises(RateLimited) as exc:
            await sdk.read("oboe", user_id="u")
    assert exc.value.retry_after == 2


@pytest.mark.parametrize(
    ("response", "status"),
    [
        (PlainTextResponse("Bad Gateway", status_code=502), 502),
        (JSONResponse({"detail": "Not Found"}, status_code=404), 404),
        (JSONResponse({"error": {"type": "Teapot", "message": "no"}}, status_code=418), 418),
        (PlainTextResponse("surprise", status_code=200), 200),
        (JSONResponse({"items": "not a list"}, status_code=200), 200),
        (error(429, "TooManyCooks"), 429),
    ],
)
async def test_an_unexpected_answer_is_a_client_error(
    sqlite_memory: Memory, sqlite_key: str, response: Response, status: int
) -> None:
    app = Scripted(create_app(sqlite_memory), response)
    async with in_process(app, api_key=sqlite_key, retries=0) as sdk:
        with pytest.raises(ClientError) as exc:
            await sdk.read("oboe", user_id="u")
    assert exc.value.status == status
    assert type(exc.value) is ClientError


async def test_no_server_is_a_transport_error() -> None:
    async with AsyncMemoryClient(f"http://127.0.0.1:{free_port()}", retries=3) as sdk:
        with pytest.raises(TransportError, match="cannot reach cognimem"):
            await sdk.read("oboe", user_id="u")


# -- the blocking client over real HTTP ------------------------------------------------
@pytest.fixture
def base_url(db_url: str) -> Iterator[str]:
    # ASGITransport is async-only and the Memory must live on the server's loop
    memory = Memory.open(db_url, embedder=HashingEmbedder())
    with serving(create_app(memory)) as url:
        yield url


def test_the_blocking_client(base_url: str, db_url: str) -> None:
    with MemoryClient(base_url, api_key=issue_api_key(db_url), timeout=10) as sdk:
        assert sdk.health() == {"status": "ok"}
        written = sdk.write_batch(["My name is Ada.", "I adopted a tabby kitten"], user_id="ada")
        assert len(written.messages) == 2
        sdk.write("We are moving to Lisbon in June.", user_id="ada")
        packet = sdk.read("what kitten do I have?", user_id="ada", limit=1)
        assert [i.text for i in packet.items] == ["I adopted a tabby kitten"]
        assert sdk.get_fact("user:identity:name", user_id="ada").value == "Ada"
        assert [f.key for f in sdk.facts(user_id="ada", key="user:identity:name")] == [
            "user:identity:name"
        ]
        with pytest.raises(InvalidInput) as exc:
            sdk.read("kitten", user_id="ada", timezone="Mars/Olympus")
        assert exc.value.field == "timezone"
        with pytest.raises(NotFound):
            sdk.get_job("j1")  # synchronous ingestion: there are no jobs
        [item] = sdk.list_items(user_id="ada", contains="Lisbon")
        assert [e.content for e in sdk.get_events(item.source_event_ids)] == [item.text]
        assert [u.user_id for u in sdk.users().users] == ["ada"]


async def test_a_read_returns_a_summarys_claims(memory: Memory, client: AsyncMemoryClient) -> None:
    for i, text in enumerate(
        ["I planted tomatoes in the garden.", "The garden shed needs a new roof."]
    ):
        await client.write(
            text, user_id="u", occurred_at=T0 + timedelta(minutes=i), external_id=f"g{i}"
        )
    await memory.consolidate(user_id="u")
    packet = await client.read("the garden", user_id="u", explain=True)
    [summary] = packet.sections.summaries
    assert {x for c in summary.claims for x in c.external_ids} <= {"g0", "g1"}
    assert summary.claims
    assert all(c.source_event_ids for c in summary.claims)
    assert packet.explain is not None
    assert [e.claims for e in packet.explain if e.id == summary.id] == [summary.claims]
