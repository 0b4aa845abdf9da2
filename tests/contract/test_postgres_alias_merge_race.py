"""A merge back and a write naming the entity it deletes, interleaved on PostgreSQL
(``store/relinking.py``): the merge holds the split-off entity's row from its first
statement and a write reads the entities it names ``FOR SHARE``, so one waits for the
other and no write keeps the deleted entity's id. Each side here is held open by hand on
a connection of the store's pool while the other runs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from cognimem.errors import StaleKnowledge
from cognimem.models.knowledge import Entity, HistoryEntry
from cognimem.store.arguments import AliasDeletion
from cognimem.store.postgres import PostgresStore, knowledge_writes
from cognimem.store.types import Knowledge
from tests.contract.builders import ALICE, WINDOW, alias, entity, fact, new
from tests.contract.conftest import T0, message

WAITING = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
    " AND wait_event_type = 'Lock'"
)


async def people(pg: PostgresStore) -> tuple[Entity, Entity]:
    sarah, twin = entity("Sarah Jones"), entity("Sally")
    await pg.commit(
        [], WINDOW, Knowledge(entities=[sarah, twin], aliases=[alias(twin, "sally", "alice")])
    )
    return sarah, twin


async def until_waiting(pg: PostgresStore, task: Awaitable[object]) -> None:
    """Wait until a backend of the database waits on a lock (``task``'s, still running)."""
    assert isinstance(task, asyncio.Future)
    async with pg._connection() as watcher:
        while not await watcher.fetchval(WAITING):
            assert not task.done()
            await asyncio.sleep(0.01)


def kind_of(twin: Entity) -> Knowledge:
    said = fact("sally:trait:kind", "kind", ALICE)
    return Knowledge(facts=new(said.model_copy(update={"subject": "sally",
                                                       "subject_entity_id": twin.id})))  # fmt: skip


async def test_a_write_waits_for_the_merge_holding_the_entity_and_is_made_again(
    pg: PostgresStore,
) -> None:
    sarah, twin = await people(pg)
    made = kind_of(twin)
    gone = HistoryEntry.new(
        **HistoryEntry.target(twin), action="deleted", at=T0, before=None,
        after={"merged_into": sarah.id},
    )  # fmt: skip
    async with pg._connection() as merge, merge.transaction():
        # the merge's first statement (``hold_entity``), then the write starts
        await merge.execute("SELECT 1 FROM entities WHERE id = $1 FOR UPDATE", twin.id)
        write = asyncio.ensure_future(pg.commit([message("Sally is kind.", ALICE)], WINDOW, made))
        await until_waiting(pg, write)
        await knowledge_writes.insert_history(merge, [gone])
        await merge.execute("DELETE FROM entities WHERE id = $1", twin.id)
    with pytest.raises(StaleKnowledge):
        await write
    assert await pg.get_facts("t1", [made.facts[0].fact.id]) == []


async def test_a_merge_waits_for_a_write_naming_the_entity_and_keeps_it(
    pg: PostgresStore,
) -> None:
    _, twin = await people(pg)
    made = kind_of(twin)
    async with pg._connection() as write, write.transaction():
        # the write's check (``FOR SHARE``) and its facts, then the merge starts
        await write.execute("SELECT 1 FROM entities WHERE id = $1 FOR SHARE", twin.id)
        await knowledge_writes.apply(write, made)
        merge = asyncio.ensure_future(
            pg.remove_aliases(
                AliasDeletion(twin, "sally", "alice", lambda *_: Knowledge(), retire=Knowledge())
            )
        )
        await until_waiting(pg, merge)
    await merge
    # the merge saw the write's fact: the entity it names is kept, not deleted under it
    assert [e.id for e in await pg.get_entities("t1", [twin.id])] == [twin.id]
    [stored] = await pg.get_facts("t1", [made.facts[0].fact.id])
    assert stored.subject_entity_id == twin.id
