"""Promotion by utility as a lifecycle operation (``Memory.promote``, the scheduled
``promote``), the mandate candidates it proposes and an admin's acceptance of one
(decisions in ``lifecycle/promote.py``). Each tier change is an item edit guarded by
the state it was decided from (``EditStore.update_item``): an item edited meanwhile is
left to the next pass."""

from __future__ import annotations

from cognimem.errors import InvalidInput, NotFound, StaleKnowledge
from cognimem.lifecycle.promote import (
    MANDATE_MIN_USES,
    accepted,
    candidate,
    is_mandate_candidate,
    plan_promotion,
)
from cognimem.models import ItemStatus, MemoryItem, Scope
from cognimem.models.arguments import check_ids, require_user
from cognimem.models.lifecycle import MandateCandidate, PromotionResult
from cognimem.services.lifecycle.operations import OperationService, Progress
from cognimem.store.arguments import ItemEdit

MAX_ITEMS = 20_000  # the most used items one pass weighs (newest first)


class PromotionService(OperationService[PromotionResult]):
    """``Memory.promote``, ``mandate_candidates`` and ``accept_mandate`` (documented
    there)."""

    async def _used(self, scope: Scope, op: str) -> list[MemoryItem]:
        self._parts.require_open()
        user_id = require_user(scope, op)
        await self._parts.access.flush()
        return await self._parts.store.usage_candidates(
            scope.tenant_id, scope.namespace, user_id, MAX_ITEMS
        )

    async def _operate(
        self, scope: Scope, dry_run: bool, progress: Progress | None
    ) -> PromotionResult:
        items = await self._used(scope, "promote")
        plan = plan_promotion(items, self._parts.clock())
        result = PromotionResult(
            dry_run=dry_run,
            items=len(items),
            changes=plan.changes,
            mandate_candidates=plan.candidates,
        )
        if not dry_run:
            for n, (before, after, entry) in enumerate(plan.moves, start=1):
                try:
                    await self._parts.store.update_item(ItemEdit(after, before, entry))
                except (StaleKnowledge, NotFound):
                    result.skipped.append(before.id)
                if progress is not None:
                    progress(n / len(plan.moves))
        return result

    async def mandate_candidates(self, scope: Scope) -> list[MandateCandidate]:
        items = await self._used(scope, "mandate_candidates")
        return [candidate(i) for i in items if is_mandate_candidate(i)]

    async def accept_mandate(self, item_id: str, *, tenant_id: str) -> MemoryItem:
        parts = self._parts
        parts.require_open()
        check_ids(item_id=item_id)
        found = await parts.store.get_items(tenant_id, [item_id])
        if not found or found[0].status is not ItemStatus.ACTIVE:
            raise NotFound("memory", item_id)
        item = found[0]
        if not is_mandate_candidate(item):
            raise InvalidInput(
                f"memory {item_id} is not a mandate candidate (a high-tier memory used"
                f" at least {MANDATE_MIN_USES} times and never marked incorrect)",
                field="item_id",
            )
        new, entry = accepted(item, parts.clock())
        await parts.store.update_item(ItemEdit(new, item, entry))
        return new
