"""The ``RecallFetchStore`` role on every backend: what a read needs from two store
methods, in one call, equal to what the two methods answer."""

from __future__ import annotations

from datetime import timedelta

from cognimem.models import Scope
from cognimem.models.ids import new_id
from cognimem.models.knowledge import ConflictStatus, FactConflict, FactStatus
from cognimem.store import Store
from cognimem.store.arguments import KnowledgeView
from cognimem.store.types import Knowledge
from tests.contract.builders import (
    ALICE,
    BOB,
    OTHER_TENANT,
    SHARED,
    WINDOW,
    alias,
    entity,
    fact,
    new,
    put,
    relation,
)
from tests.contract.conftest import T0, message


async def test_fact_rows_and_conflicts_are_the_two_reads_in_one(store: Store) -> None:
    mine = fact("user:preference:drink:tea", "tea")
    older = fact("user:identity:name", "Al", at=T0 - timedelta(days=1))
    gone = fact("user:identity:name", "Alan", status=FactStatus.SUPERSEDED)
    bobs = fact("user:preference:drink:coffee", "coffee", scope=BOB)
    await store.commit([], WINDOW, Knowledge(facts=new(mine, older, gone, bobs)))

    def conflict(scope: Scope, status: ConflictStatus = ConflictStatus.OPEN) -> FactConflict:
        return FactConflict(
            id=new_id("cfl"),
            scope=scope,
            key="user:pet",
            fact_ids=["f1", "f2"],
            created_at=T0,
            status=status,
        )

    open_one, resolved, far = (
        conflict(ALICE),
        conflict(ALICE, ConflictStatus.RESOLVED),
        conflict(OTHER_TENANT),
    )
    await put(store, conflicts=[open_one, resolved, far])
    a = ALICE
    rows, conflicts = await store.fact_rows_and_conflicts(a.tenant_id, a.namespace, a.user_id, 10)
    alone = await store.fact_rows(a.tenant_id, a.namespace, a.user_id, 10)
    assert rows.ids == alone.ids == [mine.id, older.id]
    assert rows.words == alone.words
    assert conflicts == await store.find_conflicts(
        KnowledgeView(a.tenant_id, a.namespace, a.user_id)
    )
    assert conflicts == [open_one]
    # the limit holds, and a user with neither gets neither
    assert (await store.fact_rows_and_conflicts("t1", "default", ALICE.user_id, 1))[0].ids == [
        mine.id
    ]
    nobody, none = await store.fact_rows_and_conflicts("t1", "default", "carol", 10)
    assert (nobody.ids, none) == ([], [])


async def test_a_users_fact_rows_come_with_the_shared_ones_in_one_call(store: Store) -> None:
    mine = fact("user:preference:drink:tea", "tea")
    org = fact("user:preference:drink:water", "water", scope=SHARED)
    agents = fact(
        "user:preference:drink:juice",
        "juice",
        scope=SHARED.model_copy(update={"agent_id": "helper"}),
    )
    far = fact("user:preference:drink:milk", "milk", scope=Scope(tenant_id="t2"))
    await store.commit([], WINDOW, Knowledge(facts=new(mine, org, agents, far)))
    rows, conflicts, shared = await store.fact_rows_conflicts_shared("t1", "default", "alice", 10)
    assert rows.ids == [mine.id]
    assert conflicts == []
    # every fact of no user in the tenant's namespace: the read keeps those that reach it
    assert set(shared.ids) == {org.id, agents.id}


async def test_items_and_facts_are_the_two_reads_in_one(store: Store) -> None:
    results = await store.commit([message("I adopted a cat", ALICE), message("tea", ALICE)], WINDOW)
    cat, tea = (r.item_ids[0] for r in results)
    elsewhere = (await store.commit([message("far away", OTHER_TENANT)], WINDOW))[0].item_ids[0]
    f1, f2 = fact("user:pet", "cat"), fact("user:preference:drink:tea", "tea")
    await store.commit([], WINDOW, Knowledge(facts=new(f1, f2)))
    item_ids = [tea, "itm_missing", cat, elsewhere]
    fact_ids = [f2.id, "fct_missing", f1.id]
    items, facts = await store.items_and_facts("t1", item_ids, fact_ids)
    # in the order asked, the missing and the other tenant's left out: as the two methods
    assert items == await store.get_items("t1", item_ids)
    assert [i.id for i in items] == [tea, cat]
    assert facts == await store.get_facts("t1", fact_ids)
    assert [f.id for f in facts] == [f2.id, f1.id]
    assert await store.items_and_facts("t1", [], []) == ([], [])
    assert await store.items_and_facts("t1", [cat], []) == (await store.get_items("t1", [cat]), [])
    assert await store.items_and_facts("t1", [], [f1.id]) == ([], [f1])


async def test_aliases_and_graph_read_the_edges_only_for_a_known_name(store: Store) -> None:
    ann, bob, paris = entity("ann"), entity("bob"), entity("paris")
    await put(
        store,
        entities=[ann, bob, paris],
        aliases=[alias(ann, "ann", "alice"), alias(bob, "bob", "alice")],
        relations=[relation(ann, bob), relation(bob, paris)],
    )
    found, edges = await store.aliases_and_graph(
        KnowledgeView("t1", "default", "alice"), ["ann", "zed"], 100
    )
    assert found == await store.find_aliases(
        KnowledgeView("t1", "default", "alice"), ["ann", "zed"]
    )
    assert [a.entity_id for a in found] == [ann.id]
    assert edges == await store.graph_edges("t1", "default", "alice", 100)
    assert len(edges) == 2
    assert (await store.aliases_and_graph(KnowledgeView("t1", "default", "alice"), ["ann"], 1))[
        1
    ] == edges[:1]
    # no name known: no aliases, and the graph is not read
    assert await store.aliases_and_graph(KnowledgeView("t1", "default", "alice"), ["zed"], 100) == (
        [],
        [],
    )
    assert await store.aliases_and_graph(KnowledgeView("t1", "default", "bob"), ["ann"], 100) == (
        [],
        [],
    )


async def test_items_read_for_a_read_carry_their_usage_counters(store: Store) -> None:
    """The rerank's utility reads the counters in ``item_usage`` (migration 14); the
    items' own counter columns are no longer written."""
    [r] = await store.commit([message("a cited memory", ALICE)], WINDOW)
    [item_id] = r.item_ids
    await store.record_usage("t1", [item_id], {"loaded_count": 3, "cited_count": 2})
    await store.record_access("t1", [item_id], T0 + timedelta(hours=1))
    [got], _ = await store.items_and_facts("t1", [item_id], [])
    assert (got.loaded_count, got.cited_count, got.access_count) == (3, 2, 1)
    assert got == (await store.get_items("t1", [item_id]))[0]
