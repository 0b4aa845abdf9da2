"""A dislike said as a reaction of the body ("My skin reacts badly to X", issue 29) and a
like said against its alternative ("I like X rather than Y") are stored as stances on
their whole object, on both backends, and so reach the constraint sections of a request
that bears on them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.models.knowledge import FactCategory

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
POLICY = FactCategory.POLICY


async def test_a_reaction_of_the_body_is_stored_as_a_stance_against(memory: Memory) -> None:
    await memory.write("My skin reacts badly to wool.", user_id="u", occurred_at=T0)
    await memory.write("We watched a great movie last night.", user_id="u", occurred_at=T0)
    stored = {(f.category, f.value, f.polarity) for f in await memory.facts(user_id="u")}
    assert (POLICY, "wool", False) in stored
    packet = await memory.read(
        "Which wool jumper should I buy for the winter?",
        user_id="u",
        reference_time=T0 + 7 * DAY,
    )
    shown = [e.text for e in (*packet.sections.must_follow, *packet.sections.consider)]
    assert any("wool" in text for text in shown), shown


async def test_a_like_against_its_alternative_is_a_choice(memory: Memory) -> None:
    await memory.write(
        "I like a window seat rather than an aisle one.", user_id="u", occurred_at=T0
    )
    stored = {(f.category, f.value, f.polarity) for f in await memory.facts(user_id="u")}
    assert (POLICY, "window seat", True) in stored
