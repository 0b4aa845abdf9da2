"""What forgetting items does to what was derived from them, decided once for both
stores: pure functions over the rows a store reads in the forget's transaction.

A fact whose every evidence item is forgotten, or no longer a live (active) item, is
**orphaned**: a delete removes it, an archive or a silence invalidates it (status
``invalidated``, revision + 1, a history entry with its status before, so the change is
visible and can be undone by hand). The graph edges drawn from an orphaned fact are
removed or deactivated with it. A fact that keeps a live evidence item stays, its
evidence trimmed of the forgotten items (and of the events only they came from).

A summary (an item of kind ``summary``) is orphaned when each of its source events is a
source of a forgotten item and of no live item left: it is forgotten the same way as the
items (deleted, archived or silenced).

An open conflict that involves an orphaned fact is settled (status ``resolved``, no
winner, note :data:`CONFLICT_NOTE`): it no longer shows under open conflicts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cognimem.models import ItemStatus
from cognimem.models.fact_changes import LIVE
from cognimem.models.knowledge import FactStatus, HistoryEntry

LIVE_FACT = frozenset(LIVE)
ORPHAN_REASON = "every source it was read from was forgotten"
CONFLICT_NOTE = "settled by forgetting: a fact's every source was forgotten"
_ITEM_ACTION = {
    ItemStatus.DELETED: "deleted",
    ItemStatus.ARCHIVED: "archived",
    ItemStatus.SILENT: "silenced",
}


@dataclass(frozen=True)
class ForgottenItem:
    """An item a forget changes, with the status it had."""

    id: str
    tenant_id: str
    status: ItemStatus


@dataclass(frozen=True)
class SourcedFact:
    """What the cascade needs of a fact that cites a forgotten item."""

    id: str
    tenant_id: str
    namespace: str
    user_id: str | None
    key: str
    status: FactStatus
    revision: int
    evidence_item_ids: tuple[str, ...]
    evidence_event_ids: tuple[str, ...]


@dataclass(frozen=True)
class Trim:
    """A fact that keeps a live source: its evidence without the forgotten ones."""

    fact: SourcedFact
    item_ids: list[str]
    event_ids: list[str]


@dataclass
class Cascade:
    """What a forget changes beyond the items asked for."""

    orphaned: list[SourcedFact] = field(default_factory=list)
    trimmed: list[Trim] = field(default_factory=list)
    summaries: list[ForgottenItem] = field(default_factory=list)


@dataclass(frozen=True)
class Forgotten:
    """What a store's ``forget_items`` did (or, in a dry run, would do)."""

    item_ids: list[str] = field(default_factory=list)
    fact_ids: list[str] = field(default_factory=list)
    relations: int = 0
    summary_ids: list[str] = field(default_factory=list)


def cascade(
    status: ItemStatus,
    forgotten: Collection[str],
    facts: Iterable[SourcedFact],
    live_items: Collection[str],
    gone_events: Collection[str],
    summaries: Iterable[ForgottenItem],
    summary_events: Mapping[str, Sequence[str]],
) -> Cascade:
    """The facts and summaries that forgetting the ``forgotten`` item ids into
    ``status`` changes.

    ``facts`` cite a forgotten item; ``live_items`` are those of their other evidence
    items that are active and not forgotten; ``gone_events`` are the forgotten items'
    source events that no live item other than a summary still comes from;
    ``summaries`` share a source event with a forgotten item, and ``summary_events``
    lists every source event of each."""
    out = Cascade()
    for f in facts:
        kept = [i for i in f.evidence_item_ids if i not in forgotten]
        if any(i in live_items for i in kept):
            events = [e for e in f.evidence_event_ids if e not in gone_events]
            if kept != list(f.evidence_item_ids) or events != list(f.evidence_event_ids):
                out.trimmed.append(Trim(f, kept, events))
        elif status is ItemStatus.DELETED or f.status in LIVE_FACT:
            out.orphaned.append(f)
    for s in summaries:
        sources = summary_events.get(s.id, ())
        if s.id in forgotten or (status is not ItemStatus.DELETED and s.status is status):
            continue
        if sources and all(e in gone_events for e in sources):
            out.summaries.append(s)
    return out


def history(
    items: Sequence[ForgottenItem],
    plan: Cascade,
    status: ItemStatus,
    now: datetime,
    actor: str = "api",
) -> list[HistoryEntry]:
    """One entry per changed item, summary and fact (by ``actor``): an item's status
    before and after (a deleted item's text is not kept), an orphaned fact's status
    before and what became of it, a trimmed fact's evidence before and after."""
    out = [
        HistoryEntry.new(
            tenant_id=i.tenant_id,
            target_type="item",
            target_id=i.id,
            action=_ITEM_ACTION[status],
            actor=actor,
            at=now,
            before={"status": i.status.value},
            after={"status": status.value},
        )
        for i in [*items, *plan.summaries]
    ]
    deleted = status is ItemStatus.DELETED
    for f in plan.orphaned:
        after = {"status": "deleted" if deleted else FactStatus.INVALIDATED.value}
        out.append(
            HistoryEntry.new(
                tenant_id=f.tenant_id,
                target_type="fact",
                target_id=f.id,
                action="deleted" if deleted else "invalidated",
                actor=actor,
                at=now,
                before={"status": f.status.value},
                after={**after, "reason": ORPHAN_REASON},
            )
        )
    for t in plan.trimmed:
        out.append(
            HistoryEntry.new(
                tenant_id=t.fact.tenant_id,
                target_type="fact",
                target_id=t.fact.id,
                action="evidence_trimmed",
                actor=actor,
                at=now,
                before={
                    "evidence_item_ids": list(t.fact.evidence_item_ids),
                    "evidence_event_ids": list(t.fact.evidence_event_ids),
                },
                after={"evidence_item_ids": t.item_ids, "evidence_event_ids": t.event_ids},
            )
        )
    return out


def outcome(items: Sequence[ForgottenItem], plan: Cascade, relations: int) -> Forgotten:
    return Forgotten(
        item_ids=[i.id for i in items],
        fact_ids=[f.id for f in plan.orphaned],
        relations=relations,
        summary_ids=[s.id for s in plan.summaries],
    )
