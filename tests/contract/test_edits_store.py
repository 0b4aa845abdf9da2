"""The ``EditStore`` role on every backend: edits guarded by the state they were made
from, forgetting items with what only they support, conflicts' resolution, history."""

from __future__ import annotations

from collections.abc import Collection

import pytest

from cognimem.errors import (
    Conflict,
    NotFound,
    StaleKnowledge,
)
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Scope, Tier
from cognimem.models.fact_changes import NO_LONGER_TRUE, SILENCED_BY_SUPERSESSION, StaleItem
from cognimem.models.ids import new_id
from cognimem.models.knowledge import (
    Alias,
    ConflictStatus,
    ConflictStrategy,
    Entity,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
)
from cognimem.models.references import ItemLinks, ItemReference
from cognimem.store import ItemFilter, Store
from cognimem.store.arguments import (
    AliasDeletion,
    AliasesRemoved,
    AliasGiving,
    ConflictResolution,
    ItemEdit,
    ItemsForgetting,
    KnowledgeView,
    Moved,
    Relinked,
    Resummarised,
    SummarySources,
)
from cognimem.store.forgetting import Forgotten
from cognimem.store.types import ConsolidationWrite, FactQuery, FactUpdate, Knowledge, PendingItem
from tests.contract.builders import (
    ALICE,
    BOB,
    WINDOW,
    alias,
    entity,
    fact,
    history,
    ids_for,
    new,
    query,
    relation,
    seed,
    text_edit,
)
from tests.contract.conftest import T0, message, vec


async def test_update_item_replaces_text_index_and_vector(store: Store) -> None:
    pending = message("I collect vintage stamps", ALICE)
    await store.commit([pending, message("bob collects coins", BOB)], WINDOW)
    [item] = await store.get_items("t1", [pending.items[0].item.id])
    assert await ids_for(store, ALICE, "stamps") == ([item.id], [item.id])  # cached now

    text = "I collect antique postcards"
    edited = item.model_copy(update={"text": text, "importance": 0.9, "tier": Tier.HIGH})
    await store.update_item(text_edit(item, edited))
    assert await store.get_items("t1", [item.id]) == [edited]
    assert await ids_for(store, ALICE, "stamps") == ([], [])
    assert await ids_for(store, ALICE, "postcards") == ([item.id], [item.id])
    assert [h.action for h in await store.get_history("t1", item.id)] == ["updated"]

    # a status change alone: the cached matrix must not keep serving the item
    silent = edited.model_copy(update={"status": ItemStatus.SILENT, "failure_count": 1})
    await store.update_item(ItemEdit(silent, expected=edited, history=history(item.id, "feedback")))
    assert await ids_for(store, ALICE, "postcards") == ([], [])
    [stored] = await store.get_items("t1", [item.id])
    assert (stored.status, stored.failure_count, stored.text) == (ItemStatus.SILENT, 1, text)


async def test_update_item_of_another_tenant_is_not_found(store: Store) -> None:
    pending = message("private note", ALICE)
    await store.commit([pending], WINDOW)
    item = pending.items[0].item
    stranger = item.model_copy(update={"scope": Scope(tenant_id="t2", user_id="alice")})
    with pytest.raises(NotFound):
        await store.update_item(
            ItemEdit(stranger, expected=item, history=history(item.id, tenant_id="t2"))
        )
    missing = MemoryItem(id="mem_missing", scope=ALICE, text="x", occurred_at=T0, recorded_at=T0)
    with pytest.raises(NotFound):
        await store.update_item(ItemEdit(missing, expected=missing, history=history("mem_missing")))
    assert await store.get_history("t1", item.id) == []


async def test_update_item_made_from_an_old_state_writes_nothing(store: Store) -> None:
    pending = message("I run on Tuesdays", ALICE)
    await store.commit([pending], WINDOW)
    [item] = await store.get_items("t1", [pending.items[0].item.id])
    first = item.model_copy(update={"success_count": 1, "confidence": 0.9})
    await store.update_item(ItemEdit(first, expected=item, history=history(item.id, "feedback")))
    # a second edit made from the same state as the first: the first would be lost
    late = item.model_copy(update={"importance": 0.8})
    with pytest.raises(StaleKnowledge):
        await store.update_item(ItemEdit(late, expected=item, history=history(item.id, "updated")))
    assert await store.get_items("t1", [item.id]) == [first]
    assert [h.action for h in await store.get_history("t1", item.id)] == ["feedback"]
    # made from the state that is stored, it goes through
    redone = first.model_copy(update={"importance": 0.8})
    await store.update_item(ItemEdit(redone, expected=first, history=history(item.id, "updated")))
    assert await store.get_items("t1", [item.id]) == [redone]


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
        ConflictResolution(
            resolved,
            Knowledge(
                fact_updates=[FactUpdate(loser, old.revision)],
                history=[history(old.id, "superseded")],
                silence_items=[silenced],
            ),
        )
    )
    assert [f.id for f in await store.find_facts(live)] == [rival.id]
    assert (await store.fact_rows("t1", "default", "alice", 100)).ids == [rival.id]
    assert await store.find_conflicts(KnowledgeView("t1", "default", "alice")) == []
    assert await store.get_conflict("t1", cfl.id) == resolved
    assert await store.graph_edges("t1", "default", "alice", 10) == []  # its fact lost
    [item] = await store.get_items("t1", [silenced])
    assert item.status is ItemStatus.SILENT
    assert [h.action for h in await store.get_history("t1", old.id)] == ["created", "superseded"]

    with pytest.raises(Conflict):  # not open any more
        await store.resolve_conflict(ConflictResolution(resolved))
    missing = resolved.model_copy(update={"id": "cfl_missing"})
    with pytest.raises(NotFound):
        await store.resolve_conflict(ConflictResolution(missing))


async def test_resolve_conflict_with_a_stale_fact_writes_nothing(store: Store) -> None:
    data = await seed(store, ALICE, "heron")
    cfl: FactConflict = data["conflict"]
    [old] = await store.get_facts("t1", [data["facts"][0]])
    stale = FactUpdate(old.model_copy(update={"status": FactStatus.SUPERSEDED}), 99)
    resolved = cfl.model_copy(update={"status": ConflictStatus.RESOLVED})
    with pytest.raises(StaleKnowledge):
        await store.resolve_conflict(ConflictResolution(resolved, Knowledge(fact_updates=[stale])))
    assert await store.get_conflict("t1", cfl.id) == cfl


async def test_remove_aliases_takes_one_user_s_rows_and_writes_the_rest(store: Store) -> None:
    sarah = entity("Sarah Jones")
    shared = alias(sarah, "sarah", None)
    mine, bobs = alias(sarah, "sarah", "alice"), alias(sarah, "sarah", "bob")
    await store.commit(
        [], WINDOW, Knowledge(entities=[sarah], aliases=[alias(sarah, "sarah jones", "alice"),
                                                        mine, bobs, shared])
    )  # fmt: skip
    note = history(sarah.id, "alias_removed")
    done = await store.remove_aliases(
        AliasDeletion(sarah, "sarah", "alice", lambda *_: Knowledge(history=[note]))
    )
    assert done == AliasesRemoved([mine], [])
    left = await store.find_aliases(KnowledgeView("t1", "default", None, all_users=True), None)
    assert sorted((a.alias, a.user_id or "") for a in left) == [
        ("sarah", ""), ("sarah", "bob"), ("sarah jones", "alice"),
    ]  # fmt: skip
    assert [h.id for h in await store.get_history("t1", sarah.id)] == [note.id]
    # none left for alice: NotFound, and the second write is not made
    with pytest.raises(NotFound):
        await store.remove_aliases(
            AliasDeletion(
                sarah, "sarah", "alice", lambda *_: Knowledge(history=[history(sarah.id)])
            )
        )
    assert len(await store.get_history("t1", sarah.id)) == 1


def said(name: str, sentence: str, e: Entity) -> dict[str, object]:
    return {"said": "She", "name": name, "sentence": sentence, "entity_id": e.id}


async def test_remove_aliases_rewrites_the_user_s_items_linked_to_the_entity(
    store: Store,
) -> None:
    sarah, luis = entity("Sarah Jones"), entity("Luis")
    texts = ("She works nights.", "She is kind.", "He is a doctor.")
    mine = [message(t, ALICE) for t in texts]
    bobs = message("She works nights.", BOB)
    await store.commit([*mine, bobs], WINDOW)
    a, b, c = (m.items[0].item.id for m in mine)
    by_nick, by_name = said("Sally", texts[0], sarah), said("Sarah Jones", texts[1], sarah)
    links = [
        ItemReference("t1", a, sarah.id, by_nick),
        ItemReference("t1", b, sarah.id, by_name),
        ItemReference("t1", b, sarah.id, by_nick),
        ItemReference("t1", c, luis.id, said("Luis", texts[2], luis)),
        ItemReference("t1", bobs.items[0].item.id, sarah.id, by_nick),
    ]
    await store.commit(
        [], WINDOW,
        Knowledge(entities=[sarah, luis], aliases=[alias(sarah, "sally", "alice")],
                  item_links=links),
    )  # fmt: skip
    seen: list[str] = []

    def relink(item: ItemLinks) -> ItemLinks | None:
        seen.append(item.item_id)
        kept = [x for x in item.links if x["name"] != "Sally"]
        return ItemLinks(item.item_id, [sarah.id] if kept else [], kept)

    written: list[list[Relinked]] = []

    def then(rows: list[Alias], items: list[Relinked], *_: object) -> Knowledge:
        written.append(items)
        return Knowledge()

    await store.remove_aliases(AliasDeletion(sarah, "sally", "alice", then, relink))
    assert sorted(seen) == sorted([a, b])  # alice's items linked to Sarah Jones alone
    rewritten = {before.item_id: (before, after) for before, after in written[0]}
    assert sorted(rewritten) == sorted([a, b])
    assert rewritten[a][1].entities == []
    assert rewritten[b][0].links == [by_name, by_nick]
    assert rewritten[b][1] == ItemLinks(b, [sarah.id], [by_name])
    got = {i.id: i for i in await store.get_items("t1", [a, b, c, bobs.items[0].item.id])}
    assert (got[a].entities, "coreference" in got[a].metadata) == ([], False)
    assert (got[b].entities, got[b].metadata["coreference"]) == ([sarah.id], [by_name])
    assert got[c].entities == [luis.id]
    assert got[bobs.items[0].item.id].entities == [sarah.id]  # bob's words are his own


def _covering(items: list[MemoryItem], entities: list[str], group: str, *gone: str) -> PendingItem:
    """A summary of ``group`` covering ``items`` (and the ids ``gone``, stored no more)."""
    text = f"A {group} summary."
    made = {"group": group, "key": f"{group}:x", "covers": [i.id for i in items] + list(gone)}
    item = MemoryItem(
        id=new_id("mem"), scope=ALICE, text=text, kind=ItemKind.SUMMARY, key=f"{group}:x",
        entities=entities, occurred_at=T0, recorded_at=T0, metadata={"consolidation": made},
    )  # fmt: skip
    return PendingItem(item, vec(text), text, text)


async def test_remove_aliases_corrects_the_summaries_covering_the_items_rewritten(
    store: Store,
) -> None:
    sarah, luis = entity("Sarah Jones"), entity("Luis")
    texts = ("She works nights.", "He is a doctor.", "She is kind.")
    mine = [message(t, ALICE) for t in texts]
    await store.commit(mine, WINDOW)
    a, b, c = (m.items[0].item for m in mine)
    links = [
        ItemReference("t1", a.id, sarah.id, said("Sally", texts[0], sarah)),
        ItemReference("t1", b.id, luis.id, said("Luis", texts[1], luis)),
        ItemReference("t1", c.id, sarah.id, said("Sarah Jones", texts[2], sarah)),
    ]
    await store.commit(
        [], WINDOW,
        Knowledge(entities=[sarah, luis], aliases=[alias(sarah, "sally", "alice")],
                  item_links=links),
    )  # fmt: skip
    by_nick = _covering([a, b], [sarah.id, luis.id], "window", "mem_gone")
    by_name = _covering([c], [sarah.id], "window")
    profile = _covering([a, c], [sarah.id], "profile")
    await store.apply_consolidation(ConsolidationWrite("t1", [by_nick, by_name, profile]))
    seen: list[SummarySources] = []

    def relink(item: ItemLinks) -> ItemLinks | None:
        kept = [x for x in item.links if x["name"] != "Sally"]
        return None if kept == item.links else ItemLinks(item.item_id, [], kept)

    def resummarise(summary: SummarySources) -> list[str] | None:
        seen.append(summary)
        return None if summary.group == "profile" else [luis.id]

    written: list[list[Resummarised]] = []

    def then(
        rows: list[Alias], items: list[Relinked], sums: list[Resummarised], _: list[Moved]
    ) -> Knowledge:
        written.append(sums)
        return Knowledge()

    await store.remove_aliases(AliasDeletion(sarah, "sally", "alice", then, relink, resummarise))
    # the summaries covering the item rewritten, read with their items' entities as
    # rewritten (an item no longer stored is not among them); not the one covering c
    assert sorted(x.summary_id for x in seen) == sorted([by_nick.item.id, profile.item.id])
    [nick] = [x for x in seen if x.summary_id == by_nick.item.id]
    assert nick == SummarySources(
        by_nick.item.id, [sarah.id, luis.id], "window", {a.id: [], b.id: [luis.id]}
    )
    assert [x.sources for x in seen if x.group == "profile"] == [{a.id: [], c.id: [sarah.id]}]
    assert written == [[(nick, [luis.id])]]
    ids = [by_nick.item.id, by_name.item.id, profile.item.id]
    got = {i.id: i.entities for i in await store.get_items("t1", ids)}
    assert got == {ids[0]: [luis.id], ids[1]: [sarah.id], ids[2]: [sarah.id]}


async def test_remove_aliases_moves_the_user_s_facts_of_the_entity_as_told(
    store: Store,
) -> None:
    sarah, twin, acme, me = entity("Sarah Jones"), entity("Sally"), entity("Acme"), entity("user")
    hers = {"subject": "sarah_jones", "subject_entity_id": sarah.id}
    works = fact("sarah_jones:occupation:employer", "Acme", object_entity_id=acme.id)
    works = works.model_copy(update=hers)
    sister = fact("user:relationship:sister", "Sally", subject_entity_id=me.id,
                  object_entity_id=sarah.id)  # fmt: skip
    kind = fact("sarah_jones:trait:kind", "kind").model_copy(update=hers)
    bobs = fact("sarah_jones:occupation:employer", "Acme", BOB).model_copy(update=hers)
    tea = fact("user:preference:drink", "tea")
    await store.commit(
        [], WINDOW,
        Knowledge(entities=[sarah, acme, me],
                  aliases=[alias(sarah, "sally", "alice"), alias(sarah, "sj", "bob")],
                  facts=new(works, sister, kind, bobs, tea),
                  relations=[relation(sarah, acme, fact_id=works.id),
                             relation(me, sarah, fact_id=sister.id)]),
    )  # fmt: skip
    seen: dict[str, set[str]] = {}
    told = {
        works.id: works.model_copy(update={
            "key": "sally:occupation:employer", "subject": "sally", "subject_entity_id": twin.id,
            "revision": 2}),
        sister.id: sister.model_copy(update={"object_entity_id": twin.id, "revision": 2}),
    }  # fmt: skip

    def move(f: Fact, names: Collection[str]) -> Fact | None:
        seen[f.id] = set(names)
        return told.get(f.id)

    written: list[list[Moved]] = []

    def then(*made: object) -> Knowledge:
        written.append(made[-1])  # type: ignore[arg-type]
        return Knowledge()

    await store.remove_aliases(AliasDeletion(sarah, "sally", "alice", then, move=move))
    # alice's facts of Sarah Jones, either side, given the names she has left (the row
    # removed is not among them); not bob's, not another's
    assert seen == {f.id: {"sarah jones", "sj"} for f in (works, sister, kind)}
    assert {before.id: (before, after) for before, after in written[0]} == {
        works.id: (works, told[works.id]), sister.id: (sister, told[sister.id]),
    }  # fmt: skip
    got = {f.id: f for f in await store.get_facts("t1", [works.id, sister.id, kind.id, bobs.id])}
    assert got == {**told, kind.id: kind, bobs.id: bobs}
    [found] = await store.find_facts(query(ALICE, keys=("sally:occupation:employer",)))
    assert found == told[works.id]
    edges = await store.find_relations(KnowledgeView("t1", "default", "alice"), [twin.id])
    assert sorted((r.source_entity_id, r.target_entity_id) for r in edges) == sorted(
        [(twin.id, acme.id), (me.id, twin.id)]
    )
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [sarah.id]) == []


def _profile(e: Entity, scope: Scope = ALICE, group: str = "profile") -> PendingItem:
    """A consolidation summary of ``group`` about ``e`` (a profile by default)."""
    text = f"What is known about {e.name}."
    made = {"group": group, "key": f"{group}:{e.name}", "covers": []}
    item = MemoryItem(
        id=new_id("mem"), scope=scope, text=text, kind=ItemKind.SUMMARY, key=made["key"],
        entities=[e.id], occurred_at=T0, recorded_at=T0, metadata={"consolidation": made},
    )  # fmt: skip
    return PendingItem(item, vec(text), text, text)


async def test_give_alias_corrects_the_summaries_covering_the_items_given_back(
    store: Store,
) -> None:
    """``resummarise`` sees each summary covering an item of ``relinked`` with its items'
    entities as stored before the links come back; the entities it says are written,
    with ``then(summaries)`` (the row, the items' links), in one transaction."""
    sarah, luis = entity("Sarah Jones"), entity("Luis")
    texts = ("She works nights.", "He is a doctor.", "She is kind.")
    mine = [message(t, ALICE) for t in texts]
    await store.commit(mine, WINDOW)
    a, b, c = (m.items[0].item for m in mine)
    luis_link = ItemReference("t1", b.id, luis.id, said("Luis", texts[1], luis))
    await store.commit([], WINDOW, Knowledge(entities=[sarah, luis], item_links=[luis_link]))
    by_nick = _covering([a, b], [luis.id], "window", "mem_gone")
    other = _covering([c], [], "window")
    profile = _covering([a], [luis.id], "profile")
    await store.apply_consolidation(ConsolidationWrite("t1", [by_nick, other, profile]))
    before = ItemLinks(a.id, [], [])
    link = said("Sally", texts[0], sarah)
    seen: list[SummarySources] = []

    def resummarise(summary: SummarySources) -> list[str] | None:
        seen.append(summary)
        return None if summary.group == "profile" else [luis.id, sarah.id]

    written: list[list[Resummarised]] = []
    row = alias(sarah, "sally", "alice")

    def then(sums: list[Resummarised]) -> Knowledge:
        written.append(sums)
        return Knowledge(aliases=[row], item_links=[ItemReference("t1", a.id, sarah.id, link)])

    after = ItemLinks(a.id, [sarah.id], [link])
    await store.give_alias(AliasGiving(sarah, [(before, after)], resummarise, then))
    assert sorted(x.summary_id for x in seen) == sorted([by_nick.item.id, profile.item.id])
    [nick] = [x for x in seen if x.summary_id == by_nick.item.id]
    assert nick == SummarySources(by_nick.item.id, [luis.id], "window", {a.id: [], b.id: [luis.id]})
    assert written == [[(nick, [luis.id, sarah.id])]]
    ids = [by_nick.item.id, other.item.id, profile.item.id, a.id]
    got = {i.id: i.entities for i in await store.get_items("t1", ids)}
    assert got == {ids[0]: [luis.id, sarah.id], ids[1]: [], ids[2]: [luis.id], a.id: [sarah.id]}
    view = KnowledgeView("t1", "default", "alice")
    assert [x.alias for x in await store.find_aliases(view, ["sally"])] == ["sally"]


@pytest.mark.parametrize("moves", [True, False], ids=["moved", "none-moved"])
async def test_remove_aliases_archives_the_user_s_profiles_once_a_fact_moves(
    store: Store, moves: bool
) -> None:
    sarah, twin, luis = entity("Sarah Jones"), entity("Sally"), entity("Luis")
    works = fact("sarah_jones:occupation:employer", "Acme")
    works = works.model_copy(update={"subject": "sarah_jones", "subject_entity_id": sarah.id})
    await store.commit(
        [], WINDOW,
        Knowledge(entities=[sarah, twin, luis], aliases=[alias(sarah, "sally", "alice")],
                  facts=new(works)),
    )  # fmt: skip
    hers, twins = _profile(sarah), _profile(twin)
    others = [_profile(luis), _profile(sarah, BOB), _profile(sarah, group="window")]
    await store.apply_consolidation(ConsolidationWrite("t1", [hers, twins, *others]))
    moved = works.model_copy(update={"subject_entity_id": twin.id, "revision": 2})
    archived: list[list[str]] = []

    def archive(ids: list[str]) -> Knowledge:
        archived.append(ids)
        return Knowledge(history=[history(i, "archived") for i in ids])

    done = await store.remove_aliases(
        AliasDeletion(sarah, "sally", "alice", lambda *_: Knowledge(),
                      move=lambda f, _: moved if moves else None,
                      profiles=(sarah.id, twin.id), archive=archive)
    )  # fmt: skip
    stale = sorted([hers.item.id, twins.item.id]) if moves else []
    assert [sorted(ids) for ids in archived] == [stale]
    assert sorted(done.archived) == stale  # for the caller to build again
    ids = [hers.item.id, twins.item.id, *(p.item.id for p in others)]
    status = {i.id: i.status for i in await store.get_items("t1", ids)}
    assert status == {i: ItemStatus.ARCHIVED if i in stale else ItemStatus.ACTIVE for i in ids}
    for i in ids:
        actions = [h.action for h in await store.get_history("t1", i)]
        assert ("archived" in actions) == (i in stale)


@pytest.mark.parametrize("named_by", [None, "archived", "alias", "fact", "relation", "item"])
async def test_remove_aliases_retires_the_entity_once_nothing_names_it(
    store: Store, named_by: str | None
) -> None:
    """An entity merged back goes with its last row of the name, and ``retire`` is
    written with it (an archived summary of it does not keep it); another user's row, a
    fact, a relation or a live item naming it (any user's) keeps it, and ``retire`` is
    not written."""
    sarah, twin = entity("Sarah Jones"), entity("Sally")
    kept = Knowledge(entities=[sarah, twin], aliases=[alias(twin, "sally", "alice")])
    messages = []
    if named_by == "alias":
        kept.aliases.append(alias(twin, "sally", "bob"))
    elif named_by == "fact":
        kind = fact("sally:trait:kind", "kind", BOB)
        kept.facts = new(kind.model_copy(update={"subject": "sally", "subject_entity_id": twin.id}))
    elif named_by == "relation":
        kept.relations = [relation(sarah, twin, BOB)]
    elif named_by == "item":
        messages = [message("She works nights.", BOB)]
        link = said("Sally", "She works nights.", twin)
        kept.item_links = [ItemReference("t1", messages[0].items[0].item.id, twin.id, link)]
    await store.commit(messages, WINDOW, kept)
    if named_by == "archived":
        made = _profile(twin)
        made.item = made.item.model_copy(update={"status": ItemStatus.ARCHIVED})
        await store.apply_consolidation(ConsolidationWrite("t1", [made]))
        assert [i.status for i in await store.get_items("t1", [made.item.id])] == [
            ItemStatus.ARCHIVED
        ]
    merged, gone = history(twin.id, "merged"), history(twin.id, "deleted")

    await store.remove_aliases(
        AliasDeletion(twin, "sally", "alice", lambda *_: Knowledge(history=[merged]),
                      retire=Knowledge(history=[gone]))
    )  # fmt: skip
    left = await store.get_entities("t1", [sarah.id, twin.id])
    if named_by in (None, "archived"):
        assert left == [sarah]
        assert [h.id for h in await store.get_history("t1", twin.id)] == [merged.id, gone.id]
    else:
        assert sorted(e.id for e in left) == sorted([sarah.id, twin.id])
        assert [h.id for h in await store.get_history("t1", twin.id)] == [merged.id]


async def test_a_write_naming_an_entity_merged_back_meanwhile_is_refused(store: Store) -> None:
    """A write made while the name resolved to the split-off entity, committed once the
    merge back deleted it, raises ``StaleKnowledge`` (to be made again, resolving the
    name anew) and writes nothing, rather than keeping the deleted entity's id."""
    sarah, twin = entity("Sarah Jones"), entity("Sally")
    await store.commit(
        [], WINDOW, Knowledge(entities=[sarah, twin], aliases=[alias(twin, "sally", "alice")])
    )
    said = message("Sally is kind.", ALICE)
    of_twin = {"subject": "sally", "subject_entity_id": twin.id}
    kind = fact("sally:trait:kind", "kind").model_copy(update=of_twin)
    made = Knowledge(facts=new(kind), relations=[relation(sarah, twin)],
                     item_links=[ItemReference("t1", said.items[0].item.id, twin.id,
                                               {"name": "Sally"})])  # fmt: skip
    gone = HistoryEntry.new(
        **HistoryEntry.target(twin), action="deleted", at=T0, before=None,
        after={"merged_into": sarah.id},
    )  # fmt: skip
    await store.remove_aliases(
        AliasDeletion(twin, "sally", "alice", lambda *_: Knowledge(),
                      retire=Knowledge(history=[gone]))
    )  # fmt: skip
    assert await store.get_entities("t1", [twin.id]) == []
    with pytest.raises(StaleKnowledge) as err:
        await store.commit([said], WINDOW, made)
    assert err.value.details == {"entities": [twin.id]}
    assert await store.get_facts("t1", [kind.id]) == []
    assert await store.get_items("t1", [said.items[0].item.id]) == []
    # an id never stored is not a merge's: the write's own rules apply (a relation and
    # a fact naming it are kept as given)
    ghost = entity("Ghost")
    odd = fact("ghost:trait:odd", "odd").model_copy(update={"subject_entity_id": ghost.id})
    await store.commit([], WINDOW, Knowledge(facts=new(odd)))
    assert [f.subject_entity_id for f in await store.get_facts("t1", [odd.id])] == [ghost.id]
    # the same write naming the entity it was merged into goes through
    of_sarah = {"subject": "sarah_jones", "subject_entity_id": sarah.id}
    await store.commit([said], WINDOW, Knowledge(facts=new(kind.model_copy(update=of_sarah))))
    assert [f.subject_entity_id for f in await store.get_facts("t1", [kind.id])] == [sarah.id]


async def test_remove_aliases_settles_what_the_facts_moved_leave_across_two_entities(
    store: Store,
) -> None:
    """``settle`` is given the facts moved and the user's facts under the keys they had
    or have; what it writes is written, and a fact it makes live again loses the mark
    its superseder left on its evidence item and gets its graph edge back."""
    sarah, twin, place = entity("Sarah Jones"), entity("Sally"), entity("Boston")
    said = [message("Sarah Jones lives in Boston.", ALICE), message("Sally is kind.", ALICE)]
    await store.commit(said, WINDOW)
    b_item, k_item = (m.items[0].item.id for m in said)
    hers = {"subject": "sarah_jones", "subject_entity_id": sarah.id}
    paris = fact("sarah_jones:location:city", "Paris").model_copy(update=hers)
    boston = fact("sarah_jones:location:city", "Boston", status=FactStatus.SUPERSEDED,
                  superseded_by=paris.id, object_entity_id=place.id,
                  evidence_item_ids=[b_item]).model_copy(update=hers)  # fmt: skip
    kind = fact("sarah_jones:trait:kind", "kind", evidence_item_ids=[k_item]).model_copy(
        update=hers
    )
    rome = fact("sarah_jones:location:city", "Rome", BOB).model_copy(update=hers)
    edge = relation(sarah, place, fact_id=boston.id).model_copy(update={"active": False})
    mark = StaleItem("t1", b_item, paris.id, boston.id, T0, "superseded", T0)
    await store.commit(
        [], WINDOW,
        Knowledge(entities=[sarah, twin, place], aliases=[alias(sarah, "sally", "alice")],
                  facts=new(paris, boston, kind, rome), relations=[edge], stale_items=[mark]),
    )  # fmt: skip
    [marked] = await store.get_items("t1", [b_item])
    assert marked.superseded_by == paris.id
    moved = paris.model_copy(update={"key": "sally:location:city", "subject": "sally",
                                     "subject_entity_id": twin.id, "revision": 2})  # fmt: skip
    restored = boston.model_copy(update={"status": FactStatus.ACTIVE, "superseded_by": None,
                                         "revision": 2})  # fmt: skip
    seen: list[tuple[list[Moved], list[Fact]]] = []

    def settle(facts_moved: list[Moved], facts: list[Fact]) -> Knowledge:
        seen.append((facts_moved, facts))
        return Knowledge(
            fact_updates=[FactUpdate(restored, boston.revision)],
            stale_items=[StaleItem("t1", k_item, paris.id, kind.id, T0, "superseded", T0)],
            history=[history(boston.id, "restored")],
        )

    await store.remove_aliases(
        AliasDeletion(sarah, "sally", "alice", lambda *_: Knowledge(),
                      move=lambda f, _: moved if f.id == paris.id else None, settle=settle)
    )  # fmt: skip
    # the user's facts under the key it had and the key it has, after the move
    [(given, under_keys)] = seen
    assert given == [(paris, moved)]
    assert sorted(f.id for f in under_keys) == sorted([paris.id, boston.id])
    assert {f.id: f for f in under_keys}[paris.id] == moved
    assert await store.get_facts("t1", [boston.id]) == [restored]
    [unmarked, now_marked] = await store.get_items("t1", [b_item, k_item])
    assert (unmarked.superseded_by, unmarked.metadata.get(NO_LONGER_TRUE)) == (None, None)
    assert now_marked.superseded_by == paris.id
    assert now_marked.metadata[NO_LONGER_TRUE]["fact_id"] == kind.id
    edges = await store.find_relations(KnowledgeView("t1", "default", "alice"), [place.id])
    assert [r.fact_id for r in edges] == [boston.id]
    assert [h.action for h in await store.get_history("t1", boston.id)][-1] == "restored"


async def test_remove_aliases_gives_a_restored_constraint_the_items_it_silenced(
    store: Store,
) -> None:
    """A constraint ``settle`` makes live again gets back the evidence items its
    supersession silenced (silent, the write path's ``silenced`` entry their latest),
    with what ``unsilence`` writes; one silenced otherwise stays silent, and the items
    of a constraint ``settle`` ends (``silence_items``) are silenced."""
    sarah, twin = entity("Sarah Jones"), entity("Sally")
    said = [message(t, ALICE) for t in ("veggie", "veggie again", "muted", "vegan", "later")]
    await store.commit(said, WINDOW)
    by_write, by_user, kept, vegan_item, ended_item = (m.items[0].item.id for m in said)
    hers = {"subject": "sarah_jones", "subject_entity_id": sarah.id}
    vegan = fact("sarah_jones:value:diet", "vegan", category=FactCategory.VALUE,
                 evidence_item_ids=[vegan_item]).model_copy(update=hers)  # fmt: skip
    veggie = fact("sarah_jones:value:diet", "vegetarian", category=FactCategory.VALUE,
                  status=FactStatus.SUPERSEDED, superseded_by=vegan.id,
                  evidence_item_ids=[by_write, by_user, kept]).model_copy(update=hers)  # fmt: skip
    silenced = history(by_write, "silenced").model_copy(
        update={"after": {"status": "silent", "reason": SILENCED_BY_SUPERSESSION}}
    )
    muted = history(by_user, "silenced").model_copy(update={"after": {"status": "silent"}})
    await store.commit(
        [], WINDOW,
        Knowledge(entities=[sarah, twin], aliases=[alias(sarah, "sally", "alice")],
                  facts=new(vegan, veggie), silence_items=[by_write, by_user],
                  history=[silenced, history(by_user, "silenced"), muted]),
    )  # fmt: skip
    moved = vegan.model_copy(update={"key": "sally:value:diet", "subject": "sally",
                                     "subject_entity_id": twin.id, "revision": 2})  # fmt: skip
    restored = veggie.model_copy(update={"status": FactStatus.ACTIVE, "superseded_by": None,
                                         "revision": 2})  # fmt: skip
    given: list[list[tuple[str, str]]] = []

    def unsilence(items: list[tuple[str, str]]) -> Knowledge:
        given.append(items)
        return Knowledge(history=[history(i, "unsilenced") for i, _ in items])

    await store.remove_aliases(
        AliasDeletion(sarah, "sally", "alice", lambda *_: Knowledge(),
                      move=lambda f, _: moved if f.id == vegan.id else None,
                      settle=lambda *_: Knowledge(
                          fact_updates=[FactUpdate(restored, veggie.revision)],
                          silence_items=[ended_item]),
                      unsilence=unsilence)
    )  # fmt: skip
    assert given == [[(by_write, veggie.id)]]
    ids = [by_write, by_user, kept, ended_item]
    status = {i.id: i.status for i in await store.get_items("t1", ids)}
    assert status == {
        by_write: ItemStatus.ACTIVE, by_user: ItemStatus.SILENT, kept: ItemStatus.ACTIVE,
        ended_item: ItemStatus.SILENT,
    }  # fmt: skip
    assert [h.action for h in await store.get_history("t1", by_write)][-1] == "unsilenced"
    assert [h.action for h in await store.get_history("t1", by_user)][-1] == "silenced"


async def test_append_history(store: Store) -> None:
    entries = [history("mem_a", "archived"), history("mem_a", "deleted")]
    await store.append_history(entries)
    await store.append_history([])
    assert await store.get_history("t1", "mem_a") == entries
    assert await store.get_history("t2", "mem_a") == []


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
    preview = await store.forget_items(
        ItemsForgetting("t1", [ids["i1"]], status, now=T0, dry_run=True)
    )
    assert (preview.item_ids, preview.fact_ids, preview.relations) == (
        [ids["i1"]], [ids["alone"]], 1,
    )  # fmt: skip
    assert len(await store.find_facts(query())) == 3  # a dry run changes nothing
    assert (
        len(await store.find_relations(KnowledgeView("t1", "default", "alice"), [ids["me"]])) == 1
    )

    assert (
        await store.forget_items(ItemsForgetting("t2", [ids["i1"]], status, now=T0))
    ).item_ids == []
    done = await store.forget_items(
        ItemsForgetting("t1", [ids["i1"], "mem_missing"], status, now=T0)
    )
    assert (done.item_ids, done.fact_ids, done.relations) == ([ids["i1"]], [ids["alone"]], 1)
    [kept] = [f for f in await store.find_facts(query()) if f.id != ids["other"]]
    assert kept.id == ids["shared"]
    assert (kept.evidence_item_ids, kept.evidence_event_ids) == ([ids["i2"]], [ids["e2"]])
    assert await store.find_relations(KnowledgeView("t1", "default", "alice"), [ids["me"]]) == []
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
    assert await store.find_conflicts(KnowledgeView("t1", "default", "alice"), open_only=True) == []
    [settled] = await store.find_conflicts(KnowledgeView("t1", "default", "alice"), open_only=False)
    assert (settled.status, settled.resolved_at) == (ConflictStatus.RESOLVED, T0)
    assert "evidence_trimmed" in {e.action for e in await store.get_history("t1", ids["shared"])}


async def test_delete_removes_from_every_index(store: Store) -> None:
    [kept, gone] = await store.commit(
        [message("keep the violin", ALICE), message("forget the violin", ALICE)], WINDOW
    )
    assert await store.vector_search(ItemFilter(scope=ALICE), vec("violin"), 5)  # warm the cache
    deleted = ItemStatus.DELETED
    assert (
        await store.forget_items(ItemsForgetting("t2", gone.item_ids, deleted, now=T0))
        == Forgotten()
    )  # not theirs
    assert (
        await store.forget_items(ItemsForgetting("t1", gone.item_ids, deleted, now=T0))
    ).item_ids == gone.item_ids
    lex = await store.lexical_search(ItemFilter(scope=ALICE), ["violin"], 5)
    vecs = await store.vector_search(ItemFilter(scope=ALICE), vec("violin"), 5)
    assert [c.item_id for c in lex] == kept.item_ids
    assert [c.item_id for c in vecs] == kept.item_ids
    assert await store.get_items("t1", gone.item_ids) == []


def _summary(text: str, sources: list[MemoryItem]) -> PendingItem:
    item = MemoryItem(
        id=new_id("mem"),
        scope=ALICE,
        text=text,
        kind=ItemKind.SUMMARY,
        key="window:-:x",
        source_event_ids=[e for s in sources for e in s.source_event_ids],
        occurred_at=T0,
        recorded_at=T0,
    )
    return PendingItem(item, vec(text), text, text)


async def test_apply_consolidation_marks_sources_and_replaces_summaries(store: Store) -> None:
    stamps, coins = message("I collect vintage stamps", ALICE), message("and old coins", ALICE)
    await store.commit([stamps, coins], WINDOW)
    sources = [stamps.items[0].item, coins.items[0].item]
    unconsolidated = ItemFilter(scope=ALICE, kinds=(ItemKind.EPISODE,), consolidated=False)
    assert await store.count_items(unconsolidated) == 2
    first = _summary("Alice keeps philately albums.", sources[:1])
    await store.apply_consolidation(
        ConsolidationWrite("t1", [first], consolidated=[s.id for s in sources])
    )
    assert await store.count_items(unconsolidated) == 0
    assert await store.count_items(ItemFilter(scope=ALICE, consolidated=True)) == 2
    [got] = await store.get_items("t1", [first.item.id])
    assert got.kind is ItemKind.SUMMARY
    assert got.source_event_ids == sources[0].source_event_ids
    assert await ids_for(store, ALICE, "philately") == ([first.item.id], [first.item.id])

    second = _summary("Alice collects stamps and coins.", sources)
    replace = ConsolidationWrite(
        "t1", [second], replaced={first.item.id: second.item.id}, history=[history(second.item.id)]
    )
    await store.apply_consolidation(replace)
    [old, new_one] = await store.get_items("t1", [first.item.id, second.item.id])
    assert (old.status, old.superseded_by) == (ItemStatus.ARCHIVED, second.item.id)
    assert new_one.status is ItemStatus.ACTIVE
    assert [h.action for h in await store.get_history("t1", second.item.id)] == ["created"]
    # the replaced summary is no longer active: a pass that read it before is stale
    third = _summary("Alice collects coins.", sources[1:])
    with pytest.raises(StaleKnowledge):
        await store.apply_consolidation(
            ConsolidationWrite("t1", [third], replaced={first.item.id: third.item.id})
        )
    assert await store.get_items("t1", [third.item.id]) == []


async def test_apply_consolidation_marks_what_its_facts_left_untrue(store: Store) -> None:
    """Facts a consolidation pass re-reads are reconciled as a write's are: the items of
    a value they supersede are marked no longer true in the same transaction."""
    said = message("I live in Seattle", ALICE)
    await store.commit([said], WINDOW)
    item = said.items[0].item
    mark = StaleItem("t1", item.id, "fct_new", "fct_old", T0, "superseded", T0)
    await store.apply_consolidation(
        ConsolidationWrite("t1", knowledge=Knowledge(stale_items=[mark]))
    )
    [got] = await store.get_items("t1", [item.id])
    assert got.superseded_by == "fct_new"
    assert got.metadata[NO_LONGER_TRUE] == mark.meta()
