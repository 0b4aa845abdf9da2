"""``erase_level`` on both backends: one shared level's rows go (an agent's, or the
organisation's with ``agent_id=None``), and what points at them; a user's rows,
another level's and another tenant's stay. A store that cached the shared rows before
another store erased them (another process, as far as its caches can tell) reads what
a store loading them afresh reads."""

from __future__ import annotations

from cognimem.models import Scope
from cognimem.store import ItemFilter, Store
from cognimem.store.types import FactRows, Knowledge
from tests.contract.builders import WINDOW, entity, fact, new, put, relation
from tests.contract.conftest import message, twin

ORG = Scope(tenant_id="t1")
OPS = Scope(tenant_id="t1", agent_id="ops")
ALICE = Scope(tenant_id="t1", user_id="alice")
GLOBEX = Scope(tenant_id="t2")
EVERYONE = ItemFilter(scope=ORG)  # every user's and level's rows of the namespace


def _level(scope: Scope) -> ItemFilter:
    return ItemFilter(scope=scope, level_only=True)


async def _found(store: Store, flt: ItemFilter, terms: list[str]) -> list[str]:
    return sorted(c.item_id for c in await store.lexical_search(flt, terms, 50))


async def _as_fresh(reader: Store, flt: ItemFilter, terms: list[str]) -> list[str]:
    """``reader``'s lexical results, asserted equal to those of a store that never
    cached them."""
    fresh = twin(reader)
    await fresh.open()
    try:
        theirs = await _found(fresh, flt, terms)
    finally:
        await fresh.close()
    ours = await _found(reader, flt, terms)
    assert ours == theirs, terms
    return ours


async def _shared_rows(reader: Store) -> list[str]:
    """The fact rows of no user a user's read scores, asserted as a fresh store's."""

    async def rows(store: Store) -> FactRows:
        return (await store.fact_rows_conflicts_shared("t1", "default", "alice", 50))[2]

    fresh = twin(reader)
    await fresh.open()
    try:
        theirs = await rows(fresh)
    finally:
        await fresh.close()
    ours = await rows(reader)
    assert ours.ids == theirs.ids
    return sorted(ours.ids)


async def test_erasing_the_organisation_leaves_users_agents_and_tenants(
    store: Store, writer: Store
) -> None:
    [org] = await writer.commit([message("the office moved to leeds", ORG)], WINDOW)
    [ops] = await writer.commit([message("the ops office runbook", OPS)], WINDOW)
    [alice] = await writer.commit([message("my office is at home", ALICE)], WINDOW)
    [globex] = await writer.commit([message("the globex office", GLOBEX)], WINDOW)
    org_fact, ops_fact = fact("org:office", "leeds", ORG), fact("org:runbook", "wiki", OPS)
    alices = fact("user:office", "home", ALICE)
    await writer.commit([], WINDOW, Knowledge(facts=new(org_fact, ops_fact, alices)))
    # warm the reader's caches first
    assert len(await _found(store, EVERYONE, ["office"])) == 3
    assert await _shared_rows(store) == sorted([org_fact.id, ops_fact.id])

    report = await writer.erase_level("t1", None, "default")

    assert report.removed["items"] == 1
    assert report.removed["events"] == 1
    assert report.removed["facts"] == 1
    assert report.content_hashes
    assert await _as_fresh(store, EVERYONE, ["office"]) == sorted([*ops.item_ids, *alice.item_ids])
    assert await _as_fresh(store, _level(ORG), ["office"]) == []
    assert await _shared_rows(store) == [ops_fact.id]
    assert [f.id for f in await store.get_facts("t1", [alices.id])] == [alices.id]
    assert await store.get_items("t1", org.item_ids) == []
    assert len(await store.get_items("t2", globex.item_ids)) == 1
    assert await store.get_events("t1", [org.event_id]) == []
    assert len(await store.get_events("t1", [alice.event_id, ops.event_id])) == 2


async def test_erasing_an_agent_takes_its_entities_only_where_nothing_else_names_them(
    store: Store,
) -> None:
    [ops] = await store.commit([message("the ops deploy window", OPS)], WINDOW)
    [sales] = await store.commit([message("the sales deploy window", Scope(
        tenant_id="t1", agent_id="sales"))], WINDOW)  # fmt: skip
    alone, kept, users = entity("Runbook", ORG), entity("Leeds", ORG), entity("Ada", ALICE)
    ops_fact = fact("org:runbook", "wiki", OPS, subject_entity_id=alone.id)
    org_fact = fact("org:office", "leeds", ORG, object_entity_id=kept.id)
    await put(
        store,
        entities=[alone, kept, users],
        facts=new(ops_fact, org_fact),
        relations=[relation(alone, kept, OPS), relation(users, kept, ALICE)],
    )

    report = await store.erase_level("t1", "ops", None)

    assert report.removed["relations"] == 1
    assert report.removed["entities"] == 1
    left = await store.get_entities("t1", [alone.id, kept.id, users.id])
    assert sorted(e.id for e in left) == sorted([kept.id, users.id])
    assert await store.get_items("t1", ops.item_ids) == []
    assert len(await store.get_items("t1", sales.item_ids)) == 1
    assert [f.id for f in await store.get_facts("t1", [ops_fact.id, org_fact.id])] == [org_fact.id]
