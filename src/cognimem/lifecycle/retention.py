"""The forgetting policy's decisions, pure: each item's retention score and the action
its score band takes (``ForgettingPolicy`` in ``config.py``; ``docs/lifecycle.md``).

**Score** — a weighted mean (weights normalised by their sum) of signals in [0, 1]:

- ``importance``: the item's (the write gate's score, lowered by earlier decays);
- ``recency``: ``0.5 ** (age / half_life[kind])``, the age counted from the item's last
  use — when it happened (a summary: when it was written, not the period it tells of),
  or when a read last returned it, whichever is later;
- ``access``: ``n / (n + access_saturation)`` for ``n`` reads that returned it;
- ``confidence``; ``kind``: the kind's value (a constraint 1.0, an episode 0.4);
- ``novelty``: the write gate's (0.5 when not scored);
- ``dependents``: ``d / (d + 1)`` for ``d`` live facts, active relations and active or
  silent summaries citing it.

**Protected** (always ``keep``, whatever the score): mandates and guardrails (kind, or
tier ``always``), active constraints (an item of kind constraint, or the evidence of a
live constraint fact) and items with live dependents (a live fact, an active relation, or
an active or silent summary whose claims state them would lose its source): an item a
kept summary states is never forgotten by the policy (the summary already holds it);
once the summary is archived, the item is scored like any other.

**Actions**, mildest to most severe: ``keep``, ``decay`` (importance × ``decay_factor``,
active items), ``silence`` (status silent: kept, never recalled), ``compress`` (episodes:
folded into a summary by consolidation, then archived), ``archive``, ``delete``. An item
takes the most severe action whose band it is in (score below the band's ``below``, last
used at least ``min_age_days`` ago); ``compress`` applies to episodes only (any other
item takes the next milder action). An action no more severe than the item's status
already is (an archived item in the silence band) is ``keep``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

import numpy as np

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
    """What the policy decided for one item, with its score and why (``reason`` is
    worded on demand: a plan of 100k items words only what it shows)."""

    row: RetentionRow
    score: float
    action: ForgetAction
    protected: str | None = None  # why it may not be forgotten
    below: float | None = None  # the band the score fell in
    idle_s: float = 0.0
    note: str = ""

    @property
    def reason(self) -> str:
        if self.protected is not None:
            return self.protected
        if self.below is None:
            return f"score {self.score:.3f}"
        days = self.idle_s / DAY_S
        return f"score {self.score:.3f} < {self.below} and unused for {days:.1f} days{self.note}"


class Planner:
    """The policy made ready for many rows: weights normalised, half-lives and kind
    values by kind, the bands most severe first (each looked up once, not per item)."""

    def __init__(self, policy: ForgettingPolicy, now: datetime) -> None:
        w = policy.weights
        raw = (w.importance, w.recency, w.access, w.confidence, w.kind, w.novelty, w.dependents)
        total = sum(raw)
        self.weights = tuple(x / total for x in raw) if total > 0 else (0.0,) * len(raw)
        self.half_life = {k: policy.half_life_days.get(k.value, 30.0) * DAY_S for k in ItemKind}
        self.kind_value = {k: policy.kind_value.get(k.value, 0.5) for k in ItemKind}
        self.saturation = policy.access_saturation
        self.now = now
        bands: list[tuple[ForgetAction, float, float]] = []
        for action in reversed(SEVERITY[1:]):
            band: ForgetBand = getattr(policy, action.value)
            if band.below is not None:
                bands.append((action, band.below, band.min_age_days * DAY_S))
        self.bands = bands

    def scores(self, rows: Sequence[RetentionRow]) -> tuple[list[float], list[float]]:
        """Every row's score (rounded to 4 places) and idle seconds, computed as
        arrays."""
        n = len(rows)
        now = self.now.timestamp()
        last = np.fromiter((_last_use(r) for r in rows), np.float64, n)
        idle = np.maximum(now - last, 0.0)

        def column(values: Iterable[float]) -> np.ndarray:
            return np.fromiter(values, np.float64, n)

        access = column(r.access_count for r in rows)
        deps = column(r.dependents for r in rows)
        wi, wr, wa, wc, wk, wn, wd = self.weights
        value = (
            wi * column(r.importance for r in rows)
            + wr * np.power(0.5, idle / column(self.half_life[r.kind] for r in rows))
            + wa * access / (access + self.saturation)
            + wc * column(r.confidence for r in rows)
            + wk * column(self.kind_value[r.kind] for r in rows)
            + wn * column(UNSCORED_NOVELTY if r.novelty is None else r.novelty for r in rows)
            + wd * deps / (deps + 1.0)
        )
        value = np.round(np.clip(value, 0.0, 1.0), 4)
        return value.tolist(), idle.tolist()

    def settle(self, row: RetentionRow, value: float, idle: float) -> Decision:
        """The action for a row of this score, last used ``idle`` seconds ago."""
        protected = protection(row)
        if protected is not None:
            return Decision(row, value, ForgetAction.KEEP, protected=protected)
        for action, below, min_age in self.bands:
            if value >= below or idle < min_age:
                continue
            if action is ForgetAction.COMPRESS and row.kind is not ItemKind.EPISODE:
                continue
            if action is ForgetAction.DECAY and row.status is not ItemStatus.ACTIVE:
                continue
            if _LEVEL[action] <= _LEVEL[_STATUS_LEVEL[row.status]]:
                note = f"; already {row.status.value}"
                return Decision(row, value, ForgetAction.KEEP, None, below, idle, note)
            note = (
                "; already in a summary"
                if action is ForgetAction.COMPRESS and row.consolidated
                else ""
            )
            return Decision(row, value, action, None, below, idle, note)
        return Decision(row, value, ForgetAction.KEEP, idle_s=idle)


_LEVEL = {a: n for n, a in enumerate(SEVERITY)}


def _last_use(row: RetentionRow) -> float:
    # a summary tells of a period long past, but it is new when it is written: aged from
    # the period, a summary written today would be silenced by its first run
    last = row.recorded_at if row.kind is ItemKind.SUMMARY else row.occurred_at
    if row.last_accessed_at is not None and row.last_accessed_at > last:
        last = row.last_accessed_at
    return last.timestamp()


def score(row: RetentionRow, policy: ForgettingPolicy, now: datetime) -> float:
    """The item's retention score in [0, 1] (the module docstring)."""
    return Planner(policy, now).scores([row])[0][0]


def age_days(row: RetentionRow, now: datetime) -> float:
    """Days since the item was last used: it happened (a summary: it was written), or a
    read returned it."""
    return max(now.timestamp() - _last_use(row), 0.0) / DAY_S


def protection(row: RetentionRow) -> str | None:
    """Why the item may not be forgotten, or None."""
    if row.kind in _ALWAYS or row.tier is Tier.ALWAYS:
        return "protected: mandate"
    if (row.kind is ItemKind.CONSTRAINT and row.status is ItemStatus.ACTIVE) or row.constraints:
        return "protected: active constraint"
    if row.facts or row.relations or row.summaries:
        return (
            f"protected: live dependents ({row.facts} facts, {row.relations} relations,"
            f" {row.summaries} summaries)"
        )
    return None


def decide(row: RetentionRow, policy: ForgettingPolicy, now: datetime) -> Decision:
    """The policy's decision for one item."""
    return plan([row], policy, now)[0]


def plan(rows: Sequence[RetentionRow], policy: ForgettingPolicy, now: datetime) -> list[Decision]:
    """One decision per row, in the rows' order: scores as arrays, then each row's
    band."""
    if not rows:
        return []
    planner = Planner(policy, now)
    values, idle = planner.scores(rows)
    settle = planner.settle
    return [settle(r, v, i) for r, v, i in zip(rows, values, idle, strict=True)]
