"""``Store.forget_items``: forgetting items takes the facts and graph edges derived from
them alone, in the same transaction, on every backend (summaries: see
``tests/e2e/test_forget_knowledge.py``)."""

from __future__ import annotations

import pytest

from cognimem.models import ItemStatus
from cognimem.models.ids import new_id
from cognimem.models.knowledge import ConflictStatus, ConflictStrategy, FactConflict, FactStatus
from cognimem.store import Store
from cognimem.store.base import Knowledge
from tests.contract.conftest import T0, message
from tests.contract.test_knowledge_store import (
    ALICE,
    WINDOW,
    alias,
    entity,
    fact,
    new,
    query,
    relation,
)


async def written(store: Store) -> dict[str, str]:
    """Two messages (items i1, i2, events e1, e2); a fact read from i1 alone with a graph
    edge, and a fact read from both."""
    first, second = message("I have a sister, Ana", ALICE), message("Ana is my sister", ALICE)
    i1, i2 = first.items[0].item.id, second.items[0].item.id
    alone = fact("user:relationship:sister:ana", "Ana", evidence_item_ids=[i1],
                 evidence_event_ids=[first.event.id])  # fmt: skip
    shared = fact("user:relationship:sibling", "Ana", evidence_item_ids=[i1, i2],
                  evidence_event_ids=[first.event.id, second.event.id])  # fmt: skip
    me, ana = entity("user"), entity("Ana")
    other = fact("user:relationship:sister:anna", "Anna")
    await store.commit(
        [first, second],
        WINDOW,
        Knowledge(
            entities=[me, ana],
            aliases=[alias(me, "user", "alice"), alias(ana, "ana", "alice")],
            facts=new(alone, shared, other),
            relations=[relation(me, ana, fact_id=alone.id)],
            conflicts=[
                FactConflict(
                    id=new_id("cfl"),
                    scope=ALICE,
                    key="user:relationship:sister",
                    fact_ids=[alone.id, other.id],
                    strategy=ConflictStrategy.ASK_USER,
                    created_at=T0,
                )
            ],
        ),
    )
    return {"i1": i1, "i2": i2, "alone": alone.id, "shared": shared.id, "me": me.id,
            "e2": second.event.id, "other": other.id}  # fmt: skip


@pytest.mark.parametrize("status", [ItemStatus.DELETED, ItemStatus.ARCHIVED])
async def test_forgetting_an_item_takes_what_only_it_supports(
    store: Store, status: ItemStatus
) -> None:
    ids = await written(store)
    preview = await store.forget_items("t1", [ids["i1"]], status, now=T0, dry_run=True)
    assert (preview.item_ids, preview.fact_ids, preview.relations) == (
        [ids["i1"]], [ids["alone"]], 1,
    )  # fmt: skip
    assert len(await store.find_facts(query())) == 3  # a dry run changes nothing
    assert len(await store.find_relations("t1", "default", "alice", [ids["me"]])) == 1

    assert (await store.forget_items("t2", [ids["i1"]], status, now=T0)).item_ids == []
    done = await store.forget_items("t1", [ids["i1"], "mem_missing"], status, now=T0)
    assert (done.item_ids, done.fact_ids, done.relations) == ([ids["i1"]], [ids["alone"]], 1)
    [kept] = [f for f in await store.find_facts(query()) if f.id != ids["other"]]
    assert kept.id == ids["shared"]
    assert (kept.evidence_item_ids, kept.evidence_event_ids) == ([ids["i2"]], [ids["e2"]])
    assert await store.find_relations("t1", "default", "alice", [ids["me"]]) == []
    every = await store.find_facts(query(statuses=None))
    if status is ItemStatus.DELETED:
        assert sorted(f.id for f in every) == sorted([ids["shared"], ids["other"]])
        assert await store.get_items("t1", [ids["i1"]]) == []
    else:
        assert {f.id: f.status for f in every}[ids["alone"]] is FactStatus.INVALIDATED
        [item] = await store.get_items("t1", [ids["i1"]])
        assert item.status is ItemStatus.ARCHIVED
    actions = {e.action for e in await store.get_history("t1", ids["alone"])}
    assert ("deleted" if status is ItemStatus.DELETED else "invalidated") in actions
    # the open conflict over the forgotten fact is settled, not left showing it
    assert await store.find_conflicts("t1", "default", "alice", open_only=True) == []
    [settled] = await store.find_conflicts("t1", "default", "alice", open_only=False)
    assert (settled.status, settled.resolved_at) == (ConflictStatus.RESOLVED, T0)
    assert "evidence_trimmed" in {e.action for e in await store.get_history("t1", ids["shared"])}
