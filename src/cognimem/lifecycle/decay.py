"""The fact lifecycle by passive decay (pure): which of a user's live facts change
status, and the history each change writes. ``services/lifecycle/decay.py`` loads and commits.

- a live fact whose effective confidence (``models/fact_decay.py``) is below
  ``AGING_BELOW`` becomes ``aging``; an aging fact above it again (its category's
  half-life or its confidence changed) becomes ``active`` again. Reinforcement makes an
  aging fact active by itself (``models/fact_changes.reinforced``);
- a live fact **contradicted** by the user's feedback — every one of its evidence items
  was marked incorrect (``Memory.update(feedback="incorrect")``: a failure counted, the
  item silenced) — becomes ``invalidated``: it never held, and its graph edges go with
  it (as a correction in revision invalidates it). A fact with any evidence item not
  marked so, or whose items are gone, is left to forgetting's rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cognimem.models import ItemStatus, MemoryItem
from cognimem.models.fact_changes import LIVE, fact_history, invalidated, restatused
from cognimem.models.fact_decay import AGING_BELOW, effective_confidence
from cognimem.models.knowledge import Fact, FactStatus, HistoryEntry
from cognimem.models.lifecycle import FactStatusChange
from cognimem.store.types import FactUpdate

ACTOR = "decay"


@dataclass
class DecayPlan:
    """What a decay pass changes: each fact's new state, guarded by the revision it was
    decided from, the history entries, and the changes as the result reports them."""

    updates: list[FactUpdate] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    changes: list[FactStatusChange] = field(default_factory=list)


def contradicted(fact: Fact, items: Mapping[str, MemoryItem]) -> bool:
    """Every evidence item of ``fact`` is stored and was marked incorrect (a failure
    counted, no longer active)."""
    evidence = [items.get(i) for i in fact.evidence_item_ids]
    return bool(evidence) and all(
        i is not None and i.failure_count > 0 and i.status is not ItemStatus.ACTIVE
        for i in evidence
    )


def plan_decay(facts: Sequence[Fact], items: Mapping[str, MemoryItem], now: datetime) -> DecayPlan:
    """The status changes of ``facts`` at ``now``; ``items``: their evidence items by id
    (as many as are still stored)."""
    plan = DecayPlan()
    for old in facts:
        if old.status not in LIVE:
            continue
        effective = effective_confidence(old, now)
        if contradicted(old, items):
            new = invalidated(old, None, now)
            reason = "every evidence item was marked incorrect"
        elif old.status is FactStatus.ACTIVE and effective < AGING_BELOW:
            new = restatused(old, FactStatus.AGING)
            reason = f"effective confidence {effective:.3f} is below {AGING_BELOW}"
        elif old.status is FactStatus.AGING and effective >= AGING_BELOW:
            new = restatused(old, FactStatus.ACTIVE)
            reason = f"effective confidence {effective:.3f} is {AGING_BELOW} or more"
        else:
            continue
        plan.updates.append(FactUpdate(fact=new, expected_revision=old.revision))
        entry = fact_history(new, new.status.value, old, now, None)
        plan.history.append(
            entry.model_copy(
                update={"actor": ACTOR, "after": {**(entry.after or {}), "reason": reason}}
            )
        )
        plan.changes.append(
            FactStatusChange(
                fact_id=old.id,
                key=old.key,
                text=old.text,
                category=old.category.value,
                before=old.status.value,
                after=new.status.value,
                confidence=old.confidence,
                effective_confidence=round(effective, 4),
                last_validated_at=old.last_validated_at,
                reason=reason,
            )
        )
    return plan
