"""What the forgetting policy reads of a scope's items, and the decay it writes: the
rows of ``RetentionStore`` (``store/protocols.py``), shared by both backends.

A row carries what an item is scored by (``lifecycle/retention.py``) and how many live
records depend on it, counted by the store in the same query:

- ``facts``: live facts (active, aging) whose evidence cites the item;
- ``constraints``: how many of those are constraints (goal, state, value, causal,
  policy);
- ``relations``: active graph edges drawn from those facts;
- ``summaries``: summaries, active or silent, whose claims
  (``metadata.consolidation.claims[*].item_ids``, the sentences a summary states with
  their provenance) state the item: a silent summary is kept, and so are its claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from cognimem.models import ItemKind, ItemStatus, Tier
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES

# the categories that are constraints (a fact depends on its evidence while live:
# ``fact_changes.LIVE_VALUES``)
CONSTRAINT_VALUES = tuple(sorted(c.value for c in CONSTRAINT_CATEGORIES))
# the statuses the policy looks at (a deleted item is gone)
RETAINED_STATUSES = (ItemStatus.ACTIVE.value, ItemStatus.SILENT.value, ItemStatus.ARCHIVED.value)
# the statuses of a summary whose claims keep the items they state (archived is let go)
CITING_SUMMARY_STATUSES = (ItemStatus.ACTIVE.value, ItemStatus.SILENT.value)


class RetentionRow(NamedTuple):
    """One item of a scope as the forgetting policy sees it (a named tuple: a scope's
    100k rows are built in a fraction of what dataclasses take)."""

    id: str
    kind: ItemKind
    status: ItemStatus
    tier: Tier
    importance: float
    novelty: float | None
    confidence: float
    occurred_at: datetime
    recorded_at: datetime
    last_accessed_at: datetime | None
    access_count: int
    consolidated: bool
    facts: int = 0
    constraints: int = 0
    relations: int = 0
    summaries: int = 0

    @property
    def dependents(self) -> int:
        """Live facts, relations and summaries that cite the item."""
        return self.facts + self.relations + self.summaries


@dataclass(frozen=True, slots=True)
class Decay:
    """An item's importance lowered from ``before`` (what the plan read) to ``after``."""

    item_id: str
    before: float
    after: float


_KINDS = {k.value: k for k in ItemKind}
_STATUSES = {s.value: s for s in ItemStatus}
_TIERS = {t.value: t for t in Tier}


def retention_row(
    r: Sequence[Any],
    occurred_at: datetime,
    recorded_at: datetime,
    last_accessed_at: datetime | None,
) -> RetentionRow:
    """A row of either backend's query (its columns in the order both select them:
    id, kind, status, tier, importance, novelty, confidence, occurred_at, recorded_at,
    last_accessed_at, access_count, consolidated, facts, constraints, relations,
    summaries), its three times decoded by the backend."""
    return RetentionRow(
        r[0], _KINDS[r[1]], _STATUSES[r[2]], _TIERS[r[3]], float(r[4]),
        None if r[5] is None else float(r[5]), float(r[6]), occurred_at, recorded_at,
        last_accessed_at, int(r[10]), bool(r[11]), int(r[12]), int(r[13]), int(r[14]),
        int(r[15]),
    )  # fmt: skip
