"""The knowledge layer every Store must keep: facts, entities, aliases, relations,
conflicts and history, written with messages (or an async job's items) in one
transaction and guarded against concurrent reconciliation."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cognimem.errors import StaleKnowledge
from cognimem.models import ItemStatus, Scope, WriteOutcome
from cognimem.models.ids import new_id
from cognimem.models.knowledge import (
    Alias,
    AliasSource,
    ConflictStatus,
    ConflictStrategy,
    Entity,
    EntityType,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.store import ItemFilter, PendingMessage, Store
from cognimem.store.base import (
    FactQuery,
    FactUpdate,
    GraphEdge,
    KeyState,
    Knowledge,
    PendingFact,
)
from tests import services
from tests.contract.conftest import T0, message, vec

ALICE = Scope(tenant_id="t1", user_id="alice", session_id="s1")
BOB = Scope(tenant_id="t1", user_id="bob")
SHARED = Scope(tenant_id="t1")  # the namespace's, no user
OTHER_TENANT = Scope(tenant_id="t2", user_id="alice")
OTHER_NAMESPACE = Scope(tenant_id="t1", user_id="alice", namespace="work")
WINDOW = 300.0
CUISINE = "user:preference:cuisine"


def fact(
    key: str,
    value: str,
    scope: Scope = ALICE,
    *,
    category: FactCategory = FactCategory.PREFERENCE,
    status: FactStatus = FactStatus.ACTIVE,
    at: datetime = T0,
    **extra: Any,
) -> Fact:
    return Fact(
        id=new_id("fact"),
        scope=scope,
        key=key,
        subject="user",
        predicate=key.rsplit(":", 1)[-1],
        category=category,
        value=value,
        text=f"the user's {key} is {value}",
        last_validated_at=at,
        status=status,
        recorded_at=at,
        **extra,
    )


def new(*facts: Fact) -> list[PendingFact]:
    return [PendingFact(fact=f, embedding=vec(f.text), embed_text=f.text) for f in facts]


def entity(name: str, scope: Scope = ALICE) -> Entity:
    return Entity(
        id=new_id("ent"),
        tenant_id=scope.tenant_id,
        namespace=scope.namespace,
        user_id=scope.user_id,
        name=name,
        type=EntityType.PERSON,
        created_at=T0,
    )


def alias(e: Entity, text: str, user_id: str | None, confidence: float = 0.8) -> Alias:
    return Alias(
        entity_id=e.id,
        alias=text,
        user_id=user_id,
        source=AliasSource.EXACT,
        confidence=confidence,
    )


def relation(a: Entity, b: Entity, scope: Scope = ALICE, fact_id: str | None = None) -> Relation:
    return Relation(
        id=new_id("rel"),
        scope=scope,
        source_entity_id=a.id,
        relation="sister_of",
        target_entity_id=b.id,
        fact_id=fact_id,
        created_at=T0,
    )


def saw(key: str, scope: Scope = ALICE, *facts: Fact) -> KeyState:
    """The read set of a reconciliation that found ``facts`` live under ``key``."""
    return KeyState(
        tenant_id=scope.tenant_id,
        namespace=scope.namespace,
        user_id=scope.user_id,
        key=key,
        facts=frozenset((f.id, f.revision) for f in facts),
    )


def query(scope: Scope = ALICE, **kw: Any) -> FactQuery:
    return FactQuery(
        tenant_id=scope.tenant_id, namespace=scope.namespace, user_id=scope.user_id, **kw
    )


async def put(store: Store, **kw: Any) -> None:
    """Write knowledge alone (no message)."""
    await store.commit([], WINDOW, Knowledge(**kw))


async def warm_up(store: Store) -> None:
    """Open a few pooled connections first, so concurrent writers really overlap rather
    than the second one waiting for a connection to be set up."""
    await asyncio.gather(*(store.unprocessed("t1", ["evt_none"]) for _ in range(4)))


def bare(text: str, scope: Scope = ALICE) -> tuple[PendingMessage, list[Any]]:
    """An async-mode message (raw event only) and the items a worker derives later."""
    pending = message(text, scope)
    items, pending.items, pending.processed = pending.items, [], False
    return pending, items


# -- round trips -----------------------------------------------------------------------


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
    assert await store.find_aliases("t1", "default", "alice", ["mom"]) == [
        alias(mom, "mom", "alice")
    ]
    assert await store.find_relations("t1", "default", "alice", [clinic.id]) == [rel]
    assert await store.find_conflicts("t1", "default", "alice", open_only=False) == [conflict]
    assert await store.find_conflicts("t1", "default", "alice") == []  # resolved
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
    spanned = await store.find_aliases("t1", "default", None, None, all_users=True)
    assert {a.alias for a in spanned} == {"mom", "dad", "hq"}
    assert {a.alias for a in await store.find_aliases("t1", "default", None, None)} == {"hq"}
    touching = [office.id]
    assert ids(await store.find_relations("t1", "default", None, touching, all_users=True)) == ids(
        rels
    )
    assert ids(await store.find_relations("t1", "default", "bob", touching)) == ids(rels[1:])
    spanned_conflicts = await store.find_conflicts("t1", "default", None, all_users=True)
    assert ids(spanned_conflicts) == ids(conflicts)
    assert ids(await store.find_conflicts("t1", "default", None)) == {conflicts[2].id}


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


# -- finding facts ---------------------------------------------------------------------


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


# -- isolation -------------------------------------------------------------------------


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

    assert seen(await store.find_aliases("t1", "default", "alice", None)) == {
        ("the clinic", clinic.id),
        ("mom", mom_a.id),
    }
    assert seen(await store.find_aliases("t1", "default", "bob", ["mom"])) == {("mom", mom_b.id)}
    assert seen(await store.find_aliases("t1", "default", None, None)) == {
        ("the clinic", clinic.id)
    }
    assert seen(await store.find_aliases("t2", "default", "alice", None)) == {("mom", far.id)}
    assert await store.find_aliases("t1", "work", "alice", None) == []
    assert await store.find_aliases("t1", "default", "alice", []) == []
    [shared] = await store.find_aliases("t1", "default", "alice", ["the clinic"])
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
    found = await store.find_aliases("t1", "default", "alice", None)
    assert [(a.alias, a.use_count, a.confidence) for a in found] == [
        ("mom", 4, 0.9),
        ("nana", 1, 0.8),
    ]


async def test_relations_are_isolated_and_visible_to_the_user(store: Store) -> None:
    a, b, c = entity("a"), entity("b"), entity("c")
    mine, shared = relation(a, b, ALICE), relation(b, c, SHARED)
    bobs, far = relation(a, c, BOB), relation(a, b, OTHER_TENANT)
    await put(store, entities=[a, b, c], relations=[mine, shared, bobs, far])
    assert await store.find_relations("t1", "default", "alice", [b.id]) == [mine, shared]
    assert await store.find_relations("t1", "default", "alice", [a.id]) == [mine]
    assert await store.find_relations("t1", "default", "bob", [a.id, c.id]) == [shared, bobs]
    assert await store.find_relations("t1", "default", None, [a.id, b.id, c.id]) == [shared]
    assert await store.find_relations("t2", "default", "alice", [a.id]) == [far]
    assert await store.find_relations("t1", "default", "alice", []) == []


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
    assert await store.find_conflicts("t1", "default", "alice") == [mine]
    assert await store.find_conflicts("t1", "default", "bob") == [bobs]
    assert await store.find_conflicts("t2", "default", "alice") == [far]
    assert await store.find_conflicts("t1", "default", None) == []
    assert await store.get_history("t1", "f1") == [history[0]]
    assert await store.get_history("t2", "f1") == [history[1]]


# -- revisions and read sets -----------------------------------------------------------


async def test_a_fact_update_with_the_revision_read_applies(store: Store) -> None:
    f = fact("user:location:city", "Lyon")
    await put(store, facts=new(f))
    seen = f.model_copy(update={"reinforcement_count": 2, "confidence": 0.9, "revision": 2})
    aged = seen.model_copy(update={"status": FactStatus.AGING, "revision": 3})
    # two changes to one fact in one write apply in order
    await put(
        store,
        fact_updates=[FactUpdate(seen, expected_revision=1), FactUpdate(aged, 2)],
        read_set=[saw("user:location:city", ALICE, f)],
    )
    assert await store.get_facts("t1", [f.id]) == [aged]


async def test_a_stale_fact_update_writes_nothing_of_its_transaction(store: Store) -> None:
    f = fact("user:location:city", "Lyon")
    await put(store, facts=new(f))
    await put(store, fact_updates=[FactUpdate(f.model_copy(update={"revision": 2}), 1)])

    pending = message("I moved to Paris", ALICE)
    paris, person = fact("user:location:city", "Paris"), entity("landlord")
    lost = f.model_copy(update={"status": FactStatus.SUPERSEDED, "revision": 2})
    with pytest.raises(StaleKnowledge):
        await store.commit(
            [pending],
            WINDOW,
            Knowledge(
                entities=[person],
                aliases=[alias(person, "landlord", "alice")],
                facts=new(paris),
                fact_updates=[FactUpdate(lost, expected_revision=1)],  # it is at 2 now
                history=[
                    HistoryEntry(
                        id=new_id("his"), tenant_id="t1", target_type="fact",
                        target_id=f.id, action="superseded", at=T0,
                    )
                ],
            ),
        )  # fmt: skip
    assert await store.get_events("t1", [pending.event.id]) == []
    assert await store.get_items("t1", [pending.items[0].item.id]) == []
    assert await store.count_items(ItemFilter(scope=ALICE)) == 0
    assert await store.get_entities("t1", [person.id]) == []
    assert await store.find_aliases("t1", "default", "alice", None) == []
    assert await store.get_facts("t1", [paris.id]) == []
    [kept] = await store.get_facts("t1", [f.id])
    assert (kept.status, kept.revision) == (FactStatus.ACTIVE, 2)
    assert await store.get_history("t1", f.id) == []


async def test_a_stale_read_set_writes_nothing(store: Store) -> None:
    lyon = fact("user:location:city", "Lyon")
    await put(store, facts=new(lyon))

    async def attempt(read: KeyState) -> PendingMessage:
        pending = message(f"I live in Paris {new_id('x')}", ALICE)
        await store.commit(
            [pending],
            WINDOW,
            Knowledge(facts=new(fact("user:location:city", "Paris")), read_set=[read]),
        )
        return pending

    for stale in (
        saw("user:location:city"),  # saw nothing, but Lyon is there
        saw("user:location:city", ALICE, lyon.model_copy(update={"revision": 2})),
        saw("user:location:city", BOB, lyon),  # someone else's key
    ):
        with pytest.raises(StaleKnowledge):
            await attempt(stale)
    assert await store.count_items(ItemFilter(scope=ALICE)) == 0
    assert [f.id for f in await store.find_facts(query(keys=("user:location:city",)))] == [lyon.id]
    # only live facts under exactly that key count: these do not make it stale
    await put(
        store,
        facts=new(
            fact("user:location:city", "Rome", status=FactStatus.SUPERSEDED),
            fact("user:location:city:old", "Nice"),
            fact("user:location:city", "Oslo", BOB),
        ),
    )
    stored = await attempt(saw("user:location:city", ALICE, lyon))
    assert len(await store.get_events("t1", [stored.event.id])) == 1


async def test_the_read_set_of_a_namespace_wide_key(store: Store) -> None:
    hours = fact("org:policy:hours", "9-5", SHARED, category=FactCategory.POLICY)
    await put(store, facts=new(hours))
    with pytest.raises(StaleKnowledge):
        await put(store, read_set=[saw("org:policy:hours", SHARED)])
    await put(store, read_set=[saw("org:policy:hours", SHARED, hours), saw("org:policy:hours")])


async def test_a_duplicate_message_makes_its_knowledge_stale(store: Store) -> None:
    await store.commit([message("I love sushi", ALICE, key="k1")], WINDOW)
    with pytest.raises(StaleKnowledge):
        await store.commit(
            [message("I love sushi", ALICE, key="k1")],
            WINDOW,
            Knowledge(facts=new(fact(CUISINE, "sushi")), read_set=[saw(CUISINE)]),
        )
    twice = [message("I love ramen", ALICE), message("I love ramen", ALICE)]
    with pytest.raises(StaleKnowledge):
        await store.commit(twice, WINDOW, Knowledge(facts=new(fact(CUISINE, "ramen"))))
    assert await store.find_facts(query()) == []
    # with nothing to write besides the messages, a duplicate is just a duplicate
    [again] = await store.commit(
        [message("I love sushi", ALICE, key="k1")], WINDOW, Knowledge(read_set=[saw(CUISINE)])
    )
    assert again.outcome is WriteOutcome.DUPLICATE


async def test_concurrent_reconciliations_of_one_key_let_exactly_one_through(
    store: Store,
) -> None:
    async def reconcile(key: str, value: str) -> list[Any]:
        # both saw the key empty and both add a fact under it
        return await store.commit(
            [message(f"my pet is a {value} ({key})", ALICE)],
            WINDOW,
            Knowledge(facts=new(fact(key, value)), read_set=[saw(key)]),
        )

    await warm_up(store)
    for round_ in range(5):
        key = f"user:pet:round{round_}"
        outcomes = await asyncio.gather(
            reconcile(key, "cat"), reconcile(key, "dog"), return_exceptions=True
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["StaleKnowledge", "list"]
        assert len(await store.find_facts(query(keys=(key,)))) == 1
    # the loser's message was not written either
    assert await store.count_items(ItemFilter(scope=ALICE)) == 5


# -- relations, merges, silencing ------------------------------------------------------


async def test_relations_of_a_superseded_fact_are_deactivated(store: Store) -> None:
    alice, sam, kim = entity("alice"), entity("sam"), entity("kim")
    partner = fact("user:relationship:partner", "sam")
    edge, other = relation(alice, sam, fact_id=partner.id), relation(alice, kim)
    await put(store, entities=[alice, sam, kim], facts=new(partner), relations=[edge, other])
    assert await store.find_relations("t1", "default", "alice", [alice.id]) == [edge, other]

    replacement = fact("user:relationship:partner", "kim")
    new_edge = relation(alice, kim, fact_id=replacement.id)
    old = partner.model_copy(
        update={"status": FactStatus.SUPERSEDED, "superseded_by": replacement.id, "revision": 2}
    )
    await put(
        store,
        facts=new(replacement),
        fact_updates=[FactUpdate(old, expected_revision=1)],
        relations=[new_edge],
        read_set=[saw("user:relationship:partner", ALICE, partner)],
    )
    assert await store.find_relations("t1", "default", "alice", [alice.id]) == [other, new_edge]
    assert await store.find_relations("t1", "default", "alice", [sam.id]) == []
    # an aging fact is still live: its edges stay
    aging = replacement.model_copy(update={"status": FactStatus.AGING, "revision": 2})
    await put(store, fact_updates=[FactUpdate(aging, expected_revision=1)])
    assert new_edge in await store.find_relations("t1", "default", "alice", [kim.id])


async def test_a_merge_adds_provenance_and_answers_with_the_merged_ids(store: Store) -> None:
    [first] = await store.commit([message("I play the cello on sundays", ALICE)], WINDOW)
    [target] = first.item_ids

    repeat = message("I play cello every sunday", ALICE, key="again")
    repeat.event = repeat.event.model_copy(update={"external_id": "ext-2"})
    repeat.items, repeat.merged_into = [], [target, "mem_missing"]
    [merged] = await store.commit([repeat], WINDOW)
    assert (merged.outcome, merged.item_ids) == (WriteOutcome.STORED, [target])
    [item] = await store.get_items("t1", [target])
    assert item.source_event_ids == [first.event_id, repeat.event.id]
    assert item.external_ids == ["ext-2"]

    # a retry of that message finds the merged item through its provenance
    retry = message("I play cello every sunday", ALICE, key="again")
    [dup] = await store.commit([retry], WINDOW)
    assert (dup.outcome, dup.event_id, dup.item_ids) == (
        WriteOutcome.DUPLICATE,
        repeat.event.id,
        [target],
    )

    # own items first, then the merged ones; a repeat inside the batch sees both
    both = message("cello and also piano", ALICE)
    both.merged_into = [target]
    [stored, repeated] = await store.commit([both, message("cello and also piano", ALICE)], WINDOW)
    own = both.items[0].item.id
    assert stored.item_ids == [own, target]
    assert (repeated.outcome, repeated.item_ids) == (WriteOutcome.DUPLICATE, [target, own])
    [item] = await store.get_items("t1", [target])
    assert item.source_event_ids == [first.event_id, repeat.event.id, both.event.id]
    assert item.external_ids == ["ext-2"]


async def test_silenced_items_leave_both_searches(store: Store) -> None:
    results = await store.commit(
        [message("kayak trip on the lake", ALICE), message("kayak repair shop", ALICE)], WINDOW
    )
    quiet, loud = results[0].item_ids[0], results[1].item_ids[0]
    flt = ItemFilter(scope=ALICE)

    async def found() -> tuple[set[str], set[str]]:
        lexical = await store.lexical_search(flt, ["kayak"], 10)
        vector = await store.vector_search(flt, vec("kayak trip on the lake"), 10)
        return {c.item_id for c in lexical}, {c.item_id for c in vector}

    assert await found() == ({quiet, loud}, {quiet, loud})  # and the vector cache is warm
    await store.commit(
        [message("actually I sold the kayak", ALICE)], WINDOW, Knowledge(silence_items=[quiet])
    )
    lexical, vector = await found()
    assert quiet not in lexical | vector
    assert loud in lexical & vector
    [item] = await store.get_items("t1", [quiet])
    assert item.status is ItemStatus.SILENT
    assert await store.count_items(ItemFilter(scope=ALICE, statuses=(ItemStatus.SILENT,))) == 1

    assert await store.set_item_status("t2", [quiet], ItemStatus.ACTIVE) == 0  # not theirs
    assert await store.set_item_status("t1", [quiet, "mem_missing"], ItemStatus.ACTIVE) == 1
    assert await store.set_item_status("t1", [quiet], ItemStatus.ACTIVE) == 0  # already
    assert quiet in (await found())[1]
    assert await store.set_item_status("t1", [], ItemStatus.ARCHIVED) == 0


# -- async jobs ------------------------------------------------------------------------


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
    assert await store.add_items(items, job()) == [items[0].item.id]
    assert await store.unprocessed("t1", [pending.event.id]) == []
    # redelivered: new objects for the same event; nothing at all is written
    again = message("my sister Kim lives in Oslo", ALICE).items
    again[0].item = again[0].item.model_copy(update={"source_event_ids": [pending.event.id]})
    assert await store.add_items(again, job()) == []
    assert await store.count_items(ItemFilter(scope=ALICE)) == 1
    assert len(await store.find_facts(query())) == 1
    [kept] = await store.find_aliases("t1", "default", "alice", ["kim"])
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
    assert await store.add_items(done_items) == [done_items[0].item.id]
    assert await store.add_items(fresh_items, merges={done.event.id: []}) == []
    assert await store.unprocessed("t1", [fresh.event.id]) == [fresh.event.id]
    assert await store.get_items("t1", [fresh_items[0].item.id]) == []


async def test_a_job_can_merge_its_event_into_existing_items(store: Store) -> None:
    [first] = await store.commit([message("weekly pottery class", ALICE)], WINDOW)
    pending, _ = bare("pottery class again this week")
    pending.event = pending.event.model_copy(update={"external_id": "msg-7"})
    await store.commit([pending], WINDOW)
    merges = {pending.event.id: [first.item_ids[0], "mem_missing"]}
    assert await store.add_items([], merges=merges) == []
    [item] = await store.get_items("t1", first.item_ids)
    assert item.source_event_ids == [first.event_id, pending.event.id]
    assert item.external_ids == ["msg-7"]
    assert await store.unprocessed("t1", [pending.event.id]) == []
    # applied again: the event is processed, so nothing changes; nor does a merge of an
    # event that no longer exists
    assert await store.add_items([], merges=merges) == []
    assert await store.add_items([], merges={"evt_gone": first.item_ids}) == []
    [again] = await store.get_items("t1", first.item_ids)
    assert again.source_event_ids == item.source_event_ids


async def test_a_job_with_a_stale_read_set_writes_nothing(store: Store) -> None:
    pending, items = bare("I moved to Bergen")
    await store.commit([pending], WINDOW)
    await put(store, facts=new(fact("user:location:city", "Oslo")))
    with pytest.raises(StaleKnowledge):
        await store.add_items(
            items,
            Knowledge(
                facts=new(fact("user:location:city", "Bergen")),
                read_set=[saw("user:location:city")],
            ),
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
            store.add_items(items, Knowledge(facts=new(fact(f"user:pet:{round_}", "parrot")))),
            store.add_items(copy, Knowledge(facts=new(fact(f"user:pet:{round_}", "parrot")))),
        )
        assert sorted([len(first), len(second)]) == [0, 1]
    assert await store.count_items(ItemFilter(scope=ALICE)) == 5
    assert len(await store.find_facts(query())) == 5


# -- upgrading a database written before the knowledge layer -------------------------


async def test_sqlite_upgrade_marks_events_without_items_unprocessed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cognimem.store.sqlite import SQLiteStore
    from cognimem.store.sqlite import store as sqlite_store

    path = tmp_path / "old.db"
    with monkeypatch.context() as m:
        # today's commit also writes an item's event period, whose columns migration 11
        # adds to the items table (no migration in between rebuilds that table)
        event_period = [g for g in sqlite_store.MIGRATIONS if g[1] == "item_event_period"]
        m.setattr(sqlite_store, "MIGRATIONS", [*sqlite_store.MIGRATIONS[:2], *event_period])
        old = SQLiteStore(path)
        await old.open()
        # (no session: today's commit checks the sessions table, which came later)
        derived, (queued, _) = message("derived long ago", BOB), bare("queued long ago", BOB)
        queued.processed = True  # the old schema has no column to say otherwise
        await old.commit([derived, queued], WINDOW)
        await old.close()
    upgraded = SQLiteStore(path)
    await upgraded.open()
    try:
        ids = [derived.event.id, queued.event.id]
        assert await upgraded.unprocessed("t1", ids) == [queued.event.id]
    finally:
        await upgraded.close()


@pytest.fixture
async def blank_dsn(postgres_server: services.PostgresServer) -> AsyncIterator[str]:
    """An empty PostgreSQL database (no migrations yet)."""
    import asyncpg

    name = f"blank_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(postgres_server.admin_dsn(), timeout=10)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield postgres_server.admin_dsn(name)
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


async def test_postgres_upgrade_marks_events_without_items_unprocessed(
    blank_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncpg

    from cognimem.store.postgres import PostgresStore, migrations

    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:1])
        old = PostgresStore(blank_dsn, min_size=0)
        await old.open()
        await old.close()
    # rows as the old schema held them: one event with an item, one without
    conn = await asyncpg.connect(blank_dsn, timeout=10)
    try:
        for event_id in ("evt_derived", "evt_queued"):
            await conn.execute(
                "INSERT INTO events (id, tenant_id, namespace, user_id, role, content,"
                " content_hash, occurred_at, recorded_at)"
                " VALUES ($1, 't1', 'default', 'alice', 'user', 'x', 'h', $2, $2)",
                event_id,
                T0,
            )
        await conn.execute(
            "INSERT INTO items (id, tenant_id, namespace, user_id, text, kind, occurred_at,"
            " recorded_at) VALUES ('mem_1', 't1', 'default', 'alice', 'x', 'episode', $1, $1)",
            T0,
        )
        await conn.execute("INSERT INTO item_events VALUES ('mem_1', 'evt_derived')")
    finally:
        await conn.close()
    upgraded = PostgresStore(blank_dsn, min_size=0)
    await upgraded.open()
    try:
        assert await upgraded.schema_version() == max(v for v, _, _ in migrations.MIGRATIONS)
        assert await upgraded.unprocessed("t1", ["evt_derived", "evt_queued"]) == ["evt_queued"]
    finally:
        await upgraded.close()


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


async def test_sqlite_fact_rows_cache_sees_another_stores_writes(tmp_path: Path) -> None:
    from cognimem.store.sqlite import SQLiteStore

    path = tmp_path / "shared.db"
    a, b = SQLiteStore(path), SQLiteStore(path)
    await a.open()
    await b.open()
    try:
        first = fact("user:value:diet", "vegan", category=FactCategory.VALUE)
        await a.commit([], WINDOW, Knowledge(facts=new(first)))
        assert (await a.fact_rows("t1", "default", "alice", 10)).ids == [first.id]
        second = fact("user:policy:allergy:nuts", "nuts", category=FactCategory.POLICY)
        await b.commit([], WINDOW, Knowledge(facts=new(second)))
        assert set((await a.fact_rows("t1", "default", "alice", 10)).ids) == {first.id, second.id}
    finally:
        await a.close()
        await b.close()


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
