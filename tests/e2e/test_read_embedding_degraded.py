"""A read whose query embedding failed says so in ``degraded`` even when no vector step
ran to report it: the ``fast`` preset skips its vector step once the lexical one found
items, and its constraint step then scores without the embedding. Through ``Memory`` on
both backends, against a real HTTP embedding server that fails on cue."""

from __future__ import annotations

from cognimem import Memory, Settings
from cognimem.metrics import degraded_reason
from cognimem.providers.fakes import FakeEmbeddingServer
from cognimem.providers.openai import OpenAICompatibleEmbedder

QUERY = "should I eat the peanut cake? where is the spare key"


async def test_a_failed_query_embedding_is_degraded_when_no_vector_step_says_it(
    memory_url: str,
) -> None:
    with FakeEmbeddingServer(dim=32) as server:
        embedder = OpenAICompatibleEmbedder(base_url=server.base_url, model="fake", max_retries=0)
        async with Memory.open(memory_url, settings=Settings(), embedder=embedder) as mem:
            await mem.write("I am allergic to peanuts", user_id="u")
            await mem.write("the spare key is under the blue flowerpot", user_id="u")
            server.fail_next(status=500, times=50)
            fast = await mem.read(QUERY, user_id="u", preset="fast")
            server.fail_next(status=500, times=50)
            balanced = await mem.read(QUERY, user_id="u", preset="balanced")
    assert [s.skipped is not None for s in fast.steps if s.name == "vector"] == [True]
    assert [degraded_reason(d) for d in fast.degraded] == ["query_embedding"]
    assert "HTTP 500" in fast.degraded[0]
    # the lexical step still answered
    assert "the spare key is under the blue flowerpot" in [i.text for i in fast.items]
    # a vector step that failed says it once: no second entry for the same failure
    assert [degraded_reason(d) for d in balanced.degraded] == ["vector"]
