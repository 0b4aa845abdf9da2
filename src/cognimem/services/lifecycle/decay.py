"""Passive decay as a lifecycle operation (``Memory.decay``, the scheduled ``decay``):
one user's live facts weighed at the clock's now (decisions in ``lifecycle/decay.py``)
and their status changes committed in one transaction, each guarded by the revision it
was decided from: a concurrent change makes it load the facts again and decide again."""

from __future__ import annotations

import logging

from cognimem.errors import StaleKnowledge
from cognimem.lifecycle.decay import plan_decay
from cognimem.models import MemoryItem, Scope
from cognimem.models.arguments import require_level
from cognimem.models.fact_changes import LIVE
from cognimem.models.lifecycle import DecayResult
from cognimem.services.lifecycle.operations import OperationService, Progress
from cognimem.store.arguments import Attachment
from cognimem.store.reach import level_facts
from cognimem.store.types import Knowledge

log = logging.getLogger(__name__)

MAX_DECAY_ATTEMPTS = 20
MAX_FACTS = 100_000  # the most live facts one pass weighs (newest first)
_ITEM_BATCH = 1_000


class DecayService(OperationService[DecayResult]):
    """``Memory.decay`` (documented there)."""

    async def _operate(self, scope: Scope, dry_run: bool, progress: Progress | None) -> DecayResult:
        parts = self._parts
        require_level(scope, "decay")
        store = parts.store
        # a user's facts whatever the agent (a user's decay always ran so), else one
        # shared level's alone: the agent's or the organisation's
        query = level_facts(scope, statuses=LIVE, limit=MAX_FACTS)
        for attempt in range(MAX_DECAY_ATTEMPTS):
            facts = await store.find_facts(query)
            wanted = list(dict.fromkeys(i for f in facts for i in f.evidence_item_ids))
            items: dict[str, MemoryItem] = {}
            for start in range(0, len(wanted), _ITEM_BATCH):
                found = await store.get_items(scope.tenant_id, wanted[start : start + _ITEM_BATCH])
                items.update((i.id, i) for i in found)
            now = parts.clock()
            plan = plan_decay(facts, items, now)
            result = DecayResult(
                dry_run=dry_run,
                reference_time=now,
                facts=len(facts),
                changes=plan.changes,
                retries=attempt,
            )
            if not dry_run and plan.updates:
                try:
                    await store.add_items(
                        Attachment([], Knowledge(fact_updates=plan.updates, history=plan.history))
                    )
                except StaleKnowledge:
                    if attempt == MAX_DECAY_ATTEMPTS - 1:
                        raise
                    log.info("a concurrent change hit the facts being decayed; deciding again")
                    continue
            return result
        raise AssertionError("unreachable")
