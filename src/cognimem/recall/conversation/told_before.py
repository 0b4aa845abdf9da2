"""The turn a dated reply answers, for a question that asks "when".

In a conversation the time of an event is often said in a reply, and the event itself in
the turn the reply answers: "It's been a dream to adopt. Do you know anyone who has?" →
"Yeah, a buddy of mine adopted last year". Or the thing is shown or named two turns back
and the dated reply takes it up by a pronoun: "Look at this painting!" → "Is it yours?"
→ "Yeah, I painted that last year!". A question that asks when ranks the dated reply
first (it names the time and takes up the event's words), but what the question asks
about — what was adopted, what was painted — is in the turn before it, which shares
little with the question and may rank nowhere.

So for a "when" question, each of the first ``TOP_REPLIES`` ranked items whose own words
date what it tells of (``recall/temporal.py``: not only the moment it was said) brings
the turn it answers in right after it: the message said just before it in the same
scope by someone else, at most ``ANSWER_GAP`` earlier — or, when that message only
asks or makes small talk ("Is this your own painting?"), the one before it, which that
question is about, said by the reply's author. The turn takes the place just below its
reply (a score a hair under the reply's): it is evidence through the reply
(``recall/conversation/evidence.py``), whatever words it shares with the question.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace

from cognimem.models import MemoryItem
from cognimem.models.directory import ItemText
from cognimem.recall.analyze import asks_when
from cognimem.recall.collect import admits
from cognimem.recall.conversation.evidence import TOLD_BEFORE
from cognimem.recall.conversation.pairs import ANSWER_GAP
from cognimem.recall.rerank import Ranked, tokens_of
from cognimem.recall.temporal import told_when_said
from cognimem.store.protocols import Store
from cognimem.store.types import ItemFilter
from cognimem.text.speech import asks, filler

__all__ = [
    "SIGNAL",
    "TOP_REPLIES",
    "bring_told_before",
    "dated_replies",
    "turns_before",
    "with_told_before",
]

# the best-ranked items whose turn before is brought in: the answer of a "when" question
# ranks near the top; a deeper reach puts a turn before each of many dated memories
TOP_REPLIES = 1
# the signal a turn brought in carries (its value: the reply's score share)
SIGNAL = TOLD_BEFORE
# below the reply, above the next one: the turn is read with its reply
_HAIR = 1e-6


def dated_replies(ranked: Sequence[Ranked], top: int = TOP_REPLIES) -> list[MemoryItem]:
    """The first ``top`` ranked items whose own words date what they tell of."""
    return [
        r.item
        for r in ranked[:top]
        if r.item.event_start is not None and not told_when_said(r.item)
    ]


async def turns_before(store: Store, replies: Sequence[MemoryItem]) -> dict[str, list[MemoryItem]]:
    """For each reply, the items said in the ``ANSWER_GAP`` before it in exactly its
    scope, newest first (at most two: the turn it answers and the one before that)."""

    async def before(item: MemoryItem) -> list[MemoryItem]:
        flt = ItemFilter(
            scope=item.scope, since=item.occurred_at - ANSWER_GAP, until=item.occurred_at
        )
        listed = await store.list_items(flt, ItemText(), 3)
        return [i for i in listed if i.id != item.id and i.occurred_at < item.occurred_at][:2]

    found = await asyncio.gather(*(before(i) for i in replies))
    return {i.id: f for i, f in zip(replies, found, strict=True)}


def answered(reply: MemoryItem, before: Sequence[MemoryItem]) -> list[MemoryItem]:
    """The turns ``reply`` answers among ``before`` (newest first): the message just
    before it, said by someone else — and, when that message asks, the one before it
    too, said by the reply's author, which the question is about ("Look at this!" → "Is
    it yours?" → "I painted it last year"); when the message just before only asks or
    makes small talk, that earlier one alone. None when the reply answers no one."""
    if not before or before[0].author == reply.author:
        return []
    last, earlier = before[0], before[1] if len(before) > 1 else None
    about = [earlier] if earlier is not None and earlier.author == reply.author else []
    about = [t for t in about if filler(t.text) is None]
    if filler(last.text) is not None:
        return about
    return [last, *about] if asks(last.text) else [last]


def with_told_before(
    ranked: Sequence[Ranked],
    before: dict[str, list[MemoryItem]],
    admits: Callable[[MemoryItem], bool],
) -> list[Ranked]:
    """``ranked`` with the turn each dated reply answers (``before``: what
    ``turns_before`` found) placed just below it — moved up if it was ranked lower —
    when the read's filters ``admits`` it."""
    if not before:
        return list(ranked)
    top = max((r.score for r in ranked), default=0.0) or 1.0
    by_id = {r.item.id: r for r in ranked}
    lifted: dict[str, Ranked] = {}
    for r in ranked:
        if r.item.id not in before:
            continue
        for n, turn in enumerate(answered(r.item, before[r.item.id]), 1):
            if turn.id in lifted or not admits(turn):
                continue
            score = r.score - n * _HAIR
            old = by_id.get(turn.id)
            if old is not None and old.score >= score:
                continue
            signal = round(r.score / top, 4)
            if old is not None:
                lifted[turn.id] = replace(old, score=score, signals={**old.signals, SIGNAL: signal})
            else:
                lifted[turn.id] = Ranked(
                    item=turn,
                    score=score,
                    signals={SIGNAL: signal},
                    raw={},
                    steps=(SIGNAL,),
                    tokens=tokens_of(turn.text),
                )
    out = [lifted.pop(r.item.id, r) for r in ranked] + list(lifted.values())
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out


async def bring_told_before(
    store: Store, ranked: list[Ranked], query: str, flt: ItemFilter
) -> list[Ranked]:
    """``ranked`` with the turns its dated replies answer (``with_told_before``), the
    read's filter ``flt`` applied to them, when ``query`` asks when; else as it is. One
    store listing per dated reply."""
    replies = dated_replies(ranked) if asks_when(query) else []
    if not replies:
        return ranked
    found = await turns_before(store, replies)
    return with_told_before(ranked, found, lambda item: admits(flt, item))
