"""The ``ListingStore`` role on every backend: a tenant's users from its raw events, and
items listed by scope, status, kind, time, tier and a piece of their text."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from cognimem.models import ItemKind, ItemStatus, Scope, Tier
from cognimem.models.directory import ItemText
from cognimem.store import ItemFilter, PendingMessage, Store
from cognimem.store.arguments import ItemsForgetting
from tests.contract.builders import ALICE, BOB, OTHER_NAMESPACE, OTHER_TENANT, SHARED, WINDOW
from tests.contract.conftest import T0, message

EVERY_STATUS = tuple(ItemStatus)


def with_tier(pending: PendingMessage, tier: Tier) -> PendingMessage:
    items = [replace(p, item=p.item.model_copy(update={"tier": tier})) for p in pending.items]
    return replace(pending, items=items)


async def test_users_are_the_tenants_named_users_most_recent_first(store: Store) -> None:
    await store.commit(
        [
            message("alice's first", ALICE),
            message("alice's second", ALICE, at=T0 + timedelta(minutes=1)),
            message("bob's", BOB.model_copy(update={"session_id": None})),
            message("no one's", SHARED),
            message("alice at work", OTHER_NAMESPACE),
            message("another tenant's alice", OTHER_TENANT),
        ],
        WINDOW,
    )
    users = await store.list_users("t1", 10)
    # the newest event first; ties by namespace and user
    assert [(u.namespace, u.user_id, u.events, u.last_event_at) for u in users] == [
        ("default", "alice", 2, T0 + timedelta(minutes=1)),
        ("default", "bob", 1, T0),
        ("work", "alice", 1, T0),
    ]
    assert [u.user_id for u in await store.list_users("t2", 10)] == ["alice"]
    assert len(await store.list_users("t1", 2)) == 2
    assert await store.list_users("t3", 10) == []


async def test_items_are_listed_by_status_kind_time_tier_and_text(store: Store) -> None:
    said = [
        message("I adopted a cat named Miso", ALICE),
        with_tier(message("Always answer in French", ALICE, kind=ItemKind.MANDATE), Tier.ALWAYS),
        message("MISO soup for lunch", ALICE, at=T0 + timedelta(days=1)),
        message("Miso is Bob's cat too", BOB),
        message("a miso from another tenant", OTHER_TENANT),
        message("Café Miso, Zoë's favourite", ALICE, at=T0 + timedelta(days=2)),
    ]
    results = await store.commit(said, WINDOW)
    cat, french, soup, _, _, cafe = (r.item_ids[0] for r in results)
    await store.forget_items(
        ItemsForgetting("t1", [soup], ItemStatus.ARCHIVED, now=T0 + timedelta(days=3))
    )
    everything = ItemFilter(ALICE.model_copy(update={"session_id": None}), statuses=EVERY_STATUS)

    async def ids(flt: ItemFilter = everything, text: ItemText | None = None) -> list[str]:
        return [i.id for i in await store.list_items(flt, text or ItemText(), 10)]

    # newest first, the user's own only
    assert await ids() == [cafe, soup, french, cat]
    assert await ids(text=ItemText(contains="miso")) == [cafe, soup, cat]
    # ASCII letters match without regard to case, everything else exactly
    assert await ids(text=ItemText(contains="cAfé mIsO")) == [cafe]
    assert await ids(text=ItemText(contains="zoë")) == [cafe]
    assert await ids(text=ItemText(contains="ZOË")) == []
    assert await ids(text=ItemText(tiers=(Tier.ALWAYS,))) == [french]
    assert await ids(text=ItemText(tiers=(Tier.MEDIUM,), contains="soup")) == [soup]
    assert await ids(replace(everything, kinds=(ItemKind.MANDATE,))) == [french]
    assert await ids(replace(everything, since=T0 + timedelta(days=1))) == [cafe, soup]
    assert await ids(replace(everything, until=T0 + timedelta(days=1))) == [soup, french, cat]
    assert [i.id for i in await store.list_items(everything, ItemText(), 2)] == [cafe, soup]
    # by status: the archived soup is listed only when archived items are asked for
    active = replace(everything, statuses=(ItemStatus.ACTIVE,))
    assert await ids(active, ItemText(contains="miso")) == [cafe, cat]
    archived = await store.list_items(
        replace(everything, statuses=(ItemStatus.ARCHIVED,)), ItemText(), 10
    )
    assert [(i.id, i.status) for i in archived] == [(soup, ItemStatus.ARCHIVED)]
    # every user of the tenant
    shared = ItemFilter(Scope(tenant_id="t1"), statuses=EVERY_STATUS)
    assert len(await ids(shared, ItemText(contains="miso"))) == 4


async def test_listed_items_carry_their_usage_counters(store: Store) -> None:
    """The counters live in ``item_usage`` (migration 14): a listing shows what reads and
    turns counted, as ``get_items`` does."""
    [r] = await store.commit([message("a counted memory", ALICE)], WINDOW)
    [item_id] = r.item_ids
    await store.record_access("t1", [item_id], T0 + timedelta(hours=1))
    await store.record_usage("t1", [item_id], {"cited_count": 2})
    [listed] = await store.list_items(ItemFilter(ALICE), ItemText(), 10)
    [got] = await store.get_items("t1", [item_id])
    assert (listed.access_count, listed.cited_count) == (1, 2)
    assert listed.last_accessed_at == T0 + timedelta(hours=1)
    assert (listed.access_count, listed.cited_count) == (got.access_count, got.cited_count)


def with_external_ids(pending: PendingMessage, *ids: str) -> PendingMessage:
    items = [
        replace(p, item=p.item.model_copy(update={"external_ids": list(ids)}))
        for p in pending.items
    ]
    return replace(pending, items=items)


async def test_items_are_listed_by_the_external_id_of_their_message(store: Store) -> None:
    """An id matches one of an item's ``external_ids`` exactly: not a piece of one, not
    another user's, not another tenant's (the integrations find a stored key this way)."""
    results = await store.commit(
        [
            with_external_ids(message("the first note", ALICE), "note-1"),
            with_external_ids(message("the second note", ALICE), "note-10", "x"),
            with_external_ids(message("bob's first note", BOB), "note-1"),
            with_external_ids(message("another tenant's note", OTHER_TENANT), "note-1"),
        ],
        WINDOW,
    )
    first, second = (r.item_ids[0] for r in results[:2])
    alice = ItemFilter(ALICE.model_copy(update={"session_id": None}))

    async def ids(external_id: str) -> list[str]:
        return [i.id for i in await store.list_items(alice, ItemText(external_id=external_id), 10)]

    assert await ids("note-1") == [first]
    assert await ids("note-10") == [second]
    assert await ids("x") == [second]
    assert await ids("note") == []
    everyone = ItemFilter(Scope(tenant_id="t1"))
    assert len(await store.list_items(everyone, ItemText(external_id="note-1"), 10)) == 2
