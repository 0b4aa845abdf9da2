"""Question → answer pairs in a conversation: a reply is ranked up by the question it
answers. Pure.

In a conversation the memory that answers a later question is often the reply to a
question someone asked at the time ("What did you do last weekend?" → "Went hiking with
my sister"), and the reply alone may share little with what is asked later. The write
path indexes each message with the one before it for lexical search; this adds the same
pairing to the ranking, for the vector and graph evidence too: a candidate gets
``rerank.answer`` × the (best-scaled) score of the candidate said just before it when
that one is a question (it ends with "?"), was said by someone else, in the same scope,
at most ``ANSWER_GAP`` earlier. The reply remembers the question (``Ranked.answers``):
a question that only asks is evidence for the query only through its reply
(``recall/conversation/evidence.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from itertools import pairwise

from cognimem.models import Scope
from cognimem.recall.rerank import Ranked
from cognimem.text.speech import asks

# a reply follows its question within minutes; an hour keeps a pause and leaves out
# another conversation (LoCoMo's sessions are days apart)
ANSWER_GAP = timedelta(hours=1)


def rank_answers(ranked: Sequence[Ranked], weight: float) -> list[Ranked]:
    """``ranked`` with each reply to a candidate question scored up by ``weight`` × the
    question's score over the best score (the ``answer`` signal), best first again."""
    if weight <= 0 or len(ranked) < 2:
        return list(ranked)
    top = max(r.score for r in ranked) or 1.0
    # a scope's JSON once per scope object (a read's items share a few: the stores
    # decode one model per scope)
    scope_keys: dict[int, str] = {}

    def scope_key(scope: Scope) -> str:
        key = scope_keys.get(id(scope))
        if key is None:
            key = scope_keys[id(scope)] = scope.model_dump_json()
        return key

    in_time = sorted(ranked, key=lambda r: (scope_key(r.item.scope), r.item.occurred_at, r.item.id))
    boosted: dict[str, Ranked] = {}
    for before, r in pairwise(in_time):
        q, a = before.item, r.item
        if (
            (q.scope is a.scope or q.scope == a.scope)
            and q.author != a.author
            and q.occurred_at <= a.occurred_at <= q.occurred_at + ANSWER_GAP
            and asks(q.text)
        ):
            signal = round(before.score / top, 4)
            boosted[a.id] = replace(
                r,
                score=r.score + weight * signal,
                signals={**r.signals, "answer": signal},
                answers=q.id,
            )
    out = [boosted.get(r.item.id, r) for r in ranked]
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out
