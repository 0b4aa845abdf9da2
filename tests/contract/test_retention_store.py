"""The ``RetentionStore`` role on every backend: a user's items with their live
dependents counted in one query (facts citing them, the constraints among those, the
active relations of those facts, the active or silent summaries whose claims state
them), and the guarded decay of importance."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from cognimem.models import ItemKind, ItemStatus, Scope
from cognimem.models.ids import new_id
from cognimem.models.knowledge import FactCategory, FactStatus, HistoryEntry
from cognimem.store import PendingMessage, Store
from cognimem.store.retention import Decay
from tests.contract.builders import ALICE, BOB, OTHER_NAMESPACE, WINDOW, entity, fact, new, put
from tests.contract.builders import relation as edge
from tests.contract.conftest import T0, message


def summary(
    scope: Scope, claims: list[list[str]], status: ItemStatus, written: datetime = T0
) -> PendingMessage:
    pending = message(f"a summary of {claims}", scope, kind=ItemKind.SUMMARY)
    p = pending.items[0]
    meta = {"consolidation": {"claims": [{"text": "x", "item_ids": c} for c in claims]}}
    update = {"metadata": meta, "status": status, "recorded_at": written}
    pending.items[0] = replace(p, item=p.item.model_copy(update=update))
    return pending


async def test_dependents_are_counted_per_item_in_the_scope(store: Store) -> None:
    texts = ["apples", "peanuts", "paris", "hiking", "old news", "quiet", "held"]
    written = [message(t, ALICE) for t in texts]
    written[5].items[0] = replace(
        written[5].items[0],
        item=written[5].items[0].item.model_copy(update={"status": ItemStatus.SILENT}),
    )
    await store.commit(written, WINDOW)
    a, b, c, d, e, quiet, held = (m.items[0].item.id for m in written)
    s1 = summary(ALICE, [[a, d], [d]], ItemStatus.ACTIVE)  # d stated twice: one summary
    s2 = summary(ALICE, [[d]], ItemStatus.ACTIVE)
    s3 = summary(ALICE, [[e]], ItemStatus.ARCHIVED)  # let go: not a dependent
    # a silent summary is kept, claims and all: what it states depends on it
    s4 = summary(ALICE, [[held]], ItemStatus.SILENT, written=T0 + timedelta(days=400))
    await store.commit([s1, s2, s3, s4], WINDOW)
    likes = fact("user:preference:food:apples", "apples", evidence_item_ids=[a, b])
    allergy = fact(
        "user:policy:allergy:peanuts", "peanuts", category=FactCategory.POLICY,
        evidence_item_ids=[b],
    )  # fmt: skip
    gone = fact("user:location:city", "Paris", status=FactStatus.SUPERSEDED, evidence_item_ids=[c])
    x, y = entity("Ann"), entity("Bo")
    await put(
        store,
        entities=[x, y],
        facts=new(likes, allergy, gone),
        relations=[
            edge(x, y, fact_id=likes.id),
            edge(x, y, fact_id=likes.id).model_copy(update={"active": False}),
            edge(y, x, fact_id=allergy.id),
            edge(x, y, fact_id=gone.id),
        ],
    )
    # other scopes are not read
    await store.commit([message("apples", BOB), message("apples", OTHER_NAMESPACE)], WINDOW)

    rows = {r.id: r for r in await store.retention_rows("t1", "default", "alice")}
    s1_id, s2_id, s3_id, s4_id = (s.items[0].item.id for s in (s1, s2, s3, s4))
    assert set(rows) == {a, b, c, d, e, quiet, held, s1_id, s2_id, s3_id, s4_id}
    counts = {i: (r.facts, r.constraints, r.relations, r.summaries) for i, r in rows.items()}
    assert counts[a] == (1, 0, 1, 1)
    assert counts[b] == (2, 1, 2, 0)
    assert counts[c] == (0, 0, 0, 0)  # its fact is superseded
    assert counts[d] == (0, 0, 0, 2)
    assert counts[e] == (0, 0, 0, 0)  # its summary is archived
    assert counts[held] == (0, 0, 0, 1)  # its summary is silent
    assert rows[quiet].status is ItemStatus.SILENT
    assert rows[s3_id].status is ItemStatus.ARCHIVED
    assert rows[a].kind is ItemKind.EPISODE
    assert rows[s1_id].kind is ItemKind.SUMMARY
    assert rows[a].occurred_at == T0
    # when the item was written, apart from the period it tells of (a summary ages from it)
    assert (rows[s4_id].occurred_at, rows[s4_id].recorded_at) == (T0, T0 + timedelta(days=400))
    assert rows[a].last_accessed_at is None
    assert rows[b].dependents == 4


async def test_decay_lowers_importance_only_where_it_is_unchanged(store: Store) -> None:
    written = [message(t, ALICE) for t in ("one", "two")]
    await store.commit(written, WINDOW)
    one, two = (m.items[0].item.id for m in written)
    history = [
        HistoryEntry(
            id=new_id("hst"), tenant_id="t1", target_type="item", target_id=i,
            action="decayed", actor="forgetting", at=T0,
        )
        for i in (one, two)
    ]  # fmt: skip
    # "two" was edited meanwhile: its importance is no longer what the plan read
    changed = await store.decay_items("t1", [Decay(one, 0.5, 0.4), Decay(two, 0.9, 0.72)], history)
    assert changed == [one]
    items = {i.id: i for i in await store.get_items("t1", [one, two])}
    assert (items[one].importance, items[two].importance) == (0.4, 0.5)
    assert [h.action for h in await store.get_history("t1", one)] == ["decayed"]
    assert await store.get_history("t1", two) == []
    assert await store.decay_items("t2", [Decay(one, 0.4, 0.3)], []) == []  # another tenant


async def test_a_rows_access_is_what_reads_counted(store: Store) -> None:
    """Access frequency comes from the usage counters (``item_usage``, migration 14),
    which reads write; the items' own counter columns are no longer written."""
    [read_twice, never_read] = [
        r.item_ids[0]
        for r in await store.commit(
            [message("read twice", ALICE), message("never read", ALICE)], WINDOW
        )
    ]
    for hours in (1, 2):
        await store.record_access("t1", [read_twice], T0 + timedelta(hours=hours))
    rows = {r.id: r for r in await store.retention_rows("t1", "default", "alice")}
    assert (rows[read_twice].access_count, rows[read_twice].last_accessed_at) == (
        2,
        T0 + timedelta(hours=2),
    )
    assert (rows[never_read].access_count, rows[never_read].last_accessed_at) == (0, None)
