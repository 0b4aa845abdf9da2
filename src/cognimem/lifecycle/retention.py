"""The forgetting policy's decisions, pure: each item's retention score and the action
its score band takes (``ForgettingPolicy`` in ``config.py``; ``docs/lifecycle.md``).

**Score** — a weighted mean (weights normalised by their sum) of signals in [0, 1]:

- ``importance``: the item's (the write gate's score, lowered by earlier decays);
- ``recency``: ``0.5 ** (age / half_life[kind])``, the age counted from the item's last
  use — when it happened, or when a read last returned it, whichever is later;
- ``access``: ``n / (n + access_saturation)`` for ``n`` reads that returned it;
- ``confidence``; ``kind``: the kind's value (a constraint 1.0, an episode 0.4);
- ``novelty``: the write gate's (0.5 when not scored);
- ``dependents``: ``d / (d + 1)`` for ``d`` live facts, relations and summaries citing it.

**Protected** (always ``keep``, whatever the score): mandates and guardrails (kind, or
tier ``always``), active constraints (an item of kind constraint, or the evidence of a
live constraint fact) and items with live dependents (a fact, relation or summary that
cites them would lose its source).

**Actions**, mildest to most severe: ``keep``, ``decay`` (importance × ``decay_factor``,
active items), ``silence`` (status silent: kept, never recalled), ``compress`` (episodes:
folded into a summary by consolidation, then archived), ``archive``, ``delete``. An item
takes the most severe action whose band it is in (score below the band's ``below``, last
used at least ``min_age_days`` ago); ``compress`` applies to episodes only (any other
item takes the next milder action). An action no more severe than the item's status
already is (an archived item in the silence band) is ``keep``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from cognimem.config import ForgetBand, ForgettingPolicy
from cognimem.models import ItemKind, ItemStatus, Tier
from cognimem.store.retention import RetentionRow

DAY_S = 86_400.0
UNSCORED_NOVELTY = 0.5


class ForgetAction(StrEnum):
    KEEP = "keep"
    DECAY = "decay"
    SILENCE = "silence"
    COMPRESS = "compress"
    ARCHIVE = "archive"
    DELETE = "delete"


SEVERITY = list(ForgetAction)  # mildest first
# how severe an item's status already is: an action no more severe changes nothing
_STATUS_LEVEL = {
    ItemStatus.ACTIVE: ForgetAction.KEEP,
    ItemStatus.SILENT: ForgetAction.SILENCE,
    ItemStatus.ARCHIVED: ForgetAction.ARCHIVE,
    ItemStatus.DELETED: ForgetAction.DELETE,
}
_ALWAYS = frozenset({ItemKind.MANDATE, ItemKind.GUARDRAIL})


@dataclass(frozen=True, slots=True)
class Decision:
    """What the policy decided for one item, with its score and why."""

    row: RetentionRow
    score: float
    action: ForgetAction
    reason: str


def score(row: RetentionRow, policy: ForgettingPolicy, now: datetime) -> float:
    """The item's retention score in [0, 1] (the module docstring)."""
    w = policy.weights
    total = w.importance + w.recency + w.access + w.confidence + w.kind + w.novelty + w.dependents
    if total <= 0:
        return 0.0
    half_life = policy.half_life_days.get(row.kind.value, 30.0)
    recency = 0.5 ** (age_days(row, now) / half_life)
    access = row.access_count / (row.access_count + policy.access_saturation)
    novelty = UNSCORED_NOVELTY if row.novelty is None else row.novelty
    deps = row.dependents
    value = (
        w.importance * row.importance
        + w.recency * recency
        + w.access * access
        + w.confidence * row.confidence
        + w.kind * policy.kind_value.get(row.kind.value, 0.5)
        + w.novelty * novelty
        + w.dependents * (deps / (deps + 1))
    )
    return float(min(max(value / total, 0.0), 1.0))


def age_days(row: RetentionRow, now: datetime) -> float:
    """Days since the item was last used: it happened, or a read returned it."""
    last = row.occurred_at
    if row.last_accessed_at is not None and row.last_accessed_at > last:
        last = row.last_accessed_at
    return max((now - last).total_seconds(), 0.0) / DAY_S


def protection(row: RetentionRow) -> str | None:
    """Why the item may not be forgotten, or None."""
    if row.kind in _ALWAYS or row.tier is Tier.ALWAYS:
        return "protected: mandate"
    if (row.kind is ItemKind.CONSTRAINT and row.status is ItemStatus.ACTIVE) or row.constraints:
        return "protected: active constraint"
    if row.dependents:
        return (
            f"protected: live dependents ({row.facts} facts, {row.relations} relations,"
            f" {row.summaries} summaries)"
        )
    return None


def decide(row: RetentionRow, policy: ForgettingPolicy, now: datetime) -> Decision:
    value = round(score(row, policy, now), 4)
    protected = protection(row)
    if protected is not None:
        return Decision(row, value, ForgetAction.KEEP, protected)
    age = age_days(row, now)
    for action in reversed(SEVERITY[1:]):
        band: ForgetBand = getattr(policy, action.value)
        if band.below is None or value >= band.below or age < band.min_age_days:
            continue
        if action is ForgetAction.COMPRESS and row.kind is not ItemKind.EPISODE:
            continue
        if action is ForgetAction.DECAY and row.status is not ItemStatus.ACTIVE:
            continue
        reason = f"score {value:.3f} < {band.below} and unused for {age:.1f} days"
        if SEVERITY.index(action) <= SEVERITY.index(_STATUS_LEVEL[row.status]):
            return Decision(row, value, ForgetAction.KEEP, f"{reason}; already {row.status.value}")
        if action is ForgetAction.COMPRESS and row.consolidated:
            reason += "; already in a summary"
        return Decision(row, value, action, reason)
    return Decision(row, value, ForgetAction.KEEP, f"score {value:.3f}")


def plan(rows: Sequence[RetentionRow], policy: ForgettingPolicy, now: datetime) -> list[Decision]:
    """One decision per row, in the rows' order."""
    return [decide(r, policy, now) for r in rows]
