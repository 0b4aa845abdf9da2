"""Near-duplicate merges written with their batch (``ItemStore.commit``) on every
backend: into an item the same batch inserts, into stored items from several messages,
and undone with the rest of the batch when the write fails."""

from __future__ import annotations

from typing import Any

import pytest

from cognimem.errors import StaleKnowledge
from cognimem.models import WriteOutcome
from cognimem.store import PendingMessage, Store
from cognimem.store.types import FactUpdate, Knowledge
from tests.contract.builders import ALICE, WINDOW, fact, new, put
from tests.contract.conftest import message


def _said(text: str, external_id: str | None = None, *, key: str | None = None) -> PendingMessage:
    pending = message(text, ALICE, key=key)
    pending.event = pending.event.model_copy(update={"external_id": external_id})
    for p in pending.items:  # as the write path gives an item its message's id
        p.item = p.item.model_copy(update={"external_ids": [external_id] if external_id else []})
    return pending


def _batch(stored: str) -> tuple[list[PendingMessage], str]:
    """Three messages: the first inserts an item, the second only repeats it, the third
    inserts its own and repeats the first's, ``stored`` and an item that is gone."""
    first = _said("the cello lesson is on sunday", "ext-1")
    target = first.items[0].item.id
    again = _said("The Cello Lesson Is On Sunday", "ext-2", key="again")
    again.items, again.merged_into = [], [target]
    third = _said("cello on sunday, piano on monday", "ext-3")
    third.merged_into = [target, stored, "mem_missing"]
    return [first, again, third], target


async def test_merges_into_the_batch_own_and_stored_items(store: Store) -> None:
    [old] = await store.commit([_said("I play the cello")], WINDOW)
    [stored] = old.item_ids
    batch, target = _batch(stored)
    first, again, third = batch

    results = await store.commit(batch, WINDOW)
    own = third.items[0].item.id
    assert [(r.outcome, r.item_ids) for r in results] == [
        (WriteOutcome.STORED, [target]),
        (WriteOutcome.STORED, [target]),
        (WriteOutcome.STORED, [own, target, stored]),
    ]
    [item] = await store.get_items("t1", [target])
    assert item.source_event_ids == [first.event.id, again.event.id, third.event.id]
    assert item.external_ids == ["ext-1", "ext-2", "ext-3"]
    [item] = await store.get_items("t1", [stored])
    assert item.source_event_ids == [old.event_id, third.event.id]
    assert item.external_ids == ["ext-3"]
    # what the caller handed in is left as it was
    assert first.items[0].item.source_event_ids == [first.event.id]
    assert first.items[0].item.external_ids == ["ext-1"]

    # the links went in with the rows: a retry of the repeat finds the item through them
    [dup] = await store.commit([_said("The Cello Lesson Is On Sunday", key="again")], WINDOW)
    assert (dup.outcome, dup.event_id, dup.item_ids) == (
        WriteOutcome.DUPLICATE,
        again.event.id,
        [target],
    )


async def test_a_failed_write_keeps_none_of_its_merges(store: Store) -> None:
    f = fact("user:hobby:instrument", "cello")
    await put(store, facts=new(f))
    [old] = await store.commit([_said("I play the cello")], WINDOW)
    [stored] = old.item_ids
    batch, target = _batch(stored)
    stale = FactUpdate(f.model_copy(update={"revision": 3}), expected_revision=2)

    with pytest.raises(StaleKnowledge):
        await store.commit(batch, WINDOW, Knowledge(fact_updates=[stale]))
    assert await store.get_items("t1", [target]) == []
    [item] = await store.get_items("t1", [stored])
    assert (item.source_event_ids, item.external_ids) == ([old.event_id], [])
    assert await store.get_events("t1", [m.event.id for m in batch]) == []


async def test_postgres_merges_take_one_round_trip_a_batch(postgres_dsn: str) -> None:
    """A merge into an item of the same batch goes into its inserted row (no UPDATE:
    a second row version would be a second entry in every index, the HNSW graph's
    too); the merges into stored items, from any number of messages, are one locking
    read and one pipelined ``executemany``."""
    from cognimem.store.postgres import PostgresStore

    store = PostgresStore(postgres_dsn, min_size=1, max_size=1)
    await store.open()
    queries: list[tuple[str, Any]] = []
    try:
        stored = [(await store.commit([_said(f"stored note {n}")], WINDOW))[0] for n in range(2)]
        batch, target = _batch(stored[0].item_ids[0])
        more = _said("yet another note", "ext-4")
        more.items, more.merged_into = [], [stored[1].item_ids[0], target]
        async with store._connection() as conn:  # the pool's one connection
            conn.add_query_logger(lambda record: queries.append((record.query, record.args)))
        results = await store.commit([*batch, more], WINDOW)
    finally:
        await store.close()
    assert results[3].item_ids == [stored[1].item_ids[0], target]
    locking = [q for q, _ in queries if "FOR KEY SHARE" in q]
    merging = [args for q, args in queries if q.lstrip().startswith("WITH merged")]
    assert len(locking) == 1
    assert len(merging) == 1
    # only the stored targets, in the messages' order
    assert [a[0] for a in merging[0]] == [stored[0].item_ids[0], stored[1].item_ids[0]]
    assert not [q for q, _ in queries if "UPDATE items" in q and "WITH merged" not in q]
