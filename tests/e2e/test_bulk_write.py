"""A batch write stores what the same messages written one by one store: the same items
(texts, times, kinds, merges) and the same facts, entities and relations; and a batch
with one bad message is refused whole, with a typed error naming the message, and
stores nothing (the batch is one transaction)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cognimem import Memory, Message
from cognimem.errors import InvalidInput

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
SAID = [
    ("user", "Sam", "I live in Lisbon with my partner Tom."),
    ("assistant", "Bot", "Lisbon is lovely. What do you do there?"),
    ("user", "Sam", "I work as a nurse at the city hospital."),
    ("user", "Sam", "I am allergic to peanuts, so please never suggest satay."),
    ("user", "Sam", "Last weekend we adopted a puppy called Biscuit."),
    ("user", "Sam", "I work as a nurse at the city hospital."),  # repeated: merged
    ("user", "Sam", "Two days later Tom started a new job at a bakery."),
    ("user", "Sam", "My sister Ana moved to Porto in 2022."),
    ("user", "Sam", "I don't live in Lisbon anymore, I moved to Madrid last month."),
    ("user", "Sam", "I prefer tea to coffee and I want to run a marathon next year."),
    ("user", "Sam", "She visits us every summer."),
]


def conversation() -> list[Message]:
    return [
        Message(
            role=role,
            name=name,
            content=text,
            occurred_at=T0 + timedelta(hours=i),
            external_id=f"m{i}",
        )
        for i, (role, name, text) in enumerate(SAID)
    ]


async def stored(mem: Memory, user: str) -> dict[str, Any]:
    """What a user holds, without ids or the times of recording."""
    items = await mem.list_items(user_id=user, limit=1_000)
    by_id = {i.id: i.text for i in items}
    facts = await mem.facts(user_id=user, include_history=True, limit=1_000)
    entities = await mem.entities(user_id=user)
    names = {e.id: e.name for e, _ in entities}
    relations = await mem.relations(list(names), user_id=user)
    return {
        "items": sorted(
            (
                i.text,
                i.kind.value,
                i.status.value,
                i.occurred_at,
                i.event_start,
                i.event_end,
                len(i.source_event_ids),
                tuple(i.external_ids),
                round(i.importance, 6),
            )
            for i in items
        ),
        "facts": sorted(
            (
                f.key,
                f.subject,
                f.predicate,
                f.value,
                f.polarity,
                f.category.value,
                f.status.value,
                f.valid_from,
                f.valid_to,
                round(f.confidence, 6),
                f.reinforcement_count,
                tuple(sorted(by_id.get(i, "?") for i in f.evidence_item_ids)),
            )
            for f in facts
        ),
        "entities": sorted(
            (e.name, e.type.value, tuple(sorted(a.alias for a in al))) for e, al in entities
        ),
        "relations": sorted(
            (names.get(r.source_entity_id, "?"), r.relation, names.get(r.target_entity_id, "?"))
            for r in relations
        ),
    }


async def test_a_batch_stores_what_single_writes_store(memory: Memory) -> None:
    await memory.write_batch(conversation(), user_id="batched")
    for message in conversation():
        await memory.write_batch([message], user_id="single")
    batched, single = await stored(memory, "batched"), await stored(memory, "single")
    assert batched["facts"], "the conversation states facts"
    assert batched["items"], "the conversation stores items"
    assert batched == single


async def test_a_bad_message_refuses_the_whole_batch(memory: Memory) -> None:
    messages: list[Any] = [m.model_dump() for m in conversation()]
    messages[4]["content"] = "   "
    with pytest.raises(InvalidInput) as refused:
        await memory.write_batch(messages, user_id="sam")
    assert "messages[4]" in str(refused.value)
    assert await memory.list_items(user_id="sam") == []
    assert await memory.facts(user_id="sam", include_history=True) == []
    # the good messages, sent again without the bad one, are all stored
    result = await memory.write_batch(messages[:4] + messages[5:], user_id="sam")
    assert len(result.messages) == len(SAID) - 1
    assert {m.outcome.value for m in result.messages} == {"stored"}
