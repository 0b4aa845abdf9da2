"""A process killed between committing a write's raw events and queuing their job
(async ingestion) strands nothing: on the embedded default the job was committed with
the events; with PostgreSQL + Redis a retry of the write, or any worker's start, queues
it again. The kill is real: a subprocess calls ``os._exit`` right after the commit."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from cognimem import Memory, NotFound, Settings, WriteOutcome
from cognimem.models import Scope
from cognimem.providers.fakes import HashingEmbedder
from cognimem.queue import JobState, SqliteJobQueue
from cognimem.store import ItemFilter, open_store
from tests import servers

ROOT = Path(__file__).resolve().parents[2]
SAID = "the spare key is under the third flowerpot"
KILLED = 137

# the child: open the same Memory, let the store commit the events, then die at once
CHILD = """
import asyncio, os, sys
from tests.e2e.test_async_crash import SAID, KILLED, open_memory

async def main(database, queue, name):
    async with open_memory(database, queue, name) as mem:
        commit = mem.store.commit

        async def commit_then_die(*args, **kwargs):
            results = await commit(*args, **kwargs)
            print(results[0].event_id, flush=True)
            os._exit(KILLED)  # between committing the events and queuing their job

        mem.store.commit = commit_then_die
        await mem.write(SAID, user_id="ada", idempotency_key="k-1")
    raise SystemExit("the write returned: the fault was not injected")

asyncio.run(main(*sys.argv[1:]))
"""


def open_memory(database: str, queue: str, name: str) -> Memory:
    """Async ingestion on ``database`` with the SQLite outbox (``queue == "sqlite"``) or
    a Redis queue under its own key prefix; a worker sweeps with no grace period."""
    from cognimem.queue.redis import RedisJobQueue

    settings = Settings.model_validate({"ingest": {"mode": "async", "sweep_grace_s": 0}})
    store = open_store(database)
    if queue == "sqlite":
        jobs: SqliteJobQueue | RedisJobQueue = SqliteJobQueue(getattr(store, "path"))  # noqa: B009
    else:
        jobs = RedisJobQueue(
            queue,
            stream=f"{name}:jobs",
            dead_letter_stream=f"{name}:dead",
            key_prefix=f"{name}:job:",
        )
    return Memory(store, HashingEmbedder(), settings, queue=jobs)


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, db_url: str) -> tuple[str, str, str]:
    name = f"crash{uuid.uuid4().hex[:8]}"
    if request.param == "sqlite":
        return db_url, "sqlite", name
    dsn = str(request.getfixturevalue("postgres_dsn"))
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    return dsn, redis.url, name


def crash_between_commit_and_enqueue(backend: tuple[str, str, str]) -> str:
    """Run the child; returns the id of the event it committed before dying."""
    child = subprocess.run(
        [sys.executable, "-c", CHILD, *backend],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert child.returncode == KILLED, child.stdout + child.stderr
    return child.stdout.strip()


async def items_of(mem: Memory, user_id: str) -> int:
    return await mem.store.count_items(ItemFilter(scope=Scope(user_id=user_id)))


async def test_a_retry_after_the_crash_answers_with_the_job_that_processes_it(
    backend: tuple[str, str, str],
) -> None:
    event_id = crash_between_commit_and_enqueue(backend)
    async with open_memory(*backend) as mem:
        again = await mem.write(SAID, user_id="ada", idempotency_key="k-1")
        [message] = again.messages
        assert message.outcome is WriteOutcome.DUPLICATE
        assert message.event_id == event_id
        assert again.job_id is not None
        assert (await mem.get_job(again.job_id)).state is JobState.QUEUED
        job = await mem.process_next_job("w")
        assert job is not None
        assert job.id == again.job_id
        assert job.state is JobState.DONE
        assert await items_of(mem, "ada") == 1
        packet = await mem.read("where is the spare key", user_id="ada", limit=1)
        assert packet.items[0].text == SAID
        assert packet.items[0].source_event_ids == [message.event_id]


async def test_a_worker_started_after_the_crash_processes_the_write(
    backend: tuple[str, str, str],
) -> None:
    event_id = crash_between_commit_and_enqueue(backend)
    async with open_memory(*backend) as mem:
        job_id = f"job_{event_id.removeprefix('evt_')}"
        if backend[1] == "sqlite":
            # the outbox row was committed with the event
            assert (await mem.get_job(job_id)).state is JobState.QUEUED
        else:
            with pytest.raises(NotFound):  # Redis never heard of it
                await mem.get_job(job_id)
        stop = asyncio.Event()
        worker = asyncio.create_task(mem.run_worker("restarted", stop=stop, poll_s=0.05))
        try:
            deadline = time.monotonic() + 60
            while await items_of(mem, "ada") == 0:
                assert not worker.done(), worker
                assert time.monotonic() < deadline, "the stranded write was never processed"
                await asyncio.sleep(0.05)
        finally:
            stop.set()
            handled = await worker
        assert handled == 1
        assert (await mem.get_job(job_id)).state is JobState.DONE
        assert await mem.requeue_stranded() == []
