"""Which turns a dated reply answers, and where they go in the ranking
(recall/conversation/told_before.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem.models import MemoryItem, Scope
from cognimem.recall.conversation.told_before import (
    PRONOUN_REACH,
    answered,
    dated_before,
    dates,
    replies_of,
    states,
    takes_up,
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


def test_a_question_two_back_names_what_the_reply_is_about() -> None:
    named = item("k", "Remember the blue kayak we rented at the lake?", "Ann", 0)
    which = item("w", "The one with the dent?", "Bo", 1)
    bought = item("b", "Yes! I went back and bought it on Friday.", "Ann", 2, dated=True)
    assert answered(bought, [which, named]) == [named]


def test_a_dated_reply_that_takes_a_thing_up_by_a_pronoun() -> None:
    bought = item("b", "I bought it from a neighbour last spring.", "Ann", 2, dated=True)
    assert takes_up(bought)
    assert takes_up(item("h", "We got him from a farm in May.", "Ann", 2, dated=True))
    assert not takes_up(item("u", "I bought it!", "Ann", 2))  # dates nothing
    assert not takes_up(REPLY)  # "that" alone is too common to be a thing


def test_replies_are_the_best_and_the_best_pronoun_reply_within_reach() -> None:
    bought = ranked(item("b", "I bought it last spring.", "Ann", 9, dated=True), 0.5)
    others = [ranked(item(f"o{n}", "Kayaks are fun", "Bo", n), 0.9 - n / 10) for n in range(3)]
    assert [i.id for i in replies_of([*others, bought])] == ["o0", "b"]
    assert [i.id for i in replies_of([bought, *others])] == ["b"]
    far = [ranked(item(f"f{n}", "Lakes are cold", "Bo", n), 0.9) for n in range(PRONOUN_REACH)]
    assert [i.id for i in replies_of([*far, bought])] == ["f0"]


def test_a_turn_ranked_above_its_reply_keeps_its_place_and_gets_the_signal() -> None:
    named = item("k", "Remember the blue kayak we rented at the lake?", "Ann", 0)
    which = item("w", "The one with the dent?", "Bo", 1)
    bought = item("b", "Yes! I went back and bought it on Friday.", "Ann", 2, dated=True)
    out = with_told_before(
        [ranked(named, 1.0), ranked(bought, 0.6)], {"b": [which, named]}, lambda i: True
    )
    assert [r.item.id for r in out] == ["k", "b"]
    assert out[0].score == 1.0
    assert out[0].signals["told_before"] == 0.6


def test_the_pronoun_reach_counts_only_turns_that_state() -> None:
    bought = ranked(item("b", "I bought it last spring.", "Ann", 9, dated=True), 0.5)
    best = ranked(item("t", "Kayaks are fun", "Bo", 0), 0.95)
    talk = [ranked(item(f"h{n}", "Haha", "Bo", n), 0.9) for n in range(PRONOUN_REACH)]
    # small talk is dropped from the read: it does not push the pronoun reply out of reach
    assert [i.id for i in replies_of([best, *talk, bought])] == ["t", "b"]
    assert [r.item.id for r in states([best, *talk, bought], 2)] == ["t", "b"]
