"""Async ingestion: raw events committed at once, a job derives the memories."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from cognimem import Memory, Message, Settings, StoreUnavailable, WriteOutcome
from cognimem.api import create_app
from cognimem.models import Scope
from cognimem.providers.fakes import HashingEmbedder
from cognimem.queue import JobState, SqliteJobQueue
from cognimem.store import ItemFilter
from cognimem.store.sqlite import SQLiteStore
from tests import servers
from tests.doubles import new_api_key

ASYNC = Settings.model_validate({"ingest": {"mode": "async"}})
MAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


@pytest.fixture
async def async_memory(db_url: str) -> AsyncIterator[Memory]:
    async with Memory.open(db_url, settings=ASYNC, embedder=HashingEmbedder()) as mem:
        yield mem


async def test_write_is_queued_then_a_worker_makes_it_readable(async_memory: Memory) -> None:
    mem = async_memory
    result = await mem.write_batch(
        [
            Message(content="Where did you go for the holidays?", name="Ben", occurred_at=MAY),
            Message(
                content="Portugal, the beaches were lovely.",
                name="Ada",
                occurred_at=MAY + timedelta(seconds=1),
                external_id="D1:2",
            ),
        ],
        user_id="u",
    )
    assert result.mode == "async"
    assert result.job_id is not None
    assert [m.outcome for m in result.messages] == [WriteOutcome.QUEUED] * 2
    assert (await mem.get_job(result.job_id)).state is JobState.QUEUED
    assert (await mem.read("Portugal beaches", user_id="u")).items == []

    job = await mem.process_next_job("w1")
    assert job is not None
    assert job.state is JobState.DONE
    assert await mem.process_next_job("w1") is None
    packet = await mem.read("Portugal beaches", user_id="u", limit=1)
    [item] = packet.items
    assert item.text == "Portugal, the beaches were lovely."
    assert item.external_ids == ["D1:2"]
    assert item.source_event_ids == [result.messages[1].event_id]
    # the answer is indexed with its question, as in synchronous mode
    lexical = await mem.read("holidays", user_id="u", preset="lexical")
    assert len(lexical.items) == 2


async def test_a_retry_in_async_mode_returns_the_original_event(async_memory: Memory) -> None:
    first = await async_memory.write("call the plumber", user_id="u", idempotency_key="k")
    again = await async_memory.write("call the plumber", user_id="u", idempotency_key="k")
    assert again.messages[0].outcome is WriteOutcome.DUPLICATE
    assert again.event_ids == first.event_ids
    # not processed yet: the answer carries the job that will process it
    assert first.job_id is not None
    assert again.job_id == first.job_id
    assert await async_memory.process_next_job("w") is not None
    # processed: a retry has no job to wait for, and its items are the original's
    done = await async_memory.write("call the plumber", user_id="u", idempotency_key="k")
    assert done.job_id is None
    assert done.messages[0].outcome is WriteOutcome.DUPLICATE
    assert done.messages[0].item_ids


async def test_a_redelivered_job_is_applied_once(db_url: str) -> None:
    store = SQLiteStore(db_url.removeprefix("sqlite:///"))
    # the queue's clock, not the wall's: a busy machine cannot outlast the lease early
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    queue = SqliteJobQueue(store.path, visibility_timeout_s=30, clock=lambda: now[0])
    async with Memory(store, HashingEmbedder(), ASYNC, queue=queue) as mem:
        result = await mem.write("the spare key is in the blue pot", user_id="u")
        assert result.job_id is not None
        # a worker claims the job and dies before acknowledging it
        assert await queue.claim("dying-worker") is not None
        now[0] += timedelta(seconds=29)
        assert await mem.process_next_job("w2") is None  # still leased
        now[0] += timedelta(seconds=2)
        job = await mem.process_next_job("w2")
        assert job is not None
        assert job.state is JobState.DONE
        assert job.attempts == 2
        count = await store.count_items(ItemFilter(scope=Scope(user_id="u")))
        assert count == 1


async def test_two_workers_share_the_queue(db_url: str) -> None:
    async with (
        Memory.open(db_url, settings=ASYNC, embedder=HashingEmbedder()) as api,
        Memory.open(db_url, settings=ASYNC, embedder=HashingEmbedder()) as w1,
        Memory.open(db_url, settings=ASYNC, embedder=HashingEmbedder()) as w2,
    ):
        jobs = [
            (await api.write(f"note {i} about topic {i}", user_id=f"user{i % 3}")).job_id
            for i in range(12)
        ]
        stop = asyncio.Event()

        async def stop_when_done() -> None:
            while True:
                states = {(await api.get_job(j)).state for j in jobs if j}
                if states == {JobState.DONE}:
                    stop.set()
                    return
                await asyncio.sleep(0.05)

        handled = await asyncio.gather(
            w1.run_worker("w1", stop=stop, poll_s=0.05),
            w2.run_worker("w2", stop=stop, poll_s=0.05),
            stop_when_done(),
        )
        assert handled[0] + handled[1] == 12
        for i in range(12):
            packet = await api.read(f"note {i} topic", user_id=f"user{i % 3}", limit=1)
            assert packet.items[0].text == f"note {i} about topic {i}"
        total = await api.store.count_items(ItemFilter(scope=Scope()))
        assert total == 12


def _redis_memory(db_url: str, url: str, on_unavailable: str) -> Memory:
    from cognimem.queue.redis import RedisJobQueue

    name = f"t{uuid.uuid4().hex[:10]}"
    queue = RedisJobQueue(
        url, stream=f"{name}:jobs", dead_letter_stream=f"{name}:dead", key_prefix=f"{name}:job:"
    )
    settings = Settings.model_validate(
        {"ingest": {"mode": "async", "on_queue_unavailable": on_unavailable}}
    )
    return Memory(
        SQLiteStore(db_url.removeprefix("sqlite:///")), HashingEmbedder(), settings, queue=queue
    )


async def test_redis_queue_down_fails_loudly_or_ingests_now(db_url: str, tmp_path: Path) -> None:
    servers.require("redis")
    server = servers.start_redis(tmp_path / "redis")
    try:
        async with _redis_memory(db_url, server.url, "fail") as strict:
            queued = await strict.write("first via redis", user_id="u")
            assert queued.job_id is not None
            assert (await strict.process_next_job("w")).state is JobState.DONE  # type: ignore[union-attr]
            server.stop()
            with pytest.raises(StoreUnavailable):
                await strict.write("while redis is down", user_id="u")
            # nothing of the refused write was stored
            last = await strict.store.previous_events(Scope(user_id="u"), MAY.replace(year=2100))
            assert [e.content for e in last] == ["first via redis"]
        async with _redis_memory(db_url, server.url, "sync") as lenient:
            result = await lenient.write("written while redis is down", user_id="u")
            assert result.mode == "sync"
            assert result.job_id is None
            assert result.degraded
            assert result.degraded[0].startswith("queue unavailable, ingested synchronously")
            assert result.messages[0].outcome is WriteOutcome.STORED
            packet = await lenient.read("written while redis is down", user_id="u", limit=1)
            assert packet.items[0].text == "written while redis is down"
        server.start()
        async with _redis_memory(db_url, server.url, "fail") as back:
            assert (await back.write("redis is back", user_id="u")).job_id is not None
    finally:
        server.destroy()


async def test_http_answers_202_with_the_job(async_memory: Memory) -> None:
    transport = httpx.ASGITransport(app=create_app(async_memory))
    headers = {"Authorization": f"Bearer {await new_api_key(async_memory.store)}"}
    async with httpx.AsyncClient(
        transport=transport, base_url="http://cognimem", headers=headers
    ) as client:
        response = await client.post(
            "/v1/memory/write",
            json={"content": "I bought a red bicycle", "scope": {"user_id": "u"}},
        )
        assert response.status_code == 202
        job_id = response.json()["job_id"]
        assert response.headers["location"] == f"/v1/jobs/{job_id}"
        assert (await client.get(f"/v1/jobs/{job_id}")).json()["state"] == "queued"
        body = {"content": "I bought a red bicycle", "scope": {"user_id": "u"}}
        # a retry before the job ran: 202 again, with the job that will process it
        retry = await client.post("/v1/memory/write", json=body)
        assert retry.status_code == 202
        assert retry.json()["job_id"] == job_id
        assert retry.json()["messages"][0]["outcome"] == "duplicate"
        await async_memory.process_next_job("w")
        assert (await client.get(f"/v1/jobs/{job_id}")).json()["state"] == "done"
        late = await client.post("/v1/memory/write", json=body)
        assert late.status_code == 200
        assert late.json()["job_id"] is None
        assert late.json()["messages"][0]["item_ids"]
        missing = await client.get("/v1/jobs/job_nope")
        assert missing.status_code == 404
        assert missing.json()["error"]["type"] == "NotFound"


def test_cognimem_worker_process(db_url: str) -> None:
    env = {
        **os.environ,
        "COGNIMEM_DATABASE_URL": db_url,
        "COGNIMEM_EMBEDDING__MODEL": "hashing",
        "COGNIMEM_INGEST__MODE": "async",
    }
    settings = Settings.model_validate({"ingest": {"mode": "async"}, "database_url": db_url})

    async def write() -> str:
        async with Memory.open(settings=settings, embedder=HashingEmbedder(256)) as mem:
            job_id = (await mem.write("my locker code changed", user_id="u")).job_id
            assert job_id is not None
            return job_id

    async def state(job_id: str) -> JobState:
        async with Memory.open(settings=settings, embedder=HashingEmbedder(256)) as mem:
            return (await mem.get_job(job_id)).state

    job_id = asyncio.run(write())
    worker = subprocess.Popen(
        [sys.executable, "-m", "cognimem", "worker", "--name", "w-proc"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while asyncio.run(state(job_id)) is not JobState.DONE:
            assert worker.poll() is None, worker.stdout.read() if worker.stdout else ""
            assert time.monotonic() < deadline, "the worker did not finish the job"
            time.sleep(0.1)
    finally:
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=30)
    assert worker.returncode == 0, output
    assert "stopped after 1 job(s)" in output


def test_async_mode_without_a_queue_is_a_usage_error(db_url: str) -> None:
    from cognimem import UsageError

    with pytest.raises(UsageError, match="queue"):
        Memory(SQLiteStore(db_url.removeprefix("sqlite:///")), HashingEmbedder(), ASYNC)


async def test_a_worker_extracts_and_reconciles_once(async_memory: Memory) -> None:
    mem = async_memory
    result = await mem.write_batch(
        [
            Message(content="I'm vegetarian.", occurred_at=MAY),
            Message(content="I'm deathly allergic to peanuts.", occurred_at=MAY),
        ],
        user_id="u",
    )
    assert result.knowledge.facts_created == []  # nothing is read before the worker runs
    assert await mem.facts(user_id="u") == []
    job = await mem.process_next_job("w1")
    assert job is not None
    assert job.state is JobState.DONE
    facts = {f.key: f for f in await mem.facts(user_id="u")}
    assert set(facts) == {"user:value:diet", "user:policy:allergy:peanuts"}
    # the same job applied again (a redelivery) changes nothing
    assert result.job_id is not None
    processed = await mem._writing.ingest_job("default", {"event_ids": result.event_ids})
    assert processed.items == {}
    again = {f.key: f for f in await mem.facts(user_id="u")}
    assert again["user:value:diet"].reinforcement_count == 1
    assert again["user:value:diet"].revision == facts["user:value:diet"].revision
    # a later write through a worker supersedes, as the synchronous path does
    await mem.write("Actually I eat fish now.", user_id="u", occurred_at=MAY + timedelta(days=7))
    await mem.process_next_job("w1")
    [diet] = await mem.facts(key="user:value:diet", user_id="u")
    assert "fish" in diet.value


async def test_a_job_marks_a_message_that_yields_no_item_processed(async_memory: Memory) -> None:
    mem = async_memory
    result = await mem.write_batch(["my password is Hunter2!", "I like green tea"], user_id="u")
    assert result.job_id is not None
    job = await mem.process_next_job("w")
    assert job is not None
    assert job.state is JobState.DONE
    # the secret message has no item, yet its job is done with it: a worker's sweep must
    # not find it stranded, nor a retry be told to wait for a job
    assert await mem.store.unprocessed("default", result.event_ids) == []
    again = await mem.write("my password is Hunter2!", user_id="u")
    assert again.messages[0].outcome is WriteOutcome.DUPLICATE
    assert again.job_id is None
