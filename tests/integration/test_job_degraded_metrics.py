"""An async ingest job that ran degraded (its LLM extraction failed, over real HTTP to
FakeChatServer) is counted in ``cognimem_degraded_total{path="ingest_job"}`` by the
process that ran it and recorded its completion, once; a healthy job is not. The job's
write steps are timed in ``cognimem_write_step_duration_seconds{path="ingest_job"}`` by
that process, once per job run. On SQLite (its own queue) and PostgreSQL (a real Redis
queue)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from cognimem import Memory, Settings
from cognimem.metrics import Metrics, degraded_reason
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm import FakeChatServer
from cognimem.queue.redis import RedisJobQueue
from cognimem.services.components import open_parts
from tests import servers

T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


def async_memory(url: str, server: FakeChatServer, redis_url: str | None) -> Memory:
    """A Memory in async mode: SQLite's own queue, or a Redis queue of its own keys."""
    llm = {"model": "fake-chat", "base_url": server.base_url, "max_retries": 0}
    settings = Settings.model_validate({"llm": llm, "ingest": {"mode": "async"}})
    if redis_url is None:
        return Memory.open(url, settings=settings, embedder=HashingEmbedder())
    name = f"t{uuid.uuid4().hex[:10]}"
    queue = RedisJobQueue(
        redis_url, stream=f"{name}:jobs", dead_letter_stream=f"{name}:dead", key_prefix=f"{name}:"
    )
    store, embedder, _, chat = open_parts(
        url, Settings.model_validate({"llm": llm}), embedder=HashingEmbedder(), llm=None
    )
    return Memory(store, embedder, settings, queue=queue, llm=chat)


def ingest_job_degraded(metrics: Metrics) -> dict[str, float]:
    return {
        labels["reason"]: v
        for name, labels, v in metrics.samples()
        if name == "cognimem_degraded_total" and labels["path"] == "ingest_job"
    }


def _queue_url(memory_url: str, request: pytest.FixtureRequest) -> str | None:
    """A real Redis queue beside PostgreSQL; SQLite's own outbox beside SQLite."""
    if memory_url.startswith("sqlite:///"):
        return None
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    return redis.url


async def test_a_degraded_ingest_job_is_counted_once(
    memory_url: str, server: FakeChatServer, request: pytest.FixtureRequest
) -> None:
    redis_url = _queue_url(memory_url, request)
    async with async_memory(memory_url, server, redis_url) as mem:
        metrics = Metrics(mem)
        await mem.write("My name is Alice.", user_id="u1", occurred_at=T0)
        server.fail_next(500)
        job = await mem.process_next_job("w1")
        assert job is not None
        assert job.error is not None
        assert job.error.startswith("llm extraction failed")
        once = {degraded_reason(job.error): 1}  # the label a synchronous write's gets
        assert ingest_job_degraded(metrics) == once
        # a healthy job (the LLM answers) adds nothing
        await mem.write("I live in Lisbon.", user_id="u1", occurred_at=T0)
        server.reply('{"messages": [{"index": 0, "extraction": {}}]}')
        job = await mem.process_next_job("w1")
        assert job is not None
        assert job.error is None
        assert ingest_job_degraded(metrics) == once
        # nor does an empty queue
        assert await mem.process_next_job("w1") is None
        assert ingest_job_degraded(metrics) == once


WRITE_STEPS = {"gate", "extraction", "embedding", "reconciliation", "store"}
STEP_COUNT = "cognimem_write_step_duration_seconds_count"


def job_step_counts(metrics: Metrics) -> dict[tuple[str, str], float]:
    return {
        (labels["path"], labels["step"]): v
        for name, labels, v in metrics.samples()
        if name == STEP_COUNT
    }


async def test_an_ingest_job_times_its_write_steps_where_it_runs(
    memory_url: str, server: FakeChatServer, request: pytest.FixtureRequest
) -> None:
    redis_url = _queue_url(memory_url, request)
    async with async_memory(memory_url, server, redis_url) as mem:
        metrics = Metrics(mem)
        wrote = await mem.write("I moved to Lisbon in May.", user_id="u1", occurred_at=T0)
        assert wrote.job_id is not None
        job = await mem.process_next_job("w1")
        assert job is not None
        assert job.error is None
        assert job_step_counts(metrics) == {("ingest_job", step): 1 for step in WRITE_STEPS}
        sums = {
            labels["step"]: v
            for name, labels, v in metrics.samples()
            if name == "cognimem_write_step_duration_seconds_sum"
        }
        assert all(seconds > 0 for seconds in sums.values()), sums
        # a job delivered again whose events were processed already ran no step
        assert mem.queue is not None
        await mem.queue.enqueue("ingest", job.tenant_id, job.payload, job_id=f"{job.id}-again")
        again = await mem.process_next_job("w1")
        assert again is not None
        assert again.error is None
        assert job_step_counts(metrics) == {("ingest_job", step): 1 for step in WRITE_STEPS}
