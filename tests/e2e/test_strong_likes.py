"""A strong like ("I absolutely adore X", issue 29) is stored as a choice for its whole
object beside the preference, on both backends, and so reaches the constraint sections
of a recommendation request; a plain "like" stays a preference only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.models.knowledge import FactCategory

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


async def test_a_strong_like_is_stored_as_a_choice_beside_the_preference(memory: Memory) -> None:
    await memory.write("I absolutely adore Ethiopian food.", user_id="u", occurred_at=T0)
    await memory.write("We watched a great movie last night.", user_id="u", occurred_at=T0)
    stored = {(f.category, f.value, f.polarity) for f in await memory.facts(user_id="u")}
    assert (FactCategory.POLICY, "Ethiopian food", True) in stored
    assert (FactCategory.PREFERENCE, "Ethiopian", True) in stored
    packet = await memory.read(
        "Can you recommend a restaurant for dinner?", user_id="u", reference_time=T0 + 7 * DAY
    )
    shown = [e.text for e in (*packet.sections.must_follow, *packet.sections.consider)]
    assert any("Ethiopian" in text for text in shown), shown


async def test_a_plain_like_is_no_constraint(memory: Memory) -> None:
    await memory.write("I like Ethiopian food.", user_id="u", occurred_at=T0)
    facts = await memory.facts(user_id="u")
    assert [f.category for f in facts] == [FactCategory.PREFERENCE]
    assert not [f for f in facts if f.is_constraint]
