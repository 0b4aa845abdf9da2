"""The forgetting policy as a lifecycle operation (``forget_policy``): a user's items
scored and planned (``lifecycle/retention.py``, from one store query,
``RetentionStore.retention_rows``), then applied — decay lowers importance
(``RetentionStore.decay_items``), silence, archive and delete forget items with what was
derived from them alone (``EditStore.forget_items``), and compress, applied last, folds
episodes into a summary with consolidation's own pass (``ConsolidationService.fold``)
before archiving the ones the summary does not state (those it states are its
provenance: they stay).

An item a summary states (active or silent) is protected by the plan, and compression
runs after the archives and deletes, so no summary the run leaves states an item it
archived or deleted.

A dry run plans the same and changes nothing. Every change has a history entry by the
actor ``forgetting``. The user-driven ``Memory.forget`` (ids, query, time range) is a
different call and is unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from cognimem.lifecycle import retention
from cognimem.lifecycle.retention import Decision, ForgetAction
from cognimem.models import ItemStatus, Scope
from cognimem.models.arguments import require_level
from cognimem.models.knowledge import HistoryEntry
from cognimem.models.lifecycle import ForgetDecision, ForgettingResult
from cognimem.services.components import Components
from cognimem.services.lifecycle.consolidation import META, ConsolidationService
from cognimem.services.lifecycle.operations import OperationService, Progress
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.retention import Decay

log = logging.getLogger(__name__)

ACTOR = "forgetting"
_STATUS = {
    ForgetAction.SILENCE: ItemStatus.SILENT,
    ForgetAction.ARCHIVE: ItemStatus.ARCHIVED,
    ForgetAction.DELETE: ItemStatus.DELETED,
}


class ForgettingPolicyService(OperationService[ForgettingResult]):
    """``Memory.forget_by_policy`` and the lifecycle operation ``forget_policy``."""

    def __init__(self, parts: Components, consolidation: ConsolidationService) -> None:
        super().__init__(parts)
        self._consolidation = consolidation

    async def _operate(
        self, scope: Scope, dry_run: bool, progress: Progress | None
    ) -> ForgettingResult:
        parts = self._parts
        require_level(scope, "the forgetting policy")
        policy = parts.settings.lifecycle.forgetting
        now = parts.clock()
        await parts.access.flush()  # the reads counted so far weigh in
        rows = await parts.store.retention_rows(
            scope.tenant_id, scope.namespace, scope.user_id, agent_id=scope.agent_id
        )
        decisions = retention.plan(rows, policy, now)
        result = ForgettingResult(
            dry_run=dry_run,
            scored=len(decisions),
            plan=[_entry(d) for d in decisions],
        )
        by_action: dict[ForgetAction, list[Decision]] = {a: [] for a in ForgetAction}
        for d in decisions:
            by_action[d.action].append(d)
        result.protected = sum(d.reason.startswith("protected") for d in decisions)
        result.kept = len(by_action[ForgetAction.KEEP])
        if progress is not None:
            progress(0.3)
        if dry_run:
            result.decayed = len(by_action[ForgetAction.DECAY])
            result.silenced = len(by_action[ForgetAction.SILENCE])
            result.archived = len(by_action[ForgetAction.ARCHIVE])
            result.deleted = len(by_action[ForgetAction.DELETE])
            result.compressed = len(by_action[ForgetAction.COMPRESS])
            await self._compress(scope, by_action[ForgetAction.COMPRESS], result, dry_run=True)
        else:
            await self._decay(scope, by_action[ForgetAction.DECAY], result, policy.decay_factor)
            result.silenced = await self._forget(
                scope, by_action[ForgetAction.SILENCE], ForgetAction.SILENCE, result
            )
            result.archived = await self._forget(
                scope, by_action[ForgetAction.ARCHIVE], ForgetAction.ARCHIVE, result
            )
            result.deleted = await self._forget(
                scope, by_action[ForgetAction.DELETE], ForgetAction.DELETE, result
            )
            if progress is not None:
                progress(0.5)
            # last: a window the compressed episodes continue may restate its earlier
            # members, and only those still active then (``_continued_windows``), so a
            # new summary never states an item this run archives or deletes
            await self._compress(scope, by_action[ForgetAction.COMPRESS], result, dry_run=False)
        return result

    async def _decay(
        self, scope: Scope, decided: Sequence[Decision], result: ForgettingResult, factor: float
    ) -> None:
        now = self._parts.clock()
        decays = [
            Decay(d.row.id, d.row.importance, round(d.row.importance * factor, 4)) for d in decided
        ]
        history = [
            _history(scope, x.item_id, "decayed", {"importance": x.before},
                     {"importance": x.after, "reason": d.reason}, now)
            for x, d in zip(decays, decided, strict=True)
        ]  # fmt: skip
        changed = await self._parts.store.decay_items(scope.tenant_id, decays, history)
        result.decayed = len(changed)
        result.skipped += len(decays) - len(changed)

    async def _forget(
        self,
        scope: Scope,
        decided: Sequence[Decision],
        action: ForgetAction,
        result: ForgettingResult,
    ) -> int:
        if not decided:
            return 0
        ids = [d.row.id for d in decided]
        now = self._parts.clock()
        done = await self._parts.store.forget_items(
            ItemsForgetting(scope.tenant_id, ids, _STATUS[action], now, actor=ACTOR)
        )
        result.facts_orphaned += done.fact_ids
        return len(done.item_ids)

    async def _compress(
        self, scope: Scope, decided: Sequence[Decision], result: ForgettingResult, *, dry_run: bool
    ) -> None:
        """Fold the episodes not in a summary yet into summaries (consolidation's pass
        over them alone), then archive every compressed episode the new summaries do not
        state (a stated one is a summary's provenance: it stays, and is protected by
        that summary from now on)."""
        if not decided:
            return
        store = self._parts.store
        items = await store.get_items(scope.tenant_id, [d.row.id for d in decided])
        folded = await self._consolidation.fold(scope, items, dry_run=dry_run)
        result.summaries_written = folded.written + folded.replaced
        result.summary_ids = folded.summary_ids
        result.degraded += folded.degraded
        if dry_run:
            return
        stated: set[str] = set()
        for summary in await store.get_items(scope.tenant_id, folded.summary_ids):
            for claim in summary.metadata.get(META, {}).get("claims", []):
                stated.update(claim.get("item_ids", []))
        archive = [i.id for i in items if i.id not in stated]
        result.compressed = len(items)
        if archive:
            done = await store.forget_items(
                ItemsForgetting(
                    scope.tenant_id, archive, ItemStatus.ARCHIVED, self._parts.clock(), actor=ACTOR
                )
            )
            result.facts_orphaned += done.fact_ids


def _entry(d: Decision) -> ForgetDecision:
    return ForgetDecision(
        id=d.row.id,
        kind=d.row.kind.value,
        status=d.row.status.value,
        score=d.score,
        action=d.action.value,
        reason=d.reason,
        dependents=d.row.dependents,
    )


def _history(
    scope: Scope,
    item_id: str,
    action: str,
    before: dict[str, object],
    after: dict[str, object],
    at: datetime,
) -> HistoryEntry:
    return HistoryEntry.new(
        tenant_id=scope.tenant_id,
        target_type="item",
        target_id=item_id,
        action=action,
        actor=ACTOR,
        at=at,
        before=before,
        after=after,
    )
