"""The routes the dashboard browses with, over the real app on both backends: the
tenant's users with what each holds, the item listing, raw events by id and the graph
edges around entities. Each is tenant-scoped like every other route."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from cognimem import Memory
from cognimem.api import create_app
from tests.doubles import new_api_key

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def at(days: int) -> str:
    return (T0 + timedelta(days=days)).isoformat()


@pytest.fixture
async def clients(memory: Memory) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Clients of two tenants, ``acme`` and ``globex``, on one server."""
    app = create_app(memory)
    keys = [await new_api_key(memory.store, tenant) for tenant in ("acme", "globex")]
    async with (
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://cognimem.test",
            headers={"Authorization": f"Bearer {keys[0]}"},
        ) as acme,
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://cognimem.test",
            headers={"Authorization": f"Bearer {keys[1]}"},
        ) as globex,
    ):
        yield acme, globex


async def ok(response: Any) -> Any:
    answer = await response
    assert answer.status_code == 200, answer.text
    return answer.json()


async def write(client: httpx.AsyncClient, user: str, *said: tuple[int, str]) -> None:
    messages = [{"content": text, "occurred_at": at(day)} for day, text in said]
    body = {"scope": {"user_id": user}, "messages": messages}
    await ok(client.post("/v1/memory/write_batch", json=body))


async def test_users_lists_the_keys_tenant_with_each_users_counts(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    acme, globex = clients
    await write(acme, "ada", (0, "My name is Ada."), (1, "My sister Sarah lives in Boston."))
    await write(acme, "ben", (2, "I live in Porto."))
    await write(globex, "cy", (0, "I live in Oslo."))

    overview = await ok(acme.post("/v1/users/query", json={}))
    assert overview["tenant_id"] == "acme"
    assert [(u["namespace"], u["user_id"]) for u in overview["users"]] == [
        ("default", "ben"),
        ("default", "ada"),
    ]
    ada = overview["users"][1]
    stats = await ok(acme.post("/v1/stats", json={"scope": {"user_id": "ada"}}))
    assert ada["stats"] == stats
    assert (stats["events"], stats["items"]["active"]) == (2, 2)
    assert stats["entities"] >= 2  # Ada, Sarah, Boston
    theirs = await ok(globex.post("/v1/users/query", json={"limit": 5}))
    assert (theirs["tenant_id"], [u["user_id"] for u in theirs["users"]]) == ("globex", ["cy"])

    bad = await acme.post("/v1/users/query", json={"limit": 0})
    assert (bad.status_code, bad.json()["error"]["details"]["field"]) == (422, "limit")
    assert (await acme.post("/v1/users/query", json={"tenant_id": "globex"})).status_code == 422


async def test_memory_query_filters_by_text_kind_tier_status_and_time(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    acme, globex = clients
    await write(
        acme,
        "ada",
        (0, "I love risotto."),
        (1, "We went hiking in the Alps."),
        (5, "Risotto again tonight, with mushrooms."),
    )
    await write(globex, "ada", (0, "Risotto is overrated."))
    ada = {"scope": {"user_id": "ada"}}

    listed = await ok(acme.post("/v1/memory/query", json=ada))
    assert [i["text"] for i in listed] == [
        "Risotto again tonight, with mushrooms.",
        "We went hiking in the Alps.",
        "I love risotto.",
    ]
    found = await ok(acme.post("/v1/memory/query", json={**ada, "contains": "RISOTTO"}))
    assert [i["text"] for i in found] == [listed[0]["text"], listed[2]["text"]]
    window = {**ada, "since": at(1), "until": at(4)}
    assert [i["text"] for i in await ok(acme.post("/v1/memory/query", json=window))] == [
        "We went hiking in the Alps."
    ]

    hiking = listed[1]["id"]
    await ok(acme.post("/v1/memory/update", json={"id": hiking, "tier": "high"}))
    await ok(
        acme.post("/v1/memory/forget", json={**ada, "ids": [listed[2]["id"]], "mode": "archive"})
    )
    high = await ok(acme.post("/v1/memory/query", json={**ada, "tiers": ["high"]}))
    assert [i["id"] for i in high] == [hiking]
    archived = await ok(acme.post("/v1/memory/query", json={**ada, "statuses": ["archived"]}))
    assert [(i["text"], i["status"]) for i in archived] == [("I love risotto.", "archived")]
    assert len(await ok(acme.post("/v1/memory/query", json={**ada, "kinds": ["mandate"]}))) == 0
    assert len(await ok(acme.post("/v1/memory/query", json={**ada, "limit": 1}))) == 1

    for body, field in (
        ({}, "scope.user_id"),
        ({**ada, "kinds": ["bogus"]}, "kinds.0"),
        ({**ada, "tiers": []}, "tiers"),
        ({**ada, "since": "2024-05-01T00:00:00"}, "since"),
        ({**ada, "since": at(3), "until": at(1)}, "since"),
        ({**ada, "limit": 1001}, "limit"),
        ({**ada, "contains": ""}, "contains"),
        ({**ada, "contains": " \t"}, "contains"),
    ):
        bad = await acme.post("/v1/memory/query", json=body)
        assert bad.status_code == 422, (body, bad.text)
        assert bad.json()["error"]["details"]["field"] == field, (body, bad.text)


async def test_events_and_relations_are_what_items_and_entities_point_to(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    acme, globex = clients
    await write(acme, "ada", (0, "My sister Sarah lives in Boston."))
    [item] = await ok(acme.post("/v1/memory/query", json={"scope": {"user_id": "ada"}}))
    events = await ok(acme.post("/v1/events/query", json={"ids": item["source_event_ids"]}))
    assert [e["content"] for e in events] == ["My sister Sarah lives in Boston."]
    # another tenant's ids are not there for this one
    assert await ok(globex.post("/v1/events/query", json={"ids": item["source_event_ids"]})) == []

    found = await ok(acme.post("/v1/entities/query", json={"scope": {"user_id": "ada"}}))
    names = {e["entity"]["name"]: e["entity"]["id"] for e in found}
    sarah = names["Sarah"]
    body = {"scope": {"user_id": "ada"}, "entity_ids": [sarah]}
    edges = await ok(acme.post("/v1/relations/query", json=body))
    assert edges, "Sarah's relations"
    assert all(sarah in (e["source_entity_id"], e["target_entity_id"]) for e in edges)
    touched = {e["source_entity_id"] for e in edges} | {e["target_entity_id"] for e in edges}
    assert touched & (set(names.values()) - {sarah})
    assert (
        await ok(globex.post("/v1/relations/query", json={**body, "scope": {"user_id": "ada"}}))
        == []
    )

    for path, body, field in (
        ("/v1/events/query", {"ids": []}, "ids"),
        ("/v1/relations/query", {"entity_ids": [sarah]}, "scope.user_id"),
        ("/v1/relations/query", {"scope": {"user_id": "ada"}, "entity_ids": []}, "entity_ids"),
    ):
        bad = await acme.post(path, json=body)
        assert bad.status_code == 422, (path, bad.text)
        assert bad.json()["error"]["details"]["field"] == field, (path, bad.text)


async def test_the_shared_levels_are_listed_and_browsed_per_tenant(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    acme, globex = clients
    org = {"level": "organisation"}
    for scope, text in (
        (org, "Never give medical dosage advice."),
        ({"agent_id": "helper"}, "Sign off as the Helper bot."),
        ({"agent_id": "sales"}, "Mention the spring offer."),
        ({"user_id": "ada"}, "I live in Porto."),
        ({"level": "namespace", "namespace": "sales"}, "Quote prices in euros."),
    ):
        await ok(acme.post("/v1/memory/write", json={"content": text, "scope": scope}))
    await ok(globex.post("/v1/memory/write", json={"content": "Globex rule.", "scope": org}))

    overview = await ok(acme.post("/v1/users/query", json={}))
    assert [(u["user_id"]) for u in overview["users"]] == ["ada"]
    levels = {
        (lv["level"], lv["namespace"], lv["agent_id"]): lv["events"] for lv in overview["levels"]
    }
    assert levels == {
        ("organisation", "*", None): 1,
        ("namespace", "sales", None): 1,
        ("agent", "default", "helper"): 1,
        ("agent", "default", "sales"): 1,
    }
    theirs = await ok(globex.post("/v1/users/query", json={}))
    assert [(lv["level"], lv["agent_id"]) for lv in theirs["levels"]] == [("organisation", None)]

    async def texts(scope: dict[str, Any]) -> set[str]:
        body = {"scope": scope, "shared": True}
        return {i["text"] for i in await ok(acme.post("/v1/memory/query", json=body))}

    # the shared levels a scope's reads reach: the organisation's, and the agent's
    assert await texts({"user_id": "ada"}) == {"Never give medical dosage advice."}
    assert await texts({"user_id": "ada", "agent_id": "helper"}) == {
        "Never give medical dosage advice.",
        "Sign off as the Helper bot.",
    }
    assert await texts({"all_users": True, "agent_id": "sales"}) == {
        "Never give medical dosage advice.",
        "Mention the spring offer.",
    }
    # in the sales namespace: the organisation's and that namespace's level
    assert await texts({"user_id": "ada", "namespace": "sales"}) == {
        "Never give medical dosage advice.",
        "Quote prices in euros.",
    }
