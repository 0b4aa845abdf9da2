"""Where a conversation stands when a write arrives: the message said just before
each new one (its lexical context) and the thread its times continue from (the event
told of last, the period a question asked about), read from the scope's stored events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cognimem.models import Event
from cognimem.models.items import index_text
from cognimem.store.protocols import Store
from cognimem.text.dates import DateOrder
from cognimem.text.events import ends_a_span, event_period
from cognimem.text.speech import asks

# a UTC interval [start, end): the period an event told of
Period = tuple[datetime, datetime]


@dataclass(frozen=True)
class Thread:
    """Where a conversation stands for the times of its next message: the event the
    messages before told of last ("two days later" counts from it), and the period
    the previous message asked about when it asked ("What did you do last weekend?":
    "We adopted a puppy!" tells of that weekend), and whether the event told of last
    ended a span ("I got back yesterday": "we were there for ten days" ends there)."""

    after: Period | None = None
    answers: Period | None = None
    ended: bool = False

    def said(self, text: str, told: Period | None) -> Thread:
        """The thread after a message ``text`` that told of ``told``."""
        ended = ends_a_span(text) if told else self.ended
        return Thread(after=told or self.after, answers=told if asks(text) else None, ended=ended)


# how many stored events before a write its thread is read from: a period told this
# many messages back still dates "two days later", as it would within one batch
THREAD_LOOKBACK = 6


async def contexts(
    store: Store, events: Sequence[Event], date_order: DateOrder | None, context_chars: int
) -> tuple[list[str], Thread]:
    """For each event, the message said just before it in the same scope; and the
    thread the first event continues (the period of the event that message told
    of, and whether it asked).

    The lexical index of an item includes that previous message, so an answer is
    found by the words of the question it answers (measured on the LoCoMo dev set:
    frac@10 0.657 → 0.727, benchmarks/tune_fusion.py). Embeddings stay on the item's
    own text, which measured better. The first message of a batch looks up the
    latest stored event of the scope; later ones use their predecessor in the batch.
    The period is what "two days later" in the first message counts from
    (:func:`~cognimem.text.events.event_period`), read from the last
    ``THREAD_LOOKBACK`` stored events in order, so messages written one by one are
    dated as the same messages written in one batch.
    """
    first = events[0]
    earlier = await store.previous_events(
        first.scope, first.occurred_at, exclude=[e.id for e in events], limit=THREAD_LOOKBACK
    )
    thread = Thread()
    for said in reversed(earlier):  # oldest first, as a batch of them would have run
        told = event_period(
            said.content,
            said.occurred_at,
            after=thread.after,
            date_order=date_order,
            answers=thread.answers,
            ended=thread.ended,
        )
        thread = thread.said(said.content, told)
    previous = earlier[0] if earlier else None
    limit = context_chars
    if limit == 0:
        return [""] * len(events), thread
    texts = [index_text(previous.name, previous.content) if previous else ""]
    texts += [index_text(e.name, e.content) for e in events[:-1]]
    return [text[-limit:] for text in texts], thread
