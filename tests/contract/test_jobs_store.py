"""The ``JobStore`` role on every backend, and async ingestion's writes: raw events
committed without their items, the jobs that derive them, applied once."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

import pytest

from cognimem.errors import StaleKnowledge
from cognimem.models import Scope
from cognimem.models.ids import new_id
from cognimem.store import ItemFilter, PendingMessage, Store
from cognimem.store.arguments import Attachment, KnowledgeView
from cognimem.store.types import (
    Knowledge,
    PendingJob,
    job_id_for,
)
from tests.contract.builders import (
    ALICE,
    OTHER_TENANT,
    WINDOW,
    alias,
    bare,
    entity,
    fact,
    new,
    put,
    query,
    saw,
    warm_up,
)
from tests.contract.conftest import T0, message


def unprocessed(text: str, scope: Scope, job: str | None, at_s: int = 0) -> PendingMessage:
    m = message(text, scope, at=T0 + timedelta(seconds=at_s))
    return PendingMessage(event=m.event, processed=False, job_id=job, profile="document")


async def test_unprocessed_lists_the_raw_events_in_the_order_asked(store: Store) -> None:
    one, _ = bare("first queued")
    two, _ = bare("second queued")
    done = message("written in sync mode", ALICE)
    far, _ = bare("queued elsewhere", OTHER_TENANT)
    await store.commit([one, two, done, far], WINDOW)
    ids = [two.event.id, done.event.id, "evt_missing", one.event.id, far.event.id]
    assert await store.unprocessed("t1", ids) == [two.event.id, one.event.id]
    assert await store.unprocessed("t2", ids) == [far.event.id]
    assert await store.unprocessed("t1", []) == []


async def test_a_job_applied_twice_writes_once(store: Store) -> None:
    pending, items = bare("my sister Kim lives in Oslo")
    [queued] = await store.commit([pending], WINDOW)
    assert queued.item_ids == []
    kim = entity("kim")

    def job() -> Knowledge:
        return Knowledge(
            entities=[kim.model_copy(update={"id": new_id("ent")})],
            aliases=[alias(kim, "kim", "alice")],
            facts=new(fact("user:relationship:sister", "kim")),
            read_set=[saw("user:relationship:sister")],
        )

    await put(store, entities=[kim])
    assert await store.add_items(Attachment(items, job())) == [items[0].item.id]
    assert await store.unprocessed("t1", [pending.event.id]) == []
    # redelivered: new objects for the same event; nothing at all is written
    again = message("my sister Kim lives in Oslo", ALICE).items
    again[0].item = again[0].item.model_copy(update={"source_event_ids": [pending.event.id]})
    assert await store.add_items(Attachment(again, job())) == []
    assert await store.count_items(ItemFilter(scope=ALICE)) == 1
    assert len(await store.find_facts(query())) == 1
    [kept] = await store.find_aliases(KnowledgeView("t1", "default", "alice"), ["kim"])
    assert kept.use_count == 1
    assert [
        c.item_id for c in await store.lexical_search(ItemFilter(scope=ALICE), ["oslo"], 5)
    ] == [items[0].item.id]


async def test_a_job_touching_any_processed_event_writes_nothing(store: Store) -> None:
    fresh, fresh_items = bare("queued about tennis")
    done, _ = bare("already derived about golf")
    await store.commit([fresh, done], WINDOW)
    [done_items] = [bare("x")[1]]
    done_items[0].item = done_items[0].item.model_copy(update={"source_event_ids": [done.event.id]})
    assert await store.add_items(Attachment(done_items)) == [done_items[0].item.id]
    assert await store.add_items(Attachment(fresh_items, merges={done.event.id: []})) == []
    assert await store.unprocessed("t1", [fresh.event.id]) == [fresh.event.id]
    assert await store.get_items("t1", [fresh_items[0].item.id]) == []


async def test_a_job_can_merge_its_event_into_existing_items(store: Store) -> None:
    [first] = await store.commit([message("weekly pottery class", ALICE)], WINDOW)
    pending, _ = bare("pottery class again this week")
    pending.event = pending.event.model_copy(update={"external_id": "msg-7"})
    await store.commit([pending], WINDOW)
    merges = {pending.event.id: [first.item_ids[0], "mem_missing"]}
    assert await store.add_items(Attachment([], merges=merges)) == []
    [item] = await store.get_items("t1", first.item_ids)
    assert item.source_event_ids == [first.event_id, pending.event.id]
    assert item.external_ids == ["msg-7"]
    assert await store.unprocessed("t1", [pending.event.id]) == []
    # applied again: the event is processed, so nothing changes; nor does a merge of an
    # event that no longer exists
    assert await store.add_items(Attachment([], merges=merges)) == []
    assert await store.add_items(Attachment([], merges={"evt_gone": first.item_ids})) == []
    [again] = await store.get_items("t1", first.item_ids)
    assert again.source_event_ids == item.source_event_ids


async def test_a_job_with_a_stale_read_set_writes_nothing(store: Store) -> None:
    pending, items = bare("I moved to Bergen")
    await store.commit([pending], WINDOW)
    await put(store, facts=new(fact("user:location:city", "Oslo")))
    with pytest.raises(StaleKnowledge):
        await store.add_items(
            Attachment(
                items,
                Knowledge(
                    facts=new(fact("user:location:city", "Bergen")),
                    read_set=[saw("user:location:city")],
                ),
            )
        )
    assert await store.unprocessed("t1", [pending.event.id]) == [pending.event.id]
    assert await store.count_items(ItemFilter(scope=ALICE)) == 0
    assert len(await store.find_facts(query())) == 1


async def test_two_workers_applying_one_job_write_it_once(store: Store) -> None:
    await warm_up(store)
    for round_ in range(5):
        pending, items = bare(f"we adopted a parrot ({round_})")
        await store.commit([pending], WINDOW)
        copy = message("a redelivered copy", ALICE).items
        copy[0].item = copy[0].item.model_copy(update={"source_event_ids": [pending.event.id]})
        first, second = await asyncio.gather(
            store.add_items(
                Attachment(items, Knowledge(facts=new(fact(f"user:pet:{round_}", "parrot"))))
            ),
            store.add_items(
                Attachment(copy, Knowledge(facts=new(fact(f"user:pet:{round_}", "parrot"))))
            ),
        )
        assert sorted([len(first), len(second)]) == [0, 1]
    assert await store.count_items(ItemFilter(scope=ALICE)) == 5
    assert len(await store.find_facts(query())) == 5


async def test_a_pending_job_is_found_from_any_of_its_events_with_all_of_them(
    store: Store,
) -> None:
    ada = Scope(tenant_id="t1", namespace="n1", user_id="ada")
    batch = [unprocessed(f"note {i}", ada, "job_a") for i in range(3)]
    other = unprocessed("a note of another job", ada, "job_b", at_s=5)
    await store.commit([*batch, other], 0)
    ids = [m.event.id for m in batch]
    expected = PendingJob(
        id="job_a",
        tenant_id="t1",
        namespace="n1",
        user_id="ada",
        profile="document",
        event_ids=tuple(ids),
    )
    assert await store.pending_jobs("t1", [ids[1]]) == [expected]
    both = await store.pending_jobs("t1", [other.event.id, ids[2], ids[0]])
    assert [j.id for j in both] == ["job_a", "job_b"]  # commit order
    assert await store.pending_jobs("t2", ids) == []  # another tenant's events
    assert await store.pending_jobs("t1", []) == []
    # an event stored unprocessed without a job id (e.g. imported) is a job of its own
    [loose] = await store.commit([unprocessed("imported", ada, None, at_s=9)], 0)
    [alone] = await store.pending_jobs("t1", [loose.event_id])
    assert alone.id == job_id_for(loose.event_id)
    assert alone.event_ids == (loose.event_id,)


async def test_stranded_jobs_are_the_oldest_unprocessed_before_the_cutoff(store: Store) -> None:
    ada = Scope(tenant_id="t1", user_id="ada")
    bob = Scope(tenant_id="t2", user_id="bob")
    old = unprocessed("old", ada, "job_old", at_s=0)
    older_bob = unprocessed("older", bob, "job_bob", at_s=-10)
    new = unprocessed("new", ada, "job_new", at_s=60)
    done = message("done", ada, at=T0 - timedelta(seconds=30))
    await store.commit([old, older_bob, new, done], 0)
    found = await store.stranded_jobs(T0 + timedelta(seconds=30), 100)
    assert [(j.id, j.tenant_id) for j in found] == [("job_bob", "t2"), ("job_old", "t1")]
    assert [j.id for j in await store.stranded_jobs(T0 + timedelta(seconds=30), 1)] == ["job_bob"]
    assert await store.stranded_jobs(T0 - timedelta(seconds=60), 100) == []


async def test_a_job_marks_its_events_processed_even_those_with_no_item(store: Store) -> None:
    ada = Scope(tenant_id="t1", user_id="ada")
    said = unprocessed("a note", ada, "job_a")
    secret = unprocessed("all of it was a secret", ada, "job_a")
    await store.commit([said, secret], 0)
    item = message("a note", ada).items[0]
    item = replace(item, item=item.item.model_copy(update={"source_event_ids": [said.event.id]}))
    ids = [said.event.id, secret.event.id]
    assert await store.add_items(Attachment([item], event_ids=ids)) == [item.item.id]
    assert await store.unprocessed("t1", ids) == []
    assert await store.pending_jobs("t1", ids) == []
    assert await store.stranded_jobs(T0 + timedelta(days=1), 100) == []
