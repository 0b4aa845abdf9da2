"""A figure of speech said as what someone is writes no fact; the same grammar said
literally does (issue 32), through ``Memory`` on a real database (SQLite and
PostgreSQL), with no LLM configured."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory, Message

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


async def test_a_coworker_said_to_be_a_snake_writes_no_fact(memory: Memory) -> None:
    result = await memory.write(
        Message(content="My coworker is a total snake.", occurred_at=T0), user_id="u"
    )
    assert result.knowledge.facts_created == []
    assert await memory.facts(include_history=True, user_id="u") == []
    # the message itself is kept: it is only not read as a fact
    assert result.item_ids


async def test_a_sister_who_is_a_nurse_and_a_car_that_is_a_honda_are_facts(
    memory: Memory,
) -> None:
    await memory.write(Message(content="My sister is a nurse.", occurred_at=T0), user_id="u")
    await memory.write(
        Message(content="My car is a Honda.", occurred_at=T0 + timedelta(days=1)), user_id="u"
    )
    facts = {(f.category.value, f.value) for f in await memory.facts(user_id="u")}
    assert ("occupation", "nurse") in facts
    assert ("possession", "Honda") in facts


async def test_a_cousin_called_a_villain_writes_no_relationship(memory: Memory) -> None:
    result = await memory.write(
        Message(content="My cousin is a villain.", occurred_at=T0), user_id="u"
    )
    assert result.knowledge.facts_created == []
    assert await memory.facts(include_history=True, user_id="u") == []
    # said literally, the cousin is one
    await memory.write(
        Message(content="My cousin is a paratrooper.", occurred_at=T0 + timedelta(days=1)),
        user_id="u",
    )
    facts = {(f.category.value, f.predicate) for f in await memory.facts(user_id="u")}
    assert ("relationship", "cousin") in facts


async def test_living_in_ones_truck_writes_no_home_or_state(memory: Memory) -> None:
    result = await memory.write(
        Message(content="I live in my truck these days.", occurred_at=T0), user_id="u"
    )
    assert result.knowledge.facts_created == []
    assert await memory.facts(include_history=True, user_id="u") == []
    assert result.item_ids
