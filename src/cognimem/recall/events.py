"""Questions that count or order events of one kind (pure): "how many pets did I have as
of May?", "which did I do first, X or Y?", "how long between X and Y?".

Such a question needs every event of the kind in its window, not the few turns nearest
to its words: "how many pets" shares no word with "we adopted a kitten". The plan adds
the events step (``recall/plan.py``), the lexical and vector searches again at
``EVENT_DEPTH`` over the question's words without its time expressions and its counting
words. Its items that tell of an event (a period at write time, or event words:
``text/events.py``) and are close to the question — a word of it, or a cosine within
``KIND_MARGIN`` of the closest such event — are the events of the kind: they join the
rerank (the ``dated`` signal favours them, ``recall/temporal.py``) and the packet keeps
them past its item limit, at most ``MAX_EVENT_ITEMS`` in all and inside the token
budget. A question that orders (``order``, ``between``) gets those events in the order
they happened, in the places they held by rank (the other items keep theirs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cognimem.models import MemoryItem, PacketItem
from cognimem.recall.analyze import EventForm, QueryAnalysis, query_terms
from cognimem.recall.conversation.evidence import mentions
from cognimem.recall.fact_time import without_times
from cognimem.recall.rerank import Ranked
from cognimem.store.types import Candidate
from cognimem.text.events import tells_of_event
from cognimem.text.tokens import words

__all__ = [
    "EVENT_DEPTH",
    "KIND_MARGIN",
    "MAX_EVENT_ITEMS",
    "EventPlan",
    "event_terms",
    "event_time",
    "tells_of_an_event",
]

# how deep the events step searches each way: every event of a conversation's kind
EVENT_DEPTH = 300
# the events a packet keeps at most (its limit may hold more of them)
MAX_EVENT_ITEMS = 20
# an event whose cosine to the question is within this of the closest event's is of the
# kind the question asks about
KIND_MARGIN = 0.1
# the words that ask how many or which first, not what kind of event
_FORM_WORDS = frozenset(
    words(
        "many, times, often, number, first, earlier, sooner, later, order, came, happened, "
        "long, much, time, passed, take, took, between, before, after, since"
    )
)


def event_terms(query: str, dateless: str | None = None) -> list[str]:
    """The words of ``query`` that say what kind of event it asks about: its content
    words without its time expressions and its counting or ordering words ("How many
    pets did I have as of May 2025?" → ``["pets"]``). ``dateless``: the query without
    its time expressions, when the caller has it (``QueryAnalysis.dateless``)."""
    words = without_times(query) if dateless is None else dateless
    return [t for t in query_terms(words) if t not in _FORM_WORDS]


def tells_of_an_event(item: MemoryItem) -> bool:
    """Whether the item tells of an event: its own words do, or it carries the period
    of one (what it was dated by at write time)."""
    return item.event_start is not None or tells_of_event(item.text)


def event_time(item: MemoryItem | PacketItem) -> datetime:
    """When what the item tells of happened: its event period's start, else when it
    was said."""
    return item.event_start or item.occurred_at


@dataclass(frozen=True)
class EventPlan:
    """A read's events plan: the question's form, the words that say the kind of event
    (``event_terms``) and the events step's candidates (their cosine to the question;
    -1.0 for one only the lexical search found)."""

    form: EventForm
    terms: tuple[str, ...]
    found: dict[str, float]

    @classmethod
    def of(
        cls, analysis: QueryAnalysis, candidates: Sequence[Candidate] | None
    ) -> EventPlan | None:
        if analysis.events is None or candidates is None:
            return None
        found = {c.item_id: c.score for c in candidates}
        return cls(analysis.events, tuple(event_terms(analysis.query, analysis.dateless)), found)

    def of_kind(self, items: Sequence[MemoryItem]) -> set[str]:
        """The ids of ``items`` (the rerank's, the read's filters applied) that are
        events of the kind: found by the events step, telling of an event, and holding a
        word of the kind or close in meaning to the question (within ``KIND_MARGIN`` of
        the closest such event)."""
        events = [i for i in items if i.id in self.found and tells_of_an_event(i)]
        best = max((self.found[i.id] for i in events), default=-1.0)
        return {
            i.id
            for i in events
            if mentions(i.text, self.terms) or self.found[i.id] >= max(best - KIND_MARGIN, 0.0)
        }

    @property
    def orders(self) -> bool:
        """Whether the question orders the events (the packet shows them in the order
        they happened)."""
        return self.form is not EventForm.COUNT

    def keep(self, ranked: Sequence[Ranked], limit: int, kind: set[str]) -> list[Ranked]:
        """What the packet may take, in rank order: the first ``limit`` of ``ranked``
        and every event of the kind past them, ``MAX_EVENT_ITEMS`` events at most."""
        head = list(ranked[:limit])
        room = MAX_EVENT_ITEMS - sum(1 for r in head if r.item.id in kind)
        tail = [r for r in ranked[limit:] if r.item.id in kind][: max(room, 0)]
        return head + tail

    def in_order(
        self, chosen: Sequence[PacketItem], kind: set[str], limit: int
    ) -> list[PacketItem]:
        """The packet's items with its events of the kind in the order they happened,
        each in a place one of them held by rank: the other items keep theirs, and the
        first ``limit`` places (what the rank chose) and the places past them (the
        plan's) are ordered apart, so no event the rank put in the first ``limit``
        leaves them for a later one that happened before it."""
        out = list(chosen)
        for block in (range(min(limit, len(out))), range(limit, len(out))):
            places = [n for n in block if out[n].id in kind]
            events = sorted((out[n] for n in places), key=event_time)
            for n, p in zip(places, events, strict=True):
                out[n] = p
        return out

    def reason(self) -> str:
        """Why an event of the kind is in the packet (explain's ``reason``)."""
        return f"an event of the kind the question asks about (events plan: {self.form.value})"

    def describe(self, kind: set[str]) -> dict[str, Any]:
        """What explain and ``meta["events"]`` show of the plan."""
        return {"form": self.form.value, "searched": len(self.found), "events": len(kind)}
