"""The supersessions a name split or merge back undoes (``editing/alias_settle.py``:
``settled``): a fact ended by one now under another key is live again unless its key
has a live fact; a fact brought back live beside a live one that says otherwise is
ordered against it in time; nothing else changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from cognimem.editing.alias_settle import settled, unsilenced
from cognimem.models import Scope
from cognimem.models.fact_changes import SILENCED_BY_SUPERSESSION
from cognimem.models.knowledge import Fact, FactCategory, FactStatus, HistoryEntry
from cognimem.store.relinking import restored_evidence, unsilences
from cognimem.store.types import FactUpdate, Knowledge

NOW = datetime(2026, 11, 30, tzinfo=UTC)
T0 = NOW - timedelta(days=10)
HERS, TWINS = "elizabeth_smith:location:city", "lizzie:location:city"


def fact(fid: str, key: str, value: str, day: int, **extra: Any) -> Fact:
    return Fact(
        id=fid, scope=Scope(tenant_id="t1", user_id="u1"), key=key, subject=key.split(":")[0],
        predicate="city", category=FactCategory.LOCATION, value=value, text=f"lives in {value}",
        last_validated_at=T0, recorded_at=T0 + timedelta(days=day),
        valid_from=T0 + timedelta(days=day), evidence_item_ids=[f"mem_{fid}"], **extra,
    )  # fmt: skip


def ended(f: Fact, by: Fact) -> Fact:
    return f.model_copy(
        update={"status": FactStatus.SUPERSEDED, "superseded_by": by.id,
                "valid_to": by.valid_from, "recorded_to": by.recorded_at, "revision": 2}
    )  # fmt: skip


def test_a_split_restores_the_fact_a_moved_one_ended() -> None:
    paris_was = fact("f_paris", HERS, "Paris", 2)
    paris = paris_was.model_copy(update={"key": TWINS, "revision": 2})
    boston = ended(fact("f_boston", HERS, "Boston", 1), paris_was)
    out = settled("alias_removed", NOW, [(paris_was, paris)], [paris, boston])
    [update] = out.fact_updates
    assert update.expected_revision == 2
    assert update.fact == boston.model_copy(
        update={"status": FactStatus.ACTIVE, "superseded_by": None, "valid_to": None,
                "recorded_to": None, "revision": 3}
    )  # fmt: skip
    [entry] = out.history
    assert (entry.action, entry.actor, entry.target_id) == ("restored", "api", boston.id)
    assert entry.after is not None
    assert entry.after["because"] == "alias_removed"
    assert out.stale_items == []


def test_a_moved_fact_the_entity_ended_is_restored_too() -> None:
    boston = fact("f_boston", HERS, "Boston", 2)
    paris_was = ended(fact("f_paris", HERS, "Paris", 1), boston)
    paris = paris_was.model_copy(update={"key": TWINS, "revision": 3})
    out = settled("alias_removed", NOW, [(paris_was, paris)], [paris, boston])
    assert [(u.fact.id, u.fact.status) for u in out.fact_updates] == [(paris.id, FactStatus.ACTIVE)]


def test_a_key_with_a_live_fact_of_its_own_keeps_the_ended_one_ended() -> None:
    paris_was = fact("f_paris", HERS, "Paris", 2)
    paris = paris_was.model_copy(update={"key": TWINS, "revision": 2})
    boston = ended(fact("f_boston", HERS, "Boston", 1), paris_was)
    rome = fact("f_rome", HERS, "Rome", 3)  # said of Elizabeth Smith later
    out = settled("alias_removed", NOW, [(paris_was, paris)], [paris, boston, rome])
    assert out.fact_updates == []
    assert out.history == []


def test_a_supersession_within_one_side_is_left() -> None:
    lyon = fact("f_lyon", HERS, "Lyon", 3)
    paris_was = ended(fact("f_paris", HERS, "Paris", 2), lyon)
    lyon_moved = lyon.model_copy(update={"key": TWINS, "revision": 2})
    paris = paris_was.model_copy(update={"key": TWINS, "revision": 3})
    moved = [(paris_was, paris), (lyon, lyon_moved)]
    assert settled("alias_removed", NOW, moved, [paris, lyon_moved]).fact_updates == []


def test_a_merge_back_supersedes_the_earlier_of_two_live_values() -> None:
    boston = fact("f_boston", HERS, "Boston", 1)
    paris_was = fact("f_paris", TWINS, "Paris", 2)
    paris = paris_was.model_copy(update={"key": HERS, "revision": 2})
    out = settled("alias_added", NOW, [(paris_was, paris)], [boston, paris])
    [update] = out.fact_updates
    assert (update.fact.id, update.fact.status, update.fact.superseded_by) == (
        boston.id, FactStatus.SUPERSEDED, paris.id,
    )  # fmt: skip
    assert update.fact.valid_to == paris.valid_from
    assert [m.item_id for m in out.stale_items] == ["mem_f_boston"]
    actions = sorted((h.action, h.actor) for h in out.history)
    assert actions == [("no_longer_true", "api"), ("superseded", "api")]


def test_a_merge_back_leaves_the_same_value_and_the_same_moment_live() -> None:
    boston = fact("f_boston", HERS, "Boston", 1)
    again_was = fact("f_again", TWINS, "boston", 2)
    again = again_was.model_copy(update={"key": HERS, "revision": 2})
    assert settled("alias_added", NOW, [(again_was, again)], [boston, again]).fact_updates == []
    same_was = fact("f_paris", TWINS, "Paris", 1)
    same = same_was.model_copy(update={"key": HERS, "revision": 2})
    assert settled("alias_added", NOW, [(same_was, same)], [boston, same]).fact_updates == []


def test_a_merge_back_silences_a_constraint_s_items_as_the_write_path_does() -> None:
    """A constraint ended by a merge back has its evidence items silenced (with the
    write path's reason, which a later split reads to give them back), not marked."""
    diet = {"category": FactCategory.VALUE, "predicate": "diet"}
    veggie = fact("f_veg", "elizabeth_smith:value:diet", "vegetarian", 1).model_copy(update=diet)
    vegan_was = fact("f_vegan", "lizzie:value:diet", "vegan", 2).model_copy(update=diet)
    vegan = vegan_was.model_copy(update={"key": veggie.key, "revision": 2})
    out = settled("alias_added", NOW, [(vegan_was, vegan)], [veggie, vegan])
    assert [(u.fact.id, u.fact.status) for u in out.fact_updates] == [
        (veggie.id, FactStatus.SUPERSEDED)
    ]
    assert (out.silence_items, out.stale_items) == (["mem_f_veg"], [])
    [silenced] = [h for h in out.history if h.target_id == "mem_f_veg"]
    assert (silenced.action, silenced.actor, silenced.after) == (
        "silenced", "api",
        {"status": "silent", "reason": SILENCED_BY_SUPERSESSION, "because": "alias_added"},
    )  # fmt: skip


def test_each_item_given_back_has_its_unsilenced_entry() -> None:
    [entry] = unsilenced("t1", "alias_removed", NOW, [("mem_1", "f_veg")]).history
    assert (entry.action, entry.actor, entry.target_type, entry.target_id) == (
        "unsilenced", "api", "item", "mem_1",
    )  # fmt: skip
    assert (entry.before, entry.after) == (
        {"status": "silent"},
        {"status": "active", "because": "alias_removed", "fact_id": "f_veg"},
    )
    assert unsilenced("t1", "alias_removed", NOW, []).history == []


def test_the_items_a_restored_constraint_gets_back_are_those_its_supersession_silenced() -> None:
    diet = {"category": FactCategory.VALUE, "predicate": "diet"}
    was = ended(fact("f_veg", HERS, "vegetarian", 1), fact("f_x", TWINS, "vegan", 2))
    was = was.model_copy(update=diet | {"evidence_item_ids": ["mem_a", "mem_b", "mem_c"]})
    city = ended(fact("f_boston", HERS, "Boston", 1), fact("f_y", TWINS, "Paris", 2))
    live = [
        FactUpdate(was.model_copy(update={"status": FactStatus.ACTIVE, "superseded_by": None}), 2),
        FactUpdate(city.model_copy(update={"status": FactStatus.ACTIVE, "superseded_by": None}), 2),
    ]
    evidence = restored_evidence([was, city], Knowledge(fact_updates=live))
    assert evidence == {"mem_a": "f_veg", "mem_b": "f_veg", "mem_c": "f_veg"}  # a constraint's

    def entry(item: str, action: str, reason: str) -> HistoryEntry:
        return HistoryEntry.new(
            tenant_id="t1", target_type="item", target_id=item, action=action, at=NOW,
            before=None, after={"status": "silent", "reason": reason},
        )  # fmt: skip

    latest = {
        "mem_a": entry("mem_a", "silenced", SILENCED_BY_SUPERSESSION),
        "mem_b": entry("mem_b", "silenced", "forgotten by the user"),  # silenced otherwise
        # mem_c: not silent (not among the latest read)
    }
    assert unsilences(evidence, latest) == [("mem_a", "f_veg")]
