"""Reconciliation: new facts against what is already known under the same stable key.

Pure functions over plain data (the funnel loads the current facts and commits the
outcome with a read-set check, so a concurrent write under the same key makes it
reconcile again). For each new fact, in the order things were said:

- same value (and polarity) as a live fact → **reinforce**: confidence rises toward a
  cap, ``reinforcement_count`` + 1, ``last_validated_at`` = when it was said again;
- a different value (or polarity) → **supersede** when the two can be ordered in time:
  the older gets ``valid_to`` and ``superseded_by`` and keeps its history; if the older
  was a constraint, the episodic items it came from are silenced; the evidence items of
  any other that the new fact does not share are marked no longer true
  (``stale_items``). A statement older than the current fact (an import of old
  conversations) is stored as history instead;
- said at the same moment → a **conflict**: ``trust_recent`` (the later-recorded wins,
  the conflict is recorded as resolved) unless the confidences are close, then
  ``ask_user`` (both stay live, the conflict stays open);
- a statement about the past ("I used to live in Paris") is stored as history, ending a
  live fact with the same value if there is one; a later current value closes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cognimem.models.fact_changes import (
    LIVE,
    StaleItem,
    ended_record,
    fact_history,
    reinforced,
    same_statement,
    stale_evidence,
    superseded,
)
from cognimem.models.ids import new_id
from cognimem.models.knowledge import (
    ConflictStatus,
    ConflictStrategy,
    Fact,
    FactConflict,
    FactStatus,
    HistoryEntry,
)
from cognimem.store.types import FactUpdate, KeyState

ASK_USER_MARGIN = 0.15  # confidences closer than this: the user decides

# records a fact's new state: (fact, action, its state before, the event that said it)
Put = Callable[[Fact, str, Fact | None, str | None], None]


@dataclass
class NewFact:
    """A fact proposed by extraction, with when it was said and whether it still holds."""

    fact: Fact  # status ACTIVE, revision 1, evidence set
    said_at: datetime
    holds: bool = True
    event_id: str | None = None


@dataclass
class Outcome:
    created: list[Fact] = field(default_factory=list)
    updates: dict[str, FactUpdate] = field(default_factory=dict)  # by fact id, latest state
    conflicts: list[FactConflict] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    silence_items: list[str] = field(default_factory=list)
    stale_items: list[StaleItem] = field(default_factory=list)
    read_set: list[KeyState] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)


def reconcile(
    proposals: Sequence[NewFact], current: Mapping[str, Sequence[Fact]], now: datetime
) -> Outcome:
    """Decide what each proposal does. ``current``: the stored facts under each
    proposal's key (live ones, plus past ones whose end is not known yet)."""
    out = Outcome(read_set=_read_set(proposals, current))
    state: dict[str, dict[str, Fact]] = {}  # key -> fact id -> latest state
    original_revision: dict[str, int] = {}
    for key, facts in current.items():
        state[key] = {f.id: f for f in facts}
        original_revision.update({f.id: f.revision for f in facts})
    created: dict[str, Fact] = {}

    def put(fact: Fact, action: str, before: Fact | None, event_id: str | None) -> None:
        state.setdefault(fact.key, {})[fact.id] = fact
        if fact.id in created:
            created[fact.id] = fact
        else:
            out.updates[fact.id] = FactUpdate(fact, original_revision[fact.id])
        out.history.append(fact_history(fact, action, before, now, event_id))

    for p in sorted(proposals, key=lambda p: p.said_at):  # stable: same time keeps order
        new = p.fact
        known = list(state.get(new.key, {}).values())
        live = [f for f in known if f.status in LIVE]
        if not p.holds:
            _past(p, live, known, out, put, created, now)
            if new.id in created:
                state.setdefault(new.key, {})[new.id] = created[new.id]
            continue
        same = [f for f in live if same_statement(f, new)]
        if same:
            old = same[0]
            put(reinforced(old, new, p.said_at), "reinforced", old, p.event_id)
            out.reinforced.append(old.id)
            continue
        created[new.id] = new
        state.setdefault(new.key, {})[new.id] = new
        out.history.append(fact_history(new, "created", None, now, p.event_id))
        start = new.valid_from or p.said_at
        for old in live:
            ended = _against_live(p, old, start, out, put, now)
            if ended is not None:
                created[new.id] = ended
                state[new.key][new.id] = ended
        _end_past(p, known, start, put)
    out.created = list(created.values())
    return out


def _read_set(
    proposals: Sequence[NewFact], current: Mapping[str, Sequence[Fact]]
) -> list[KeyState]:
    """The live facts (id and revision) under each proposal's key as they were read: the
    commit checks they are still so."""
    read_set = []
    for key in sorted({p.fact.key for p in proposals}):
        f0 = next(p.fact for p in proposals if p.fact.key == key)
        seen = frozenset((f.id, f.revision) for f in current.get(key, ()) if f.status in LIVE)
        read_set.append(
            KeyState(
                f0.scope.tenant_id,
                f0.scope.namespace,
                f0.scope.user_id,
                key,
                seen,
                agent_id=f0.scope.agent_id,
            )
        )
    return read_set


def _against_live(
    p: NewFact, old: Fact, start: datetime, out: Outcome, put: Put, now: datetime
) -> Fact | None:
    """A new current value against a live fact ``old`` of its key: ``old`` superseded
    when it was said before, a conflict when at the same moment; when ``old`` was said
    after it, the new fact as history ended by ``old`` (returned: its state to keep)."""
    new = p.fact
    old_at = max(old.valid_from or old.last_validated_at, old.last_validated_at)
    if p.said_at > old_at:
        put(superseded(old, new.id, start, now), "superseded", old, p.event_id)
        out.superseded.append(old.id)
        evidence = set(new.evidence_item_ids)
        if old.is_constraint:
            out.silence_items += [i for i in old.evidence_item_ids if i not in evidence]
        else:
            _mark_stale(out, old, new.id, start, now, evidence, p.event_id)
    elif p.said_at < old_at:
        # said before what we know now: it is history, ended by the current fact
        return superseded(new, old.id, old.valid_from or old_at, now)
    else:
        _conflict(old, new, out, put, now, p.event_id)
    return None


def _end_past(p: NewFact, known: list[Fact], start: datetime, put: Put) -> None:
    """Past facts of the key that ended (or whose end was unknown) where ``p`` starts:
    ended at ``start``, superseded by it."""
    new = p.fact
    for old in known:
        if (
            old.status not in LIVE
            and old.id != new.id
            and old.superseded_by is None
            and (old.valid_to is None or old.valid_to == start)
        ):
            ended = old.model_copy(
                update={
                    "valid_to": start,
                    "superseded_by": new.id,
                    "revision": old.revision + 1,
                }
            )
            put(ended, "ended", old, p.event_id)


def _mark_stale(
    out: Outcome,
    old: Fact,
    by: str,
    since: datetime,
    now: datetime,
    keep: set[str],
    event_id: str | None,
) -> None:
    marks, history = stale_evidence(old, by, since, "superseded", now, keep, event_id)
    out.stale_items += marks
    out.history += history


def _past(
    p: NewFact,
    live: list[Fact],
    known: list[Fact],
    out: Outcome,
    put: Put,
    created: dict[str, Fact],
    now: datetime,
) -> None:
    """A statement that something no longer holds."""
    new = p.fact
    same = [f for f in live if same_statement(f, new)]
    end = new.valid_to or p.said_at
    if same:  # "I used to live in Paris" while Paris is current: it ends now
        for old in same:
            put(
                old.model_copy(
                    update={
                        "status": FactStatus.SUPERSEDED,
                        "valid_to": end,
                        "recorded_to": ended_record(old, now),
                        "revision": old.revision + 1,
                    }
                ),
                "ended",
                old,
                p.event_id,
            )
            out.superseded.append(old.id)
            if not old.is_constraint:  # no successor: the ended fact names itself
                keep = set(new.evidence_item_ids)
                _mark_stale(out, old, old.id, end, now, keep, p.event_id)
        return
    if any(f.value.casefold() == new.value.casefold() and f.status not in LIVE for f in known):
        return  # already known as history
    past = new.model_copy(
        update={
            "status": FactStatus.SUPERSEDED,
            "valid_to": new.valid_to,
            "recorded_to": new.recorded_at,  # known as past from the start
        }
    )
    created[past.id] = past
    out.history.append(fact_history(past, "created", None, now, p.event_id))
    current = [f for f in live if f.id != past.id]
    if current and past.valid_to is None:  # the current value's start ends it
        start = current[0].valid_from
        if start is not None:
            created[past.id] = past.model_copy(
                update={"valid_to": start, "superseded_by": current[0].id}
            )


def _conflict(
    old: Fact,
    new: Fact,
    out: Outcome,
    put: Put,
    now: datetime,
    event_id: str | None,
) -> None:
    close = abs(old.confidence - new.confidence) < ASK_USER_MARGIN
    strategy = ConflictStrategy.ASK_USER if close else ConflictStrategy.TRUST_RECENT
    if strategy is ConflictStrategy.TRUST_RECENT:  # the later-recorded statement wins
        put(superseded(old, new.id, new.valid_from or now, now), "superseded", old, event_id)
        out.superseded.append(old.id)
        if not old.is_constraint:
            keep = set(new.evidence_item_ids)
            _mark_stale(out, old, new.id, new.valid_from or now, now, keep, event_id)
    out.conflicts.append(
        FactConflict(
            id=new_id("cfl"),
            scope=new.scope,
            key=new.key,
            fact_ids=[old.id, new.id],
            strategy=strategy,
            status=ConflictStatus.OPEN if close else ConflictStatus.RESOLVED,
            winner_fact_id=None if close else new.id,
            created_at=now,
            resolved_at=None if close else now,
            note=f"{old.value!r} and {new.value!r} were stated at the same time",
        )
    )
