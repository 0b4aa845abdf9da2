"""A "when" question gets the turn its dated reply answers (recall/conversation/
told_before.py), through ``Memory`` on both backends: the event is shown or told in one
turn, asked about in the next and dated in the reply, and the turn that shows it shares
no word with the question."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from tests.e2e import told_world

USER = "ann"
T0 = datetime(2025, 5, 8, 13, 0, tzinfo=UTC)
SHOWN = "Oh, and here is my new piece for the hallway!"
ASKED = "Wow, is that yours?"
DATED = "Yes, I painted that seascape last year! I'm proud of how it came out."
# Ann's other turns on painting, days later, telling of no time
CHATTER = (
    "Painting calms me on {}.",
    "I keep my brushes by the window for {}.",
    "Bright colours are hard to get right on {}.",
    "Painting with the kids is messy on {}.",
)


async def tell(memory: Memory) -> None:
    await told_world.tell(
        memory,
        user=USER,
        speakers=("Ann", "Bo"),
        exchange=(SHOWN, ASKED, DATED),
        chatter=CHATTER,
        at=T0,
    )


async def test_a_when_question_gets_the_turn_its_dated_reply_answers(memory: Memory) -> None:
    await tell(memory)
    packet = await memory.read(
        "When did Ann paint the seascape?",
        user_id=USER,
        limit=2,
        reference_time=T0 + timedelta(days=30),
    )
    # what was painted is shown two turns back, past the question that only asks; on
    # its own it ranks below Ann's other turns on painting
    assert [i.text for i in packet.items] == [DATED, SHOWN]
    assert packet.items[1].signals["told_before"] == 1.0


async def test_no_turn_is_brought_in_for_a_question_that_asks_no_time(memory: Memory) -> None:
    await tell(memory)
    packet = await memory.read(
        "What did Ann paint, the seascape?",
        user_id=USER,
        limit=2,
        reference_time=T0 + timedelta(days=30),
    )
    assert SHOWN not in [i.text for i in packet.items]
