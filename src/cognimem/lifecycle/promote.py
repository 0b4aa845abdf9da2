"""Promotion by utility (pure): which of a user's used items move up a tier, which move
down, and which are proposed as mandates. ``services/lifecycle/promotion.py`` loads and stores.

An item's utility is ``models/items.utility``: (cited + successes + 1) / (loaded +
successes + failures + 2). Counters come from ``item_usage`` (``UsageStore``): a read
counts what it returned (``access_count``, ``last_accessed_at``); a ``turn`` with an
answer counts its packet's memories as loaded and those the answer used as cited;
feedback counts successes and failures. A read without an answer says nothing of use,
so it moves no utility.

- **promote** one tier (``low`` → ``medium`` → ``high``): used at least
  :data:`PROMOTE_MIN_USES` times (cited or marked correct), never marked incorrect, and
  utility at least :data:`PROMOTE_UTILITY`;
- **demote** one tier (``high`` → ``medium`` → ``low``): loaded at least
  :data:`DEMOTE_MIN_LOADS` times with utility below :data:`DEMOTE_UTILITY` (it keeps
  coming back and is not used), or — ``high`` only — not returned by any read for
  :data:`UNUSED_DAYS` (since the last read that did, else since it was recorded);
- **mandate candidate**: ``high`` after the pass, used at least
  :data:`MANDATE_MIN_USES` times, never marked incorrect. Proposed only: an admin
  accepts one (``Memory.accept_mandate``), which makes it a mandate (kind ``mandate``,
  tier ``always``: in every packet).

Mandates, guardrails and constraints are never demoted; tiers ``always`` and ``never``
(set by a person) are never changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from cognimem.models import ItemKind, MemoryItem, Tier
from cognimem.models.items import utility
from cognimem.models.knowledge import HistoryEntry
from cognimem.models.lifecycle import MandateCandidate, TierChange

ACTOR = "promote"
PROMOTE_MIN_USES = 3
PROMOTE_UTILITY = 0.3
DEMOTE_MIN_LOADS = 10
DEMOTE_UTILITY = 0.1
UNUSED_DAYS = 90.0
MANDATE_MIN_USES = 10

_LADDER = (Tier.LOW, Tier.MEDIUM, Tier.HIGH)
_PROTECTED = frozenset({ItemKind.MANDATE, ItemKind.GUARDRAIL, ItemKind.CONSTRAINT})


def uses(item: MemoryItem) -> int:
    """Times the item was used: cited by an answer or marked correct."""
    return item.cited_count + item.success_count


def _step(tier: Tier, by: int) -> Tier:
    return _LADDER[min(max(_LADDER.index(tier) + by, 0), len(_LADDER) - 1)]


def tier_move(item: MemoryItem, now: datetime) -> tuple[Tier, str] | None:
    """The item's new tier and why, or None when it stays."""
    if item.tier not in _LADDER:
        return None
    value = utility(item)
    if (
        uses(item) >= PROMOTE_MIN_USES
        and item.failure_count == 0
        and value >= PROMOTE_UTILITY
        and item.tier is not Tier.HIGH
    ):
        return _step(item.tier, 1), f"used {uses(item)} times, utility {value:.2f}"
    if item.kind in _PROTECTED or item.tier is Tier.LOW:
        return None
    if item.loaded_count >= DEMOTE_MIN_LOADS and value < DEMOTE_UTILITY:
        return (
            _step(item.tier, -1),
            f"loaded {item.loaded_count} times, used {uses(item)}: utility {value:.2f}",
        )
    last = item.last_accessed_at or item.recorded_at
    if item.tier is Tier.HIGH and now - last >= timedelta(days=UNUSED_DAYS):
        return Tier.MEDIUM, f"not read since {last:%Y-%m-%d}"
    return None


def is_mandate_candidate(item: MemoryItem) -> bool:
    """A ``high`` item used at least :data:`MANDATE_MIN_USES` times and never marked
    incorrect (not a mandate or guardrail already)."""
    return (
        item.tier is Tier.HIGH
        and item.kind not in (ItemKind.MANDATE, ItemKind.GUARDRAIL)
        and uses(item) >= MANDATE_MIN_USES
        and item.failure_count == 0
    )


def candidate(item: MemoryItem) -> MandateCandidate:
    return MandateCandidate(
        item_id=item.id,
        text=item.text,
        kind=item.kind.value,
        tier=item.tier.value,
        cited_count=item.cited_count,
        success_count=item.success_count,
        loaded_count=item.loaded_count,
        utility=round(utility(item), 4),
    )


@dataclass
class PromotionPlan:
    """A pass's tier changes (each item's new state and its history entry) and the
    mandate candidates after it."""

    moves: list[tuple[MemoryItem, MemoryItem, HistoryEntry]] = field(default_factory=list)
    changes: list[TierChange] = field(default_factory=list)
    candidates: list[MandateCandidate] = field(default_factory=list)


def plan_promotion(items: Sequence[MemoryItem], now: datetime) -> PromotionPlan:
    """The tier changes of ``items`` (the user's used or ``high`` items) at ``now``."""
    plan = PromotionPlan()
    for item in items:
        after = item
        move = tier_move(item, now)
        if move is not None:
            tier, reason = move
            after = item.model_copy(update={"tier": tier})
            up = _LADDER.index(tier) > _LADDER.index(item.tier)
            action: Literal["promoted", "demoted"] = "promoted" if up else "demoted"
            entry = HistoryEntry.new(
                **HistoryEntry.target(item),
                action=action,
                actor=ACTOR,
                at=now,
                before={"tier": item.tier.value},
                after={"tier": tier.value, "reason": reason},
            )
            plan.moves.append((item, after, entry))
            plan.changes.append(
                TierChange(
                    item_id=item.id,
                    text=item.text,
                    action=action,
                    before=item.tier.value,
                    after=tier.value,
                    utility=round(utility(item), 4),
                    reason=reason,
                )
            )
        if is_mandate_candidate(after):
            plan.candidates.append(candidate(after))
    return plan


def accepted(item: MemoryItem, now: datetime) -> tuple[MemoryItem, HistoryEntry]:
    """A mandate candidate accepted by an admin: kind ``mandate``, tier ``always``."""
    after = item.model_copy(update={"kind": ItemKind.MANDATE, "tier": Tier.ALWAYS})
    return after, HistoryEntry.new(
        **HistoryEntry.target(item),
        action="mandate_accepted",
        actor="api",
        at=now,
        before={"kind": item.kind.value, "tier": item.tier.value},
        after={"kind": ItemKind.MANDATE.value, "tier": Tier.ALWAYS.value},
    )
