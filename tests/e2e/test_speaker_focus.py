"""Speaker focus through ``Memory.read`` on both backends: a question about a person
ranks what that person said above the other speaker's replies that name them, and a
question about two people brings both people's messages to the top."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.models import Message

T0 = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)


async def _conversation(memory: Memory, turns: list[tuple[str, str]]) -> None:
    messages = [
        Message(content=text, name=speaker, occurred_at=T0 + timedelta(minutes=i))
        for i, (speaker, text) in enumerate(turns)
    ]
    await memory.write_batch(messages, user_id="conv")


async def test_the_named_speakers_own_message_outranks_a_reply_naming_them(
    memory: Memory,
) -> None:
    small_talk = [
        "I went to a support group yesterday.",
        "My new job starts on Monday.",
        "The weather was sunny today.",
        "We cooked pasta for dinner.",
        "The bus was late again.",
        "I read a novel about sailors.",
    ]
    await _conversation(
        memory,
        [
            *((("Caroline", "Melanie")[i % 2], text) for i, text in enumerate(small_talk)),
            ("Melanie", "I painted a horse, Caroline!"),
            # the reply names her and repeats her words: without the focus it ranks first
            ("Caroline", "Melanie, you painted a horse!"),
            ("Melanie", "The kids loved the beach."),
        ],
    )
    packet = await memory.read(
        "What has Melanie painted?", user_id="conv", reference_time=T0 + timedelta(days=1)
    )
    first, second = packet.items[:2]
    assert (first.author, second.author) == ("Melanie", "Caroline")
    assert "horse" in first.text
    assert "horse" in second.text
    assert first.signals["speaker"] == 1.0
    assert "speaker" not in second.signals


async def test_a_question_about_two_people_ranks_each_ones_messages_in_turn(
    memory: Memory,
) -> None:
    small_talk = [
        "I went to a support group yesterday.",
        "My new job starts on Monday.",
        "The weather was sunny today.",
        "We cooked pasta for dinner.",
        "The bus was late again.",
        "I read a novel about sailors.",
    ]
    await _conversation(
        memory,
        [
            *((("Gina", "Jon")[i % 2], text) for i, text in enumerate(small_talk)),
            ("Gina", "Jon, on weekends Gina and Jon go dancing!"),
            ("Gina", "On weekends Jon and I dance."),
            ("Jon", "On weekends I go hiking."),
        ],
    )
    packet = await memory.read(
        "What do Jon and Gina both do on weekends?",
        user_id="conv",
        reference_time=T0 + timedelta(days=1),
    )
    # Gina's two messages match the words best; Jon's own, named first, leads
    first, second = packet.items[:2]
    assert (first.author, second.author) == ("Jon", "Gina")
    assert "hiking" in first.text
