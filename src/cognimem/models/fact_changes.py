"""How a stored fact changes state: reinforced by a repetition, superseded by a newer
value, invalidated as never true, and the history entry each change writes.

Pure functions over ``Fact`` models, shared by the write path's reconciliation
(``ingest/reconcile.py``), a user resolving a conflict (``editing/conflicts.py``) and
revision after a turn (``lifecycle/revise.py``), so a fact is reinforced, superseded and
recorded the same way whoever changes it. Every change raises the fact's ``revision``,
the guard the store's fact updates check.

A fact that ends (superseded) or is found never true (invalidated) also marks the
items that were its evidence and state nothing that still holds (:func:`stale_evidence`):
``superseded_by`` and the item metadata ``no_longer_true`` (``since``, ``reason``,
``fact_id``, ``marked_at``), with an item history entry; reads rank them down
(``recall/fact_time.stale_since``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cognimem.models.items import ItemStatus
from cognimem.models.knowledge import Fact, FactStatus, HistoryEntry

LIVE = (FactStatus.ACTIVE, FactStatus.AGING)
LIVE_VALUES = tuple(s.value for s in LIVE)  # as both stores keep them
CONFIDENCE_CAP = 0.99
REINFORCE_RATE = 0.25  # each repetition closes this share of the gap to the cap
MAX_EVIDENCE = 50
NO_LONGER_TRUE = "no_longer_true"  # the item metadata key of the mark
# the reason of the ``silenced`` entry of an item whose constraint a newer value superseded
# (the write path's, ``ingest/knowledge.py``): what a split that restores the constraint
# reads to give the item back (``store/relinking.py``)
SILENCED_BY_SUPERSESSION = "its constraint was superseded"


def silenced_entries(
    tenant_id: str,
    item_ids: Iterable[str],
    at: datetime,
    reason: str,
    *,
    actor: str = "ingest",
    **after: Any,
) -> list[HistoryEntry]:
    """The ``silenced`` history entry of each item silenced because its constraint
    ended (``reason``; ``after``: more of the entry's ``after``, e.g. the edit that did
    it): active before, silent after."""
    return [
        HistoryEntry.new(
            tenant_id=tenant_id,
            target_type="item",
            target_id=item_id,
            action="silenced",
            actor=actor,
            at=at,
            before={"status": ItemStatus.ACTIVE.value},
            after={"status": ItemStatus.SILENT.value, "reason": reason, **after},
        )
        for item_id in item_ids
    ]


def same_statement(a: Fact, b: Fact) -> bool:
    """Whether two facts say the same (value, case aside, and polarity)."""
    return a.value.casefold() == b.value.casefold() and a.polarity == b.polarity


def reinforced(old: Fact, new: Fact, said_at: datetime) -> Fact:
    """``old`` said again as ``new`` at ``said_at``: confidence toward the cap (by
    ``new``'s confidence), ``reinforcement_count`` + 1, ``last_validated_at`` (which
    resets its passive decay, ``models/fact_decay.py``; an aging fact is active again), the
    evidence and scope tags of both."""
    gain = REINFORCE_RATE * new.confidence * (CONFIDENCE_CAP - old.confidence)
    confidence = min(CONFIDENCE_CAP, old.confidence + max(gain, 0.0))
    factors = dict(old.confidence_factors)
    factors["reinforcement"] = round(
        confidence - old.confidence + factors.get("reinforcement", 0.0), 6
    )
    valid_from = old.valid_from
    if new.valid_from is not None and (valid_from is None or new.valid_from < valid_from):
        valid_from = new.valid_from
    return old.model_copy(
        update={
            # validated again: an aging fact is active again, its decay starts over
            "status": FactStatus.ACTIVE if old.status is FactStatus.AGING else old.status,
            "confidence": confidence,
            "confidence_factors": factors,
            "reinforcement_count": old.reinforcement_count + 1,
            "last_validated_at": max(old.last_validated_at, said_at),
            "valid_from": valid_from,
            "evidence_item_ids": union(old.evidence_item_ids, new.evidence_item_ids),
            "evidence_event_ids": union(old.evidence_event_ids, new.evidence_event_ids),
            "importance": max(old.importance, new.importance),
            "scope_tags": union(old.scope_tags, new.scope_tags),
            "revision": old.revision + 1,
        }
    )


def superseded(old: Fact, by: str, at: datetime, now: datetime) -> Fact:
    """``old`` ended at ``at`` (valid time) by the fact ``by``, learnt at ``now`` (it
    keeps its history: a time slice)."""
    return old.model_copy(
        update={
            "status": FactStatus.SUPERSEDED,
            "superseded_by": by,
            "valid_to": at,
            "recorded_to": ended_record(old, now),
            "revision": old.revision + 1,
        }
    )


def invalidated(old: Fact, event_id: str | None, now: datetime) -> Fact:
    """``old`` found never to have been true (a correction) at ``now``: status
    ``invalidated``, the correcting event added to its evidence, no ``valid_to`` (it
    never held)."""
    events = old.evidence_event_ids if event_id is None else [*old.evidence_event_ids, event_id]
    return old.model_copy(
        update={
            "status": FactStatus.INVALIDATED,
            "evidence_event_ids": union(events, ()),
            "recorded_to": ended_record(old, now),
            "revision": old.revision + 1,
        }
    )


def ended_record(old: Fact, now: datetime) -> datetime:
    """When the memory learnt that ``old`` no longer holds: ``now`` for a live fact
    (never before it was recorded), the time it already had for one that had ended."""
    if old.status not in LIVE and old.recorded_to is not None:
        return old.recorded_to
    return max(now, old.recorded_at)


def restatused(old: Fact, status: FactStatus) -> Fact:
    """``old`` with a new status (passive decay: ``active`` ↔ ``aging``)."""
    return old.model_copy(update={"status": status, "revision": old.revision + 1})


def union(a: Iterable[str], b: Iterable[str]) -> list[str]:
    """``a`` then ``b`` without repeats, the latest ``MAX_EVIDENCE`` kept."""
    return list(dict.fromkeys([*a, *b]))[-MAX_EVIDENCE:]


_SNAPSHOT = ("value", "polarity", "status", "confidence", "reinforcement_count", "valid_from",
             "valid_to", "recorded_to", "superseded_by", "last_validated_at")  # fmt: skip


def snapshot(f: Fact) -> dict[str, Any]:
    """What a fact's history entry records of it, before and after a change."""
    return f.model_dump(mode="json", include=set(_SNAPSHOT))


def fact_history(
    fact: Fact, action: str, before: Fact | None, now: datetime, event_id: str | None
) -> HistoryEntry:
    """The history entry of a change to ``fact`` (actor ``ingest``; callers acting for
    someone else replace it)."""
    return HistoryEntry.new(
        **HistoryEntry.target(fact),
        action=action,
        at=now,
        before=None if before is None else snapshot(before),
        after=snapshot(fact),
        event_id=event_id,
    )


@dataclass(frozen=True)
class StaleItem:
    """An item marked as stating what no longer holds: ``by`` (its ``superseded_by``)
    is the fact that replaced the value, or the invalidated fact itself; ``since`` when
    it stopped holding (valid time; for an invalidation, when the correction was
    said); ``reason`` ``superseded`` or ``invalidated``."""

    tenant_id: str
    item_id: str
    by: str
    fact_id: str
    since: datetime
    reason: str
    marked_at: datetime

    def meta(self) -> dict[str, str]:
        """The ``no_longer_true`` item metadata value."""
        return {
            "since": self.since.isoformat(),
            "reason": self.reason,
            "fact_id": self.fact_id,
            "marked_at": self.marked_at.isoformat(),
        }


def stale_evidence(
    old: Fact,
    by: str,
    since: datetime,
    reason: str,
    now: datetime,
    keep: Iterable[str] = (),
    event_id: str | None = None,
) -> tuple[list[StaleItem], list[HistoryEntry]]:
    """The marks on ``old``'s evidence items (except ``keep``: the evidence of the fact
    that replaced it, which states the new value) and their history entries."""
    kept = set(keep)
    marks = [
        StaleItem(old.scope.tenant_id, i, by, old.id, since, reason, now)
        for i in old.evidence_item_ids
        if i not in kept
    ]
    history = [
        HistoryEntry.new(
            tenant_id=m.tenant_id,
            target_type="item",
            target_id=m.item_id,
            action="no_longer_true",
            at=now,
            before={"superseded_by": None},
            after={"superseded_by": by, NO_LONGER_TRUE: m.meta()},
            event_id=event_id,
        )
        for m in marks
    ]
    return marks, history
