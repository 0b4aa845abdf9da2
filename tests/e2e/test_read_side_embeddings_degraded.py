"""A read that went on without an embedding beside the query's says so in ``degraded``:
a part of a request for several things (``recall/parts.py``) and the decision areas'
descriptions (``text/areas.py``), which the profile embeds. Through ``Memory`` on both
backends, against a real HTTP embedding server that fails on cue."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Settings
from cognimem.config import RecallSettings
from cognimem.metrics import degraded_reason
from cognimem.providers.embeddings import erase_embeddings, text_hash
from cognimem.providers.fakes import FakeEmbeddingServer
from cognimem.providers.openai import OpenAICompatibleEmbedder
from cognimem.text.areas import AREA_PHRASES

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
RULES = ["I'm allergic to peanuts.", "I'm vegetarian.", "I never fly on Sundays."]
REQUEST = "Can you book me a dinner and a flight?"


async def test_a_read_without_its_parts_or_areas_embeddings_says_degraded(
    memory_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeEmbeddingServer(dim=32) as server:
        embedder = OpenAICompatibleEmbedder(base_url=server.base_url, model="fake", max_retries=0)
        # steps that cannot time out on a busy machine: only the failures are degraded
        settings = Settings(recall=RecallSettings(step_timeout_s=60, budget_s=120))
        async with Memory.open(memory_url, settings=settings, embedder=embedder) as mem:
            for i, text in enumerate(RULES):
                await mem.write(text, user_id="u", occurred_at=T0 + i * timedelta(days=1))
            # the write embedded the areas' descriptions (tagging its constraints): kept
            # by the embedding cache, which the read would use without asking the server
            await erase_embeddings(mem.store, mem.embedder, [text_hash(t) for t in AREA_PHRASES])
            at = T0 + timedelta(days=9)
            before = server.request_count
            # each of the read's embeddings fails: the query's, the areas', two parts'
            server.fail_next(status=500, times=4)
            with caplog.at_level(logging.WARNING, logger="cognimem.recall.packing"):
                down = await mem.read(REQUEST, user_id="u", reference_time=at)
            assert server.request_count - before == 4
            healthy = await mem.read(REQUEST, user_id="u", reference_time=at)
    assert healthy.degraded == []
    reasons = [degraded_reason(d) for d in down.degraded]
    # the query's own embedding is said once (by the vector step); each embedding the
    # read went without beside it has its own entry
    assert reasons == ["vector", "area_descriptions", "query_part_embedding"]
    assert all("HTTP 500" in d for d in down.degraded[1:]), down.degraded
    logged = [r.getMessage() for r in caplog.records if "read degraded" in r.getMessage()]
    assert len(logged) == 2
    # the constraints still show, from their words and tags
    assert [e.text for e in down.sections.must_follow]
