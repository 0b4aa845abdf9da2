"""With an LLM extractor, the write funnel sends a batch's items to the embedder before
it asks the LLM, so the model runs while the LLM answers; the facts still get the vectors
of their own texts, and a failing LLM does not leave the write waiting on the model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from cognimem import Memory, Settings
from cognimem.errors import ProviderUnavailable
from cognimem.providers.embeddings import EmbedKind, FloatMatrix
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm.base import ChatMessage

T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
# only a guard against hanging: the waits below end as soon as the other side moves
GUARD_S = 60.0
EVIDENCE = "Tom is my partner"


class SignallingEmbedder(HashingEmbedder):
    """The package's hashing embedder, noting each call's texts and announcing the first."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []
        self.asked = asyncio.Event()

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        self.calls.append(list(texts))
        self.asked.set()
        return await super().embed(texts, kind)


class ExtractingAfterEmbedding:
    """An LLM whose extraction waits until the embedder has been asked for vectors, then
    finds one fact (or fails, when told to)."""

    def __init__(self, embedder: SignallingEmbedder, fail: bool = False) -> None:
        self.embedder = embedder
        self.fail = fail

    @property
    def model_id(self) -> str:
        return "test:after-embedding"

    async def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        schema_name: str = "output",
    ) -> str:
        try:
            await asyncio.wait_for(self.embedder.asked.wait(), GUARD_S)
        except TimeoutError:
            raise AssertionError("the extractor ran before any text went to the embedder") from None
        if self.fail:
            raise ProviderUnavailable("down", provider="test", model="after-embedding")
        fact = {
            "category": "relationship",
            "predicate": "partner",
            "value": "Tom",
            "confidence": 0.9,
            "evidence": EVIDENCE,
        }
        return json.dumps({"messages": [{"index": 0, "extraction": {"facts": [fact]}}]})

    async def aclose(self) -> None:
        return None


async def test_items_are_embedded_while_the_batch_is_extracted(memory_url: str) -> None:
    embedder = SignallingEmbedder()
    llm = ExtractingAfterEmbedding(embedder)
    async with Memory.open(memory_url, settings=Settings(), embedder=embedder, llm=llm) as mem:
        result = await mem.write("Tom came by. Tom is my partner.", user_id="u1", occurred_at=T0)
        assert result.knowledge.extractor == "llm"
        assert result.degraded == []
        assert result.knowledge.facts_created
        fact = await mem.get_fact("user:relationship:partner", user_id="u1")
        rows = await mem.store.fact_rows("default", "default", "u1", 10)
    # the item first (it went before extraction), then the fact's own text
    assert embedder.calls[0] == ["Tom came by. Tom is my partner."]
    assert [EVIDENCE] in embedder.calls[1:]
    assert rows.matrix is not None
    stored = rows.matrix[rows.ids.index(fact.id)]
    expected = (await HashingEmbedder().embed([EVIDENCE]))[0]
    np.testing.assert_allclose(stored, expected, atol=1e-6)


async def test_a_failing_extractor_falls_back_with_the_embedding_running(
    memory_url: str,
) -> None:
    embedder = SignallingEmbedder()
    llm = ExtractingAfterEmbedding(embedder, fail=True)
    async with Memory.open(memory_url, settings=Settings(), embedder=embedder, llm=llm) as mem:
        result = await mem.write("My name is Alice.", user_id="u1", occurred_at=T0)
        assert result.knowledge.extractor == "rules"
        assert result.degraded
        assert (await mem.get_fact("user:identity:name", user_id="u1")).value == "Alice"
