"""The ``KnowledgeStore`` role on every backend: knowledge records round trip, and
are found and isolated by tenant, namespace and user."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from cognimem.models import Scope
from cognimem.models.ids import new_id
from cognimem.models.knowledge import (
    Alias,
    ConflictStatus,
    ConflictStrategy,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.store import Store
from cognimem.store.arguments import KnowledgeView
from cognimem.store.types import (
    FactUpdate,
    GraphEdge,
    Knowledge,
)
from tests.contract.builders import (
    ALICE,
    BOB,
    CUISINE,
    OTHER_NAMESPACE,
    OTHER_TENANT,
    SHARED,
    WINDOW,
    alias,
    entity,
    fact,
    new,
    put,
    query,
    relation,
)
from tests.contract.conftest import T0, vec


async def test_every_knowledge_record_round_trips(store: Store) -> None:
    mom, clinic = entity("mom"), entity("clinic", SHARED)
    mom = mom.model_copy(
        update={"external_ref": "crm:42", "properties": {"age": 61, "tags": ["a"]}}
    )
    f = fact(
        f"{CUISINE}:italian",
        "italian",
        category=FactCategory.VALUE,
        status=FactStatus.AGING,
        at=T0 + timedelta(microseconds=123_457),
        subject_entity_id=mom.id,
        object_entity_id=clinic.id,
        polarity=False,
        scope_tags=["food", "health"],
        confidence=0.8125,
        confidence_factors={"source": 0.9, "recency": 0.25},
        reinforcement_count=3,
        superseded_by="fact_next",
        valid_from=datetime(2023, 5, 1, 8, 30, 0, 1, tzinfo=UTC),
        valid_to=datetime(2025, 5, 1, tzinfo=UTC),
        evidence_item_ids=["mem_1", "mem_2"],
        evidence_event_ids=["evt_1"],
        importance=0.9,
        revision=4,
        embedding_model="hash-64",
    )
    f = f.model_copy(update={"last_validated_at": T0 + timedelta(days=2, microseconds=7)})
    rel = relation(mom, clinic, fact_id=f.id)
    conflict = FactConflict(
        id=new_id("cfl"),
        scope=ALICE,
        key=CUISINE,
        fact_ids=[f.id, "fact_other"],
        strategy=ConflictStrategy.ASK_USER,
        status=ConflictStatus.RESOLVED,
        winner_fact_id=f.id,
        created_at=T0,
        resolved_at=T0 + timedelta(hours=1),
        note="asked on monday",
    )
    entry = HistoryEntry(
        id=new_id("his"),
        tenant_id="t1",
        target_type="fact",
        target_id=f.id,
        action="created",
        actor="worker-1",
        at=T0,
        before={"value": "thai", "n": 1.5, "nested": {"ok": True}},
        after={"value": "italian"},
        event_id="evt_1",
    )
    await put(
        store,
        entities=[mom, clinic],
        aliases=[alias(mom, "mom", "alice")],
        facts=new(f),
        relations=[rel],
        conflicts=[conflict],
        history=[entry],
    )

    assert await store.get_facts("t1", [f.id]) == [f]
    assert await store.find_facts(query(keys=(CUISINE,))) == [f]
    assert await store.get_entities("t1", [clinic.id, "ent_missing", mom.id]) == [clinic, mom]
    assert await store.find_aliases(KnowledgeView("t1", "default", "alice"), ["mom"]) == [
        alias(mom, "mom", "alice")
    ]
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [clinic.id]) == [rel]
    assert await store.find_conflicts(KnowledgeView("t1", "default", "alice"), open_only=False) == [
        conflict
    ]
    assert await store.find_conflicts(KnowledgeView("t1", "default", "alice")) == []  # resolved
    assert await store.get_history("t1", f.id) == [entry]


async def test_all_users_lists_every_users_knowledge_and_none_means_no_user(
    store: Store,
) -> None:
    mom, dad, office = entity("mom"), entity("dad", BOB), entity("office", SHARED)
    facts = [fact(CUISINE, "thai"), fact(CUISINE, "ramen", BOB), fact(CUISINE, "soup", SHARED)]
    rels = [relation(mom, office), relation(dad, office, BOB), relation(office, mom, SHARED)]
    conflicts = [
        FactConflict(id=new_id("cfl"), scope=s, key=CUISINE, fact_ids=[], created_at=T0)
        for s in (ALICE, BOB, SHARED)
    ]
    await put(
        store,
        entities=[mom, dad, office],
        aliases=[alias(mom, "mom", "alice"), alias(dad, "dad", "bob"), alias(office, "hq", None)],
        facts=new(*facts),
        relations=rels,
        conflicts=conflicts,
    )
    other = fact(CUISINE, "pho", OTHER_TENANT)
    await put(store, facts=new(other))

    def ids(found: list[Any]) -> set[str]:
        return {f.id for f in found}

    everyone = await store.find_facts(query(SHARED, all_users=True))
    assert ids(everyone) == ids(facts)
    assert ids(await store.find_facts(query(SHARED))) == {facts[2].id}  # no user's
    assert ids(await store.find_facts(query(BOB))) == {facts[1].id}
    spanned = await store.find_aliases(KnowledgeView("t1", "default", None, all_users=True), None)
    assert {a.alias for a in spanned} == {"mom", "dad", "hq"}
    assert {
        a.alias for a in await store.find_aliases(KnowledgeView("t1", "default", None), None)
    } == {"hq"}
    touching = [office.id]
    assert ids(
        await store.find_relations(KnowledgeView("t1", "default", None, all_users=True), touching)
    ) == ids(rels)
    assert ids(await store.find_relations(KnowledgeView("t1", "default", "bob"), touching)) == ids(
        rels[1:]
    )
    spanned_conflicts = await store.find_conflicts(
        KnowledgeView("t1", "default", None, all_users=True)
    )
    assert ids(spanned_conflicts) == ids(conflicts)
    assert ids(await store.find_conflicts(KnowledgeView("t1", "default", None))) == {
        conflicts[2].id
    }


async def test_history_is_oldest_first_and_keeps_datetimes_as_text(store: Store) -> None:
    entries = [
        HistoryEntry(
            id=new_id("his"),
            tenant_id="t1",
            target_type="item",
            target_id="mem_1",
            action=action,
            at=T0,
            after={"at": T0} if action == "silenced" else None,
        )
        for action in ("created", "merged", "silenced")
    ]
    await put(store, history=entries)
    found = await store.get_history("t1", "mem_1")
    assert [h.action for h in found] == ["created", "merged", "silenced"]
    assert found[2].after == {"at": str(T0)}


async def test_keys_match_exactly_or_as_the_base_of_multi_valued_keys(store: Store) -> None:
    base = fact(CUISINE, "any", at=T0)
    italian = fact(f"{CUISINE}:italian", "italian", at=T0 + timedelta(minutes=1))
    thai = fact(f"{CUISINE}:thai", "thai", at=T0 + timedelta(minutes=2))
    plural = fact(f"{CUISINE}s", "many", at=T0 + timedelta(minutes=3))
    dashed = fact(f"{CUISINE}-style", "fusion", at=T0 + timedelta(minutes=4))
    semicolon = fact(f"{CUISINE};x", "odd", at=T0 + timedelta(minutes=5))
    await put(store, facts=new(base, italian, thai, plural, dashed, semicolon))

    found = await store.find_facts(query(keys=(CUISINE,)))
    assert [f.id for f in found] == [thai.id, italian.id, base.id]  # newest first
    assert [f.id for f in await store.find_facts(query(keys=(f"{CUISINE}:italian",)))] == [
        italian.id
    ]
    two = await store.find_facts(query(keys=(f"{CUISINE}s", f"{CUISINE}:thai")))
    assert [f.id for f in two] == [plural.id, thai.id]
    assert await store.find_facts(query(keys=())) == []
    assert len(await store.find_facts(query())) == 6


async def test_facts_recorded_at_once_come_newest_inserted_first(store: Store) -> None:
    first, second = fact("user:pet", "cat"), fact("user:pet:dog", "dog")
    await put(store, facts=new(first))
    await put(store, facts=new(second))
    assert [f.id for f in await store.find_facts(query(keys=("user:pet",)))] == [
        second.id,
        first.id,
    ]
    assert [f.id for f in await store.find_facts(query(keys=("user:pet",), limit=1))] == [second.id]


async def test_status_and_category_filters(store: Store) -> None:
    active = fact("user:location:city", "Lyon")
    aging = fact("user:occupation", "nurse", category=FactCategory.OCCUPATION)
    aging = aging.model_copy(update={"status": FactStatus.AGING})
    superseded = fact("user:location:city", "Paris", status=FactStatus.SUPERSEDED)
    invalid = fact("user:goal", "run", category=FactCategory.GOAL, status=FactStatus.INVALIDATED)
    await put(store, facts=new(active, aging, superseded, invalid))

    assert {f.id for f in await store.find_facts(query())} == {active.id, aging.id}
    assert len(await store.find_facts(query(statuses=None))) == 4
    only = await store.find_facts(query(statuses=(FactStatus.SUPERSEDED,)))
    assert [f.id for f in only] == [superseded.id]
    jobs = await store.find_facts(query(categories=(FactCategory.OCCUPATION,)))
    assert [f.id for f in jobs] == [aging.id]
    goals = await store.find_facts(
        query(statuses=None, categories=(FactCategory.GOAL, FactCategory.VALUE))
    )
    assert [f.id for f in goals] == [invalid.id]


async def test_facts_are_isolated_by_tenant_namespace_and_user(store: Store) -> None:
    by_scope = {
        scope: fact("user:pet", scope.user_id or "nobody", scope)
        for scope in (ALICE, BOB, SHARED, OTHER_TENANT, OTHER_NAMESPACE)
    }
    await put(store, facts=new(*by_scope.values()))
    for scope, f in by_scope.items():
        assert [x.id for x in await store.find_facts(query(scope))] == [f.id]
    # the session is provenance, not a filter
    elsewhere = Scope(tenant_id="t1", user_id="alice", session_id="s9")
    assert [x.id for x in await store.find_facts(query(elsewhere))] == [by_scope[ALICE].id]
    assert await store.get_facts("t2", [by_scope[ALICE].id]) == []


async def test_aliases_are_the_users_own_plus_the_namespaces_shared_ones(store: Store) -> None:
    clinic, mom_a, mom_b = entity("clinic", SHARED), entity("mom a"), entity("mom b", BOB)
    far = entity("mom t2", OTHER_TENANT)
    await put(
        store,
        entities=[clinic, mom_a, mom_b, far],
        aliases=[
            alias(clinic, "the clinic", None),
            alias(mom_a, "mom", "alice"),
            alias(mom_b, "mom", "bob"),
            alias(far, "mom", "alice"),
        ],
    )

    def seen(found: list[Alias]) -> set[tuple[str, str]]:
        return {(a.alias, a.entity_id) for a in found}

    assert seen(await store.find_aliases(KnowledgeView("t1", "default", "alice"), None)) == {
        ("the clinic", clinic.id),
        ("mom", mom_a.id),
    }
    assert seen(await store.find_aliases(KnowledgeView("t1", "default", "bob"), ["mom"])) == {
        ("mom", mom_b.id)
    }
    assert seen(await store.find_aliases(KnowledgeView("t1", "default", None), None)) == {
        ("the clinic", clinic.id)
    }
    assert seen(await store.find_aliases(KnowledgeView("t2", "default", "alice"), None)) == {
        ("mom", far.id)
    }
    assert await store.find_aliases(KnowledgeView("t1", "work", "alice"), None) == []
    assert await store.find_aliases(KnowledgeView("t1", "default", "alice"), []) == []
    [shared] = await store.find_aliases(KnowledgeView("t1", "default", "alice"), ["the clinic"])
    assert shared.user_id is None


async def test_alias_upsert_counts_uses_and_keeps_the_best_confidence(store: Store) -> None:
    mom, gran = entity("mom"), entity("gran")
    await put(store, entities=[mom, gran], aliases=[alias(mom, "mom", "alice", 0.6)])
    await put(store, aliases=[alias(mom, "mom", "alice", 0.9)])
    # twice in one write counts twice; an alias of an unknown entity is dropped
    ghost = alias(entity("ghost"), "ghost", "alice")
    await put(
        store,
        aliases=[alias(mom, "mom", "alice", 0.5), alias(mom, "mom", "alice", 0.5), ghost],
    )
    await put(store, aliases=[ghost])
    await put(store, aliases=[alias(gran, "nana", "alice")])
    found = await store.find_aliases(KnowledgeView("t1", "default", "alice"), None)
    assert [(a.alias, a.use_count, a.confidence) for a in found] == [
        ("mom", 4, 0.9),
        ("nana", 1, 0.8),
    ]


async def test_relations_are_isolated_and_visible_to_the_user(store: Store) -> None:
    a, b, c = entity("a"), entity("b"), entity("c")
    mine, shared = relation(a, b, ALICE), relation(b, c, SHARED)
    bobs, far = relation(a, c, BOB), relation(a, b, OTHER_TENANT)
    await put(store, entities=[a, b, c], relations=[mine, shared, bobs, far])
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [b.id]) == [
        mine,
        shared,
    ]
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [a.id]) == [mine]
    assert await store.find_relations(KnowledgeView("t1", "default", "bob"), [a.id, c.id]) == [
        shared,
        bobs,
    ]
    assert await store.find_relations(KnowledgeView("t1", "default", None), [a.id, b.id, c.id]) == [
        shared
    ]
    assert await store.find_relations(KnowledgeView("t2", "default", "alice"), [a.id]) == [far]
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), []) == []


def as_edge(r: Relation, *item_ids: str) -> GraphEdge:
    return GraphEdge(
        source_entity_id=r.source_entity_id,
        target_entity_id=r.target_entity_id,
        relation=r.relation,
        confidence=r.confidence,
        fact_id=r.fact_id,
        item_ids=item_ids,
    )


async def test_graph_edges_are_the_visible_active_edges_newest_first(store: Store) -> None:
    a, b, c, d = entity("a"), entity("b"), entity("c"), entity("d")
    live = fact("user:relationship:sister", "b", evidence_item_ids=["mem_1", "mem_2"])
    aging = fact("org:member:c", "c", SHARED, status=FactStatus.AGING, evidence_item_ids=["mem_4"])
    gone = fact(
        "user:relationship:friend", "c", status=FactStatus.SUPERSEDED, evidence_item_ids=["mem_3"]
    )

    def at(r: Relation, minutes: int, **update: Any) -> Relation:
        return r.model_copy(update={"created_at": T0 + timedelta(minutes=minutes), **update})

    mine = at(relation(a, b, fact_id=live.id), 1, confidence=0.9)
    shared = at(relation(b, c, SHARED, fact_id=aging.id), 2)
    stale = at(relation(a, c, fact_id=gone.id), 3)  # still active; its fact is not live
    bare = at(relation(c, d), 4)
    await put(
        store,
        entities=[a, b, c, d],
        facts=new(live, aging, gone),
        relations=[
            bare, shared, stale, mine,  # inserted out of time order
            at(relation(a, d), 5, active=False),
            at(relation(a, c, BOB), 6),
            at(relation(a, b, OTHER_TENANT), 7),
            at(relation(a, b, OTHER_NAMESPACE), 8),
        ],
    )  # fmt: skip

    expected = [
        as_edge(bare),
        as_edge(stale),
        as_edge(shared, "mem_4"),
        as_edge(mine, "mem_1", "mem_2"),
    ]
    assert await store.graph_edges("t1", "default", "alice", 100) == expected
    assert await store.graph_edges("t1", "default", "alice", 2) == expected[:2]
    assert await store.graph_edges("t1", "default", None, 100) == [as_edge(shared, "mem_4")]
    bobs = await store.graph_edges("t1", "default", "bob", 100)
    assert [(e.source_entity_id, e.target_entity_id) for e in bobs] == [(a.id, c.id), (b.id, c.id)]
    assert len(await store.graph_edges("t2", "default", "alice", 100)) == 1
    assert len(await store.graph_edges("t1", "work", "alice", 100)) == 1
    assert await store.graph_edges("t1", "default", "carol", 100) == [as_edge(shared, "mem_4")]


async def test_graph_edges_follow_their_facts_and_break_ties_by_insertion(store: Store) -> None:
    a, b, c = entity("a"), entity("b"), entity("c")
    partner = fact("user:relationship:partner", "b", evidence_item_ids=["mem_1"])
    first = relation(a, b, fact_id=partner.id)
    second = relation(a, c)  # the same created_at, written later
    await put(store, entities=[a, b, c], facts=new(partner), relations=[first])
    await put(store, relations=[second])
    assert await store.graph_edges("t1", "default", "alice", 10) == [
        as_edge(second),
        as_edge(first, "mem_1"),
    ]
    # the fact is superseded: its edge is deactivated and leaves the graph
    replaced = partner.model_copy(update={"status": FactStatus.SUPERSEDED, "revision": 2})
    await put(store, fact_updates=[FactUpdate(fact=replaced, expected_revision=1)])
    assert await store.graph_edges("t1", "default", "alice", 10) == [as_edge(second)]


async def test_conflicts_and_history_are_isolated(store: Store) -> None:
    def conflict(scope: Scope) -> FactConflict:
        return FactConflict(
            id=new_id("cfl"), scope=scope, key="user:pet", fact_ids=["f1", "f2"], created_at=T0
        )

    mine, bobs, far = conflict(ALICE), conflict(BOB), conflict(OTHER_TENANT)
    history = [
        HistoryEntry(
            id=new_id("his"), tenant_id=t, target_type="fact", target_id="f1", action="x", at=T0
        )
        for t in ("t1", "t2")
    ]
    await put(store, conflicts=[mine, bobs, far], history=history)
    assert await store.find_conflicts(KnowledgeView("t1", "default", "alice")) == [mine]
    assert await store.find_conflicts(KnowledgeView("t1", "default", "bob")) == [bobs]
    assert await store.find_conflicts(KnowledgeView("t2", "default", "alice")) == [far]
    assert await store.find_conflicts(KnowledgeView("t1", "default", None)) == []
    assert await store.get_history("t1", "f1") == [history[0]]
    assert await store.get_history("t2", "f1") == [history[1]]


async def test_fact_rows_are_the_live_facts_newest_first(store: Store) -> None:
    old = fact("user:value:diet", "vegetarian", category=FactCategory.VALUE, scope_tags=["food"])
    gone = fact("user:identity:name", "Al", status=FactStatus.SUPERSEDED)
    await store.commit([], WINDOW, Knowledge(facts=new(old, gone)))
    later = fact("user:preference:drink:tea", "tea", at=T0 + timedelta(days=1))
    await store.commit([], WINDOW, Knowledge(facts=new(later)))
    rows = await store.fact_rows(ALICE.tenant_id, ALICE.namespace, ALICE.user_id, 10)
    assert rows.ids == [later.id, old.id]
    assert rows.categories == ["preference", "value"]
    assert rows.scope_tags[1] == ["food"]
    assert {"vegetarian", "diet"} <= rows.words[1]
    assert rows.matrix is not None
    assert np.allclose(rows.matrix[0], vec(later.text), atol=1e-6)
    assert (await store.fact_rows(ALICE.tenant_id, ALICE.namespace, "bob", 10)).ids == []
