"""The ``Database`` role on every backend: settings and a scope's counts."""

from __future__ import annotations

from cognimem.models import ItemStatus, Scope
from cognimem.models.admin import SessionStatus
from cognimem.store import Store
from cognimem.store.arguments import ItemEdit
from tests.contract.builders import (
    ALICE,
    BOB,
    history,
    seed,
    session,
)


async def test_meta_round_trip(store: Store) -> None:
    assert await store.get_meta("embedding_model") is None
    await store.set_meta("embedding_model", "x")
    await store.set_meta("embedding_model", "y")
    assert await store.get_meta("embedding_model") == "y"


async def test_scope_stats_count_what_the_scope_holds(store: Store) -> None:
    data = await seed(store, ALICE, "badger")
    await seed(store, BOB, "otter")
    [item] = await store.get_items("t1", data["items"][:1])
    archived = item.model_copy(update={"status": ItemStatus.ARCHIVED})
    await store.update_item(ItemEdit(archived, expected=item, history=history(item.id, "archived")))
    await store.put_session(session("s9", ALICE, status=SessionStatus.CLOSED))
    stats = await store.scope_stats(Scope(tenant_id="t1", user_id="alice"))
    assert stats.events == 2
    assert stats.items == {"active": 1, "archived": 1}
    assert stats.items_by_kind == {"episode": 1}
    assert stats.facts == {"active": 2}
    assert (stats.entities, stats.relations, stats.open_conflicts) == (2, 1, 1)
    assert stats.sessions == {"open": 1, "closed": 1}
    everyone = await store.scope_stats(Scope(tenant_id="t1"))
    assert (everyone.events, everyone.entities) == (4, 4)
    assert (await store.scope_stats(Scope(tenant_id="t2"))).events == 0
