"""A user resolving a fact conflict, as a pure decision.

With a winner, the conflict's other live facts are superseded by it exactly as
reconciliation supersedes an older value (``models/fact_changes.py``: status superseded,
``superseded_by``, ``valid_to``, revision + 1, a "superseded" history entry with the
before/after snapshots; a superseded constraint's evidence items are silenced, any
other loser's that the winner does not share are marked no longer true, each with an
item history entry). Without
one ("keep both"), every fact stays live and the conflict is recorded as resolved with
strategy ``both_valid``. Either way the conflict gets a history entry of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from cognimem.errors import Conflict, InvalidInput
from cognimem.models.fact_changes import LIVE, fact_history, stale_evidence, superseded
from cognimem.models.knowledge import (
    ConflictStatus,
    ConflictStrategy,
    Fact,
    FactConflict,
    HistoryEntry,
)
from cognimem.store.arguments import ConflictResolution
from cognimem.store.types import FactUpdate, Knowledge


def resolve(
    conflict: FactConflict,
    facts: Sequence[Fact],
    winner_fact_id: str | None,
    note: str,
    now: datetime,
) -> ConflictResolution | None:
    """The resolved conflict and what it changes; ``None`` when the conflict is already
    resolved the way asked (a retried request). ``InvalidInput`` for a winner that is not
    one of the conflict's live facts, ``Conflict`` for a conflict already resolved
    otherwise."""
    if conflict.status is not ConflictStatus.OPEN:
        if conflict.winner_fact_id == winner_fact_id:
            return None
        raise Conflict(
            f"conflict {conflict.id} is already resolved"
            + (f" in favour of {conflict.winner_fact_id}" if conflict.winner_fact_id else ""),
            details={"conflict": conflict.id, "winner_fact_id": conflict.winner_fact_id},
        )
    by_id = {f.id: f for f in facts}
    out = ConflictResolution(
        conflict=conflict.model_copy(
            update={
                "status": ConflictStatus.RESOLVED,
                "winner_fact_id": winner_fact_id,
                "resolved_at": now,
                "note": note or conflict.note,
                "strategy": conflict.strategy
                if winner_fact_id is not None
                else ConflictStrategy.BOTH_VALID,
            }
        )
    )
    if winner_fact_id is not None:
        winner = _winner(conflict, by_id, winner_fact_id)
        _supersede_losers(out.changes, conflict, winner, by_id, now)
    out.changes.history.append(_resolved_entry(conflict, out.conflict, now))
    return out


def _winner(conflict: FactConflict, by_id: dict[str, Fact], winner_fact_id: str) -> Fact:
    """The conflict's live fact ``winner_fact_id`` (``InvalidInput`` for any other)."""
    winner = by_id.get(winner_fact_id)
    if winner_fact_id not in conflict.fact_ids or winner is None:
        raise InvalidInput(
            f"fact {winner_fact_id} is not part of conflict {conflict.id}",
            field="winner_fact_id",
        )
    if winner.status not in LIVE:
        raise InvalidInput(
            f"fact {winner_fact_id} is {winner.status.value}, not live: it cannot win",
            field="winner_fact_id",
        )
    return winner


def _supersede_losers(
    out: Knowledge,
    conflict: FactConflict,
    winner: Fact,
    by_id: dict[str, Fact],
    now: datetime,
) -> None:
    """Each other live fact of the conflict superseded by ``winner`` (into ``out``), with
    its evidence silenced (a constraint) or marked no longer true where the winner does
    not share it."""
    evidence = set(winner.evidence_item_ids)
    for fact_id in conflict.fact_ids:
        loser = by_id.get(fact_id)
        if loser is None or loser.id == winner.id or loser.status not in LIVE:
            continue
        since = winner.valid_from or now
        ended = superseded(loser, winner.id, since, now)
        out.fact_updates.append(FactUpdate(ended, loser.revision))
        out.history.append(
            fact_history(ended, "superseded", loser, now, None).model_copy(update={"actor": "api"})
        )
        if loser.is_constraint:
            out.silence_items.extend(i for i in loser.evidence_item_ids if i not in evidence)
        else:
            marks, history = stale_evidence(loser, winner.id, since, "superseded", now, evidence)
            out.stale_items.extend(marks)
            out.history.extend(h.model_copy(update={"actor": "api"}) for h in history)


def _resolved_entry(before: FactConflict, after: FactConflict, now: datetime) -> HistoryEntry:
    """The conflict's own history entry: its status and winner before and after."""
    return HistoryEntry.new(
        **HistoryEntry.target(before),
        action="resolved",
        actor="api",
        at=now,
        before={"status": before.status.value, "winner_fact_id": before.winner_fact_id},
        after={
            "status": ConflictStatus.RESOLVED.value,
            "winner_fact_id": after.winner_fact_id,
            "strategy": after.strategy.value,
            "note": after.note,
        },
    )
