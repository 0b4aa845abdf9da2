"""A stance said in an idiom reaches the packet as a constraint, on both backends, while
someone else's stance does not (issue 29, item 1). The embedder is the hashing fake:
scope tags and shared words route the constraint."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


async def test_an_idiomatic_refusal_reaches_a_planning_request(memory: Memory) -> None:
    await memory.write("Count me out of any cruise holiday.", user_id="u", occurred_at=T0)
    await memory.write("We watched a great movie last night.", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "Can you plan a holiday for next summer?", user_id="u", reference_time=T0 + DAY
    )
    shown = packet.sections.must_follow + packet.sections.consider
    assert any("cruise holiday" in c.text for c in shown)


async def test_someone_elses_stance_is_no_constraint_of_the_users(memory: Memory) -> None:
    await memory.write("My friend Dan only flies business class.", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "Can you book me a flight to Rome?", user_id="u", reference_time=T0 + DAY
    )
    shown = packet.sections.must_follow + packet.sections.consider
    assert not any("business class" in c.text for c in shown)
