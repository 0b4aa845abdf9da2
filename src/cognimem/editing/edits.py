"""Edits, feedback and forgetting: an item's new state and the history entry that
records the change (actor ``api``), as pure decisions; a forget's writes go through one
store call (``EditStore.forget_items``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, get_args

from cognimem.models import ItemStatus, MemoryItem, Scope, Tier
from cognimem.models.admin import ForgetResult
from cognimem.models.knowledge import HistoryEntry
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.protocols import EditStore
from cognimem.text.events import event_period
from cognimem.text.temporal import DateOrder

Feedback = Literal["correct", "incorrect", "outdated"]
FEEDBACK: tuple[str, ...] = get_args(Feedback)
ForgetMode = Literal["delete", "archive", "silence"]
FORGET_MODES: tuple[str, ...] = get_args(ForgetMode)

# "correct" closes this share of the gap between the item's confidence and 1
CONFIDENCE_NUDGE = 0.2

FORGET_STATUS: dict[str, ItemStatus] = {
    "delete": ItemStatus.DELETED,
    "archive": ItemStatus.ARCHIVED,
    "silence": ItemStatus.SILENT,
}


@dataclass(frozen=True)
class Edit:
    """What a caller asked to change (``None``: leave it). ``text`` is already checked
    and redacted; ``token_count`` is its length."""

    text: str | None = None
    token_count: int = 0
    importance: float | None = None
    tier: Tier | None = None
    feedback: Feedback | None = None


def edited(
    item: MemoryItem,
    edit: Edit,
    *,
    embedding_model: str,
    now: datetime,
    date_order: DateOrder | None = None,
) -> tuple[MemoryItem, HistoryEntry | None]:
    """``item`` after ``edit``, and the history entry of the fields that changed (None
    when nothing did: the same text, importance or tier again).

    Feedback: ``correct`` counts a success and nudges the confidence up
    (``CONFIDENCE_NUDGE``); ``incorrect`` counts a failure and silences the item (kept,
    never recalled); ``outdated`` archives it. A new text is dated again
    (``date_order`` reads its numeric dates, as at ingest)."""
    changes: dict[str, Any] = {}
    if edit.text is not None and edit.text != item.text:
        changes.update(text=edit.text, token_count=edit.token_count)
        changes["embedding_model"] = embedding_model
        period = event_period(edit.text, item.occurred_at, date_order=date_order)
        start, end = period or (None, None)
        if (start, end) != (item.event_start, item.event_end):
            changes.update(event_start=start, event_end=end)
    if edit.importance is not None and edit.importance != item.importance:
        changes["importance"] = edit.importance
    if edit.tier is not None and edit.tier is not item.tier:
        changes["tier"] = edit.tier
    if edit.feedback == "correct":
        changes["success_count"] = item.success_count + 1
        confidence = item.confidence + CONFIDENCE_NUDGE * (1.0 - item.confidence)
        changes["confidence"] = round(min(1.0, confidence), 6)
    elif edit.feedback == "incorrect":
        changes["failure_count"] = item.failure_count + 1
        changes["status"] = ItemStatus.SILENT
    elif edit.feedback == "outdated":
        changes["status"] = ItemStatus.ARCHIVED
    if not changes:
        return item, None
    new = item.model_copy(update=changes)
    fields = set(changes)
    after = new.model_dump(mode="json", include=fields)
    if edit.feedback is not None:
        after["feedback"] = edit.feedback
    only_feedback = edit.text is None and edit.importance is None and edit.tier is None
    return new, HistoryEntry.new(
        **HistoryEntry.target(item),
        action="feedback" if only_feedback else "updated",
        actor="api",
        at=now,
        before=item.model_dump(mode="json", include=fields),
        after=after,
    )


def forgettable(items: Sequence[MemoryItem], mode: ForgetMode) -> list[MemoryItem]:
    """The items a forget in ``mode`` changes: every one for ``delete``, else those not
    already in the mode's status."""
    status = FORGET_STATUS[mode]
    return [i for i in items if mode == "delete" or i.status is not status]


async def forget(
    store: EditStore,
    tenant_id: str,
    items: Sequence[MemoryItem],
    mode: ForgetMode,
    *,
    now: datetime,
    dry_run: bool,
) -> ForgetResult:
    """Forget ``items`` (already chosen and in the caller's scope) in ``mode``, with the
    facts, graph edges and summaries derived from them alone, in one transaction
    (``EditStore.forget_items``): one history entry per change; a dry run changes nothing
    and answers the same."""
    done = await store.forget_items(
        ItemsForgetting(tenant_id, [i.id for i in items], FORGET_STATUS[mode], now, dry_run)
    )
    return ForgetResult(
        mode=mode,
        item_ids=done.item_ids,
        dry_run=dry_run,
        fact_ids=done.fact_ids,
        summary_ids=done.summary_ids,
        facts=len(done.fact_ids),
        relations=done.relations,
        summaries=len(done.summary_ids),
    )


def in_scope(item: MemoryItem, scope: Scope, *, level_only: bool = False) -> bool:
    """Whether ``item`` lies inside ``scope`` (its tenant and namespace; its user, agent
    and session when the scope names them). With ``level_only`` and no user in the
    scope, the item must be of that one shared level: no user, and exactly the scope's
    agent (none: the organisation's)."""
    s = item.scope
    if (s.tenant_id, s.namespace) != (scope.tenant_id, scope.namespace):
        return False
    if level_only and scope.user_id is None and (s.user_id, s.agent_id) != (None, scope.agent_id):
        return False
    return all(
        wanted is None or wanted == getattr(s, name)
        for name, wanted in (
            ("user_id", scope.user_id),
            ("agent_id", scope.agent_id),
            ("session_id", scope.session_id),
        )
    )
