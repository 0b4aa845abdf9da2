"""An import's ids are the importing tenant's: one tenant's export imports into another
tenant of the same database (everything, linked, readable there, the source untouched),
importing it again inserts nothing, and what an import answers never tells whether an id
exists in another tenant. Through ``Memory`` and over real HTTP, on both backends."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from cognimem import Memory, Message, NotFound
from cognimem.api import create_app
from cognimem.models.admin import ExportRecord
from cognimem.models.ids import new_id
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.transfer import COUNTED
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, serving

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
A = {"tenant_id": "ta", "user_id": "u"}
B = {"tenant_id": "tb", "user_id": "u"}
PLURAL = {
    "session": "sessions", "event": "events", "item": "items", "entity": "entities",
    "alias": "aliases", "fact": "facts", "relation": "relations", "conflict": "conflicts",
    "history": "history", "procedure": "procedures",
}  # fmt: skip


async def a_life(memory: Memory) -> None:
    """Rows of every type in tenant ``ta``: sessions, events, items, entities, aliases,
    facts, relations, a conflict, history, a procedure, summaries."""
    await memory.create_session("trip", scope=A)
    await memory.write_batch(
        [
            Message(content="My sister Kim lives in Oslo", name="Ada", occurred_at=T0),
            Message(content="I'm allergic to shellfish", name="Ada", occurred_at=T0),
            Message(content="I live in Paris", occurred_at=T0),
            Message(content="I live in Rome", occurred_at=T0),
        ],
        scope=A,
    )
    done = await memory.write("We had ramen in Osaka", scope={**A, "session_id": "trip"})
    await memory.update(done.item_ids[0], importance=0.9, tenant_id="ta")
    await memory.write("someone else's note", scope={"tenant_id": "ta", "user_id": "v"})
    for build in (41, 42):
        call = {"name": "deploy", "arguments": {"env": "staging", "build": build}}
        await memory.turn(
            {"content": "Deploy the staging build", "occurred_at": T0},
            {"content": "On it.", "occurred_at": T0, "metadata": {"tool_calls": [call]}},
            scope={**A, "session_id": f"ops{build}"},
        )
    assert len((await memory.detect_procedures(scope=A)).created) == 1
    assert (await memory.consolidate(scope=A)).written > 0


def counts_of(records: list[ExportRecord]) -> dict[str, int]:
    found = Counter(PLURAL[r.type] for r in records if r.type != "header")
    return {name: found.get(name, 0) for name in COUNTED}


async def everything(memory: Memory, tenant: str) -> list[ExportRecord]:
    scope = {"tenant_id": tenant, "all_users": True}
    return [r async for r in memory.export(scope=scope) if r.type != "header"]


async def texts(memory: Memory, query: str, scope: dict[str, str]) -> list[str]:
    return [i.text for i in (await memory.read(query, scope=scope, reference_time=T0)).items]


async def test_another_tenants_export_imports_whole_and_once(memory: Memory) -> None:
    await a_life(memory)
    exported = [r async for r in memory.export(scope={"tenant_id": "ta", "all_users": True})]
    source = await everything(memory, "ta")
    assert {r.type for r in source} == set(PLURAL)  # every type of row is there

    inserted = await memory.import_records(exported, tenant_id="tb")
    assert inserted == counts_of(exported)
    copies = await everything(memory, "tb")
    assert counts_of(copies) == counts_of(exported)
    assert await everything(memory, "ta") == source  # the source is untouched
    for query in ("where does my sister live", "allergies", "Osaka"):
        assert await texts(memory, query, B) == await texts(memory, query, A)
    assert [f.value for f in await memory.facts(scope=B, key="user:location:city")] == [
        f.value for f in await memory.facts(scope=A, key="user:location:city")
    ]
    # every reference of a copy leads to a copy in the same tenant
    held = {r.data["id"] for r in copies if r.type != "alias" and r.type != "session"}
    for r in copies:
        d = r.data
        refs = {
            "item": [*d.get("source_event_ids", [])],
            "fact": [*d.get("evidence_item_ids", []), *d.get("evidence_event_ids", [])],
            "relation": [d.get("source_entity_id"), d.get("target_entity_id")],
            "conflict": d.get("fact_ids", []),
            "history": [d.get("target_id")],
            "alias": [d.get("entity_id")],
            "procedure": [*d.get("request_event_ids", []), *d.get("source_event_ids", [])],
        }.get(r.type, [])
        made = d.get("metadata", {}).get("consolidation") if r.type == "item" else None
        if made:  # a summary: what it covers, and what each claim states
            refs += [*made["covers"], *made["facts"]]
            refs += [i for c in made["claims"] for i in (*c["item_ids"], *c["event_ids"])]
        assert set(refs) <= held, (r.type, refs)
    assert not held & {r.data.get("id") for r in source}  # ids of tb's own

    assert set((await memory.import_records(exported, tenant_id="tb")).values()) == {0}
    assert set((await memory.import_records(exported, tenant_id="ta")).values()) == {0}
    assert counts_of(await everything(memory, "tb")) == counts_of(copies)


async def test_an_import_does_not_tell_whether_another_tenant_holds_an_id(
    memory: Memory,
) -> None:
    written = await memory.write("I keep a spare key under the mat", scope=A)
    [taken] = written.event_ids
    [event] = [r async for r in memory.export(scope=A) if r.type == "event"]

    def forged(event_id: str, tenant: str) -> ExportRecord:
        data = json.loads(json.dumps(event.data))
        data["id"] = event_id
        data["scope"]["tenant_id"] = tenant  # even claiming to be the importer's own row
        data["idempotency_key"] = None
        data["content"] = f"forged {event_id}"
        return ExportRecord(type="event", data=data)

    answers = {}
    for label, event_id in (("taken", taken), ("unknown", new_id("evt"))):
        for claimed in ("ta", "importer"):
            importer = f"tc-{label}-{claimed}"
            tenant = importer if claimed == "importer" else claimed
            answers[label, claimed] = await memory.import_records(
                [forged(event_id, tenant)], tenant_id=importer
            )
            # the row never takes the id as it is, so reading it back tells nothing either
            assert await memory.get_events([event_id], tenant_id=importer) == []
    assert {json.dumps(a, sort_keys=True) for a in answers.values()} == {
        json.dumps({**dict.fromkeys(COUNTED, 0), "events": 1}, sort_keys=True)
    }
    with pytest.raises(NotFound):
        await memory.get(written.item_ids[0], tenant_id="tc-taken-ta")
    assert [e.content for e in await memory.get_events([taken], tenant_id="ta")] == [
        "I keep a spare key under the mat"
    ]


# -- over HTTP -------------------------------------------------------------------------
@pytest.fixture
def tenants(memory_url: str) -> Iterator[dict[str, httpx.Client]]:
    memory = Memory.open(memory_url, embedder=HashingEmbedder())
    keys = {t: issue_api_key(memory_url, t) for t in ("ta", "tb")}
    with serving(create_app(memory)) as base:
        clients = {
            t: httpx.Client(
                base_url=base, headers={"Authorization": f"Bearer {k}"}, timeout=PATIENT
            )
            for t, k in keys.items()
        }
        try:
            yield clients
        finally:
            for c in clients.values():
                c.close()


def post(api: httpx.Client, path: str, body: dict[str, Any]) -> Any:
    answer = api.post(path, json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def import_lines(api: httpx.Client, lines: str) -> dict[str, int]:
    answer = api.post(
        "/v1/memory/import", content=lines, headers={"content-type": "application/x-ndjson"}
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_http_import_into_another_tenant_of_the_same_database(
    tenants: dict[str, httpx.Client],
) -> None:
    a, b = tenants["ta"], tenants["tb"]
    user = {"scope": {"user_id": "u"}}
    post(a, "/v1/memory/write", {"content": "My sister Kim lives in Oslo", **user})
    post(a, "/v1/memory/write", {"content": "I'm allergic to shellfish", **user})
    everyone = {"scope": {"all_users": True}}
    source_stats = post(a, "/v1/stats", everyone)
    lines = a.post("/v1/memory/export", json=everyone).text
    exported = [json.loads(line) for line in lines.splitlines()]

    inserted = import_lines(b, lines)
    assert inserted["events"] == 2
    assert inserted["items"] == sum(r["type"] == "item" for r in exported) == 2
    assert inserted["facts"] == sum(r["type"] == "fact" for r in exported) > 0
    assert post(b, "/v1/stats", everyone) == source_stats
    assert post(a, "/v1/stats", everyone) == source_stats
    read = {"query": "where does my sister live", "limit": 1, **user}
    assert [i["text"] for i in post(b, "/v1/memory/read", read)["items"]] == [
        "My sister Kim lives in Oslo"
    ]
    assert set(import_lines(b, lines).values()) == {0}

    # the same event, once with an id tenant ta holds (not imported into tb) and once
    # with an unknown id
    later = post(a, "/v1/memory/write", {"content": "I keep a key under the mat", **user})
    [event] = [r for r in exported if r["type"] == "event"][:1]
    answers = []
    for event_id in (later["messages"][0]["event_id"], new_id("evt")):
        forged = json.loads(json.dumps(event))
        forged["data"].update(id=event_id, idempotency_key=None, content=f"x {event_id}")
        answers.append(import_lines(b, json.dumps(forged) + "\n"))
    assert answers[0] == answers[1]
    assert answers[0]["events"] == 1
