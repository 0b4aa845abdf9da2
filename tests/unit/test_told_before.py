"""Which turns a dated reply answers, and where they go in the ranking
(recall/conversation/told_before.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem.models import MemoryItem, Scope
from cognimem.recall.conversation.told_before import (
    answered,
    dated_before,
    dates,
    with_told_before,
)
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
TOLD = item("t", "I've always wanted a kayak. Have you ever owned one?", "Bo", 1)
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


def test_a_turn_dates_what_it_tells_of_by_its_own_words() -> None:
    assert dates(REPLY)
    assert not dates(SHOWN)  # no time at all
    said = item("w", "We adopted a kitten!", "Ann", 3)
    said = said.model_copy(update={"event_start": said.occurred_at})
    said = said.model_copy(update={"event_end": said.occurred_at + timedelta(seconds=1)})
    assert not dates(said)  # only the moment it was said


def test_the_dated_turn_before_an_undated_one() -> None:
    told = item("m", "Yesterday we took the dog to the beach!", "Ann", 0, dated=True)
    follow = item("f", "What did he love most?", "Bo", 1)
    assert dated_before(follow, [told]) == [told]
    assert dated_before(follow, [SHOWN]) == []  # dates nothing
    assert dated_before(follow, [item("x", "Hi!", "Ann", 0, dated=True)]) == []  # small talk
    assert dated_before(item("g", "It was fun", "Ann", 1), [told]) == []  # same author
    assert dated_before(follow, []) == []


def test_the_turn_goes_just_below_its_reply() -> None:
    other = ranked(item("o", "Painting calms me", "Ann", 50), 0.8)
    low = ranked(SHOWN, 0.1)
    out = with_told_before([ranked(REPLY, 1.0), other, low], {"r": [ASKS, SHOWN]}, lambda i: True)
    assert [r.item.id for r in out] == ["r", "s", "o"]
    assert out[1].signals["told_before"] == 1.0
    # the read's filters hold: a turn they do not admit stays out
    out = with_told_before([ranked(REPLY, 1.0), other], {"r": [ASKS, SHOWN]}, lambda i: False)
    assert [r.item.id for r in out] == ["r", "o"]


def test_an_undated_best_item_gets_the_dated_turn_before_it_just_above() -> None:
    told = item("m", "Yesterday we took the dog to the beach!", "Ann", 0, dated=True)
    follow = ranked(item("f", "What did they like there?", "Bo", 1), 1.0)
    other = ranked(item("o", "Beaches are fun", "Ann", 50), 0.8)
    out = with_told_before([follow, other, ranked(told, 0.2)], {"f": [told]}, lambda i: True)
    assert [r.item.id for r in out] == ["m", "f", "o"]
    assert out[0].signals["told_before"] == 1.0
