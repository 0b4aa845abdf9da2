"""Which turns a dated reply answers, and where they go in the ranking
(recall/conversation/told_before.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem.models import MemoryItem, Scope
from cognimem.recall.conversation.told_before import answered, dated_replies, with_told_before
from cognimem.recall.rerank import Ranked, tokens_of

T0 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
ALICE = Scope(user_id="alice")


def item(id: str, text: str, author: str, seconds: int, *, dated: bool = False) -> MemoryItem:
    at = T0 + timedelta(seconds=seconds)
    start = at - timedelta(days=365) if dated else None
    end = at - timedelta(days=300) if dated else None
    return MemoryItem(
        id=id,
        scope=ALICE,
        text=text,
        author=author,
        occurred_at=at,
        recorded_at=at,
        event_start=start,
        event_end=end,
    )


def ranked(i: MemoryItem, score: float) -> Ranked:
    return Ranked(i, score, {"relevance": score}, {}, ("vector",), tokens_of(i.text))


SHOWN = item("s", "Take a look at what I made!", "Ann", 0)
ASKS = item("q", "Is that yours?", "Bo", 1)
TOLD = item("t", "It's been a dream to adopt. Do you know anyone who has?", "Bo", 1)
STATES = item("n", "That looks lovely.", "Bo", 1)
REPLY = item("r", "Yes, I painted that last year!", "Ann", 2, dated=True)


def test_the_turn_a_reply_answers() -> None:
    # only asks: the turn it asks about, by the reply's author
    assert answered(REPLY, [ASKS, SHOWN]) == [SHOWN]
    # tells and asks: that turn, and the one its question is about
    assert answered(REPLY, [TOLD, SHOWN]) == [TOLD, SHOWN]
    # states: that turn alone
    assert answered(REPLY, [STATES, SHOWN]) == [STATES]
    # said by the reply's own author, or nothing before: it answers no one
    assert answered(REPLY, [SHOWN]) == []
    assert answered(REPLY, []) == []
    # a small-talk turn two back is not what was asked about
    assert answered(REPLY, [ASKS, item("h", "Hi there!", "Ann", 0)]) == []


def test_only_the_best_ranked_dated_reply_brings_its_turn() -> None:
    undated = item("u", "I love painting", "Ann", 5)
    assert dated_replies([ranked(REPLY, 1.0), ranked(undated, 0.9)]) == [REPLY]
    assert dated_replies([ranked(undated, 1.0), ranked(REPLY, 0.9)]) == []


def test_the_turn_goes_just_below_its_reply() -> None:
    other = ranked(item("o", "Painting calms me", "Ann", 50), 0.8)
    low = ranked(SHOWN, 0.1)
    out = with_told_before([ranked(REPLY, 1.0), other, low], {"r": [ASKS, SHOWN]}, lambda i: True)
    assert [r.item.id for r in out] == ["r", "s", "o"]
    assert out[1].signals["told_before"] == 1.0
    # the read's filters hold: a turn they do not admit stays out
    out = with_told_before([ranked(REPLY, 1.0), other], {"r": [ASKS, SHOWN]}, lambda i: False)
    assert [r.item.id for r in out] == ["r", "o"]
