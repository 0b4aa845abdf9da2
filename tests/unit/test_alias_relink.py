"""Which of an item's links a name merge undone takes off (``editing/aliases.py``:
``relinked``): those read as the removed name, and the entity only when no other name
of it still links the item; and which of a summary's entities go with them
(``resummarised``)."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.editing.aliases import (
    PROFILE_GROUP,
    added,
    given_back,
    last_removal,
    merger,
    relinked,
    removal,
    resummarised,
    resummarised_back,
    split_off,
)
from cognimem.lifecycle.consolidate import GroupKind
from cognimem.models import Scope
from cognimem.models.knowledge import (
    Alias,
    AliasSource,
    Entity,
    EntityType,
    Fact,
    FactCategory,
    HistoryEntry,
)
from cognimem.models.references import ItemLinks, ItemReference
from cognimem.store.arguments import SummarySources

NOW = datetime(2026, 11, 30, tzinfo=UTC)
SARAH = Entity(
    id="ent_sarah", tenant_id="t1", namespace="default", user_id="u1", name="Sarah Jones",
    type=EntityType.PERSON, created_at=NOW,
)  # fmt: skip


def link(name: str, entity_id: str = SARAH.id, said: str = "She") -> dict[str, object]:
    return {"said": said, "name": name, "sentence": f"{said} works.", "entity_id": entity_id}


def test_an_item_with_no_link_read_as_the_name_is_left_alone() -> None:
    other = ItemLinks("mem_1", [SARAH.id], [link("Sarah Jones")])
    assert relinked(SARAH.id, "sally", None, other) is None
    # the same name read as someone else is not this merge's link
    elsewhere = ItemLinks("mem_2", ["ent_sally"], [link("Sally", "ent_sally")])
    assert relinked(SARAH.id, "sally", None, elsewhere) is None


def test_links_read_as_the_name_go_and_the_entity_with_them_when_none_is_left() -> None:
    item = ItemLinks("mem_1", ["ent_luis", SARAH.id], [link(" SALLY "), link("Luis", "ent_luis")])
    after = relinked(SARAH.id, "sally", None, item)
    assert after == ItemLinks("mem_1", ["ent_luis"], [link("Luis", "ent_luis")])


def test_another_name_of_the_entity_keeps_the_item_linked() -> None:
    item = ItemLinks("mem_1", [SARAH.id], [link("Sarah Jones"), link("Sally", said="her")])
    assert relinked(SARAH.id, "sally", None, item) == ItemLinks(
        "mem_1", [SARAH.id], [link("Sarah Jones")]
    )


def test_a_split_moves_the_links_to_the_new_entity() -> None:
    twin = split_off(SARAH, "sally", "u1", NOW)
    assert (twin.name, twin.properties) == ("Sally", {"split_from": SARAH.id})
    item = ItemLinks("mem_1", [SARAH.id], [link("Sally")])
    after = relinked(SARAH.id, "sally", twin, item)
    assert after == ItemLinks("mem_1", [twin.id], [link("Sally", twin.id)])

    row = Alias(entity_id=SARAH.id, alias="sally", user_id="u1", source=AliasSource.USER_STATED,
                confidence=0.9)  # fmt: skip
    assert after is not None
    summary = SummarySources("mem_s", [SARAH.id, "ent_luis"], "window", {"mem_1": [twin.id]})
    corrected = resummarised(SARAH.id, twin, summary)
    assert corrected == sorted(["ent_luis", twin.id])
    said = Fact(
        id="fct_1", scope=Scope(tenant_id="t1", user_id="u1"), key="sarah_jones:state:mood",
        subject="sarah_jones", subject_entity_id=SARAH.id, predicate="mood",
        category=FactCategory.STATE, value="tired", text="Sally is tired.",
        last_validated_at=NOW, recorded_at=NOW,
    )  # fmt: skip
    took = said.model_copy(
        update={"key": "sally:state:mood", "subject": "sally", "subject_entity_id": twin.id}
    )
    written = removal(
        SARAH, [row], twin, [(item, after)], [(summary, corrected)], [(said, took)], NOW
    )
    entry, split, moved, summed, refact = written.history
    assert entry.after == {
        "alias": None, "split_into": twin.id,
        "item_links": [{"item_id": "mem_1"} | link("Sally", twin.id)],
        "unlinked_items": ["mem_1"], "unlinked_summaries": ["mem_s"], "moved_facts": ["fct_1"],
    }  # fmt: skip
    assert (refact.action, refact.actor, refact.target_type) == ("relinked", "api", "fact")
    assert refact.before == {
        "key": said.key, "subject": "sarah_jones", "subject_entity_id": SARAH.id,
        "object_entity_id": None,
    }  # fmt: skip
    assert refact.after == {
        "key": "sally:state:mood", "subject": "sally", "subject_entity_id": twin.id,
        "object_entity_id": None,
    }  # fmt: skip
    assert entry.before is not None
    assert entry.before["item_links"] == [{"item_id": "mem_1"} | link("Sally")]
    assert (split.action, split.target_id) == ("split", twin.id)
    assert (moved.action, moved.target_type, moved.target_id) == ("relinked", "item", "mem_1")
    assert moved.before == {"entities": [SARAH.id], "links": [link("Sally")]}
    assert moved.after == {"entities": [twin.id], "links": [link("Sally", twin.id)]}
    assert [a.entity_id for a in written.aliases] == [twin.id]
    assert (summed.action, summed.actor, summed.target_id) == ("relinked", "api", "mem_s")
    assert summed.before == {"entities": [SARAH.id, "ent_luis"]}
    assert summed.after == {"entities": corrected}


def sources(group: str = "window", **items: list[str]) -> SummarySources:
    return SummarySources("mem_s", [SARAH.id, "ent_luis"], group, items)


def test_a_summary_keeps_the_entity_while_an_item_it_covers_has_it() -> None:
    still = sources(mem_1=[], mem_2=[SARAH.id, "ent_luis"])
    assert resummarised(SARAH.id, None, still) is None
    gone = sources(mem_1=[], mem_2=["ent_luis"])
    assert resummarised(SARAH.id, None, gone) == ["ent_luis"]
    # only the entity undone goes: another one no item covered has now stays
    assert resummarised(SARAH.id, None, sources(mem_1=[])) == ["ent_luis"]


def test_a_profile_stays_its_subject_s() -> None:
    assert GroupKind.PROFILE.value == PROFILE_GROUP
    twin = split_off(SARAH, "sally", "u1", NOW)
    assert resummarised(SARAH.id, twin, sources("profile", mem_1=[twin.id])) is None


def test_merging_back_runs_the_split_the_other_way() -> None:
    twin = split_off(SARAH, "sally", "u1", NOW)
    item = ItemLinks("mem_1", [twin.id], [link("Sally", twin.id)])
    back = relinked(twin.id, "sally", SARAH, item)
    assert back == ItemLinks("mem_1", [SARAH.id], [link("Sally")])
    row = Alias(entity_id=twin.id, alias="sally", user_id="u1", source=AliasSource.USER_STATED,
                confidence=1.0)  # fmt: skip
    written = merger(SARAH, twin, [row], [(item, back)], [], [], NOW)
    assert [(a.entity_id, a.alias, a.user_id, a.source) for a in written.aliases] == [
        (SARAH.id, "sally", "u1", AliasSource.USER_STATED)
    ]
    entry, merged, relink = written.history
    assert (entry.action, entry.actor, entry.target_id) == ("alias_added", "api", SARAH.id)
    assert entry.after == {
        "alias": "sally", "source": "user_stated", "merged_from": twin.id,
        "item_links": [{"item_id": "mem_1"} | link("Sally")], "moved_facts": [],
    }  # fmt: skip
    assert (merged.action, merged.target_id, merged.after) == (
        "merged", twin.id, {"merged_into": SARAH.id},
    )  # fmt: skip
    assert (relink.action, relink.target_id) == ("relinked", "mem_1")


def test_a_name_no_one_holds_is_added_with_its_entry() -> None:
    row = Alias(entity_id=SARAH.id, alias="sal", user_id=None, source=AliasSource.USER_STATED,
                confidence=1.0)  # fmt: skip
    written = added(SARAH, row, NOW)
    assert written.aliases == [row]
    [entry] = written.history
    assert (entry.action, entry.after) == (
        "alias_added",
        {"alias": "sal", "source": "user_stated", "merged_from": None, "restored_from": None,
         "item_links": [], "linked_summaries": []},
    )  # fmt: skip


def removed_entry(
    name: str, user_id: str | None, *, split: bool = False, **more: object
) -> HistoryEntry:
    rows = [{"alias": name, "user_id": user_id, "source": "user_stated"}]
    taken = [{"item_id": "mem_1"} | link("Sally"), {"item_id": "mem_2"} | link("Sally", said="her")]
    return HistoryEntry.new(
        tenant_id="t1", target_type="entity", target_id=SARAH.id, action="alias_removed",
        actor="api", at=NOW, before={"alias": name, "rows": rows, "item_links": taken} | more,
        after={"alias": None, "split_into": "ent_twin" if split else None},
    )  # fmt: skip


def test_the_last_removal_of_the_user_s_row_is_the_one_undone() -> None:
    first, second = removed_entry("sally", "u1"), removed_entry("sally", "u1")
    others = [removed_entry("sally", "u2"), removed_entry("sal", "u1")]
    assert last_removal([first, second, *others], "sally", "u1") == second
    assert last_removal([first, removed_entry("sally", "u1", split=True)], "sally", "u1") is None
    assert last_removal(others, "sally", "u1") is None
    assert last_removal([removed_entry("sally", None)], "sally", None) is not None


def test_a_name_given_back_brings_back_the_links_its_removal_took_off() -> None:
    row = Alias(entity_id=SARAH.id, alias="sally", user_id="u1", source=AliasSource.USER_STATED,
                confidence=1.0)  # fmt: skip
    undone = removed_entry("sally", "u1")
    items = [
        ItemLinks("mem_1", [], []),  # unlinked by the removal
        ItemLinks("mem_2", [SARAH.id], [link("Sally", said="her")]),  # linked again since
    ]  # mem_3 is no longer stored
    written = added(SARAH, row, NOW, undone, items)
    assert written.item_links == [ItemReference("t1", "mem_1", SARAH.id, link("Sally"))]
    entry, relink = written.history
    assert entry.after is not None
    assert (entry.after["restored_from"], entry.after["item_links"]) == (
        undone.id, [{"item_id": "mem_1"} | link("Sally")],
    )  # fmt: skip
    assert (relink.action, relink.target_id, relink.before, relink.after) == (
        "relinked", "mem_1", {"entities": [], "links": []},
        {"entities": [SARAH.id], "links": [link("Sally")]},
    )  # fmt: skip


def test_an_item_given_back_has_the_links_it_lacks_and_the_entity() -> None:
    undone = removed_entry("sally", "u1")
    assert given_back(SARAH.id, undone, ItemLinks("mem_1", ["ent_luis"], [])) == ItemLinks(
        "mem_1", ["ent_luis", SARAH.id], [link("Sally")]
    )
    has = ItemLinks("mem_2", [SARAH.id], [link("Sally", said="her")])
    assert given_back(SARAH.id, undone, has) is None  # linked again since
    assert given_back(SARAH.id, undone, ItemLinks("mem_9", [], [])) is None  # never taken
    assert given_back(SARAH.id, None, ItemLinks("mem_1", [], [])) is None  # nothing undone


def test_a_summary_has_the_entity_again_once_an_item_it_covers_has_it() -> None:
    def summary(group: str, entities: list[str], sources: dict[str, list[str]]) -> SummarySources:
        return SummarySources("mem_s", entities, group, sources)

    restored = {"mem_1"}
    window = summary("window", ["ent_luis"], {"mem_1": [], "mem_2": ["ent_luis"]})
    assert resummarised_back(SARAH.id, restored, window) == sorted(["ent_luis", SARAH.id])
    # an item it covers names her already (by her own name): she comes in too
    other = summary("topic", [], {"mem_5": [SARAH.id]})
    assert resummarised_back(SARAH.id, restored, other) == [SARAH.id]
    # no item of hers; she is there already; a profile is its subject's
    assert resummarised_back(SARAH.id, restored, summary("window", [], {"mem_2": []})) is None
    has = summary("window", [SARAH.id], {"mem_1": []})
    assert resummarised_back(SARAH.id, restored, has) is None
    profile = summary(PROFILE_GROUP, ["ent_luis"], {"mem_1": []})
    assert resummarised_back(SARAH.id, restored, profile) is None


def test_the_summaries_given_back_are_in_the_entry_and_their_own() -> None:
    row = Alias(entity_id=SARAH.id, alias="sally", user_id="u1", source=AliasSource.USER_STATED,
                confidence=1.0)  # fmt: skip
    window = SummarySources("mem_s", ["ent_luis"], "window", {"mem_1": []})
    after = ["ent_luis", SARAH.id]
    written = added(SARAH, row, NOW, removed_entry("sally", "u1"), [], [(window, after)])
    entry, corrected = written.history
    assert entry.after is not None
    assert entry.after["linked_summaries"] == ["mem_s"]
    assert (corrected.action, corrected.target_id, corrected.before, corrected.after) == (
        "relinked", "mem_s", {"entities": ["ent_luis"]}, {"entities": after},
    )  # fmt: skip
