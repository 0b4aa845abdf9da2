"""Knowledge written with its messages (``ItemStore.commit``) on every backend:
revision guards and read sets, superseded facts, merges and silenced items."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cognimem.errors import NotFound, StaleKnowledge
from cognimem.models import ItemStatus, WriteOutcome
from cognimem.models.ids import new_id
from cognimem.models.knowledge import (
    FactCategory,
    FactStatus,
    HistoryEntry,
)
from cognimem.models.references import ItemReference
from cognimem.store import ItemFilter, PendingMessage, Store
from cognimem.store.arguments import ItemEdit, KnowledgeView
from cognimem.store.types import (
    FactUpdate,
    KeyState,
    Knowledge,
)
from tests.contract.builders import (
    ALICE,
    BOB,
    CUISINE,
    OTHER_TENANT,
    SHARED,
    WINDOW,
    alias,
    entity,
    fact,
    history,
    new,
    put,
    query,
    relation,
    saw,
    warm_up,
)
from tests.contract.conftest import T0, message, vec


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
    assert await store.find_aliases(KnowledgeView("t1", "default", "alice"), None) == []
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


async def test_relations_of_a_superseded_fact_are_deactivated(store: Store) -> None:
    alice, sam, kim = entity("alice"), entity("sam"), entity("kim")
    partner = fact("user:relationship:partner", "sam")
    edge, other = relation(alice, sam, fact_id=partner.id), relation(alice, kim)
    await put(store, entities=[alice, sam, kim], facts=new(partner), relations=[edge, other])
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [alice.id]) == [
        edge,
        other,
    ]

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
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [alice.id]) == [
        other,
        new_edge,
    ]
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [sam.id]) == []
    # an aging fact is still live: its edges stay
    aging = replacement.model_copy(update={"status": FactStatus.AGING, "revision": 2})
    await put(store, fact_updates=[FactUpdate(aging, expected_revision=1)])
    assert new_edge in await store.find_relations(KnowledgeView("t1", "default", "alice"), [kim.id])


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

    # an edit that makes it active again (in its own tenant only) brings it back
    revived = item.model_copy(update={"status": ItemStatus.ACTIVE})
    elsewhere = revived.model_copy(update={"scope": OTHER_TENANT})
    with pytest.raises(NotFound):
        await store.update_item(
            ItemEdit(elsewhere, expected=item, history=history(quiet, "revived", "t2"))
        )
    await store.update_item(ItemEdit(revived, expected=item, history=history(quiet, "revived")))
    assert quiet in (await found())[0] & (await found())[1]


async def test_an_item_is_linked_to_the_people_its_pronouns_name(store: Store) -> None:
    said = message("Her clinic is in Brooklyn.", ALICE)
    own = said.items[0].item
    said.items[0].item = own.model_copy(update={"metadata": {"source": "chat"}})
    item_id = own.id
    maya, sam = entity("Maya"), entity("Sam")
    her = {"said": "Her", "name": "Maya", "evidence": "her: the latest woman named"}
    him = {"said": "him", "name": "Sam", "evidence": "him: the latest man named"}
    await store.commit(
        [said],
        WINDOW,
        Knowledge(
            entities=[maya, sam],
            item_links=[
                ItemReference("t1", item_id, maya.id, her),
                ItemReference("t2", item_id, "ent_elsewhere", him),  # another tenant's: none
            ],
        ),
    )
    [item] = await store.get_items("t1", [item_id])
    assert item.entities == [maya.id]
    assert item.metadata == {"source": "chat", "coreference": [her]}
    # what the caller handed in is left as it was
    assert said.items[0].item.entities == own.entities
    assert said.items[0].item.metadata == {"source": "chat"}

    # a later message merged into it adds its own links, each entity and link once;
    # another tenant's link never touches it
    again = message("She said hi to him.", ALICE)
    again.items, again.merged_into = [], [item_id]
    links = [
        ItemReference("t1", item_id, maya.id, her),
        ItemReference("t1", item_id, sam.id, him),
        ItemReference("t2", item_id, "ent_elsewhere", him),
    ]
    await store.commit([again], WINDOW, Knowledge(item_links=links))
    [item] = await store.get_items("t1", [item_id])
    assert item.entities == [maya.id, sam.id]
    assert item.metadata == {"source": "chat", "coreference": [her, him]}
