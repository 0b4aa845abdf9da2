"""The turn before the best-ranked one, for a question that asks "when".

In a conversation the time of an event is often said in a reply, and the event itself in
the turn the reply answers: "I've always wanted a kayak. Have you ever owned one?" →
"Sure, my brother bought one last spring". Or the thing is shown or named two turns back
and the dated reply takes it up by a pronoun: "Look at this painting!" → "Is it yours?"
→ "Yeah, I painted that last year!". A question that asks when ranks the dated reply
first (it names the time and takes up the event's words), but what the question asks
about — what was bought, what was painted — is in the turn before it, which shares
little with the question and may rank nowhere. The other way round, the turn that tells
of the event and its time ("Yesterday we took the dog to the beach") is often ranked
below the reply that follows it ("What did he love most?"), which the lexical
index holds with the message before it.

So for a "when" question the best-ranked item brings in the turn before it: the message
said just before it in the same scope by someone else, at most ``ANSWER_GAP`` earlier —
and so does the best-ranked item after it, within ``PRONOUN_REACH`` of the items that
state something (a question or small talk is dropped from the read), that dates what it
tells of and takes a thing up by a pronoun ("I went back and bought it last Saturday"):
what "it" is was named before it, often in a question ("Remember the rocking chair we
saw at the fair?"), which then comes too (a question two turns back names what the
reply is about; small talk does not).
When the best-ranked item's own words date what it tells of (``recall/temporal.py``: not
only the moment it was said), that turn — or, when it only asks or makes small talk ("Is
this one yours?"), the one before it, which the question is about, said by the
reply's author; when it asks and tells, both — goes just below it. When the best-ranked
item dates nothing, the turn before it goes just above it, if that turn's own words date
something. A turn brought in is evidence through the best-ranked item
(``recall/conversation/evidence.py``), whatever words it shares with the question.
"""

from __future__ import annotations

import asyncio
import re
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
    "PRONOUN_REACH",
    "SIGNAL",
    "TOP_REPLIES",
    "answered",
    "bring_told_before",
    "brought",
    "dated_before",
    "dates",
    "replies_of",
    "states",
    "takes_up",
    "turns_before",
    "with_told_before",
]

# the best-ranked items whose turn before is brought in: the answer of a "when" question
# ranks near the top; a deeper reach puts a turn before each of many memories (on
# LoCoMo conv-26/30, 1 against 2, 3, 5: frac@5 and MRR of the temporal questions best)
TOP_REPLIES = 1
# below the best-ranked item, the best-ranked one within this reach that dates what it
# tells of and takes a thing up by a pronoun ("I bought it last Saturday"): what it is
# about was named in a turn before it ("Remember the rocking chair at the fair?")
PRONOUN_REACH = 5
_TAKES_UP = re.compile(r"\b(?:it|them|him|that\s+one|this\s+one)\b", re.IGNORECASE)
# the signal a turn brought in carries (its value: the reply's score share)
SIGNAL = TOLD_BEFORE
# below the reply, above the next one: the turn is read with its reply
_HAIR = 1e-6


def dates(item: MemoryItem) -> bool:
    """Whether the item's own words date what it tells of (not only when it was said)."""
    return item.event_start is not None and not told_when_said(item)


def takes_up(item: MemoryItem) -> bool:
    """Whether the item dates what it tells of and takes a thing up by a pronoun ("I
    picked it up three weeks ago"): its thing was named before it."""
    return dates(item) and _TAKES_UP.search(item.text) is not None


def states(ranked: Sequence[Ranked], count: int) -> list[Ranked]:
    """The first ``count`` of ``ranked`` that state something: a message that only asks
    or makes small talk is dropped from what a read returns (``evidence.py``), so it
    takes no place in a reach counted down the ranking."""
    out: list[Ranked] = []
    for r in ranked:
        if len(out) == count:
            break
        if filler(r.item.text) is None:
            out.append(r)
    return out


def replies_of(ranked: Sequence[Ranked]) -> list[MemoryItem]:
    """The items whose turns before are brought in: the ``TOP_REPLIES`` best-ranked,
    and the best-ranked other one within the first ``PRONOUN_REACH`` of the items that
    state (:func:`states`) that :func:`takes_up` a thing named before it."""
    replies = [r.item for r in ranked[:TOP_REPLIES]]
    reach = [r for r in states(ranked, PRONOUN_REACH) if r.item not in replies]
    taken_up = next((r.item for r in reach if takes_up(r.item)), None)
    return replies if taken_up is None else [*replies, taken_up]


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


def dated_before(item: MemoryItem, before: Sequence[MemoryItem]) -> list[MemoryItem]:
    """The message just before ``item`` among ``before`` (newest first) when someone
    else said it, it states something and its own words date it; none otherwise."""
    last = before[0] if before else None
    if last is None or last.author == item.author or filler(last.text) is not None:
        return []
    return [last] if dates(last) else []


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
    # a question names what it asks about ("Remember the chair we saw?"); small talk not
    about = [t for t in about if filler(t.text) != "small talk"]
    if filler(last.text) is not None:
        return about
    return [last, *about] if asks(last.text) else [last]


def brought(turn: MemoryItem, old: Ranked | None, score: float, name: str, signal: float) -> Ranked:
    """``turn`` brought in at ``score`` with the signal ``name`` (valued ``signal``):
    ranked higher already (``old``), it keeps its place and gains the signal, the
    evidence that it is read with the item that brought it; ranked lower, it moves up."""
    if old is not None:
        kept = old.score >= score
        return replace(
            old, score=old.score if kept else score, signals={**old.signals, name: signal}
        )
    return Ranked(
        item=turn,
        score=score,
        signals={name: signal},
        raw={},
        steps=(name,),
        tokens=tokens_of(turn.text),
    )


def with_told_before(
    ranked: Sequence[Ranked],
    before: dict[str, list[MemoryItem]],
    admits: Callable[[MemoryItem], bool],
) -> list[Ranked]:
    """``ranked`` with the turns ``before`` (what ``turns_before`` found for the
    best-ranked items) brings in when the read's filters ``admits`` them: below an item
    that dates what it tells of, the turns it answers (``answered``); above one that
    does not, the dated turn before it (``dated_before``); each moved up if it was
    ranked lower."""
    if not before:
        return list(ranked)
    top = max((r.score for r in ranked), default=0.0) or 1.0
    by_id = {r.item.id: r for r in ranked}
    lifted: dict[str, Ranked] = {}
    for r in ranked:
        if r.item.id not in before:
            continue
        dated = dates(r.item)
        turns = (answered if dated else dated_before)(r.item, before[r.item.id])
        for n, turn in enumerate(turns, 1):
            if turn.id in lifted or not admits(turn):
                continue
            score = r.score - n * _HAIR if dated else r.score + _HAIR
            signal = round(r.score / top, 4)
            lifted[turn.id] = brought(turn, by_id.get(turn.id), score, SIGNAL, signal)
    out = [lifted.pop(r.item.id, r) for r in ranked] + list(lifted.values())
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out


async def bring_told_before(
    store: Store, ranked: list[Ranked], query: str, flt: ItemFilter
) -> list[Ranked]:
    """``ranked`` with the turns before its best-ranked items (``with_told_before``),
    the read's filter ``flt`` applied to them, when ``query`` asks when; else as it is.
    One store listing per item."""
    if not ranked or not asks_when(query):
        return ranked
    found = await turns_before(store, replies_of(ranked))
    return with_told_before(ranked, found, lambda item: admits(flt, item))
