"""Which turn after a naming turn a "when" question brings, and where it goes
(recall/conversation/told_after.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from cognimem.models import MemoryItem, Scope
from cognimem.recall.conversation.told_after import (
    NAMER_REACH,
    bring_told_after,
    dated_after,
    namers,
    with_told_after,
)
from cognimem.recall.rerank import Ranked, tokens_of
from cognimem.store.types import ItemFilter

T0 = datetime(2024, 6, 1, 19, 0, tzinfo=UTC)
OSKAR = Scope(user_id="oskar")


def item(id: str, text: str, author: str, seconds: int, *, dated: bool = False) -> MemoryItem:
    at = T0 + timedelta(seconds=seconds)
    return MemoryItem(
        id=id,
        scope=OSKAR,
        text=text,
        author=author,
        occurred_at=at,
        recorded_at=at,
        event_start=at - timedelta(days=12) if dated else None,
        event_end=at - timedelta(days=11) if dated else None,
    )


def ranked(i: MemoryItem, score: float) -> Ranked:
    return Ranked(i, score, {"relevance": score}, {}, ("vector",), tokens_of(i.text))


NAMED = item("n", "I bought a second oven, a huge Italian deck model.", "Oskar", 0)
ASKED = item("q", "For the bakery? You must be doing well.", "Leila", 1)
DATED = item("d", "It arrived on the twentieth of May.", "Oskar", 2, dated=True)


def test_the_dated_turn_after_is_the_namers_own_and_takes_the_thing_up() -> None:
    assert dated_after(NAMED, [ASKED, DATED]) == DATED
    # said by the other speaker: not what the namer dates
    theirs = item("t", "I got it on the twentieth of May.", "Leila", 2, dated=True)
    assert dated_after(NAMED, [ASKED, theirs]) is None
    # dates something but names it afresh (no pronoun): a new thing, not the namer's
    fresh = item("f", "The mixer came on the twentieth of May.", "Oskar", 2, dated=True)
    assert dated_after(NAMED, [ASKED, fresh]) is None
    # takes it up but dates nothing
    assert dated_after(NAMED, [ASKED, item("u", "It is huge.", "Oskar", 2)]) is None
    assert dated_after(NAMED, []) is None


def test_namers_state_within_reach_and_do_not_take_a_thing_up() -> None:
    hi = ranked(item("h", "Hi!", "Leila", 5), 0.99)
    asks = ranked(item("a", "Did you buy an oven?", "Leila", 6), 0.98)
    named = ranked(NAMED, 0.9)
    dated = ranked(DATED, 0.8)
    # small talk and questions take no place in the reach and name nothing here
    assert [r.item.id for r in namers([hi, asks, named, dated])] == ["n"]
    far = [ranked(item(f"f{n}", "It is huge.", "Oskar", n), 0.95) for n in range(NAMER_REACH)]
    assert [r.item.id for r in namers([*far, named])] == [f"f{n}" for n in range(NAMER_REACH)]
    assert namers([ranked(item("f", "It is huge.", "Oskar", 0, dated=True), 1.0)]) == []


def test_the_turn_goes_just_below_its_namer_or_keeps_a_higher_place() -> None:
    other = ranked(item("o", "Bread sells out by ten.", "Oskar", 9), 0.85)
    out = with_told_after([ranked(NAMED, 0.9), other], ranked(NAMED, 0.9), DATED, lambda i: True)
    assert [r.item.id for r in out] == ["n", "d", "o"]
    assert out[1].signals["told_after"] == 1.0
    above = [ranked(DATED, 0.95), ranked(NAMED, 0.9)]
    kept = with_told_after(above, above[1], DATED, lambda i: True)
    assert [r.item.id for r in kept] == ["d", "n"]
    assert kept[0].score == 0.95
    assert kept[0].signals["told_after"] == 0.9474
    # not admitted by the read's filters: left out
    refused = with_told_after([ranked(NAMED, 0.9)], ranked(NAMED, 0.9), DATED, lambda i: False)
    assert [r.item.id for r in refused] == ["n"]


class _Listing:
    """A store whose listing holds ``items`` (what ``turns_after`` asks of a store)."""

    def __init__(self, items: list[MemoryItem]) -> None:
        self.items = items

    async def list_items(self, flt: ItemFilter, text: object, limit: int) -> list[MemoryItem]:
        assert flt.since is not None
        assert flt.until is not None
        return [i for i in self.items if flt.since <= i.occurred_at <= flt.until][:limit]


STALL = item("s", "I opened a bread stall at the market.", "Oskar", 100)
SHOP = item("sq", "Where?", "Leila", 101)
STALL_DATED = item("sd", "It opened on the first of March.", "Oskar", 102, dated=True)


def test_an_events_question_brings_the_dated_turn_after_each_namer() -> None:
    store = _Listing([NAMED, ASKED, DATED, STALL, SHOP, STALL_DATED])
    order = [ranked(NAMED, 0.9), ranked(STALL, 0.8)]
    flt = ItemFilter(scope=OSKAR)
    # which came first: every event's dated turn is wanted
    out = asyncio.run(
        bring_told_after(store, order, "Which came first, the oven or the stall?", flt)  # type: ignore[arg-type]
    )
    assert [r.item.id for r in out] == ["n", "d", "s", "sd"]
    # a "when" question brings the best-ranked namer's alone
    when = asyncio.run(bring_told_after(store, order, "When did the oven arrive?", flt))  # type: ignore[arg-type]
    assert [r.item.id for r in when] == ["n", "d", "s"]
    # a question that neither asks when nor counts or orders brings none
    other = asyncio.run(bring_told_after(store, order, "What oven do I have?", flt))  # type: ignore[arg-type]
    assert [r.item.id for r in other] == ["n", "s"]
