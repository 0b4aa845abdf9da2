"""The lifecycle every Store must offer: item edits, listing by time, conflict resolution,
sessions, scope statistics, erasure of a user (nothing of them left in any table),
export and import (a round trip reproduces the rows; a second import adds nothing)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cognimem.errors import Conflict, NotFound, StaleKnowledge
from cognimem.models import ItemStatus, MemoryItem, Scope, Tier
from cognimem.models.admin import ExportRecord, Session, SessionStatus
from cognimem.models.ids import content_hash, new_id
from cognimem.models.knowledge import (
    ConflictStatus,
    ConflictStrategy,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
)
from cognimem.store import ItemFilter, Store
from cognimem.store.base import FactQuery, FactUpdate
from cognimem.store.sqlite import SQLiteStore
from cognimem.store.sqlite import store as sqlite_store
from cognimem.store.transfer import embedded_text
from tests.contract.conftest import EMBEDDER, T0, message, vec
from tests.contract.test_knowledge_store import alias, entity, fact, new, put, relation
from tests.erasure import leftovers

ALICE = Scope(tenant_id="t1", user_id="alice", session_id="s1")
BOB = Scope(tenant_id="t1", user_id="bob")
WINDOW = 300.0


def history(target: str, action: str = "created", tenant_id: str = "t1") -> HistoryEntry:
    return HistoryEntry(
        id=new_id("hst"),
        tenant_id=tenant_id,
        target_type="item",
        target_id=target,
        action=action,
        at=T0,
        after={"note": action},
    )


def session(session_id: str, scope: Scope = ALICE, minutes: int = 0, **kw: Any) -> Session:
    return Session(
        id=session_id,
        scope=scope.model_copy(update={"session_id": session_id}),
        created_at=T0 + timedelta(minutes=minutes),
        **kw,
    )


async def ids_for(store: Store, scope: Scope, word: str) -> tuple[list[str], list[str]]:
    flt = ItemFilter(scope=scope)
    lexical = [c.item_id for c in await store.lexical_search(flt, [word], 10)]
    vector = [c.item_id for c in await store.vector_search(flt, vec(word), 10) if c.score > 0.2]
    return lexical, vector


async def seed(store: Store, scope: Scope, word: str) -> dict[str, Any]:
    """A user's whole footprint: events and items (one merged into by a second event),
    facts (a constraint with its evidence), entities with own and shared aliases, a
    relation, a conflict, history, a session and a cached embedding of their text."""
    said = f"I keep a {word} in the garden"
    first = message(said, scope, name="Al")
    second = message(f"the {word} is old now", scope, at=T0 + timedelta(minutes=1))
    [a, b] = await store.commit([first, second], WINDOW)
    e1, e2 = entity(f"{word}-friend", scope), entity(f"{word}-pal", scope)
    old = fact("user:state:garden", f"{word} present", scope, category=FactCategory.STATE)
    rival = fact("user:state:garden", f"{word} gone", scope, category=FactCategory.STATE)
    old = old.model_copy(update={"evidence_item_ids": a.item_ids})
    cfl = FactConflict(
        id=new_id("cfl"),
        scope=scope,
        key=old.key,
        fact_ids=[old.id, rival.id],
        strategy=ConflictStrategy.ASK_USER,
        created_at=T0,
        note=f"{word} or not",
    )
    await put(
        store,
        entities=[e1, e2],
        aliases=[alias(e1, f"{word}-friend", scope.user_id), alias(e2, f"{word}-pal", None)],
        facts=new(old, rival),
        relations=[relation(e1, e2, scope, fact_id=old.id)],
        conflicts=[cfl],
        history=[history(a.item_ids[0], tenant_id=scope.tenant_id), history(old.id)],
    )
    await store.put_session(session(f"{word}-session", scope))
    await store.put_embeddings(EMBEDDER.model_id, {content_hash(said): vec(said)})
    return {
        "items": a.item_ids + b.item_ids,
        "events": [a.event_id, b.event_id],
        "facts": [old.id, rival.id],
        "conflict": cfl,
        "entities": [e1.id, e2.id],
    }


# -- listing and edits -----------------------------------------------------------------


async def test_list_item_ids_is_newest_first_within_the_scope_and_time_range(
    store: Store,
) -> None:
    msgs = [message(f"note {n}", ALICE, at=T0 + timedelta(days=n)) for n in range(4)]
    await store.commit([*msgs, message("bob's note", BOB)], WINDOW)
    ids = [m.items[0].item.id for m in msgs]
    assert await store.list_item_ids(ItemFilter(scope=ALICE), 10) == ids[::-1]
    week = ItemFilter(scope=ALICE, since=T0 + timedelta(days=1), until=T0 + timedelta(days=2))
    assert await store.list_item_ids(week, 10) == [ids[2], ids[1]]
    assert await store.list_item_ids(ItemFilter(scope=ALICE), 2) == [ids[3], ids[2]]
    await store.set_item_status("t1", [ids[3]], ItemStatus.ARCHIVED)
    assert await store.list_item_ids(ItemFilter(scope=ALICE), 10) == ids[2::-1]
    archived = ItemFilter(scope=ALICE, statuses=(ItemStatus.ARCHIVED,))
    assert await store.list_item_ids(archived, 10) == [ids[3]]


async def test_update_item_replaces_text_index_and_vector(store: Store) -> None:
    pending = message("I collect vintage stamps", ALICE)
    await store.commit([pending, message("bob collects coins", BOB)], WINDOW)
    [item] = await store.get_items("t1", [pending.items[0].item.id])
    assert await ids_for(store, ALICE, "stamps") == ([item.id], [item.id])  # cached now

    text = "I collect antique postcards"
    edited = item.model_copy(update={"text": text, "importance": 0.9, "tier": Tier.HIGH})
    await store.update_item(
        edited,
        expected=item,
        history=history(item.id, "updated"),
        embedding=vec(text),
        search_text=text,
    )
    assert await store.get_items("t1", [item.id]) == [edited]
    assert await ids_for(store, ALICE, "stamps") == ([], [])
    assert await ids_for(store, ALICE, "postcards") == ([item.id], [item.id])
    assert [h.action for h in await store.get_history("t1", item.id)] == ["updated"]

    # a status change alone: the cached matrix must not keep serving the item
    silent = edited.model_copy(update={"status": ItemStatus.SILENT, "failure_count": 1})
    await store.update_item(silent, expected=edited, history=history(item.id, "feedback"))
    assert await ids_for(store, ALICE, "postcards") == ([], [])
    [stored] = await store.get_items("t1", [item.id])
    assert (stored.status, stored.failure_count, stored.text) == (ItemStatus.SILENT, 1, text)


async def test_update_item_of_another_tenant_is_not_found(store: Store) -> None:
    pending = message("private note", ALICE)
    await store.commit([pending], WINDOW)
    item = pending.items[0].item
    stranger = item.model_copy(update={"scope": Scope(tenant_id="t2", user_id="alice")})
    with pytest.raises(NotFound):
        await store.update_item(stranger, expected=item, history=history(item.id, tenant_id="t2"))
    missing = MemoryItem(id="mem_missing", scope=ALICE, text="x", occurred_at=T0, recorded_at=T0)
    with pytest.raises(NotFound):
        await store.update_item(missing, expected=missing, history=history("mem_missing"))
    assert await store.get_history("t1", item.id) == []


async def test_update_item_made_from_an_old_state_writes_nothing(store: Store) -> None:
    pending = message("I run on Tuesdays", ALICE)
    await store.commit([pending], WINDOW)
    [item] = await store.get_items("t1", [pending.items[0].item.id])
    first = item.model_copy(update={"success_count": 1, "confidence": 0.9})
    await store.update_item(first, expected=item, history=history(item.id, "feedback"))
    # a second edit made from the same state as the first: the first would be lost
    late = item.model_copy(update={"importance": 0.8})
    with pytest.raises(StaleKnowledge):
        await store.update_item(late, expected=item, history=history(item.id, "updated"))
    assert await store.get_items("t1", [item.id]) == [first]
    assert [h.action for h in await store.get_history("t1", item.id)] == ["feedback"]
    # made from the state that is stored, it goes through
    redone = first.model_copy(update={"importance": 0.8})
    await store.update_item(redone, expected=first, history=history(item.id, "updated"))
    assert await store.get_items("t1", [item.id]) == [redone]


# -- conflicts -------------------------------------------------------------------------


async def test_resolve_conflict_supersedes_the_losers_in_one_transaction(store: Store) -> None:
    data = await seed(store, ALICE, "tortoise")
    cfl: FactConflict = data["conflict"]
    old_id, rival_id = data["facts"]
    live = FactQuery("t1", "default", "alice")
    before = await store.fact_rows("t1", "default", "alice", 100)  # cached
    assert set(before.ids) == {old_id, rival_id}
    assert await store.get_conflict("t1", cfl.id) == cfl
    assert await store.get_conflict("t2", cfl.id) is None

    [old, rival] = await store.get_facts("t1", [old_id, rival_id])
    loser = old.model_copy(
        update={
            "status": FactStatus.SUPERSEDED,
            "superseded_by": rival.id,
            "revision": old.revision + 1,
        }
    )
    resolved = cfl.model_copy(
        update={"status": ConflictStatus.RESOLVED, "winner_fact_id": rival.id, "resolved_at": T0}
    )
    silenced = data["items"][0]
    await store.resolve_conflict(
        resolved, [FactUpdate(loser, old.revision)], [history(old.id, "superseded")], [silenced]
    )
    assert [f.id for f in await store.find_facts(live)] == [rival.id]
    assert (await store.fact_rows("t1", "default", "alice", 100)).ids == [rival.id]
    assert await store.find_conflicts("t1", "default", "alice") == []
    assert await store.get_conflict("t1", cfl.id) == resolved
    assert await store.graph_edges("t1", "default", "alice", 10) == []  # its fact lost
    [item] = await store.get_items("t1", [silenced])
    assert item.status is ItemStatus.SILENT
    assert [h.action for h in await store.get_history("t1", old.id)] == ["created", "superseded"]

    with pytest.raises(Conflict):  # not open any more
        await store.resolve_conflict(resolved, [], [])
    missing = resolved.model_copy(update={"id": "cfl_missing"})
    with pytest.raises(NotFound):
        await store.resolve_conflict(missing, [], [])


async def test_resolve_conflict_with_a_stale_fact_writes_nothing(store: Store) -> None:
    data = await seed(store, ALICE, "heron")
    cfl: FactConflict = data["conflict"]
    [old] = await store.get_facts("t1", [data["facts"][0]])
    stale = FactUpdate(old.model_copy(update={"status": FactStatus.SUPERSEDED}), 99)
    resolved = cfl.model_copy(update={"status": ConflictStatus.RESOLVED})
    with pytest.raises(StaleKnowledge):
        await store.resolve_conflict(resolved, [stale], [])
    assert await store.get_conflict("t1", cfl.id) == cfl


async def test_append_history(store: Store) -> None:
    entries = [history("mem_a", "archived"), history("mem_a", "deleted")]
    await store.append_history(entries)
    await store.append_history([])
    assert await store.get_history("t1", "mem_a") == entries
    assert await store.get_history("t2", "mem_a") == []


# -- sessions and statistics -----------------------------------------------------------


async def test_sessions_are_stored_replaced_and_listed_newest_first(store: Store) -> None:
    first = session("s1", ALICE, metadata={"channel": "web"})
    second = session("s2", ALICE, minutes=5)
    bobs = session("s3", BOB, minutes=9)
    elsewhere = session("s1", ALICE.model_copy(update={"namespace": "work"}))
    for s in (first, second, bobs, elsewhere):
        await store.put_session(s)
    assert await store.get_session("t1", "default", "s1") == first
    assert await store.get_session("t1", "work", "s1") == elsewhere
    assert await store.get_session("t2", "default", "s1") is None
    assert await store.list_sessions(Scope(tenant_id="t1"), 10) == [bobs, second, first]
    assert await store.list_sessions(Scope(tenant_id="t1", user_id="alice"), 1) == [second]

    closed = first.model_copy(update={"status": SessionStatus.CLOSED, "closed_at": T0})
    await store.put_session(closed)
    assert await store.get_session("t1", "default", "s1") == closed


async def test_scope_stats_count_what_the_scope_holds(store: Store) -> None:
    data = await seed(store, ALICE, "badger")
    await seed(store, BOB, "otter")
    await store.set_item_status("t1", data["items"][:1], ItemStatus.ARCHIVED)
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


# -- erasure ---------------------------------------------------------------------------


async def test_erase_user_leaves_nothing_of_them_in_any_table(store: Store) -> None:
    erased = Scope(tenant_id="t1", user_id="zed-erased", session_id="zs")
    mine = await seed(store, erased, "quokkaword")
    work = erased.model_copy(update={"namespace": "work"})
    at_work = await seed(store, work, "wombatword")
    theirs = await seed(store, BOB, "otter")
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
    assert await store.find_conflicts("t1", "default", "bob") == [theirs["conflict"]]
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
    assert await store.add_items(items) == []
    assert await store.get_items("t1", [items[0].item.id]) == []


# -- export and import -----------------------------------------------------------------


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
    await source.commit([message("a work note", ALICE.model_copy(update={"namespace": "w"}))], 1)
    user = Scope(tenant_id="t1", user_id="alice")
    records = await export(source, user)
    kinds = {r.type for r in records}
    assert kinds == {
        "session", "event", "item", "entity", "alias", "fact", "relation", "conflict", "history"
    }  # fmt: skip
    assert not any("otter" in json.dumps(r.data) for r in records)

    counts = await target.import_records("t9", records, vectors_of(records))
    assert counts == {
        "events": 2, "items": 2, "facts": 2, "entities": 2, "aliases": 2, "relations": 1,
        "conflicts": 1, "history": 2, "sessions": 1,
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
    monkeypatch.setattr(type(store).__module__ + "._EXPORT_PAGE", 3)
    msgs = [message(f"note number {n}", ALICE, at=T0 + timedelta(seconds=n)) for n in range(8)]
    await store.commit(msgs, WINDOW)
    e = entity("kim")
    await put(store, entities=[e], aliases=[alias(e, f"kim{n}", "alice") for n in range(7)])
    records = await export(store, ALICE)
    assert sum(r.type == "item" for r in records) == 8
    assert sum(r.type == "alias" for r in records) == 7
    assert len({json.dumps(r.data, sort_keys=True) for r in records}) == len(records)


async def test_delete_embeddings_drops_every_model(store: Store) -> None:
    v = np.ones(4, dtype=np.float32) / 2
    await store.put_embeddings("m1", {"h1": v, "h2": v})
    await store.put_embeddings("m2", {"h1": v})
    assert await store.delete_embeddings(["h1", "h9"]) == 2
    assert await store.delete_embeddings([]) == 0
    assert list(await store.get_embeddings("m1", ["h1", "h2"])) == ["h2"]


# -- migrations ------------------------------------------------------------------------


async def test_sqlite_applies_a_migration_numbered_below_the_applied_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Version 6 may land after 7 was applied (two branches): it is applied then."""
    path = tmp_path / "gap.db"
    without_six = [m for m in sqlite_store.MIGRATIONS if m[0] != 6]
    monkeypatch.setattr(sqlite_store, "MIGRATIONS", without_six[::-1])  # any order
    early = SQLiteStore(path)
    await early.open()
    assert await early.schema_version() == max(m[0] for m in without_six)
    await early.close()
    monkeypatch.undo()
    later = SQLiteStore(path)
    await later.open()
    try:
        assert await later.schema_version() == max(m[0] for m in sqlite_store.MIGRATIONS)
        assert await later.list_api_keys(None) == []
        await later.put_session(session("s1"))
    finally:
        await later.close()
