"""A stance said in a turn of phrase ("X and I don't get along", "I'd take X over Y any
day", issue 29) and a constraint said as the premise of a question ("I'm allergic to
sesame, is hummus safe?", issues 29 and 32) are stored on both backends with their whole
object, and the refusal reaches the constraint sections of a request that bears on it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.models.knowledge import FactCategory

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
POLICY = FactCategory.POLICY


async def test_a_turn_of_phrase_is_stored_as_a_stance(memory: Memory) -> None:
    await memory.write("Olives and I have never got along.", user_id="u", occurred_at=T0)
    await memory.write(
        "I'd take a quiet campsite over a busy hotel any day.", user_id="u", occurred_at=T0
    )
    await memory.write("We watched a great movie last night.", user_id="u", occurred_at=T0)
    stored = {(f.category, f.value, f.polarity) for f in await memory.facts(user_id="u")}
    assert (POLICY, "Olives", False) in stored
    assert (POLICY, "quiet campsite", True) in stored
    packet = await memory.read(
        "Can you suggest a tapenade recipe with olives for Friday?",
        user_id="u",
        reference_time=T0 + 7 * DAY,
    )
    shown = [e.text for e in (*packet.sections.must_follow, *packet.sections.consider)]
    assert any("Olives" in text for text in shown), shown


async def test_a_premise_before_a_question_is_stored(memory: Memory) -> None:
    await memory.write("I'm allergic to sesame, is hummus safe?", user_id="u", occurred_at=T0)
    stored = {(f.predicate, f.value) for f in await memory.facts(user_id="u")}
    assert ("allergy", "sesame") in stored
