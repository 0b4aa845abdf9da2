"""A reply is ranked up by the candidate question it answers (recall/conversation/pairs.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem.models import MemoryItem, Scope
from cognimem.recall.conversation.pairs import rank_answers
from cognimem.recall.rerank import Ranked, tokens_of

T0 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
ALICE = Scope(user_id="alice")


def ranked(
    id: str, text: str, score: float, author: str, minutes: float, scope: Scope = ALICE
) -> Ranked:
    at = T0 + timedelta(minutes=minutes)
    item = MemoryItem(id=id, scope=scope, text=text, author=author, occurred_at=at, recorded_at=at)
    return Ranked(item, score, {"relevance": score}, {}, ("vector",), tokens_of(text))


QUESTION = ranked("q", "What did you do last weekend?", 1.0, "Ann", 0)
REPLY = ranked("a", "Went hiking with my sister", 0.3, "Bo", 1)
OTHER = ranked("o", "The weekend was rainy in town", 0.5, "Bo", 200)


def test_a_reply_to_a_candidate_question_is_ranked_up_by_its_score() -> None:
    out = rank_answers([QUESTION, OTHER, REPLY], 0.5)
    assert [r.item.id for r in out] == ["q", "a", "o"]
    reply = out[1]
    assert reply.score == 0.3 + 0.5 * 1.0
    assert reply.signals["answer"] == 1.0
    assert "answer" not in out[2].signals  # not said right after a question
    # weight 0 (the default until measured otherwise) keeps the order
    assert [r.item.id for r in rank_answers([QUESTION, OTHER, REPLY], 0.0)] == ["q", "o", "a"]


def test_only_another_speakers_reply_within_the_hour_in_the_same_scope_counts() -> None:
    cases = {
        "same speaker": ranked("a", "Went hiking", 0.3, "Ann", 1),
        "two hours later": ranked("a", "Went hiking", 0.3, "Bo", 120),
        "another user": ranked("a", "Went hiking", 0.3, "Bo", 1, Scope(user_id="bob")),
    }
    for case, reply in cases.items():
        out = rank_answers([QUESTION, OTHER, reply], 0.5)
        assert [r.item.id for r in out] == ["q", "o", "a"], case
    statement = ranked("q", "I did a lot last weekend.", 1.0, "Ann", 0)
    out = rank_answers([statement, OTHER, REPLY], 0.5)
    assert [r.item.id for r in out] == ["q", "o", "a"]  # not a question


def test_the_reply_must_follow_the_question_with_nothing_ranked_between() -> None:
    between = ranked("b", "Hang on, let me check", 0.1, "Bo", 0.5)
    out = rank_answers([QUESTION, OTHER, REPLY, between], 0.5)
    assert {r.item.id: r.score for r in out}["a"] == 0.3
    assert {r.item.id: r.score for r in out}["b"] == 0.1 + 0.5
