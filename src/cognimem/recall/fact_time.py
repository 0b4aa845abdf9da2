"""Which facts a read sees by time (pure): valid time and recorded time.

A fact has two times (``models.knowledge.Fact``): when it held in the world
(``valid_from``/``valid_to``) and when the memory learnt it and learnt that it no
longer holds (``recorded_at``/``recorded_to``). Without a time filter a read sees the
live facts. A read ``as_of`` a time, or one whose question names a period ("where did
I live in March 2025?"), sees the facts valid then, superseded ones included; a read
``as_of_recorded`` a time sees what the memory knew then: facts recorded by then, and
every supersession, end or correction recorded after it ignored.

Items that state a value that no longer holds carry a mark (``models/fact_changes.py``
``stale_evidence``); :func:`stale_since` says whether a read sees them as stale: a read
of the present does, a read of a period in which the value still held does not, nor
does a read of the memory as it was before the mark.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from cognimem.models.fact_changes import LIVE, NO_LONGER_TRUE
from cognimem.models.items import MemoryItem
from cognimem.models.knowledge import Fact, FactStatus
from cognimem.models.wire import FIRST_YEAR
from cognimem.text.temporal import find_times

Period = tuple[datetime, datetime]
# a point of valid time as a period: [t, t + 1 µs)
_INSTANT = timedelta(microseconds=1)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _micros(at: datetime) -> int:
    """``at`` as whole microseconds since the epoch (exact: no float on the way, so
    two times compare as their microseconds do)."""
    return (at - _EPOCH) // _INSTANT


def instant(at: datetime) -> Period:
    """The period ``[at, at + 1 µs)``: the facts valid at ``at``."""
    return at, at + _INSTANT


def told_by(at: datetime) -> Period:
    """The item period of a read ``as_of`` ``at``: the items that occurred by then or
    tell of a time by then (``ItemFilter.period``), whenever they were said."""
    return datetime(FIRST_YEAR, 1, 1, tzinfo=UTC), at + _INSTANT


@dataclass(frozen=True)
class FactTime:
    """A read's time filter on facts. ``valid``: the period ``[start, end)`` the facts
    must have held in (some of it); ``recorded``: the memory as it was at that time.
    ``source`` says where ``valid`` came from (``as_of`` or ``question``)."""

    valid: Period | None = None
    recorded: datetime | None = None
    source: str | None = None

    def admits(self, fact: Fact) -> bool:
        """Whether a read with this filter sees ``fact``."""
        ended = fact.status not in LIVE  # as the memory knows it now
        if self.recorded is not None:
            if fact.recorded_at > self.recorded:
                return False  # not known yet
            # an end learnt after that time is not known then
            ended = ended and fact.recorded_to is not None and fact.recorded_to <= self.recorded
        if self.valid is None:
            return not ended  # what the memory held as current then
        if ended and fact.status is FactStatus.INVALIDATED:
            return False  # it never held
        start, end = fact.valid_from, fact.valid_to
        if fact.status not in LIVE:
            # an end not known at the recorded time is open; an end known without a
            # date came no later than the memory learnt it
            end = (end or fact.recorded_to) if ended else None
        return (start is None or start < self.valid[1]) and (end is None or end > self.valid[0])

    def admitted(self, times: FactTimes) -> np.ndarray:
        """:meth:`admits` for every fact of ``times`` at once: a mask, True where a
        read with this filter sees the fact (the same answer, fact for fact)."""
        ended = ~times.live
        seen = np.ones(len(ended), dtype=bool)
        if self.recorded is not None:
            by = _micros(self.recorded)
            seen &= times.recorded_at <= by
            ended &= times.has_recorded_to & (times.recorded_to <= by)
        if self.valid is None:
            seen &= ~ended
            return seen
        seen &= ~(ended & times.invalidated)
        first, last = (_micros(t) for t in self.valid)
        seen &= ~times.has_valid_from | (times.valid_from < last)
        # a live fact ends at valid_to; an ended one at valid_to, else recorded_to; a
        # fact no longer live whose end the recorded time did not know yet: open
        ends = np.where(times.has_valid_to, times.valid_to, times.recorded_to)
        has_end = np.where(
            times.live, times.has_valid_to, ended & (times.has_valid_to | times.has_recorded_to)
        )
        ends = np.where(times.live, times.valid_to, ends)
        seen &= ~has_end | (ends > first)
        return seen

    def reason(self) -> str:
        """Why a read saw a fact, as its explanation says: the filter it passed."""
        parts = []
        if self.valid is not None:
            start, end = (t.isoformat() for t in self.valid)
            held = f"valid at {start}" if self.source == "as_of" else f"valid in [{start}, {end})"
            parts.append(f"{held} ({self.source})")
        if self.recorded is not None:
            parts.append(f"as recorded by {self.recorded.isoformat()} (as_of_recorded)")
        return "; ".join(parts)

    def describe(self) -> dict[str, Any]:
        """The filter as the packet's ``meta`` and explain show it."""
        out: dict[str, Any] = {}
        if self.valid is not None:
            out["valid"] = [self.valid[0].isoformat(), self.valid[1].isoformat()]
            out["valid_source"] = self.source
        if self.recorded is not None:
            out["recorded_by"] = self.recorded.isoformat()
        return out


@dataclass(frozen=True)
class FactTimes:
    """Facts' statuses and times as arrays, in the facts' order (times in microseconds;
    ``has_*`` False where the time is None): :meth:`FactTime.admitted` judges them all
    in a few array operations instead of one call per fact (a read naming a time scans
    up to ``MAX_FACTS_TIMED`` facts)."""

    live: np.ndarray
    invalidated: np.ndarray
    recorded_at: np.ndarray
    recorded_to: np.ndarray
    has_recorded_to: np.ndarray
    valid_from: np.ndarray
    has_valid_from: np.ndarray
    valid_to: np.ndarray
    has_valid_to: np.ndarray

    @classmethod
    def of(cls, facts: Sequence[Fact]) -> FactTimes:
        """The arrays of ``facts``: ~2 µs a fact, built when the store has just decoded
        the list (a small share of that: 4 of 212 ms for 2,210 facts measured), after
        which a read judges them all in microseconds."""
        n = len(facts)

        def times(values: list[datetime | None]) -> tuple[np.ndarray, np.ndarray]:
            has = np.fromiter((v is not None for v in values), dtype=bool, count=n)
            micros = np.zeros(n, dtype=np.int64)
            micros[has] = [_micros(v) for v in values if v is not None]
            return micros, has

        statuses = [f.status for f in facts]
        invalidated = FactStatus.INVALIDATED
        recorded_to, has_recorded_to = times([f.recorded_to for f in facts])
        valid_from, has_valid_from = times([f.valid_from for f in facts])
        valid_to, has_valid_to = times([f.valid_to for f in facts])
        return cls(
            live=np.fromiter((s in LIVE for s in statuses), dtype=bool, count=n),
            invalidated=np.fromiter((s is invalidated for s in statuses), dtype=bool, count=n),
            recorded_at=np.fromiter((_micros(f.recorded_at) for f in facts), np.int64, n),
            recorded_to=recorded_to,
            has_recorded_to=has_recorded_to,
            valid_from=valid_from,
            has_valid_from=has_valid_from,
            valid_to=valid_to,
            has_valid_to=has_valid_to,
        )


# the arrays of the lists of facts reads pick from by time, kept by the list's identity
# (a store hands the same decoded list over while no fact of the scope changes); the
# list is held with them so its id is not reused, and a list of another length (grown
# in place) is read again
_TIMES: dict[int, tuple[Sequence[Fact], FactTimes]] = {}
_MAX_TIMES = 8
_times_lock = threading.Lock()


def times_of(facts: Sequence[Fact]) -> FactTimes:
    """``FactTimes.of(facts)``, built once per list of facts."""
    with _times_lock:
        kept = _TIMES.get(id(facts))
    if kept is not None and kept[0] is facts and len(kept[1].live) == len(facts):
        return kept[1]
    made = FactTimes.of(facts)
    with _times_lock:
        if len(_TIMES) >= _MAX_TIMES:
            del _TIMES[next(iter(_TIMES))]
        _TIMES[id(facts)] = (facts, made)
    return made


def without_times(query: str) -> str:
    """``query`` without its time expressions: the words a time-filtered read scores
    facts by ("partner", not "May 2023": the filter already holds the period)."""
    # where the expressions are does not depend on the reference they resolve against
    mentions = find_times(query, datetime(2000, 1, 1, tzinfo=UTC))
    out, at = [], 0
    for m in mentions:
        out.append(query[at : m.span[0]])
        at = m.span[1]
    return " ".join([*out, query[at:]])


def fact_time(
    as_of: datetime | None, as_of_recorded: datetime | None, question: Period | None
) -> FactTime | None:
    """A read's fact filter: the period its question names, else the instant
    ``as_of``; the memory as of ``as_of_recorded``; None when the read names none (it
    sees the live facts)."""
    if question is not None:
        return FactTime(question, as_of_recorded, "question")
    if as_of is not None:
        return FactTime(instant(as_of), as_of_recorded, "as_of")
    if as_of_recorded is not None:
        return FactTime(None, as_of_recorded)
    return None


def stale_since(item: MemoryItem, at: FactTime | None) -> datetime | None:
    """Since when what ``item`` states no longer holds, for a read with filter ``at``;
    None when it holds for that read (no mark, a mark the read's recorded time did not
    know yet, or a superseded value read for a period that starts before it ended: an
    invalidated one never held, so every valid-time read sees it as stale)."""
    mark = item.metadata.get(NO_LONGER_TRUE)
    if not isinstance(mark, dict):
        return None
    since = datetime.fromisoformat(mark["since"])
    if at is None:
        return since
    if at.recorded is not None and datetime.fromisoformat(mark["marked_at"]) > at.recorded:
        return None  # the memory did not know it then
    if at.valid is not None and mark.get("reason") == "superseded" and at.valid[0] < since:
        return None  # it still held in the period read
    return since
