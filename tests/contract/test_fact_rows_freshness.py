"""The fact rows and graph edges a store keeps in process for reads (SQLite: dated by
``fact_versions``; PostgreSQL: by each row's ``xmin``) stay true to the database when
another store writes, changes, supersedes and forgets facts and relations, and erases
the user."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from cognimem.models import ItemStatus
from cognimem.models.knowledge import FactCategory, FactStatus
from cognimem.store import Store
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.types import FactRows, FactUpdate, GraphEdge, Knowledge
from tests.contract.builders import ALICE, WINDOW, entity, fact, new, put, relation
from tests.contract.conftest import T0, message, twin

T = TypeVar("T")


async def _rows(store: Store) -> FactRows:
    return await store.fact_rows("t1", "default", "alice", 50)


async def _ours_and_theirs(reader: Store, read: Callable[[Store], Awaitable[T]]) -> tuple[T, T]:
    """What ``reader`` reads, and what a store that never read it before reads."""
    fresh = twin(reader)
    await fresh.open()
    try:
        theirs = await read(fresh)
    finally:
        await fresh.close()
    return await read(reader), theirs


async def _assert_as_fresh(reader: Store) -> list[str]:
    """``reader``'s fact rows equal those of a store that never read them."""
    ours, theirs = await _ours_and_theirs(reader, _rows)
    assert ours.ids == theirs.ids
    assert ours.words == theirs.words
    assert ours.scope_tags == theirs.scope_tags
    return ours.ids


async def test_cached_fact_rows_follow_another_stores_writes(store: Store, writer: Store) -> None:
    diet = fact("user:value:diet", "vegan", category=FactCategory.VALUE)
    await writer.commit([], WINDOW, Knowledge(facts=new(diet)))
    assert await _assert_as_fresh(store) == [diet.id]
    assert await _assert_as_fresh(store) == [diet.id]  # served again, nothing changed

    # added by the other store
    nuts = fact("user:policy:allergy:nuts", "nuts", category=FactCategory.POLICY)
    await writer.commit([], WINDOW, Knowledge(facts=new(nuts)))
    assert set(await _assert_as_fresh(store)) == {diet.id, nuts.id}

    # changed in place: its words change, the list of ids does not
    vegetarian = diet.model_copy(update={"value": "vegetarian", "revision": 2})
    await writer.commit([], WINDOW, Knowledge(fact_updates=[FactUpdate(vegetarian, 1)]))
    rows = await _rows(store)
    assert "vegetarian" in rows.words[rows.ids.index(diet.id)]
    await _assert_as_fresh(store)

    # no longer live: out of the rows
    gone = nuts.model_copy(update={"status": FactStatus.SUPERSEDED, "revision": 2})
    await writer.commit([], WINDOW, Knowledge(fact_updates=[FactUpdate(gone, 1)]))
    assert await _assert_as_fresh(store) == [diet.id]


async def test_cached_fact_rows_follow_forgetting_and_erasure(store: Store, writer: Store) -> None:
    [said] = await writer.commit([message("I keep kosher", ALICE)], WINDOW)
    kosher = fact(
        "user:value:diet", "kosher", category=FactCategory.VALUE,
        evidence_item_ids=said.item_ids,
    )  # fmt: skip
    await writer.commit([], WINDOW, Knowledge(facts=new(kosher)))
    assert await _assert_as_fresh(store) == [kosher.id]
    # forgetting the only item a fact rests on takes the fact with it
    await writer.forget_items(ItemsForgetting("t1", said.item_ids, ItemStatus.DELETED, now=T0))
    assert await _assert_as_fresh(store) == []

    await writer.commit([], WINDOW, Knowledge(facts=new(fact("user:pet", "a cat"))))
    assert len(await _assert_as_fresh(store)) == 1
    await writer.erase_user("t1", "alice")
    assert await _assert_as_fresh(store) == []


async def _edges(store: Store) -> list[GraphEdge]:
    return await store.graph_edges("t1", "default", "alice", 100)


async def _edges_as_fresh(reader: Store) -> list[GraphEdge]:
    ours, theirs = await _ours_and_theirs(reader, _edges)
    assert ours == theirs
    return ours


async def test_cached_graph_edges_follow_another_stores_relations_and_facts(
    store: Store, writer: Store
) -> None:
    a, b, c = entity("a"), entity("b"), entity("c")
    partner = fact("user:relationship:partner", "b", evidence_item_ids=["mem_1"])
    await put(
        writer,
        entities=[a, b, c],
        facts=new(partner),
        relations=[relation(a, b, fact_id=partner.id)],
    )
    [edge] = await _edges_as_fresh(store)
    assert edge.item_ids == ("mem_1",)

    # a relation added by the other store
    await put(writer, relations=[relation(a, c)])
    assert len(await _edges_as_fresh(store)) == 2

    # the edge's fact changed in place: the edge carries its new evidence
    more = partner.model_copy(update={"evidence_item_ids": ["mem_1", "mem_2"], "revision": 2})
    await put(writer, fact_updates=[FactUpdate(more, 1)])
    assert {e.item_ids for e in await _edges_as_fresh(store)} == {(), ("mem_1", "mem_2")}

    # the fact superseded: its edge leaves the graph
    replaced = more.model_copy(update={"status": FactStatus.SUPERSEDED, "revision": 3})
    await put(writer, fact_updates=[FactUpdate(replaced, 2)])
    assert [e.target_entity_id for e in await _edges_as_fresh(store)] == [c.id]

    await writer.erase_user("t1", "alice")
    assert await _edges_as_fresh(store) == []
