"""Whose memories a call reaches: one user's (``user_id``), or every user's of the tenant
only when the call says ``all_users`` — never every user's because the user was left out
or given as an empty string. Through ``Memory``, over real HTTP and through the SDK, on
both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from cognimem import AsyncMemoryClient, InvalidInput, Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key, new_api_key
from tests.e2e.http_server import PATIENT, serving

ALICE = "My dog is called Pepper and I am allergic to shellfish"
BOB = "My dog is called Rex and I live in Oslo"
NOBODY = "The office dog is called Biscuit"  # written without a user
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)

Call = Callable[[Any, dict[str, Any]], Awaitable[Any]]


async def _collect(records: AsyncIterator[Any]) -> list[Any]:
    return [r async for r in records]


# every call that reads or forgets stored memories, with the scope keywords given
READS: dict[str, Call] = {
    "read": lambda m, kw: m.read("what is the dog called?", **kw),
    "turn": lambda m, kw: m.turn("what is the dog called?", **kw),
    "forget": lambda m, kw: m.forget(query="dog", dry_run=True, **kw),
    "forget_ids": lambda m, kw: m.forget(ids=["mem_x"], **kw),
    "export": lambda m, kw: _collect(m.export(**kw)),
    "stats": lambda m, kw: m.stats(**kw),
    "facts": lambda m, kw: m.facts(**kw),
    "get_fact": lambda m, kw: m.get_fact("user:policy:allergy:shellfish", **kw),
    "entities": lambda m, kw: m.entities(**kw),
    "conflicts": lambda m, kw: m.conflicts(**kw),
    "list_sessions": lambda m, kw: m.list_sessions(**kw),
}


# the calls that also take one shared level alone (an agent's with no user)
LEVEL_CALLS = {
    "read",  # a read of the agent's level alone (test_level_read.py)
    "forget",
    "forget_ids",
    "export",
    "facts",
    "get_fact",
    "entities",
    "conflicts",
}


async def three_writers(memory: Any) -> None:
    await memory.write(ALICE, user_id="alice")
    await memory.write(BOB, user_id="bob")
    await memory.write(NOBODY, scope={"level": "namespace"})  # no user: the namespace's


async def stored_items(memory: Memory) -> int:
    return sum((await memory.stats(all_users=True)).items.values())


# -- through Memory --------------------------------------------------------------------
@pytest.mark.parametrize("value", ["", "   "])
@pytest.mark.parametrize("field", ["user_id", "agent_id", "session_id"])
async def test_an_empty_id_is_refused_naming_the_field(
    memory: Memory, field: str, value: str
) -> None:
    await three_writers(memory)
    before = await memory.stats(all_users=True)
    # an empty user is not "no user": it reads nobody's memories, it is refused
    calls = [
        memory.write("I like tea", **{field: value}),
        memory.read("dog", **{"user_id": "alice", field: value}),
        memory.forget(query="dog", dry_run=True, **{"user_id": "alice", field: value}),
        memory.stats(scope={"user_id": "alice", field: value}),
    ]
    for call in calls:
        with pytest.raises(InvalidInput) as err:
            await call
        assert err.value.field == f"scope.{field}"
    with pytest.raises(InvalidInput) as err:
        await memory.erase_user(value)
    assert err.value.field == "scope.user_id"
    assert await memory.stats(all_users=True) == before


@pytest.mark.parametrize("name", sorted(READS))
async def test_a_read_without_a_user_is_refused_and_changes_nothing(
    memory: Memory, name: str
) -> None:
    await three_writers(memory)
    before = await memory.stats(all_users=True)
    # a forget, an export or a knowledge listing with an agent and no user is the
    # agent's own level
    # (test_level_lifecycle.py); the other calls read a user's memories through an agent
    agent_alone = [] if name in LEVEL_CALLS else [{"scope": {"agent_id": "helper"}}]
    for kwargs in ({}, *agent_alone, {"scope": {"session_id": "s1"}}):
        with pytest.raises(InvalidInput, match="all_users=true") as err:
            await READS[name](memory, kwargs)
        assert err.value.field == "scope.user_id"
        assert "scope.user_id is required" in err.value.message
    with pytest.raises(InvalidInput) as err:
        await READS[name](memory, {"user_id": "alice", "all_users": True})
    assert err.value.field == "scope.all_users"
    assert await memory.stats(all_users=True) == before


@pytest.mark.parametrize("name", sorted(READS))
async def test_every_read_takes_a_user_or_all_users(memory: Memory, name: str) -> None:
    await three_writers(memory)
    if name == "get_fact":
        assert (await READS[name](memory, {"user_id": "alice"})).value
        assert (await READS[name](memory, {"all_users": True})).value
        return
    for kwargs in ({"user_id": "alice"}, {"all_users": True}, {"scope": {"all_users": True}}):
        await READS[name](memory, kwargs)


async def test_all_users_spans_every_user_and_one_user_sees_only_theirs(memory: Memory) -> None:
    await three_writers(memory)

    def texts(packet: Any) -> set[str]:
        return {i.text for i in packet.items}

    everyone = await memory.read("what is the dog called?", all_users=True, limit=10)
    assert texts(everyone) == {ALICE, BOB, NOBODY}
    alice = await memory.read("what is the dog called?", user_id="alice", limit=10)
    # hers and the namespace's (ranked with hers: issue 33), never another user's
    assert texts(alice) == {ALICE, NOBODY}
    # an agent's read without a user spans users only when it says so
    assert texts(await memory.read("dog", all_users=True, agent_id="nobody-wrote-this")) == set()

    assert (await memory.stats(all_users=True)).events == 3
    assert (await memory.stats(user_id="alice")).events == 1
    owners = {f.scope.user_id for f in await memory.facts(all_users=True)}
    assert {"alice", "bob"} <= owners
    assert {f.scope.user_id for f in await memory.facts(user_id="bob")} == {"bob"}
    exported = [r async for r in memory.export(all_users=True) if r.type == "event"]
    assert len(exported) == 3

    dry = await memory.forget(since=EPOCH, all_users=True, dry_run=True)
    assert len(dry.item_ids) == 3
    mine = await memory.forget(since=EPOCH, user_id="alice", dry_run=True)
    assert len(mine.item_ids) == 1
    assert await stored_items(memory) == 3


async def test_all_users_is_refused_on_a_write(memory: Memory) -> None:
    for call in (
        memory.write("I like tea", scope={"all_users": True}),
        memory.write_batch(["I like tea"], scope={"all_users": True}),
        memory.create_session("s1", scope={"all_users": True}),
    ):
        with pytest.raises(InvalidInput, match="does not apply here") as err:
            await call
        assert err.value.field == "scope.all_users"
    assert await stored_items(memory) == 0


async def test_a_tenant_wide_turn_stores_its_messages_with_no_user(memory: Memory) -> None:
    await three_writers(memory)
    done = await memory.turn("what is the dog called?", "Biscuit", all_users=True)
    assert {i.text for i in done.packet.items} >= {ALICE, BOB}
    [stored] = await memory.store.get_items("default", done.stored.item_ids[:1])
    assert stored.scope.user_id is None
    assert (await memory.stats(user_id="alice")).events == 1


# -- over HTTP -------------------------------------------------------------------------
@pytest.fixture
def api(memory_url: str) -> Iterator[httpx.Client]:
    memory = Memory.open(memory_url, embedder=HashingEmbedder())
    key = issue_api_key(memory_url)
    with (
        serving(create_app(memory)) as base,
        httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=PATIENT
        ) as client,
    ):
        yield client


HTTP_READS = [
    ("/v1/memory/read", {"query": "dog"}),
    ("/v1/memory/read/stream", {"query": "dog"}),
    ("/v1/memory/turn", {"user": {"content": "what is the dog called?"}}),
    ("/v1/memory/forget", {"query": "dog", "dry_run": True}),
    ("/v1/memory/export", {}),
    ("/v1/facts/query", {}),
    ("/v1/entities/query", {}),
    ("/v1/conflicts/query", {}),
    ("/v1/sessions/query", {}),
    ("/v1/stats", {}),
]


LEVEL_PATHS = {
    "/v1/memory/read",
    "/v1/memory/read/stream",
    "/v1/memory/forget",
    "/v1/memory/export",
    "/v1/facts/query",
    "/v1/entities/query",
    "/v1/conflicts/query",
}


def http_stats(api: httpx.Client) -> dict[str, Any]:
    answer = api.post("/v1/stats", json={"scope": {"all_users": True}})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_http_refuses_an_empty_id_and_an_implicit_tenant_wide_call(api: httpx.Client) -> None:
    for content, user in ((ALICE, "alice"), (BOB, "bob")):
        written = api.post(
            "/v1/memory/write", json={"content": content, "scope": {"user_id": user}}
        )
        assert written.status_code == 200, written.text
    before = http_stats(api)
    for path, body in HTTP_READS:
        # a forget, an export or a knowledge listing with an agent alone is that
        # agent's level (200)
        agent_alone = () if path in LEVEL_PATHS else (({"agent_id": "helper"}, "scope.user_id"),)
        for scope, field in (
            ({}, "scope.user_id"),
            *agent_alone,
            ({"user_id": ""}, "scope.user_id"),
            ({"user_id": "alice", "session_id": " "}, "scope.session_id"),
            ({"user_id": "alice", "all_users": True}, "scope.all_users"),
        ):
            answer = api.post(path, json={**body, "scope": scope})
            assert answer.status_code == 422, (path, scope, answer.text)
            error = answer.json()["error"]
            assert (error["type"], error["details"]["field"]) == ("InvalidInput", field)
        missing = api.post(path, json=body).json()["error"]["message"]
        assert (
            missing
            == "scope.user_id is required: pass all_users=true to span every user of the tenant"
        )
        for scope in ({"user_id": "alice"}, {"all_users": True}):
            answer = api.post(path, json={**body, "scope": scope})
            assert answer.status_code == 200, (path, scope, answer.text)
    for path, body in (
        ("/v1/memory/write", {"content": "tea"}),
        ("/v1/sessions", {"session_id": "s9"}),
    ):
        answer = api.post(path, json={**body, "scope": {"all_users": True}})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["details"]["field"] == "scope.all_users"
        answer = api.post(path, json={**body, "scope": {"user_id": ""}})
        assert answer.status_code == 422, answer.text
    for query in ({"user_id": ""}, {"user_id": "alice", "agent_id": ""}):
        answer = api.get("/v1/memory/get/mem_x", params=query)
        assert answer.status_code == 422, answer.text
    after = http_stats(api)
    # the turns with a user or all_users stored their message; nothing else was written
    assert after["events"] == before["events"] + 2


def test_http_all_users_reads_every_user(api: httpx.Client) -> None:
    for content, user in ((ALICE, "alice"), (BOB, "bob")):
        api.post("/v1/memory/write", json={"content": content, "scope": {"user_id": user}})
    api.post("/v1/memory/write", json={"content": NOBODY, "scope": {"level": "organisation"}})
    query = {"query": "what is the dog called?", "limit": 10}
    everyone = api.post("/v1/memory/read", json={**query, "scope": {"all_users": True}}).json()
    assert {i["text"] for i in everyone["items"]} == {ALICE, BOB, NOBODY}
    alice = api.post("/v1/memory/read", json={**query, "scope": {"user_id": "alice"}}).json()
    assert {i["text"] for i in alice["items"]} == {ALICE, NOBODY}  # never bob's
    facts = api.post("/v1/facts/query", json={"scope": {"all_users": True}}).json()
    assert {"alice", "bob"} <= {f["scope"]["user_id"] for f in facts}


# -- through the SDK -------------------------------------------------------------------
async def test_the_sdk_takes_all_users_and_raises_what_memory_raises(memory: Memory) -> None:
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    async with AsyncMemoryClient("http://cognimem.test", api_key=key, transport=transport) as sdk:
        await three_writers(sdk)
        for name in sorted(READS):
            with pytest.raises(InvalidInput) as err:
                await READS[name](sdk, {})
            assert err.value.field == "scope.user_id"
            with pytest.raises(InvalidInput) as err:
                await READS[name](sdk, {"user_id": ""})
            assert err.value.field == "scope.user_id"
        everyone = await sdk.read("what is the dog called?", all_users=True, limit=10)
        assert {i.text for i in everyone.items} == {ALICE, BOB, NOBODY}
        alice = await sdk.read("what is the dog called?", user_id="alice", limit=10)
        assert {i.text for i in alice.items} == {ALICE, NOBODY}  # never bob's
        assert (await sdk.stats(all_users=True)).events == 3
        assert len([r async for r in sdk.export(all_users=True) if r.type == "event"]) == 3
        dry = await sdk.forget(since=EPOCH, all_users=True, dry_run=True)
        assert len(dry.item_ids) == 3
        [item_id] = (await sdk.write("I like tea", user_id="carol")).item_ids
        await sdk.delete(item_id)  # by id: no user needed
        assert (await sdk.stats(user_id="carol")).items == {}
