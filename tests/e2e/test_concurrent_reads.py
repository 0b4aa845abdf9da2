"""Reads at once (a server's) get the packets they get one at a time: their query
embeddings may go to the embedder together, and each read still ranks with its own
vector. The embedder runs in a worker thread, as the local model does, so reads arrive
while another one's query is being embedded."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cognimem import Memory
from cognimem.providers import HashingEmbedder
from cognimem.providers.embeddings import EmbedKind, FloatMatrix
from tests.doubles import CountingEmbedder

FACTS = [
    "I keep bees on the roof of the garage",
    "My sister Bea lives in Porto",
    "I play the cello in a quartet on Thursdays",
    "Our cat Miso only eats tuna",
    "I work as a nurse at the children's hospital",
]
QUESTIONS = [
    "what do I keep on the roof?",
    "where does my sister live?",
    "which instrument do I play?",
    "what does the cat eat?",
    "what work do I do?",
]


class ThreadedEmbedder(CountingEmbedder):
    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        self.batches.append(list(texts))
        hashing = self.inner
        assert isinstance(hashing, HashingEmbedder)
        return await asyncio.to_thread(hashing.embed_sync, texts)


async def test_concurrent_reads_get_the_packets_of_reads_one_at_a_time(memory_url: str) -> None:
    embedder = ThreadedEmbedder(HashingEmbedder())
    async with Memory.open(memory_url, embedder=embedder) as memory:
        await memory.write_batch([{"content": f} for f in FACTS], user_id="ann")

        async def top(question: str) -> list[str]:
            packet = await memory.read(question, user_id="ann", limit=2)
            return [item.text for item in packet.items]

        alone = [await top(q) for q in QUESTIONS]
        embedded = len(embedder.embedded)
        for _ in range(3):  # new texts each time: the query cache cannot answer
            asked = [f"{q}{'?' * (2 + _)}" for q in QUESTIONS]
            assert await asyncio.gather(*(top(q) for q in asked)) == alone
            assert sorted(embedder.embedded[embedded:]) == sorted(asked)
            embedded = len(embedder.embedded)
    assert [found[0] for found in alone] == FACTS
