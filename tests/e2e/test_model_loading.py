"""A local embedding model loads when the Memory opens, so a read's first vector step
does not load it under its timeout; a remote embedder is not called until a read or
write needs it (its calls stay inside the step timeouts, where a failure is reported)."""

from __future__ import annotations

import logging

import pytest

from cognimem import Memory
from cognimem.providers.embeddings import CachedEmbedder, load_local_model
from cognimem.providers.fakes import FakeEmbeddingServer, HashingEmbedder
from cognimem.providers.onnx import OnnxEmbedder, OnnxMiniLMEmbedder
from cognimem.providers.onnx_models import MINILM_FLOAT
from cognimem.providers.openai import OpenAICompatibleEmbedder


@pytest.mark.onnx
async def test_opening_a_memory_loads_its_local_model(db_url: str) -> None:
    local = OnnxMiniLMEmbedder()
    memory = Memory.open(db_url, embedder=local)
    assert not local.loaded
    async with memory as mem:
        assert local.loaded  # before any read or write
        packet = await mem.read("where are my keys", user_id="u")
        assert packet.degraded == []
    assert not local.loaded  # closing the Memory releases it


@pytest.mark.onnx
async def test_the_default_embedder_is_loaded_behind_its_cache(db_url: str) -> None:
    async with Memory.open(db_url) as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        assert isinstance(cached.inner, OnnxMiniLMEmbedder)
        assert cached.inner.loaded


async def test_a_remote_embedder_is_not_called_when_the_memory_opens(db_url: str) -> None:
    with FakeEmbeddingServer(dim=32) as server:
        embedder = OpenAICompatibleEmbedder(base_url=server.base_url, model="fake", max_retries=0)
        async with Memory.open(db_url, embedder=embedder) as mem:
            # the model check's one probe of the vector length, and no warm-up call
            assert [r["json"]["input"] for r in server.requests] == [["dimension probe"]]
            await mem.write("the spare key is under the blue flowerpot", user_id="u")
            assert server.request_count == 2


async def test_only_in_process_models_load_ahead() -> None:
    assert await load_local_model(CachedEmbedder(HashingEmbedder())) is False
    assert await load_local_model(HashingEmbedder()) is False


@pytest.mark.onnx
async def test_a_database_built_with_the_former_default_still_finds_its_memories(
    memory_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # MiniLM's products used to run in float; such a database records that model. The
    # new default opens it, says how to keep the database's model, and its query
    # vectors still find what the old ones stored
    async with Memory.open(memory_url, embedder=OnnxEmbedder(MINILM_FLOAT)) as mem:
        await mem.write("the spare key is under the blue flowerpot", user_id="u")
        await mem.write("my sister Ana lives in Lisbon", user_id="u")
    with caplog.at_level(logging.WARNING, logger="cognimem.services.embedding_check"):
        async with Memory.open(memory_url, embedder=OnnxMiniLMEmbedder()) as mem:
            packet = await mem.read("where is the spare key hidden?", user_id="u")
    assert "set COGNIMEM_EMBEDDING__MODEL to onnx:minilm-float" in caplog.text
    assert packet.degraded == []
    assert "flowerpot" in packet.items[0].text
