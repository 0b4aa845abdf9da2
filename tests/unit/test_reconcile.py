"""Stable keys and reconciliation: pure functions, no I/O."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta

from cognimem.ingest.reconcile import NewFact, reconcile
from cognimem.models import Scope
from cognimem.models.fact_changes import CONFIDENCE_CAP
from cognimem.models.knowledge import (
    ConflictStatus,
    ConflictStrategy,
    Fact,
    FactCategory,
    FactStatus,
)
from cognimem.text.names import fact_key, is_under, normalize_name, slug, subject_slug

T0 = datetime(2024, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)
SCOPE = Scope(user_id="u")


def fact(
    value: str,
    *,
    key: str = "user:value:diet",
    category: FactCategory = FactCategory.VALUE,
    confidence: float = 0.8,
    at: datetime = T0,
    fid: str | None = None,
    items: list[str] | None = None,
    valid_from: datetime | None = None,
    status: FactStatus = FactStatus.ACTIVE,
) -> Fact:
    return Fact(
        id=fid or f"fct_{value}_{at.timestamp()}",
        scope=SCOPE,
        key=key,
        subject="user",
        predicate=key.split(":")[2],
        category=category,
        value=value,
        text=value,
        confidence=confidence,
        last_validated_at=at,
        recorded_at=at,
        valid_from=valid_from,
        evidence_item_ids=items or [f"mem_{value}"],
        status=status,
    )


def said(f: Fact, *, holds: bool = True) -> NewFact:
    return NewFact(fact=f, said_at=f.last_validated_at, holds=holds, event_id=f"evt_{f.id}")


# -- keys ------------------------------------------------------------------------------
def test_keys_are_stable_distinct_and_readable() -> None:
    assert fact_key("user", "identity", "name", "Alice", multi_valued=False) == (
        "user:identity:name"
    )
    food = fact_key("user", "preference", "cuisine", "Italian", multi_valued=True)
    music = fact_key("user", "preference", "music", "Italian", multi_valued=True)
    assert food == "user:preference:cuisine:italian"
    assert food != music
    assert is_under(food, "user:preference:cuisine")
    assert not is_under("user:preference:cuisines", "user:preference:cuisine")
    assert slug("Crème Brûlée!") == "creme_brulee"
    assert normalize_name("  The  Acme Corp. ") == "acme corp"
    assert subject_slug("Sarah") == "sarah"
    assert subject_slug("Mary Jane") == "mary_jane"


def test_keys_do_not_depend_on_the_process() -> None:
    """Python's hash() changes per process; keys must not."""
    code = (
        "from cognimem.text.names import fact_key;"
        "print(fact_key('user','preference','drink','Green tea',multi_valued=True))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(seed), "PYTHONPATH": "src"},
        ).stdout.strip()
        for seed in (1, 2, 3)
    }
    assert outputs == {"user:preference:drink:green_tea"}


# -- reconcile -------------------------------------------------------------------------
def test_new_key_creates_and_records_the_read_set() -> None:
    new = fact("vegetarian")
    out = reconcile([said(new)], {}, T0)
    assert [f.id for f in out.created] == [new.id]
    assert out.updates == {}
    [state] = out.read_set
    assert (state.key, state.facts) == ("user:value:diet", frozenset())
    assert [h.action for h in out.history] == ["created"]


def test_same_value_reinforces_with_a_cap() -> None:
    old = fact("tea", key="user:preference:drink:tea", confidence=0.97)
    again = fact("Tea", key="user:preference:drink:tea", at=T0 + DAY, items=["mem_2"])
    out = reconcile([said(again)], {old.key: [old]}, T0 + DAY)
    assert out.created == []
    update = out.updates[old.id]
    assert update.expected_revision == 1
    assert update.fact.reinforcement_count == 2
    assert old.confidence < update.fact.confidence <= CONFIDENCE_CAP
    assert update.fact.last_validated_at == T0 + DAY
    assert update.fact.evidence_item_ids == ["mem_tea", "mem_2"]
    assert out.reinforced == [old.id]
    assert [s.facts for s in out.read_set] == [frozenset({(old.id, 1)})]


def test_later_different_value_supersedes_and_silences_constraint_items() -> None:
    old = fact("vegetarian")
    new = fact("eats fish", at=T0 + 7 * DAY)
    out = reconcile([said(new)], {old.key: [old]}, T0 + 7 * DAY)
    ended = out.updates[old.id].fact
    assert ended.status is FactStatus.SUPERSEDED
    assert ended.superseded_by == new.id
    assert ended.valid_to == T0 + 7 * DAY
    assert [f.id for f in out.created] == [new.id]
    assert out.silence_items == ["mem_vegetarian"]


def test_superseded_non_constraint_keeps_its_items() -> None:
    old = fact("Paris", key="user:location:city", category=FactCategory.LOCATION)
    new = fact("Berlin", key="user:location:city", category=FactCategory.LOCATION, at=T0 + DAY)
    out = reconcile([said(new)], {old.key: [old]}, T0 + DAY)
    assert out.updates[old.id].fact.status is FactStatus.SUPERSEDED
    assert out.silence_items == []


def test_a_superseded_fact_marks_only_the_items_that_state_the_old_value() -> None:
    old = fact(
        "Paris", key="user:location:city", category=FactCategory.LOCATION,
        items=["mem_paris", "mem_both"],
    )  # fmt: skip
    new = fact(
        "Berlin", key="user:location:city", category=FactCategory.LOCATION, at=T0 + DAY,
        items=["mem_both", "mem_berlin"],
    )  # fmt: skip
    out = reconcile([said(new)], {old.key: [old]}, T0 + 2 * DAY)
    [mark] = out.stale_items
    assert (mark.item_id, mark.by, mark.fact_id) == ("mem_paris", new.id, old.id)
    assert (mark.since, mark.reason, mark.marked_at) == (T0 + DAY, "superseded", T0 + 2 * DAY)
    [entry] = [h for h in out.history if h.target_type == "item"]
    assert (entry.target_id, entry.action) == ("mem_paris", "no_longer_true")
    assert entry.after is not None
    assert entry.after["superseded_by"] == new.id


def test_a_superseded_constraint_silences_instead_of_marking() -> None:
    old = fact("vegetarian")
    out = reconcile([said(fact("eats fish", at=T0 + DAY))], {old.key: [old]}, T0 + DAY)
    assert out.stale_items == []


def test_an_older_statement_becomes_history_not_the_current_value() -> None:
    current = fact("Berlin", key="user:location:city", at=T0 + 30 * DAY)
    older = fact("Paris", key="user:location:city", at=T0)
    out = reconcile([said(older)], {current.key: [current]}, T0 + 31 * DAY)
    assert out.updates == {}
    [stored] = out.created
    assert stored.status is FactStatus.SUPERSEDED
    assert stored.superseded_by == current.id


def test_same_moment_equal_confidence_asks_the_user() -> None:
    a = fact("Alice", key="user:identity:name", fid="fct_a")
    b = fact("Bob", key="user:identity:name", fid="fct_b")
    out = reconcile([said(b)], {a.key: [a]}, T0)
    [conflict] = out.conflicts
    assert conflict.strategy is ConflictStrategy.ASK_USER
    assert conflict.status is ConflictStatus.OPEN
    assert conflict.fact_ids == ["fct_a", "fct_b"]
    assert out.updates == {}  # both stay live
    assert [f.status for f in out.created] == [FactStatus.ACTIVE]


def test_same_moment_different_confidence_trusts_the_recent() -> None:
    a = fact("Alice", key="user:identity:name", fid="fct_a", confidence=0.5)
    b = fact("Bob", key="user:identity:name", fid="fct_b", confidence=0.9)
    out = reconcile([said(b)], {a.key: [a]}, T0)
    [conflict] = out.conflicts
    assert conflict.strategy is ConflictStrategy.TRUST_RECENT
    assert conflict.status is ConflictStatus.RESOLVED
    assert conflict.winner_fact_id == "fct_b"
    assert out.updates["fct_a"].fact.status is FactStatus.SUPERSEDED


def test_past_then_current_in_one_message() -> None:
    moved = T0 - 365 * DAY
    paris = fact("Paris", key="user:location:city", category=FactCategory.LOCATION)
    berlin = fact(
        "Berlin", key="user:location:city", category=FactCategory.LOCATION, valid_from=moved
    )
    out = reconcile([said(paris, holds=False), said(berlin)], {}, T0)
    by_value = {f.value: f for f in out.created}
    assert by_value["Paris"].status is FactStatus.SUPERSEDED
    assert by_value["Paris"].valid_to == moved
    assert by_value["Paris"].superseded_by == berlin.id
    assert by_value["Berlin"].status is FactStatus.ACTIVE


def test_used_to_ends_the_current_value() -> None:
    paris = fact("Paris", key="user:location:city", category=FactCategory.LOCATION)
    later = fact("Paris", key="user:location:city", category=FactCategory.LOCATION, at=T0 + DAY)
    out = reconcile([said(later, holds=False)], {paris.key: [paris]}, T0 + DAY)
    ended = out.updates[paris.id].fact
    assert ended.status is FactStatus.SUPERSEDED
    assert ended.valid_to == T0 + DAY
    assert out.created == []


def test_used_to_marks_the_items_that_said_it_holds() -> None:
    paris = fact("Paris", key="user:location:city", category=FactCategory.LOCATION)
    used_to = fact(
        "Paris", key="user:location:city", category=FactCategory.LOCATION, at=T0 + DAY,
        items=["mem_used_to"],
    )  # fmt: skip
    out = reconcile([said(used_to, holds=False)], {paris.key: [paris]}, T0 + DAY)
    assert [(m.item_id, m.since) for m in out.stale_items] == [("mem_Paris", T0 + DAY)]


def test_repeats_within_one_batch_reinforce_the_new_fact() -> None:
    first = fact("tea", key="user:preference:drink:tea", fid="fct_1")
    second = fact("tea", key="user:preference:drink:tea", fid="fct_2", at=T0 + DAY)
    out = reconcile([said(first), said(second)], {}, T0 + DAY)
    [created] = out.created
    assert created.id == "fct_1"
    assert created.reinforcement_count == 2
    assert out.updates == {}
