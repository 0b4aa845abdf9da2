"""The ``ItemStore`` role on every backend: committing events and items (idempotency,
dedupe, atomic batches), reading them, and searching them (lexical, vector, nearest)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

import numpy as np
import pytest

from cognimem.errors import (
    Conflict,
)
from cognimem.models import ItemKind, ItemStatus, Scope, WriteOutcome
from cognimem.store import ItemFilter, Store
from cognimem.store.arguments import Attachment, ItemEdit, ItemsForgetting
from tests.contract.builders import (
    ALICE,
    BOB,
    WINDOW,
    history,
)
from tests.contract.conftest import T0, message, vec

OTHER_TENANT = Scope(tenant_id="t2", user_id="alice", session_id="s1")


async def test_commit_round_trips_events_and_items(store: Store) -> None:
    pending = message("I adopted a cat named Miso", ALICE, name="Alice")
    [result] = await store.commit([pending], WINDOW)
    assert result.outcome is WriteOutcome.STORED
    assert result.event_id == pending.event.id
    assert result.item_ids == [pending.items[0].item.id]

    [item] = await store.get_items("t1", result.item_ids)
    assert item.text == "I adopted a cat named Miso"
    assert item.scope == ALICE
    assert item.source_event_ids == [pending.event.id]
    assert item.occurred_at == T0
    assert item.status is ItemStatus.ACTIVE
    [event] = await store.get_events("t1", [result.event_id])
    assert event.content == "I adopted a cat named Miso"
    assert event.name == "Alice"
    assert event.occurred_at == T0


async def test_get_is_tenant_scoped(store: Store) -> None:
    [result] = await store.commit([message("secret plans", ALICE)], WINDOW)
    assert await store.get_items("t2", result.item_ids) == []
    assert await store.get_events("t2", [result.event_id]) == []


async def test_idempotency_key_returns_original_ids(store: Store) -> None:
    [first] = await store.commit([message("hello there", ALICE, key="k1")], WINDOW)
    retry = message("hello there", ALICE, key="k1")
    assert (await store.find_duplicates([retry.event], WINDOW))[0].event_id == first.event_id
    [again] = await store.commit([retry], WINDOW)
    assert again.outcome is WriteOutcome.DUPLICATE
    assert again.event_id == first.event_id
    assert again.item_ids == first.item_ids
    assert await store.count_items(ItemFilter(scope=ALICE)) == 1


async def test_reused_idempotency_key_with_other_content_conflicts(store: Store) -> None:
    await store.commit([message("first", ALICE, key="k1")], WINDOW)
    with pytest.raises(Conflict):
        await store.commit([message("new", ALICE), message("second", ALICE, key="k1")], WINDOW)
    # nothing of the failed batch was written
    assert await store.count_items(ItemFilter(scope=ALICE)) == 1


async def test_identical_message_in_window_is_deduplicated(
    store: Store, later: Callable[[int], datetime]
) -> None:
    [first] = await store.commit([message("same words", ALICE)], WINDOW)
    [dup] = await store.commit([message("same words", ALICE, at=later(2))], WINDOW)
    assert dup.outcome is WriteOutcome.DUPLICATE
    assert dup.event_id == first.event_id
    [outside] = await store.commit([message("same words", ALICE, at=later(60))], WINDOW)
    assert outside.outcome is WriteOutcome.STORED
    other_session = Scope(tenant_id="t1", user_id="alice", session_id="s2")
    [elsewhere] = await store.commit([message("same words", other_session)], WINDOW)
    assert elsewhere.outcome is WriteOutcome.STORED


async def test_duplicates_within_one_batch(store: Store) -> None:
    results = await store.commit([message("twice", ALICE), message("twice", ALICE)], WINDOW)
    assert [r.outcome for r in results] == [WriteOutcome.STORED, WriteOutcome.DUPLICATE]
    assert results[1].event_id == results[0].event_id


async def test_lexical_search_ranks_rare_terms_and_respects_scope(store: Store) -> None:
    await store.commit(
        [
            message("We went hiking in the mountains", ALICE),
            message("I adopted a golden retriever puppy", ALICE),
            message("The puppy chewed my shoes", ALICE),
        ],
        WINDOW,
    )
    await store.commit([message("My retriever is old", BOB)], WINDOW)
    await store.commit([message("golden retriever breeder", OTHER_TENANT)], WINDOW)

    found = await store.lexical_search(ItemFilter(scope=ALICE), ["golden", "retriever"], 10)
    items = await store.get_items("t1", [c.item_id for c in found])
    assert [i.text for i in items] == ["I adopted a golden retriever puppy"]
    assert all(c.score > 0 for c in found)

    for_bob = await store.lexical_search(ItemFilter(scope=BOB), ["retriever"], 10)
    assert [i.text for i in await store.get_items("t1", [c.item_id for c in for_bob])] == [
        "My retriever is old"
    ]
    # the tenant-wide view (no user) sees alice and bob but never the other tenant
    tenant_wide = await store.lexical_search(
        ItemFilter(scope=Scope(tenant_id="t1")), ["retriever"], 10
    )
    assert len(tenant_wide) == 2


async def test_lexical_search_survives_fts_syntax_in_terms(store: Store) -> None:
    await store.commit([message('He said "NEAR" AND OR NOT * stuff', ALICE)], WINDOW)
    for terms in (['"near"'], ["AND"], ["*"], ["stuff)"], ["-"]):
        await store.lexical_search(ItemFilter(scope=ALICE), terms, 5)  # must not raise
    found = await store.lexical_search(ItemFilter(scope=ALICE), ["near"], 5)
    assert len(found) == 1


async def test_vector_search_is_exact_and_scoped(store: Store) -> None:
    texts = [f"note {i} about topic {i % 7} and color {i % 5}" for i in range(60)]
    await store.commit([message(t, ALICE) for t in texts], WINDOW)
    await store.commit([message("note about topic 3 and color 2", OTHER_TENANT)], WINDOW)
    query = vec("topic 3 color 2")
    found = await store.vector_search(ItemFilter(scope=ALICE), query, 5)
    expected = sorted(texts, key=lambda t: -float(vec(t) @ query))[:5]
    items = await store.get_items("t1", [c.item_id for c in found])
    assert [round(c.score, 5) for c in found] == [round(float(vec(t) @ query), 5) for t in expected]
    assert {i.scope.tenant_id for i in items} == {"t1"}
    assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)


async def test_vector_search_keeps_ties_at_its_limit_in_write_order(store: Store) -> None:
    # rows of one score, the earliest written changed since (on PostgreSQL a changed row
    # is written anew, elsewhere on disk: an import lays the same rows out otherwise)
    same = vec("the same words")
    written = [message(f"note {n}", ALICE) for n in range(12)]
    for m in written:
        m.items[0].embedding = same
    await store.commit(written, WINDOW)
    ids = [m.items[0].item.id for m in written]
    for item in await store.get_items("t1", ids[:6]):
        changed = item.model_copy(update={"importance": 0.9})
        await store.update_item(
            ItemEdit(changed, expected=item, history=history(item.id, "edited"))
        )
    for limit in (1, 3, 7):
        found = await store.vector_search(ItemFilter(scope=ALICE), same, limit)
        assert [c.item_id for c in found] == ids[:limit]


async def test_vector_search_with_a_zero_vector_scores_zero(store: Store) -> None:
    # a query with no words embeds to zeros: every score is 0, never NaN
    await store.commit([message("anything at all", ALICE)], WINDOW)
    found = await store.vector_search(ItemFilter(scope=ALICE), np.zeros(64, np.float32), 5)
    assert [c.score for c in found] == [0.0]


async def test_filters_apply_to_both_searches(
    store: Store, later: Callable[[int], datetime]
) -> None:
    await store.commit(
        [
            message("early breakfast pancakes", ALICE, at=T0),
            message("late dinner pancakes", ALICE, at=later(600)),
            message("always avoid pancakes", ALICE, at=later(300), kind=ItemKind.CONSTRAINT),
        ],
        WINDOW,
    )
    s2 = Scope(tenant_id="t1", user_id="alice", session_id="s2")
    await store.commit([message("other session pancakes", s2)], WINDOW)
    q = vec("pancakes")

    async def texts(flt: ItemFilter) -> tuple[set[str], set[str]]:
        lex = await store.lexical_search(flt, ["pancakes"], 10)
        vecs = await store.vector_search(flt, q, 10)
        lex_items = await store.get_items("t1", [c.item_id for c in lex])
        vec_items = await store.get_items("t1", [c.item_id for c in vecs])
        return {i.text for i in lex_items}, {i.text for i in vec_items}

    lex, vecs = await texts(ItemFilter(scope=ALICE, since=later(100)))
    assert lex == vecs == {"late dinner pancakes", "always avoid pancakes"}
    lex, vecs = await texts(ItemFilter(scope=ALICE, until=later(100)))
    assert lex == vecs == {"early breakfast pancakes"}
    lex, vecs = await texts(ItemFilter(scope=ALICE, kinds=(ItemKind.CONSTRAINT,)))
    assert lex == vecs == {"always avoid pancakes"}
    whole_user = Scope(tenant_id="t1", user_id="alice")
    lex, vecs = await texts(ItemFilter(scope=whole_user))
    assert lex == vecs
    assert "other session pancakes" in lex
    assert len(lex) == 4
    lex, vecs = await texts(ItemFilter(scope=whole_user, statuses=(ItemStatus.ARCHIVED,)))
    assert lex == vecs == set()


async def test_search_sees_writes_made_after_the_cache_was_built(store: Store) -> None:
    await store.commit([message("first memory about tea", ALICE)], WINDOW)
    assert len(await store.vector_search(ItemFilter(scope=ALICE), vec("tea"), 10)) == 1
    await store.commit([message("second memory about tea", ALICE)], WINDOW)
    assert len(await store.vector_search(ItemFilter(scope=ALICE), vec("tea"), 10)) == 2


async def test_load_scope_then_searches_see_the_scope_and_later_writes(store: Store) -> None:
    await store.load_scope(ALICE)  # an empty scope loads as nothing
    await store.commit([message("first memory about tea", ALICE)], WINDOW)
    await store.load_scope(ALICE)
    await store.load_scope(Scope(tenant_id="t1"))  # every user of the namespace
    await store.commit([message("second memory about tea", ALICE)], WINDOW)
    flt = ItemFilter(scope=ALICE)
    assert len(await store.vector_search(flt, vec("tea"), 10)) == 2
    assert len(await store.lexical_search(flt, ["tea"], 10)) == 2
    assert (
        len(await store.lexical_search(ItemFilter(scope=Scope(tenant_id="t1")), ["tea"], 10)) == 2
    )


async def test_readers_never_see_half_a_batch(store: Store) -> None:
    batch = 25
    seen: set[int] = set()
    done = asyncio.Event()

    async def reader() -> None:
        while not done.is_set():
            seen.add(await store.count_items(ItemFilter(scope=ALICE)))
            await asyncio.sleep(0)

    async def writer() -> None:
        for round_ in range(8):
            await store.commit(
                [message(f"round {round_} line {i}", ALICE) for i in range(batch)], WINDOW
            )
        done.set()

    await asyncio.gather(reader(), writer())
    assert seen, "the reader never ran"
    assert all(n % batch == 0 for n in seen), sorted(seen)


async def test_previous_events_are_the_latest_of_exactly_that_scope(
    store: Store, later: Callable[[int], datetime]
) -> None:
    assert await store.previous_events(ALICE, later(100)) == []
    await store.commit([message("first", ALICE, at=T0)], WINDOW)
    await store.commit([message("second", ALICE, at=later(10))], WINDOW)
    await store.commit([message("third", ALICE, at=later(20))], WINDOW)
    other_session = Scope(tenant_id="t1", user_id="alice", session_id="s2")
    await store.commit([message("elsewhere", other_session, at=later(15))], WINDOW)

    async def contents(before: datetime, limit: int = 1, exclude: Sequence[str] = ()) -> list[str]:
        found = await store.previous_events(ALICE, before, exclude=exclude, limit=limit)
        return [e.content for e in found]

    assert await contents(later(15)) == ["second"]
    assert await contents(later(999)) == ["third"]
    assert await contents(later(999), limit=5) == ["third", "second", "first"]
    assert await contents(later(15), limit=2) == ["second", "first"]
    assert await contents(T0 - timedelta(seconds=1), limit=5) == []


async def test_add_items_attaches_to_stored_events_once(store: Store) -> None:
    bare = message("queued message about violins", ALICE)
    items, bare.items, bare.processed = bare.items, [], False
    [result] = await store.commit([bare], WINDOW)
    assert result.item_ids == []
    assert await store.add_items(Attachment(items)) == [items[0].item.id]
    # a redelivered job builds new item objects for the same event: nothing changes
    again = message("queued message about violins", ALICE).items
    again[0].item = again[0].item.model_copy(update={"source_event_ids": [bare.event.id]})
    assert await store.add_items(Attachment(again)) == []
    found = await store.lexical_search(ItemFilter(scope=ALICE), ["violins"], 5)
    assert [c.item_id for c in found] == [items[0].item.id]
    assert len(await store.vector_search(ItemFilter(scope=ALICE), vec("violins"), 5)) == 1
    assert await store.add_items(Attachment([])) == []


async def test_nearest_gives_each_query_its_closest_item(store: Store) -> None:
    texts = ["green tea every morning", "the blue car is parked outside", "green tea at noon"]
    for text in texts:
        await store.commit([message(text, ALICE)], WINDOW)
    queries = np.vstack([vec("green tea every morning"), vec("a parked blue car"), vec("zzz")])
    hits = await store.nearest(ItemFilter(scope=ALICE), queries)
    assert len(hits) == 3
    assert hits[0] is not None
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)
    items = await store.get_items(ALICE.tenant_id, [h.item_id for h in hits if h is not None])
    assert [i.text for i in items[:2]] == [texts[0], texts[1]]
    assert await store.nearest(ItemFilter(scope=BOB), queries) == [None, None, None]


async def test_list_item_ids_is_newest_first_within_the_scope_and_time_range(
    store: Store,
) -> None:
    msgs = [message(f"note {n}", ALICE, at=T0 + timedelta(days=n)) for n in range(4)]
    await store.commit([*msgs, message("bob's note", BOB)], WINDOW)
    ids = [m.items[0].item.id for m in msgs]
    assert await store.list_item_ids(ItemFilter(scope=ALICE), 10) == ids[::-1]
    week = ItemFilter(scope=ALICE, since=T0 + timedelta(days=1), until=T0 + timedelta(days=2))
    assert await store.list_item_ids(week, 10) == [ids[2], ids[1]]
    assert await store.list_item_ids(ItemFilter(scope=ALICE), 2) == [ids[3], ids[2]]
    await store.forget_items(ItemsForgetting("t1", [ids[3]], ItemStatus.ARCHIVED, now=T0))
    assert await store.list_item_ids(ItemFilter(scope=ALICE), 10) == ids[2::-1]
    archived = ItemFilter(scope=ALICE, statuses=(ItemStatus.ARCHIVED,))
    assert await store.list_item_ids(archived, 10) == [ids[3]]
