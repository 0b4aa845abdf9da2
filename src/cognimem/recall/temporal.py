"""Time on the read path: which items belong to the period a query names, and which
carry the date a "when" question asks for (pure).

Each item may carry an event period (``MemoryItem.event_start``/``event_end``): its
time expressions resolved at write time against when it was said ("made dinner last
night", said on 4 May, tells of 3 May). A query's period (``analyze.query_time_range``)
admits an item that occurred in it or tells of it; the ``dated`` rerank signal favours
the items whose own words date what they tell of when the question asks "when" (the
answer's date is in the item, whatever words it shares with the question) or tell of
the period the question names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Set
from datetime import datetime, timedelta

from cognimem.models import MemoryItem
from cognimem.recall.analyze import QueryAnalysis, asks_when
from cognimem.text.events import SAID

Period = tuple[datetime, datetime]
# "how long has she had it?", "how long did it take?": a span asked for, which a memory
# dates by its own words ("I've had them for three years now")
_HOW_LONG = re.compile(r"\bhow\s+long\b", re.IGNORECASE)
_DAY = timedelta(days=1)


def tells_of(item: MemoryItem, period: Period) -> bool:
    """Whether the item's event period overlaps ``period`` (``[start, end)``)."""
    start, end = item.event_start, item.event_end
    return start is not None and end is not None and start < period[1] and end > period[0]


def belongs(item: MemoryItem, period: Period) -> bool:
    """Whether the item occurred in ``period`` or tells of it: what a store's
    ``ItemFilter.period`` admits."""
    return period[0] <= item.occurred_at < period[1] or tells_of(item, period)


def share_in(item: MemoryItem, period: Period) -> float:
    """The share of the item's event period that lies inside ``period``: 1.0 for "last
    Friday" asked about that week, 0.33 for "this summer" asked about June, 0.0 when it
    names no time or another one."""
    start, end = item.event_start, item.event_end
    if start is None or end is None:
        return 0.0
    inside = min(end, period[1]) - max(start, period[0])
    return max(inside / (end - start), 0.0)


def told_when_said(item: MemoryItem) -> bool:
    """Whether the item's event period is just the moment it was said: an event told
    with no time word ("we adopted a puppy!", ``ingest/extract/clauses.py``)."""
    return item.event_start == item.occurred_at and item.event_end == item.occurred_at + SAID


def runs_up_to_said(item: MemoryItem) -> bool:
    """Whether the item tells of a span that runs up to when it was said ("I've had
    them for three years now", "I started a book recently"): what a "how long"
    question asks for."""
    start, end = item.event_start, item.event_end
    if start is None or end is None:
        return False
    return end - start > _DAY and abs(end - item.occurred_at) <= _DAY


def dated_signal(
    analysis: QueryAnalysis, kind: Set[str] = frozenset()
) -> Callable[[MemoryItem], float]:
    """The ``dated`` signal for this query, in [0, 1]: for a query that names a period,
    how much of what the item tells of lies in it (``share_in``); for a "when" question
    1.0 when the item tells of a time at all; for a "how long" one (a span, which a
    memory dates by its own words), 1.0 for a span up to when it was said
    (:func:`runs_up_to_said`), 0.5 for any other time; else 0.0. It measures what an item's own
    words add to when it was said, which every memory carries: an item that tells of
    the moment it was said and no more (``told_when_said``) gets none of it — except an
    event of the kind a counting or ordering question reads (``kind``: the ids the
    events plan chose, ``recall/events.py``), however it was dated, and such a question
    that names no period and asks no "when" favours those events alone. Other items
    keep the signal they have for any other question: the plan's events must not lift
    every dated memory above the ranked answer."""
    period = analysis.time_range

    def told(item: MemoryItem) -> bool:
        return item.event_start is not None and (item.id in kind or not told_when_said(item))

    if period is not None:
        return lambda item: share_in(item, period) if told(item) else 0.0
    if _HOW_LONG.search(analysis.query):
        return lambda item: (1.0 if runs_up_to_said(item) else 0.5) if told(item) else 0.0
    if asks_when(analysis.query):
        return lambda item: 1.0 if told(item) else 0.0
    if kind:
        return lambda item: 1.0 if item.id in kind else 0.0
    return lambda item: 0.0
