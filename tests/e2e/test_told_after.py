"""A "when" question gets the dated turn after the one that names its thing
(recall/conversation/told_after.py), through ``Memory`` on both backends: the thing is
named in one turn, asked about by the other speaker and dated by a pronoun in the
teller's next turn, which shares no word with the question."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from tests.e2e import told_world

USER = "oskar"
T0 = datetime(2024, 6, 1, 19, 0, tzinfo=UTC)
NAMED = "I bought a second oven, a huge Italian deck model for the bakery."
ASKED = "For the bakery? You must be doing well!"
DATED = "It arrived on the twentieth of May and took six men to carry in."
# Oskar's other turns on the bakery, days later, telling of no time
CHATTER = (
    "The bakery smells of bread on {}.",
    "The oven at the bakery is busiest on {}.",
    "Baking sourdough in the oven is calm on {}.",
    "The bakery queue is long on {}.",
)


async def tell(memory: Memory) -> None:
    await told_world.tell(
        memory,
        user=USER,
        speakers=("Oskar", "Leila"),
        exchange=(NAMED, ASKED, DATED),
        chatter=CHATTER,
        at=T0,
    )


async def test_a_when_question_gets_the_dated_turn_after_the_one_naming_it(
    memory: Memory,
) -> None:
    await tell(memory)
    packet = await memory.read(
        "When was Oskar's new oven for the bakery delivered?",
        user_id=USER,
        limit=8,
        reference_time=T0 + timedelta(days=30),
    )
    texts = [i.text for i in packet.items]
    assert NAMED in texts
    # the dated turn comes just below the one that names the oven
    assert texts.index(DATED) == texts.index(NAMED) + 1
    assert packet.items[texts.index(DATED)].signals["told_after"] > 0


async def test_no_turn_is_brought_after_for_a_question_that_asks_no_time(
    memory: Memory,
) -> None:
    await tell(memory)
    packet = await memory.read(
        "What kind of oven did Oskar buy for the bakery?",
        user_id=USER,
        limit=5,
        reference_time=T0 + timedelta(days=30),
    )
    assert all("told_after" not in i.signals for i in packet.items)
