"""The ``TransferStore`` role on every backend: erasing a user, exporting a scope and
importing it again (into the same or the other backend)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cognimem.models import Scope
from cognimem.models.admin import ExportRecord
from cognimem.models.ids import content_hash
from cognimem.store import Store, transfer
from cognimem.store.arguments import Attachment, KnowledgeView, ProcedureQuery
from cognimem.store.sqlite import SQLiteStore
from cognimem.store.transfer import embedded_text
from tests.contract.builders import (
    ALICE,
    BOB,
    WINDOW,
    alias,
    entity,
    fact,
    ids_for,
    new,
    put,
    seed,
)
from tests.contract.conftest import T0, message, vec
from tests.contract.test_procedures_store import learnt
from tests.erasure import leftovers, table_names


async def test_erase_user_leaves_nothing_of_them_in_any_table(store: Store) -> None:
    erased = Scope(tenant_id="t1", user_id="zed-erased", session_id="zs")
    mine = await seed(store, erased, "quokkaword")
    work = erased.model_copy(update={"namespace": "work"})
    at_work = await seed(store, work, "wombatword")
    theirs = await seed(store, BOB, "otter")
    await store.record_access("t1", mine["items"], T0)  # their usage counters too
    await ids_for(store, erased, "quokkaword")  # caches the user's matrix and facts
    await store.fact_rows("t1", "default", "zed-erased", 100)
    await ids_for(store, Scope(tenant_id="t1"), "quokkaword")  # and the namespace's

    # their words, and the ids and text hashes that rows without a user column hold
    needles = ["zed-erased", "quokkaword", "wombatword"]
    for data in (mine, at_work):
        needles += [*data["items"], *data["events"], *data["facts"], data["conflict"].id]
    needles.append(content_hash("I keep a quokkaword in the garden"))
    before = await leftovers(store, "zed-erased", needles)
    assert {
        "events",
        "items",
        "item_events",
        "facts",
        "entities",
        "aliases",
        "relations",
        "conflicts",
        "history",
        "sessions",
        "embedding_cache",
    } <= set(before)

    report = await store.erase_user("t1", "zed-erased")
    assert report.removed["items"] == 4
    assert report.removed["events"] == 4
    assert report.removed["facts"] == 4
    assert report.removed["aliases"] == 4
    assert content_hash("I keep a quokkaword in the garden") in report.content_hashes
    assert content_hash(embedded_text(None, "the quokkaword is old now")) in report.content_hashes
    assert await store.delete_embeddings(report.content_hashes) == 2

    assert await leftovers(store, "zed-erased", needles) == {}
    # nothing served from a cache either
    assert await ids_for(store, erased, "quokkaword") == ([], [])
    assert await ids_for(store, Scope(tenant_id="t1"), "quokkaword") == ([], [])
    assert (await store.fact_rows("t1", "default", "zed-erased", 100)).ids == []
    assert await store.get_items("t1", mine["items"]) == []
    # the other user is untouched
    assert len(await store.get_items("t1", theirs["items"])) == 2
    assert len(await store.get_facts("t1", theirs["facts"])) == 2
    assert len(await store.get_entities("t1", theirs["entities"])) == 2
    assert await store.find_conflicts(KnowledgeView("t1", "default", "bob")) == [theirs["conflict"]]
    assert await ids_for(store, BOB, "otter") != ([], [])
    assert await store.get_session("t1", "default", "otter-session") is not None

    # the user can start again; caches see the new rows, not the old ones
    again = message("a quokkaword returns", erased)
    await store.commit([again], WINDOW)
    await put(store, facts=new(fact("user:pet:name", "quokkaword", erased)))
    assert await ids_for(store, erased, "quokkaword") == ([again.items[0].item.id],) * 2
    assert len((await store.fact_rows("t1", "default", "zed-erased", 100)).ids) == 1
    assert (await store.erase_user("t1", "nobody")).removed["items"] == 0


async def test_a_job_for_erased_events_writes_nothing(store: Store) -> None:
    pending = message("queued before the erasure", ALICE)
    items, pending.items = pending.items, []
    pending.processed = False
    await store.commit([pending], WINDOW)
    await store.erase_user("t1", "alice")
    assert await store.add_items(Attachment(items)) == []
    assert await store.get_items("t1", [items[0].item.id]) == []


async def export(store: Store, scope: Scope, **kw: Any) -> list[ExportRecord]:
    return [r async for r in store.export_records(scope, **kw)]


def vectors_of(records: list[ExportRecord]) -> dict[str, np.ndarray]:
    out = {}
    for r in records:
        if r.type == "item":
            out[r.data["id"]] = vec(embedded_text(r.data["author"], r.data["text"]))
        elif r.type == "fact":
            out[r.data["id"]] = vec(r.data["text"])
    return out


def as_set(records: list[ExportRecord]) -> set[str]:
    return {json.dumps(r.model_dump(mode="json"), sort_keys=True) for r in records}


async def round_trip(source: Store, target: Store) -> None:
    mine = await seed(source, ALICE, "lynx")
    await seed(source, BOB, "otter")
    # usage counters travel with their items
    await source.record_access("t1", mine["items"][:1], T0 + timedelta(hours=1))
    await source.record_usage(
        "t1", mine["items"][:1], {"loaded_count": 1, "cited_count": 2, "failure_count": 1}
    )
    await source.commit([message("a work note", ALICE.model_copy(update={"namespace": "w"}))], 1)
    user = Scope(tenant_id="t1", user_id="alice")
    records = await export(source, user)
    kinds = {r.type for r in records}
    assert kinds == {
        "session", "event", "item", "entity", "alias", "fact", "relation", "conflict", "history",
        "procedure",
    }  # fmt: skip
    assert not any("otter" in json.dumps(r.data) for r in records)

    counts = await target.import_records("t9", records, vectors_of(records))
    assert counts == {
        "events": 2, "items": 2, "facts": 2, "entities": 2, "aliases": 2, "relations": 1,
        "conflicts": 1, "history": 2, "sessions": 1, "procedures": 1,
    }  # fmt: skip
    assert set((await target.import_records("t9", records, vectors_of(records))).values()) == {0}

    moved = Scope(tenant_id="t9", user_id="alice")
    again = await export(target, moved)
    retenanted = [
        ExportRecord.model_validate_json(
            r.model_dump_json().replace('"tenant_id":"t1"', '"tenant_id":"t9"')
        )
        for r in records
    ]
    assert as_set(again) == as_set(retenanted)
    # the learnt procedure is the target's, as it was
    [learnt] = await source.list_procedures(ProcedureQuery("t1", "default", "alice", 10))
    moved_procedure = learnt.model_copy(update={"scope": learnt.scope.model_copy(
        update={"tenant_id": "t9"})})  # fmt: skip
    assert await target.list_procedures(ProcedureQuery("t9", "default", "alice", 10)) == [
        moved_procedure
    ]
    used = next(r.data for r in again if r.type == "item" and r.data["cited_count"])
    assert (used["access_count"], used["loaded_count"], used["cited_count"]) == (1, 1, 2)
    assert used["failure_count"] == 1
    # the imported rows work: searchable, scored, linked
    lexical, vector = await ids_for(target, moved, "lynx")
    assert set(lexical) == set(mine["items"])
    assert set(vector) <= set(mine["items"])
    assert vector
    assert len((await target.fact_rows("t9", "default", "alice", 10)).ids) == 2
    assert len(await target.graph_edges("t9", "default", "alice", 10)) == 1
    everything = await export(source, Scope(tenant_id="t1"), all_namespaces=True)
    assert any(r.type == "item" and r.data["scope"]["namespace"] == "w" for r in everything)
    assert any("otter" in json.dumps(r.data) for r in everything)


async def test_export_then_import_into_sqlite_reproduces_the_rows(
    store: Store, tmp_path: Path
) -> None:
    target = SQLiteStore(tmp_path / "target.db")
    await target.open()
    try:
        await round_trip(store, target)
    finally:
        await target.close()


async def test_export_from_sqlite_imports_into_every_backend(store: Store, tmp_path: Path) -> None:
    source = SQLiteStore(tmp_path / "source.db")
    await source.open()
    try:
        await round_trip(source, store)
    finally:
        await source.close()


async def test_export_pages_through_many_rows(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = type(store).__module__.rsplit(".", 1)[0]  # cognimem.store.sqlite, ...postgres
    monkeypatch.setattr(f"{backend}.transfer._EXPORT_PAGE", 3)
    msgs = [message(f"note number {n}", ALICE, at=T0 + timedelta(seconds=n)) for n in range(8)]
    await store.commit(msgs, WINDOW)
    e = entity("kim")
    await put(store, entities=[e], aliases=[alias(e, f"kim{n}", "alice") for n in range(7)])
    owner = Scope(tenant_id="t1", user_id="alice")
    await store.save_procedures([await learnt(store, owner, f"step {n}", 1) for n in range(7)], [])
    records = await export(store, ALICE)
    assert sum(r.type == "item" for r in records) == 8
    assert sum(r.type == "alias" for r in records) == 7
    assert sum(r.type == "procedure" for r in records) == 7
    assert len({json.dumps(r.data, sort_keys=True) for r in records}) == len(records)


async def test_every_table_is_exported_or_left_out_for_a_reason(store: Store) -> None:
    await seed(store, ALICE, "lynx")
    # a table added later must say how an export carries it, or why it does not
    assert await table_names(store) <= set(transfer.TABLES)
    exported = {r.type for r in await export(store, Scope(tenant_id="t1", user_id="alice"))}
    record_types = {kind for kind in transfer.TABLES.values() if " " not in kind}
    assert record_types == set(transfer.EXPORT_ORDER)
    assert exported == record_types  # the user has rows of every kind, and all are exported
