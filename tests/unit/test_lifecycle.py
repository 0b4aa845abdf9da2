"""The pure editing decisions (``cognimem.editing``): edits and feedback, what a
forget touches, and a user settling a fact conflict."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cognimem.editing import conflicts, edits
from cognimem.errors import Conflict, InvalidInput
from cognimem.ingest.funnel import index_text
from cognimem.models import ItemStatus, MemoryItem, Scope, Tier
from cognimem.models.knowledge import (
    ConflictStatus,
    ConflictStrategy,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
)
from cognimem.recall.conversation.evidence import mentions
from cognimem.store import forgetting
from cognimem.store.transfer import embedded_text

T0 = datetime(2024, 1, 1, tzinfo=UTC)
NOW = T0 + timedelta(days=3)
U = Scope(user_id="u")


def item(**kw: Any) -> MemoryItem:
    fields: dict[str, Any] = {
        "id": "mem_1", "scope": U, "text": "I drive a blue car", "occurred_at": T0,
        "recorded_at": T0, "confidence": 0.5,
    }  # fmt: skip
    return MemoryItem(**{**fields, **kw})


def fact(fact_id: str, value: str, **kw: Any) -> Fact:
    fields: dict[str, Any] = {
        "id": fact_id, "scope": U, "key": "user:location:city", "subject": "user",
        "predicate": "city", "category": FactCategory.LOCATION, "value": value,
        "text": f"I live in {value}", "last_validated_at": T0, "recorded_at": T0,
    }  # fmt: skip
    return Fact(**{**fields, **kw})


def conflict(**kw: Any) -> FactConflict:
    fields: dict[str, Any] = {
        "id": "cfl_1", "scope": U, "key": "user:location:city", "fact_ids": ["f1", "f2"],
        "strategy": ConflictStrategy.ASK_USER, "created_at": T0, "note": "stated together",
    }  # fmt: skip
    return FactConflict(**{**fields, **kw})


def test_the_erased_hashes_cover_the_text_the_write_path_embeds() -> None:
    for author in (None, "Ada"):
        assert embedded_text(author, "hello there") == index_text(author, "hello there")


def test_an_edit_records_only_the_fields_that_changed() -> None:
    before = item()
    after, entry = edits.edited(
        before,
        edits.Edit(text="I drive a red van", token_count=5, importance=0.5, tier=Tier.HIGH),
        embedding_model="m2",
        now=NOW,
    )
    assert (after.text, after.token_count, after.tier, after.embedding_model) == (
        "I drive a red van", 5, Tier.HIGH, "m2",
    )  # fmt: skip
    assert entry is not None
    assert (entry.action, entry.actor, entry.at, entry.target_id) == (
        "updated",
        "api",
        NOW,
        "mem_1",
    )
    assert entry.before == {
        "text": "I drive a blue car", "token_count": 0, "tier": "medium", "embedding_model": None
    }  # fmt: skip
    assert entry.after == {
        "text": "I drive a red van", "token_count": 5, "tier": "high", "embedding_model": "m2"
    }  # fmt: skip
    same, nothing = edits.edited(after, edits.Edit(text=after.text), embedding_model="m2", now=NOW)
    assert (same, nothing) == (after, None)


@pytest.mark.parametrize(
    ("feedback", "changed"),
    [
        ("correct", {"success_count": 1, "confidence": 0.6}),
        ("incorrect", {"failure_count": 1, "status": "silent"}),
        ("outdated", {"status": "archived"}),
    ],
)
def test_feedback(feedback: edits.Feedback, changed: dict[str, Any]) -> None:
    after, entry = edits.edited(item(), edits.Edit(feedback=feedback), embedding_model="m", now=NOW)
    assert entry is not None
    assert entry.action == "feedback"
    assert entry.after == {**changed, "feedback": feedback}
    assert after.model_dump(mode="json", include=set(changed)) == changed


def test_forget_touches_only_what_changes() -> None:
    items = [item(id="a"), item(id="b", status=ItemStatus.ARCHIVED)]
    assert [i.id for i in edits.forgettable(items, "archive")] == ["a"]
    assert [i.id for i in edits.forgettable(items, "delete")] == ["a", "b"]
    forgotten = [forgetting.ForgottenItem("a", "t", ItemStatus.ACTIVE)]
    [entry] = forgetting.history(forgotten, forgetting.Cascade(), ItemStatus.SILENT, NOW)
    assert (entry.action, entry.before, entry.after) == (
        "silenced", {"status": "active"}, {"status": "silent"},
    )  # fmt: skip


def sourced(fact_id: str, items: tuple[str, ...], events: tuple[str, ...], **kw: Any) -> Any:
    fields: dict[str, Any] = {
        "id": fact_id, "tenant_id": "t", "namespace": "default", "user_id": "u",
        "key": "user:value:diet", "status": FactStatus.ACTIVE, "revision": 1,
        "evidence_item_ids": items, "evidence_event_ids": events,
    }  # fmt: skip
    return forgetting.SourcedFact(**{**fields, **kw})


@pytest.mark.parametrize("status", [ItemStatus.DELETED, ItemStatus.ARCHIVED, ItemStatus.SILENT])
def test_a_fact_goes_with_its_last_live_source_and_keeps_the_others(status: ItemStatus) -> None:
    alone = sourced("f1", ("a",), ("e1",))
    shared = sourced("f2", ("a", "b"), ("e1", "e2"))
    stale = sourced("f3", ("a", "c"), ("e1", "e3"))  # c is no longer active
    old = sourced("f4", ("a",), ("e1",), status=FactStatus.SUPERSEDED)
    summary = forgetting.ForgottenItem("s1", "t", ItemStatus.ACTIVE)
    kept_summary = forgetting.ForgottenItem("s2", "t", ItemStatus.ACTIVE)
    plan = forgetting.cascade(
        status,
        {"a"},
        [alone, shared, stale, old],
        live_items={"b"},
        gone_events={"e1"},
        summaries=[summary, kept_summary],
        summary_events={"s1": ["e1"], "s2": ["e1", "e2"]},
    )
    deleted = status is ItemStatus.DELETED
    # a superseded fact is already out of every read: only a delete removes it
    assert [f.id for f in plan.orphaned] == (["f1", "f3", "f4"] if deleted else ["f1", "f3"])
    [trim] = plan.trimmed
    assert (trim.fact.id, trim.item_ids, trim.event_ids) == ("f2", ["b"], ["e2"])
    assert [s.id for s in plan.summaries] == ["s1"]
    entries = forgetting.history([], plan, status, NOW)
    actions = {(e.target_id, e.action) for e in entries}
    assert ("f1", "deleted" if deleted else "invalidated") in actions
    assert ("f2", "evidence_trimmed") in actions
    assert (
        "s1",
        {"deleted": "deleted", "archived": "archived", "silent": "silenced"}[status],
    ) in actions


def test_a_memory_mentions_a_query_by_its_own_words() -> None:
    assert mentions("the quarterly tax return is due", ["tax", "returns"])
    assert mentions("We adopted a kitten", ["kittens"])
    assert not mentions("we adopted a kitten named Miso", ["quarterly", "tax"])
    assert not mentions("anything at all", [])


def test_a_winner_supersedes_the_other_facts_as_reconciliation_would() -> None:
    paris = fact("f1", "Paris", revision=2)
    rome = fact("f2", "Rome", valid_from=T0 + timedelta(days=1))
    out = conflicts.resolve(conflict(), [paris, rome], "f2", "", NOW)
    assert out is not None
    assert out.conflict.status is ConflictStatus.RESOLVED
    assert (out.conflict.winner_fact_id, out.conflict.resolved_at) == ("f2", NOW)
    assert out.conflict.note == "stated together"  # kept when no new note is given
    [update] = out.changes.fact_updates
    assert update.expected_revision == 2
    ended = update.fact
    assert (ended.id, ended.status, ended.superseded_by, ended.revision) == (
        "f1", FactStatus.SUPERSEDED, "f2", 3,
    )  # fmt: skip
    assert ended.valid_to == rome.valid_from
    superseded, settled = out.changes.history
    assert (superseded.action, superseded.actor, superseded.target_id) == (
        "superseded",
        "api",
        "f1",
    )
    assert superseded.before is not None
    assert superseded.before["status"] == "active"
    assert (settled.target_type, settled.action, settled.target_id) == (
        "conflict", "resolved", "cfl_1",
    )  # fmt: skip
    assert out.changes.silence_items == []


def test_a_superseded_constraint_silences_its_own_evidence() -> None:
    old = fact("f1", "vegan", category=FactCategory.VALUE, evidence_item_ids=["m1", "m2"])
    new = fact("f2", "vegetarian", category=FactCategory.VALUE, evidence_item_ids=["m2"])
    out = conflicts.resolve(conflict(), [old, new], "f2", "", NOW)
    assert out is not None
    assert out.changes.silence_items == ["m1"]


def test_keeping_both_changes_no_fact() -> None:
    out = conflicts.resolve(
        conflict(), [fact("f1", "Paris"), fact("f2", "Rome")], None, "both", NOW
    )
    assert out is not None
    assert (out.conflict.strategy, out.conflict.note) == (ConflictStrategy.BOTH_VALID, "both")
    assert out.changes.fact_updates == []
    assert [h.target_type for h in out.changes.history] == ["conflict"]


def test_bad_or_repeated_resolutions() -> None:
    facts = [fact("f1", "Paris"), fact("f2", "Rome", status=FactStatus.SUPERSEDED)]
    with pytest.raises(InvalidInput) as err:
        conflicts.resolve(conflict(), facts, "f9", "", NOW)
    assert err.value.field == "winner_fact_id"
    with pytest.raises(InvalidInput):
        conflicts.resolve(conflict(), facts, "f2", "", NOW)  # no longer live
    done = conflict(status=ConflictStatus.RESOLVED, winner_fact_id="f1", resolved_at=T0)
    assert conflicts.resolve(done, facts, "f1", "", NOW) is None
    with pytest.raises(Conflict):
        conflicts.resolve(done, facts, None, "", NOW)
