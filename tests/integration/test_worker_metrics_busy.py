"""A worker's metrics port answers a scrape while a job holds the worker's event loop.

The job's LLM extraction is a ScriptedLLM whose responder blocks its caller — the
worker's loop thread, as a CPU-bound step of a job holds it — until the test releases
it. While it is held, a scrape over real HTTP is answered: the queue depth counts the
running job and no write step of it is there yet; once the job is done, its five steps
are. The worker (``Memory.process_next_job`` and ``MetricsServer``, what ``cognimem
worker --metrics-port`` runs) is in this process, on its own thread's loop; on SQLite
(its own queue) and PostgreSQL (a real Redis queue). No sleeps: events and deadlines."""

from __future__ import annotations

import asyncio
import queue
import threading
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cognimem import Memory, Settings
from cognimem.metrics_http import MetricsServer
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm import ChatMessage, ScriptedLLM
from cognimem.queue import Job
from cognimem.queue.redis import RedisJobQueue
from cognimem.services.components import open_parts
from tests import servers
from tests.e2e.http_server import PATIENT

T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
TOKEN = "busy-worker-metrics-token"
DEADLINE_S = 180.0  # generous: a busy 2-core machine; nothing here asserts speed
WRITE_STEPS = {"gate", "extraction", "embedding", "reconciliation", "store"}
EMPTY_EXTRACTION = '{"messages": [{"index": 0, "extraction": {}}]}'


class HeldLLM(ScriptedLLM):
    """Each extraction blocks the thread that asks (``started`` set) until ``release``."""

    def __init__(self) -> None:
        super().__init__(responder=self._hold)
        self.started = threading.Event()
        self.release = threading.Event()

    def _hold(self, messages: list[ChatMessage]) -> str:
        self.started.set()
        if not self.release.wait(DEADLINE_S):
            raise RuntimeError("the test never released the extraction")
        return EMPTY_EXTRACTION


def async_memory(url: str, llm: HeldLLM, redis_url: str | None) -> Memory:
    """A Memory in async mode: SQLite's own queue, or a Redis queue of its own keys."""
    settings = Settings.model_validate(
        {"ingest": {"mode": "async"}, "auth": {"metrics_token": TOKEN}}
    )
    if redis_url is None:
        return Memory.open(url, settings=settings, embedder=HashingEmbedder(), llm=llm)
    name = f"t{uuid.uuid4().hex[:10]}"
    jobs = RedisJobQueue(
        redis_url, stream=f"{name}:jobs", dead_letter_stream=f"{name}:dead", key_prefix=f"{name}:"
    )
    store, embedder, _, _ = open_parts(url, Settings(), embedder=HashingEmbedder(), llm=llm)
    return Memory(store, embedder, settings, queue=jobs, llm=llm)


def scrape(url: str) -> tuple[float, dict[tuple[str, str], float]]:
    """The queue depth and the write-step counts by ``(path, step)``."""
    response = httpx.get(url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=PATIENT)
    assert response.status_code == 200, response.text
    samples = [s for f in text_string_to_metric_families(response.text) for s in f.samples]
    (depth,) = [s.value for s in samples if s.name == "cognimem_queue_depth"]
    steps = {
        (s.labels["path"], s.labels["step"]): s.value
        for s in samples
        if s.name == "cognimem_write_step_duration_seconds_count"
    }
    return depth, steps


def first(box: queue.Queue[MetricsServer], running: Future[Job | None]) -> MetricsServer:
    """The worker's metrics server, or the worker's error if it failed before serving."""
    while True:
        try:
            return box.get(timeout=0.05)
        except queue.Empty:
            if running.done():
                running.result()  # raises the worker's error
                raise AssertionError("the worker ended without serving metrics") from None


def test_a_scrape_is_answered_while_a_job_holds_the_workers_loop(
    memory_url: str, request: pytest.FixtureRequest
) -> None:
    redis_url = None
    if not memory_url.startswith("sqlite:///"):
        redis: servers.RedisServer = request.getfixturevalue("redis_server")
        redis_url = redis.url
    llm = HeldLLM()
    memory = async_memory(memory_url, llm, redis_url)
    served: queue.Queue[MetricsServer] = queue.Queue()
    job_done, scraped = threading.Event(), threading.Event()

    async def work() -> Job | None:
        async with memory as mem:
            await mem.write("I moved to Lisbon in May.", user_id="u1", occurred_at=T0)
            server = MetricsServer(mem, mem.settings.auth)
            served.put(server)
            try:
                job = await mem.process_next_job("w1")
                job_done.set()
                await asyncio.to_thread(scraped.wait, DEADLINE_S)
                return job
            finally:
                server.close()

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(asyncio.run, work())
        try:
            url = first(served, running).url
            assert llm.started.wait(DEADLINE_S), "the job's extraction never started"
            during = scrape(url)  # the worker's loop is held by the job meanwhile
            llm.release.set()
            assert job_done.wait(DEADLINE_S), "the job never finished"
            after = scrape(url)
        finally:  # the worker goes on and ends, whatever failed here
            llm.release.set()
            scraped.set()
        job = running.result(DEADLINE_S)
    assert job is not None
    assert job.error is None
    assert during == (1.0, {})  # the job, running; none of its steps observed yet
    assert after == (0.0, {("ingest_job", step): 1.0 for step in WRITE_STEPS})
