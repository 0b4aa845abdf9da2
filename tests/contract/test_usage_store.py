"""The ``UsageStore`` role on every backend: how items were used (loaded, cited, marked
correct or incorrect), counted in bulk in ``item_usage`` and read back into the items."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from cognimem.models import Tier
from cognimem.models.ids import new_id
from cognimem.models.knowledge import HistoryEntry
from cognimem.store import Store
from cognimem.store.arguments import ItemEdit
from cognimem.store.types import Access
from tests.contract.builders import ALICE, BOB, WINDOW
from tests.contract.conftest import T0, message


async def test_record_access_counts(store: Store) -> None:
    [r] = await store.commit([message("counted", ALICE)], WINDOW)
    await store.record_access("t1", r.item_ids, T0 + timedelta(hours=2))
    await store.record_access("t1", r.item_ids, T0 + timedelta(hours=1))  # an older read
    [item] = await store.get_items("t1", r.item_ids)
    assert item.access_count == 2
    assert item.loaded_count == 0  # a turn's answer counts loads (record_usage)
    assert item.last_accessed_at == T0 + timedelta(hours=2)  # never moves back


async def test_record_accesses_adds_counted_reads_in_one_call(store: Store) -> None:
    results = await store.commit([message(t, ALICE) for t in ("a", "b")], WINDOW)
    a, b = (r.item_ids[0] for r in results)
    await store.record_access("t1", [a], T0 + timedelta(hours=5))
    await store.record_accesses(
        [
            Access("t1", a, 3, T0 + timedelta(hours=1)),  # older than the read before
            Access("t1", b, 2, T0 + timedelta(hours=2)),
            Access("t2", b, 7, T0),  # another tenant's: no such item there
            Access("t1", "mem_missing", 1, T0),
        ]
    )
    got = {i.id: i for i in await store.get_items("t1", [a, b])}
    assert (got[a].access_count, got[a].last_accessed_at) == (4, T0 + timedelta(hours=5))
    assert (got[b].access_count, got[b].last_accessed_at) == (2, T0 + timedelta(hours=2))
    with pytest.raises(ValueError, match="one access entry per item"):
        await store.record_accesses([Access("t1", a, 1, T0), Access("t1", a, 1, T0)])


async def test_unused_items_read_as_zero(store: Store) -> None:
    [r] = await store.commit([message("never read", ALICE)], WINDOW)
    [item] = await store.get_items("t1", r.item_ids)
    assert (item.access_count, item.loaded_count, item.cited_count) == (0, 0, 0)
    assert (item.success_count, item.failure_count, item.last_accessed_at) == (0, 0, None)


async def test_record_usage_adds_each_counter(store: Store) -> None:
    [r] = await store.commit([message("cited twice", ALICE)], WINDOW)
    await store.record_usage("t1", r.item_ids, {"cited_count": 1})
    await store.record_usage("t1", r.item_ids, {"cited_count": 1, "success_count": 2})
    await store.record_usage("t1", r.item_ids, {"failure_count": 1})
    [item] = await store.get_items("t1", r.item_ids)
    assert (item.cited_count, item.success_count, item.failure_count) == (2, 2, 1)
    assert (item.loaded_count, item.last_accessed_at) == (0, None)


async def test_usage_of_another_tenant_or_no_item_is_ignored(store: Store) -> None:
    [r] = await store.commit([message("mine", ALICE)], WINDOW)
    await store.record_access("t2", r.item_ids, T0)
    await store.record_usage("t2", r.item_ids, {"cited_count": 1})
    await store.record_usage("t1", ["mem_missing"], {"cited_count": 1})
    [item] = await store.get_items("t1", r.item_ids)
    assert (item.access_count, item.cited_count) == (0, 0)


async def test_an_unknown_counter_is_refused(store: Store) -> None:
    [r] = await store.commit([message("x", ALICE)], WINDOW)
    with pytest.raises(ValueError, match="not a usage counter"):
        await store.record_usage("t1", r.item_ids, {"importance": 1})


async def test_concurrent_reads_all_count(store: Store) -> None:
    results = await store.commit([message(f"memory {n}", ALICE) for n in range(4)], WINDOW)
    ids = [i for r in results for i in r.item_ids]
    # overlapping id sets in opposite orders: no read's count is lost, none deadlocks
    await asyncio.gather(
        *(store.record_access("t1", ids if n % 2 else ids[::-1], T0) for n in range(8))
    )
    assert [i.access_count for i in await store.get_items("t1", ids)] == [8] * 4


async def test_an_edit_adds_its_counters_to_usage(store: Store) -> None:
    [r] = await store.commit([message("marked correct", ALICE)], WINDOW)
    await store.record_access("t1", r.item_ids, T0)
    await store.record_usage("t1", r.item_ids, {"loaded_count": 1})
    [item] = await store.get_items("t1", r.item_ids)
    edited = item.model_copy(update={"success_count": item.success_count + 1, "confidence": 0.9})
    entry = HistoryEntry(
        id=new_id("hst"), tenant_id="t1", target_type="item", target_id=item.id,
        action="feedback", actor="api", at=T0,
    )  # fmt: skip
    await store.update_item(ItemEdit(edited, expected=item, history=entry))
    [stored] = await store.get_items("t1", r.item_ids)
    assert (stored.success_count, stored.loaded_count, stored.confidence) == (1, 1, 0.9)


async def test_usage_candidates_are_the_users_used_or_high_items(store: Store) -> None:
    results = await store.commit(
        [message(t, ALICE) for t in ("used", "unused", "high")] + [message("bob's, used", BOB)],
        WINDOW,
    )
    used, unused, high, bobs = (r.item_ids[0] for r in results)
    [h] = await store.get_items("t1", [high])
    entry = HistoryEntry(
        id=new_id("hst"), tenant_id="t1", target_type="item", target_id=high,
        action="updated", actor="api", at=T0,
    )  # fmt: skip
    await store.update_item(
        ItemEdit(h.model_copy(update={"tier": Tier.HIGH}), expected=h, history=entry)
    )
    await store.record_access("t1", [used, bobs], T0)
    found = await store.usage_candidates("t1", "default", "alice", 100)
    assert {i.id for i in found} == {used, high}
    assert next(i for i in found if i.id == used).access_count == 1
    assert [i.id for i in await store.usage_candidates("t1", "default", "alice", 1)] == [high]
    assert unused not in {i.id for i in found}
