"""Forgetting a memory takes what was read from it alone, on both backends: the facts
(deleted, or invalidated by archive and silence), their graph edges and the summaries
whose every source is forgotten; a fact with another live source stays. Through
``Memory`` and over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from cognimem import Memory
from cognimem.api import create_app
from cognimem.models import ItemKind, ItemStatus, Scope
from cognimem.models.knowledge import FactStatus
from cognimem.store.types import ItemFilter
from tests.doubles import new_api_key

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
SAID = "I'm allergic to peanuts. I live in Berlin."


async def packet_texts(memory: Memory, query: str, user: str = "u") -> str:
    """Everything a read of ``query`` shows: every section's entries and the items."""
    packet = await memory.read(query, user_id=user)
    s = packet.sections
    texts = [e.text for e in s.entries()]
    texts += [i.text for i in (*packet.items, *s.summaries, *s.mandates, *s.procedures)]
    return "\n".join(texts)


async def user_entity_id(memory: Memory, user: str = "u") -> str:
    [self_entity] = [e for e, _ in await memory.entities(user_id=user) if e.name == "user"]
    return self_entity.id


@pytest.mark.parametrize("mode", ["delete", "archive", "silence"])
async def test_forgetting_a_memory_takes_the_facts_read_only_from_it(
    memory: Memory, mode: str
) -> None:
    written = await memory.write(SAID, user_id="u", occurred_at=T0)
    facts = await memory.facts(user_id="u")
    assert {f.value for f in facts} == {"peanuts", "Berlin"}
    before = await packet_texts(memory, "where do I live, and what am I allergic to?")
    assert "peanuts" in before
    assert "Berlin" in before
    me = await user_entity_id(memory)
    assert len(await memory.relations([me], user_id="u")) == 1  # user lives_in Berlin

    preview = await memory.forget(ids=written.item_ids, user_id="u", mode=mode, dry_run=True)
    assert sorted(preview.fact_ids) == sorted(f.id for f in facts)
    assert (preview.facts, preview.relations, preview.dry_run) == (2, 1, True)
    assert {f.id for f in await memory.facts(user_id="u")} == {f.id for f in facts}

    done = await memory.forget(ids=written.item_ids, user_id="u", mode=mode)
    assert done.item_ids == written.item_ids
    assert sorted(done.fact_ids) == sorted(f.id for f in facts)
    assert (done.facts, done.relations, done.summaries) == (2, 1, 0)
    assert await memory.facts(user_id="u") == []
    assert await memory.relations([me], user_id="u") == []
    after = await packet_texts(memory, "where do I live, and what am I allergic to?")
    assert "peanuts" not in after
    assert "Berlin" not in after
    kept = await memory.facts(user_id="u", include_history=True)
    if mode == "delete":
        assert kept == []
    else:  # kept, out of every read, and marked so
        assert {f.status for f in kept} == {FactStatus.INVALIDATED}
    entries = await memory.history(facts[0].id)
    assert [e.action for e in entries][-1] == ("deleted" if mode == "delete" else "invalidated")

    again = await memory.forget(ids=written.item_ids, user_id="u", mode=mode)
    assert again.facts == 0  # nothing left to take


async def test_a_fact_with_another_live_source_survives_forgetting_one(memory: Memory) -> None:
    first = await memory.write("I'm allergic to peanuts.", user_id="u", occurred_at=T0)
    second = await memory.write(
        "Remember that I am allergic to peanuts!", user_id="u", occurred_at=T0 + DAY
    )
    [fact] = await memory.facts(user_id="u")
    assert fact.evidence_item_ids == [*first.item_ids, *second.item_ids]

    done = await memory.forget(ids=first.item_ids, user_id="u")
    assert (done.item_ids, done.facts, done.fact_ids) == (first.item_ids, 0, [])
    [kept] = await memory.facts(user_id="u")
    assert kept.id == fact.id
    assert kept.status is FactStatus.ACTIVE
    assert kept.evidence_item_ids == second.item_ids
    assert kept.evidence_event_ids == second.event_ids
    assert "peanuts" in await packet_texts(memory, "what am I allergic to?")

    done = await memory.forget(ids=second.item_ids, user_id="u", mode="archive")
    assert done.fact_ids == [fact.id]
    assert "peanuts" not in await packet_texts(memory, "what am I allergic to?")


async def test_a_summary_goes_when_every_source_is_forgotten(memory: Memory) -> None:
    written = await memory.write("We planned the trip to Lisbon in May", user_id="u")
    [item_id] = written.item_ids
    # a summary of that message: an item of kind summary with the same source event
    summary = (await memory.get(item_id)).model_copy(
        update={"id": "mem_summary", "kind": ItemKind.SUMMARY, "text": "Trip to Lisbon planned"}
    )
    await memory.import_records([{"type": "item", "data": summary.model_dump(mode="json")}])
    # the import gives the row an id of this tenant's own
    only_summaries = ItemFilter(scope=Scope(user_id="u"), kinds=(ItemKind.SUMMARY,))
    [summary_id] = await memory.store.list_item_ids(only_summaries, 10)
    assert (await memory.get(summary_id)).text == "Trip to Lisbon planned"

    preview = await memory.forget(ids=[item_id], user_id="u", mode="archive", dry_run=True)
    assert (preview.summary_ids, preview.summaries) == ([summary_id], 1)
    assert (await memory.get(summary_id)).status is ItemStatus.ACTIVE
    done = await memory.forget(ids=[item_id], user_id="u", mode="archive")
    assert (done.summary_ids, done.summaries) == ([summary_id], 1)
    assert (await memory.get(summary_id)).status is ItemStatus.ARCHIVED


@pytest.fixture
async def api(memory: Memory) -> AsyncIterator[httpx.AsyncClient]:
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    async with httpx.AsyncClient(
        transport=transport,
        base_url="http://cognimem.test",
        headers={"Authorization": f"Bearer {key}"},
    ) as client:
        yield client


async def test_the_http_forget_answer_counts_facts_relations_and_summaries(
    api: httpx.AsyncClient,
) -> None:
    written = await api.post("/v1/memory/write", json={"content": SAID, "scope": {"user_id": "u"}})
    assert written.status_code in (200, 201), written.text
    item_ids = [i for m in written.json()["messages"] for i in m["item_ids"]]
    body: dict[str, Any] = {"ids": item_ids, "scope": {"user_id": "u"}}

    preview = await api.post("/v1/memory/forget", json={**body, "dry_run": True})
    assert preview.status_code == 200, preview.text
    answer = preview.json()
    assert (answer["facts"], answer["relations"], answer["summaries"]) == (2, 1, 0)
    assert len(answer["fact_ids"]) == 2

    done = (await api.post("/v1/memory/forget", json=body)).json()
    assert (done["item_ids"], done["facts"], done["relations"]) == (item_ids, 2, 1)
    facts = await api.post("/v1/facts/query", json={"scope": {"user_id": "u"}})
    assert facts.status_code == 200, facts.text
    assert facts.json() == []


async def test_deleting_one_memory_by_id_takes_its_facts_too(memory: Memory) -> None:
    written = await memory.write(SAID, user_id="u", occurred_at=T0)
    assert {f.value for f in await memory.facts(user_id="u")} == {"peanuts", "Berlin"}
    [item_id] = written.item_ids
    await memory.delete(item_id)
    assert await memory.facts(user_id="u") == []
    assert "peanuts" not in await packet_texts(memory, "what am I allergic to?")
