"""Speaker focus through ``Memory.read`` on both backends: a question about a person
ranks what that person said above the other speaker's replies that name them, a
question about two people brings both people's messages to the top, and the vector
search embeds a question about one person without the name (``recall/conversation/topic.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Settings
from cognimem.models import Message
from cognimem.providers.embeddings import EmbedKind, FloatMatrix
from cognimem.providers.fakes import HashingEmbedder

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
            *((("Claire", "Priya")[i % 2], text) for i, text in enumerate(small_talk)),
            ("Priya", "I painted a horse, Claire!"),
            # the reply names her and repeats her words: without the focus it ranks first
            ("Claire", "Priya, you painted a horse!"),
            ("Priya", "The kids loved the beach."),
        ],
    )
    packet = await memory.read(
        "What has Priya painted?", user_id="conv", reference_time=T0 + timedelta(days=1)
    )
    first, second = packet.items[:2]
    assert (first.author, second.author) == ("Priya", "Claire")
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
            *((("Rosa", "Omar")[i % 2], text) for i, text in enumerate(small_talk)),
            ("Rosa", "Omar, on weekends Rosa and Omar go dancing!"),
            ("Rosa", "On weekends Omar and I dance."),
            ("Omar", "On weekends I go hiking."),
        ],
    )
    packet = await memory.read(
        "What do Omar and Rosa both enjoy on weekends?",
        user_id="conv",
        reference_time=T0 + timedelta(days=1),
    )
    # Rosa's two messages match the words best; Omar's own, named first, leads
    first, second = packet.items[:2]
    assert (first.author, second.author) == ("Omar", "Rosa")
    assert "hiking" in first.text


class _RecordingEmbedder(HashingEmbedder):
    """The hashing embedder, keeping the texts it embedded as queries."""

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if kind == "query":
            self.queries.extend(texts)
        return await super().embed(texts, kind)


async def test_a_question_about_a_person_is_embedded_without_the_name(memory_url: str) -> None:
    embedder = _RecordingEmbedder()
    async with Memory.open(memory_url, settings=Settings(), embedder=embedder) as memory:
        await _conversation(
            memory,
            [
                ("Claire", "I went to a support group yesterday."),
                ("Priya", "My new job starts on Monday."),
                ("Priya", "On weekends I go swimming with the kids."),
                # shares nothing with the question but her name
                ("Claire", "Priya, you are so busy, Priya!"),
            ],
        )
        later = T0 + timedelta(days=1)
        packet = await memory.read(
            "What does Priya do on weekends with the kids?", user_id="conv", reference_time=later
        )
        assert embedder.queries == ["What does do on weekends with the kids?"]
        assert packet.meta["dense_query"] == "What does do on weekends with the kids?"
        own, *rest = packet.items
        assert (own.author, own.text) == ("Priya", "On weekends I go swimming with the kids.")
        assert own.signals["vector"] > 0.5
        # the reply that only names her is no vector match: the name is not embedded
        reply = next(i for i in rest if i.text.startswith("Priya, you are"))
        assert reply.signals.get("vector", 0.0) == pytest.approx(0.0, abs=1e-6)

        # a "when" question, two people, or a plain baseline embed the question whole
        for query, preset in (
            ("When did Priya go swimming?", "balanced"),
            ("What do Priya and Claire do on weekends?", "balanced"),
            ("What does Priya do on weekends?", "vector"),
        ):
            embedder.queries.clear()
            whole = await memory.read(query, user_id="conv", reference_time=later, preset=preset)
            assert embedder.queries == [query]
            assert "dense_query" not in whole.meta


async def test_the_left_out_persons_own_messages_stay_in_the_packet(memory: Memory) -> None:
    await _conversation(
        memory,
        [
            ("Priya", "We took the kids to the beach."),
            ("Claire", "Sounds like fun!"),
            ("Priya", "I finished a painting of a horse."),
        ],
    )
    packet = await memory.read(
        "What has Priya been up to lately?",
        user_id="conv",
        reference_time=T0 + timedelta(days=1),
    )
    assert packet.meta["dense_query"] == "What has been up to lately?"
    # no word in common and, with the hashing embedder, no closeness to the name-less
    # query: the evidence is that Priya said them, as the name's cosine said before
    assert {i.text for i in packet.items if i.author == "Priya"} == {
        "We took the kids to the beach.",
        "I finished a painting of a horse.",
    }
