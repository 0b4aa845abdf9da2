"""The write path with the internal LLM configured, over real HTTP to FakeChatServer:
the LLM's extraction is used when valid; when it fails, the rule extractor runs and the
write says ``degraded`` — never silently."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cognimem import Memory, Settings
from cognimem.config import LLMSettings
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm import FakeChatServer

T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
LLM_TIMEOUT_S = 5.0


def answer(*extractions: dict[str, object]) -> str:
    return json.dumps(
        {"messages": [{"index": i, "extraction": x} for i, x in enumerate(extractions)]}
    )


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


@pytest.fixture
async def memory(tmp_path: Path, server: FakeChatServer) -> AsyncIterator[Memory]:
    # a limit an answering server meets on a busy machine; the slow case waits past it
    settings = Settings(
        llm=LLMSettings(
            model="fake-chat", base_url=server.base_url, timeout_s=LLM_TIMEOUT_S, max_retries=0
        )
    )
    async with Memory.open(
        f"sqlite:///{tmp_path / 'm.db'}", settings=settings, embedder=HashingEmbedder()
    ) as mem:
        yield mem


async def test_valid_llm_extraction_is_used(memory: Memory, server: FakeChatServer) -> None:
    server.reply(
        answer(
            {
                "entities": [{"name": "Tom", "type": "person"}],
                "facts": [
                    {
                        "category": "relationship",
                        "predicate": "partner",
                        "value": "Tom",
                        "object_entity": "Tom",
                        "object_type": "person",
                        "confidence": 0.9,
                        "evidence": "he is my partner",
                    }
                ],
            },
            {},
        )
    )
    result = await memory.write_batch(
        [
            {"content": "Tom came by. He is my partner.", "occurred_at": T0},
            {"content": "Nice weather today.", "occurred_at": T0},
        ],
        user_id="u1",
    )
    assert server.request_count == 1  # one call for the batch
    assert result.knowledge.extractor == "llm"
    assert result.knowledge.llm_ran
    assert result.degraded == []
    fact = await memory.get_fact("user:relationship:partner", user_id="u1")
    assert fact.value == "Tom"
    assert fact.object_entity_id is not None
    [(tom, aliases)] = [(e, a) for e, a in await memory.entities(user_id="u1") if e.name == "Tom"]
    assert tom.id == fact.object_entity_id
    assert [a.alias for a in aliases] == ["tom"]


async def test_schema_violation_is_retried_once_then_used(
    memory: Memory, server: FakeChatServer
) -> None:
    server.reply(answer({"facts": [{"category": "banana", "predicate": "x", "value": "y"}]}))
    server.reply(
        answer({"facts": [{"category": "identity", "predicate": "name", "value": "Alice"}]})
    )
    result = await memory.write("Call me Alice", user_id="u1", occurred_at=T0)
    assert server.request_count == 2
    assert result.knowledge.extractor == "llm"
    assert (await memory.get_fact("user:identity:name", user_id="u1")).value == "Alice"


@pytest.mark.parametrize("failure", ["http_500", "malformed_twice", "slow"])
async def test_llm_failure_runs_the_rules_and_says_degraded(
    memory: Memory, server: FakeChatServer, failure: str
) -> None:
    if failure == "http_500":
        server.fail_next(500)
    elif failure == "malformed_twice":
        server.reply("{not json", times=2)
    else:
        server.delay_next(4 * LLM_TIMEOUT_S)
    result = await memory.write("My name is Alice.", user_id="u1", occurred_at=T0)
    assert result.knowledge.extractor == "rules"
    assert result.knowledge.llm_ran
    [problem] = result.degraded
    assert problem.startswith("llm extraction failed")
    # the rule path did the work: nothing was lost
    assert (await memory.get_fact("user:identity:name", user_id="u1")).value == "Alice"
    assert len(result.item_ids) == 1


async def test_rate_limited_then_answered(memory: Memory, server: FakeChatServer) -> None:
    memory_llm = memory.llm
    assert memory_llm is not None
    server.fail_next(429, retry_after=0)
    server.reply(answer({}))
    # max_retries=0 in this fixture: a 429 is a failure the write reports
    result = await memory.write("hello there", user_id="u1", occurred_at=T0)
    assert result.knowledge.extractor == "rules"
    assert result.degraded


async def test_async_worker_records_a_degraded_extraction_on_the_job(
    tmp_path: Path, server: FakeChatServer
) -> None:
    settings = Settings(
        llm=LLMSettings(model="fake-chat", base_url=server.base_url, max_retries=0),
        ingest={"mode": "async"},
    )
    async with Memory.open(
        f"sqlite:///{tmp_path / 'a.db'}", settings=settings, embedder=HashingEmbedder()
    ) as mem:
        result = await mem.write("My name is Alice.", user_id="u1", occurred_at=T0)
        server.fail_next(500)
        job = await mem.process_next_job("w1")
        assert job is not None
        assert job.id == result.job_id
        assert job.state.value == "done"
        assert job.error is not None
        assert job.error.startswith("llm extraction failed")
        assert (await mem.get_fact("user:identity:name", user_id="u1")).value == "Alice"
