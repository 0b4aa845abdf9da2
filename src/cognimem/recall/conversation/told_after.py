"""The dated turn after the one that names a thing, for a question that asks "when".

The other way round from ``told_before.py``: a thing is often named in one turn and
dated by its teller a turn or two later, through a pronoun, after the other speaker asks
about it: "I bought a second oven, a huge Italian deck model." → "For the bakery?" → "It
arrived on the twentieth of May." A "when" question in other words ("When was the oven
delivered?") ranks the naming turn high (it shares the thing's words) but the dated turn
low: it shares nothing with the question but a pronoun and a time.

So for a "when" question the items within the first ``NAMER_REACH`` of those that state
something (``told_before.states``) and do not themselves take a thing up by a pronoun
(they name it; a time of their own, "a teak Garrard from the seventies", does not date
the buying) bring in the first of
the two turns said after them in the same scope, within ``ANSWER_GAP``, by the same
speaker, that dates what it tells of and takes a thing up by a pronoun
(``told_before.takes_up``). Only the best-ranked such item brings its turn (for a
question that counts or orders events, each of them does: every event's turn is
wanted), placed just below it (signal ``told_after``; kept as evidence through it,
``evidence.py``); a turn ranked above it already keeps its place and gets the signal.
One store listing per candidate, for a read that asks when or counts or orders events.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from cognimem.models import MemoryItem
from cognimem.models.directory import ItemText
from cognimem.recall.analyze import asks_when, event_question
from cognimem.recall.collect import admits
from cognimem.recall.conversation.evidence import TOLD_AFTER
from cognimem.recall.conversation.pairs import ANSWER_GAP
from cognimem.recall.conversation.told_before import brought, states, takes_up
from cognimem.recall.rerank import Ranked
from cognimem.store.protocols import Store
from cognimem.store.types import ItemFilter
from cognimem.text.speech import asks

__all__ = [
    "AFTER_LISTED",
    "NAMER_REACH",
    "SIGNAL",
    "bring_told_after",
    "dated_after",
    "namers",
    "turns_after",
    "with_told_after",
]

# the items that state something within which a turn naming a thing is looked for
NAMER_REACH = 5
# the turns listed after a namer: a listing holding this many filled the window, so
# the turns just after the namer may be missing from it and none is brought
AFTER_LISTED = 64
# how many turns after the namer its dated follow-up may be (the other speaker's
# question between them)
_FOLLOWS = 2
SIGNAL = TOLD_AFTER
_HAIR = 1e-6


def namers(ranked: Sequence[Ranked]) -> list[Ranked]:
    """The items within the first ``NAMER_REACH`` that state something, do not ask and
    do not take a thing up by a pronoun and a time: what they name may be dated after
    them. (Requiring that they date nothing, measured: time_kinds round 2 tune 0.95
    against 0.9667; "a teak Garrard from the seventies" dates the thing, not its buying.)"""
    return [
        r for r in states(ranked, NAMER_REACH) if not takes_up(r.item) and not asks(r.item.text)
    ]


async def turns_after(store: Store, item: MemoryItem) -> list[MemoryItem]:
    """The ``_FOLLOWS`` items said in the ``ANSWER_GAP`` after ``item`` in exactly its
    scope, oldest first; none when the window holds ``AFTER_LISTED`` items or more (the
    listing, newest first, may have left out the ones just after it)."""
    flt = ItemFilter(scope=item.scope, since=item.occurred_at, until=item.occurred_at + ANSWER_GAP)
    listed = await store.list_items(flt, ItemText(), AFTER_LISTED)
    if len(listed) >= AFTER_LISTED:
        return []
    later = [i for i in listed if i.id != item.id and i.occurred_at > item.occurred_at]
    return sorted(later, key=lambda i: (i.occurred_at, i.id))[:_FOLLOWS]


def dated_after(item: MemoryItem, after: Sequence[MemoryItem]) -> MemoryItem | None:
    """The first of ``after`` (oldest first) said by ``item``'s author that dates what it
    tells of and takes a thing up by a pronoun ("It arrived on the twentieth of May")."""
    return next((t for t in after if t.author == item.author and takes_up(t)), None)


def with_told_after(
    ranked: Sequence[Ranked], namer: Ranked, turn: MemoryItem, admits: Callable[[MemoryItem], bool]
) -> list[Ranked]:
    """``ranked`` with ``turn`` just below ``namer`` (or, ranked above it already, in
    its place with the signal), when the read's filters ``admits`` it."""
    if not admits(turn):
        return list(ranked)
    top = max((r.score for r in ranked), default=0.0) or 1.0
    signal = round(namer.score / top, 4)
    score = namer.score - _HAIR
    old = next((r for r in ranked if r.item.id == turn.id), None)
    moved = brought(turn, old, score, SIGNAL, signal)
    out = [r for r in ranked if r.item.id != turn.id] + [moved]
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out


async def bring_told_after(
    store: Store, ranked: list[Ranked], query: str, flt: ItemFilter
) -> list[Ranked]:
    """``ranked`` with the dated turn after its best-ranked namer (``with_told_after``),
    the read's filter ``flt`` applied, when ``query`` asks when; with the dated turn
    after each namer when it counts or orders events (``event_question``: every event
    of the kind is wanted, "which came first, the stall or the sewing machine?"); else
    as it is."""
    every = event_question(query) is not None
    if not ranked or not (every or asks_when(query)):
        return ranked
    candidates = namers(ranked)
    found = await asyncio.gather(*(turns_after(store, r.item) for r in candidates))
    for namer, after in zip(candidates, found, strict=True):
        turn = dated_after(namer.item, after)
        if turn is not None:
            ranked = with_told_after(ranked, namer, turn, lambda item: admits(flt, item))
            if not every:
                return ranked
    return ranked
