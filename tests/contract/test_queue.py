"""The job queue contract: the SQLite outbox and Redis Streams behave the same.

Redis runs as a throw-away ``redis-server`` per session (``tests/servers.py``); each
test gets its own stream, group and key prefix, so tests never see each other's jobs.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cognimem.errors import Conflict, InvalidInput, NotFound, StoreUnavailable
from cognimem.queue import JobListing, JobQueue, JobState, SqliteJobQueue
from tests import servers

SRC = Path(__file__).resolve().parents[2] / "src"
MakeQueue = Callable[..., Awaitable[JobQueue]]
# a lease that a test checks is still held: no stall of a busy machine between two calls
# outlasts it (the tests wait for it to run out with a blocking claim, not a sleep)
LEASE_S = 3.0
# a blocking claim that must get a job: returns as soon as there is one
BLOCK_S = 60.0


def redis_queue(url: str, **kwargs: Any) -> JobQueue:
    from cognimem.queue.redis import RedisJobQueue

    name = f"t{uuid.uuid4().hex[:12]}"
    return RedisJobQueue(
        url,
        stream=f"{name}:jobs",
        group="workers",
        dead_letter_stream=f"{name}:dead",
        key_prefix=f"{name}:job:",
        **kwargs,
    )


@pytest.fixture(params=["sqlite", "redis"])
def queue_spec(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """(backend, where): the SQLite file or the Redis URL."""
    if request.param == "sqlite":
        return "sqlite", str(tmp_path / "queue.db")
    server: servers.RedisServer = request.getfixturevalue("redis_server")
    return "redis", server.url


@pytest.fixture
async def make_queue(queue_spec: tuple[str, str]) -> AsyncIterator[MakeQueue]:
    opened: list[JobQueue] = []
    backend, where = queue_spec

    async def make(**kwargs: Any) -> JobQueue:
        q = SqliteJobQueue(where, **kwargs) if backend == "sqlite" else redis_queue(where, **kwargs)
        await q.open()
        opened.append(q)
        return q

    yield make
    for q in opened:
        await q.close()


@pytest.fixture
async def queue(make_queue: MakeQueue) -> JobQueue:
    return await make_queue()


async def test_enqueue_claim_ack(queue: JobQueue) -> None:
    job = await queue.enqueue("ingest", "t1", {"events": ["e1", "e2"]})
    assert (job.state, job.attempts, job.error) == (JobState.QUEUED, 0, None)

    delivery = await queue.claim("w1")
    assert delivery is not None
    assert delivery.job.id == job.id
    assert delivery.job.payload == {"events": ["e1", "e2"]}
    assert (delivery.job.state, delivery.job.attempts) == (JobState.RUNNING, 1)

    await queue.ack(delivery)
    done = await queue.get("t1", job.id)
    assert done.state is JobState.DONE
    assert done.created_at == job.created_at
    assert done.updated_at >= job.updated_at
    assert done.error is None
    assert await queue.claim("w2") is None
    assert await queue.claim("w1", block_s=0.2) is None


async def test_ack_keeps_a_note_of_what_was_degraded(queue: JobQueue) -> None:
    job = await queue.enqueue("ingest", "t1", {"events": ["e1"]})
    delivery = await queue.claim("w1")
    assert delivery is not None
    await queue.ack(delivery, "llm extraction failed; rules used")
    done = await queue.get("t1", job.id)
    assert (done.state, done.error) == (JobState.DONE, "llm extraction failed; rules used")


async def test_enqueue_is_idempotent_on_job_id(queue: JobQueue) -> None:
    first = await queue.enqueue("ingest", "t1", {"n": 1}, job_id="job-a")
    again = await queue.enqueue("ingest", "t1", {"n": 2}, job_id="job-a")
    assert again == first
    assert await queue.depth() == 1

    delivery = await queue.claim("w1")
    assert delivery is not None
    assert delivery.job.payload == {"n": 1}
    await queue.ack(delivery)
    # after the job ran, enqueueing the same id again is still no second delivery
    assert (await queue.enqueue("ingest", "t1", {"n": 3}, job_id="job-a")).state is JobState.DONE
    assert await queue.claim("w1") is None


async def test_a_job_id_of_another_tenant_is_a_conflict(queue: JobQueue) -> None:
    await queue.enqueue("ingest", "t1", {}, job_id="shared")
    with pytest.raises(Conflict):
        await queue.enqueue("ingest", "t2", {}, job_id="shared")


async def test_bad_input_is_refused(queue: JobQueue) -> None:
    with pytest.raises(InvalidInput):
        await queue.enqueue("ingest", "t1", {"x": object()})
    with pytest.raises(InvalidInput):
        await queue.enqueue("", "t1", {})
    with pytest.raises(InvalidInput):
        await queue.enqueue("ingest", "", {})
    assert await queue.depth() == 0


async def test_jobs_come_out_in_fifo_order(queue: JobQueue) -> None:
    ids = [(await queue.enqueue("ingest", "t1", {"i": i})).id for i in range(6)]
    claimed = []
    while (delivery := await queue.claim("w1")) is not None:
        claimed.append(delivery.job.id)
        await queue.ack(delivery)
    assert claimed == ids


async def test_concurrent_claims_deliver_each_job_once(queue: JobQueue) -> None:
    ids = {(await queue.enqueue("ingest", "t1", {"i": i})).id for i in range(20)}
    results = await asyncio.gather(*(queue.claim(f"w{i}") for i in range(40)))
    delivered = [d.job.id for d in results if d is not None]
    assert sorted(delivered) == sorted(ids)
    assert await queue.claim("late") is None


async def test_unacked_delivery_is_redelivered_after_the_visibility_timeout(
    make_queue: MakeQueue,
) -> None:
    queue = await make_queue(visibility_timeout_s=LEASE_S)
    job = await queue.enqueue("ingest", "t1", {})
    stale = await queue.claim("w1")
    assert stale is not None
    assert await queue.claim("w2") is None  # still leased to w1

    fresh = await queue.claim("w2", block_s=BLOCK_S)  # once the lease has run out
    assert fresh is not None
    assert fresh.job.id == job.id
    assert fresh.job.attempts == 2
    assert fresh.delivery_id != stale.delivery_id

    # the stale worker's late answers change nothing: w2 owns the job now
    await queue.ack(stale)
    assert (await queue.get("t1", job.id)).state is JobState.RUNNING
    await queue.fail(stale, "late", retry=True)
    assert (await queue.get("t1", job.id)).state is JobState.RUNNING

    await queue.fail(fresh, "bad payload", retry=False)
    final = await queue.get("t1", job.id)
    assert (final.state, final.error) == (JobState.FAILED, "bad payload")
    await queue.ack(stale)
    assert (await queue.get("t1", job.id)).state is JobState.FAILED
    assert await queue.claim("w3") is None


async def test_blocking_claim_waits_for_a_job(queue: JobQueue) -> None:
    async def enqueue_later() -> None:
        await asyncio.sleep(0.15)
        await queue.enqueue("ingest", "t1", {"late": True})

    task = asyncio.create_task(enqueue_later())
    delivery = await queue.claim("w1", block_s=BLOCK_S)
    await task
    assert delivery is not None
    assert delivery.job.payload == {"late": True}


async def test_fail_with_retry_redelivers(queue: JobQueue) -> None:
    job = await queue.enqueue("ingest", "t1", {})
    first = await queue.claim("w1")
    assert first is not None
    await queue.fail(first, "embedder timeout")
    queued = await queue.get("t1", job.id)
    assert (queued.state, queued.attempts, queued.error) == (
        JobState.QUEUED,
        1,
        "embedder timeout",
    )

    second = await queue.claim("w2")
    assert second is not None
    assert (second.job.id, second.job.attempts) == (job.id, 2)
    await queue.ack(second)
    assert (await queue.get("t1", job.id)).state is JobState.DONE


async def test_max_attempts_sends_the_job_to_the_dead_letter(make_queue: MakeQueue) -> None:
    queue = await make_queue(max_attempts=2)
    job = await queue.enqueue("ingest", "t1", {})
    for error in ("e1", "e2"):
        delivery = await queue.claim("w1")
        assert delivery is not None
        assert delivery.job.id == job.id
        await queue.fail(delivery, error)

    dead = await queue.get("t1", job.id)
    assert (dead.state, dead.attempts) == (JobState.FAILED, 2)
    assert dead.error == "max attempts exceeded: e2"
    assert [j.id for j in await queue.dead_letters()] == [job.id]
    assert await queue.depth() == 0

    other = await queue.enqueue("ingest", "t1", {"ok": True})
    nxt = await queue.claim("w1")
    assert nxt is not None
    assert nxt.job.id == other.id
    await queue.ack(nxt)
    assert await queue.claim("w1") is None
    assert await queue.depth() == 0


async def test_a_job_whose_workers_keep_dying_goes_to_the_dead_letter(
    make_queue: MakeQueue,
) -> None:
    queue = await make_queue(max_attempts=1, visibility_timeout_s=0.2)
    job = await queue.enqueue("ingest", "t1", {})
    assert await queue.claim("w1") is not None
    await asyncio.sleep(0.3)
    assert await queue.claim("w2") is None
    dead = await queue.get("t1", job.id)
    assert dead.state is JobState.FAILED
    assert dead.error is not None
    assert dead.error.startswith("max attempts exceeded: worker w1 did not ack")
    assert [j.id for j in await queue.dead_letters()] == [job.id]
    assert await queue.depth() == 0


async def test_fail_without_retry_is_final(queue: JobQueue) -> None:
    job = await queue.enqueue("ingest", "t1", {})
    delivery = await queue.claim("w1")
    assert delivery is not None
    await queue.fail(delivery, "schema violation", retry=False)
    failed = await queue.get("t1", job.id)
    assert (failed.state, failed.error) == (JobState.FAILED, "schema violation")
    assert [j.id for j in await queue.dead_letters()] == [job.id]
    assert await queue.claim("w1") is None


async def test_dead_letters_newest_first_and_limited(queue: JobQueue) -> None:
    ids = []
    for i in range(3):
        ids.append((await queue.enqueue("ingest", "t1", {"i": i})).id)
        delivery = await queue.claim("w1")
        assert delivery is not None
        await queue.fail(delivery, f"e{i}", retry=False)
    assert [j.id for j in await queue.dead_letters()] == ids[::-1]
    assert [j.id for j in await queue.dead_letters(limit=2)] == ids[:0:-1]


async def test_get_is_scoped_to_the_tenant(queue: JobQueue) -> None:
    job = await queue.enqueue("ingest", "t1", {"secret": 1})
    assert (await queue.get("t1", job.id)).payload == {"secret": 1}
    with pytest.raises(NotFound):
        await queue.get("t2", job.id)
    with pytest.raises(NotFound):
        await queue.get("t1", "job_unknown")


async def test_a_clone_sees_the_same_jobs_from_another_event_loop(queue: JobQueue) -> None:
    # a worker's metrics port reads the depth so, on its own loop, while a job runs
    await queue.enqueue("ingest", "t1", {"i": 0})
    running = await queue.claim("w1")
    assert running is not None
    await queue.enqueue("ingest", "t1", {"i": 1})

    async def depth_and_job() -> tuple[int, JobState]:
        twin = queue.clone()
        await twin.open()
        try:
            return await twin.depth(), (await twin.get("t1", running.job.id)).state
        finally:
            await twin.close()

    assert await asyncio.to_thread(asyncio.run, depth_and_job()) == (2, JobState.RUNNING)
    await queue.ack(running)  # the original is still open on this loop
    assert await queue.depth() == 1


async def test_depth_counts_queued_and_running_jobs(queue: JobQueue) -> None:
    assert await queue.depth() == 0
    for i in range(3):
        await queue.enqueue("ingest", "t1", {"i": i})
    assert await queue.depth() == 3
    first = await queue.claim("w1")
    assert first is not None
    assert await queue.depth() == 3
    await queue.ack(first)
    assert await queue.depth() == 2
    second = await queue.claim("w1")
    assert second is not None
    await queue.fail(second, "x", retry=True)
    assert await queue.depth() == 2
    third = await queue.claim("w1")
    assert third is not None
    await queue.fail(third, "x", retry=False)
    assert await queue.depth() == 1


WORKER = """
import asyncio, sys
from cognimem.queue import SqliteJobQueue
from cognimem.queue.redis import RedisJobQueue

async def main() -> None:
    backend, where, stream, lease = sys.argv[1:5]
    if backend == "sqlite":
        q = SqliteJobQueue(where, visibility_timeout_s=float(lease))
    else:
        q = RedisJobQueue(where, stream=stream + ":jobs", dead_letter_stream=stream + ":dead",
                          key_prefix=stream + ":job:", visibility_timeout_s=float(lease))
    await q.open()
    d = await q.claim("doomed", block_s=10)
    print(d.job.id if d else "none", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


async def test_a_sigkilled_worker_job_is_redelivered(queue_spec: tuple[str, str]) -> None:
    from cognimem.queue.redis import RedisJobQueue

    backend, where = queue_spec
    name = f"t{uuid.uuid4().hex[:12]}"
    queue: JobQueue
    if backend == "sqlite":
        queue = SqliteJobQueue(where, visibility_timeout_s=LEASE_S)
    else:
        queue = RedisJobQueue(
            where,
            stream=f"{name}:jobs",
            dead_letter_stream=f"{name}:dead",
            key_prefix=f"{name}:job:",
            visibility_timeout_s=LEASE_S,
        )
    await queue.open()
    try:
        job = await queue.enqueue("ingest", "t1", {"n": 1})
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            WORKER,
            backend,
            where,
            name,
            str(LEASE_S),
            stdout=subprocess.PIPE,
            env=env,
        )
        try:
            assert proc.stdout is not None
            line = await asyncio.wait_for(proc.stdout.readline(), timeout=120)
            assert line.decode().strip() == job.id
            assert await queue.claim("survivor") is None  # the doomed worker holds it
        finally:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
        assert proc.returncode == -signal.SIGKILL

        delivery = await queue.claim("survivor", block_s=BLOCK_S)
        assert delivery is not None
        assert (delivery.job.id, delivery.job.attempts) == (job.id, 2)
        await queue.ack(delivery)
        assert (await queue.get("t1", job.id)).state is JobState.DONE
    finally:
        await queue.close()


async def test_redis_down_is_store_unavailable_and_recovers(tmp_path: Path) -> None:
    servers.require("redis")
    server = servers.start_redis(tmp_path)
    try:
        queue = redis_queue(server.url)
        await queue.open()
        try:
            await queue.enqueue("ingest", "t1", {})
            server.stop()
            with pytest.raises(StoreUnavailable) as info:
                await queue.enqueue("ingest", "t1", {})
            assert "is unavailable" in info.value.message
            assert info.value.retry_after == 1
            with pytest.raises(StoreUnavailable):
                await queue.claim("w1")

            server.start()  # empty again: no persistence
            job = await queue.enqueue("ingest", "t1", {"after": True})
            delivery = await queue.claim("w1")
            assert delivery is not None
            assert delivery.job.id == job.id
            await queue.ack(delivery)
            assert (await queue.get("t1", job.id)).state is JobState.DONE
        finally:
            await queue.close()
    finally:
        server.destroy()


async def test_unreachable_redis_is_store_unavailable_without_the_password() -> None:
    pytest.importorskip("redis")
    from cognimem.queue.redis import RedisJobQueue

    queue = RedisJobQueue(f"redis://:s3cret@127.0.0.1:{servers.free_port()}/0")
    with pytest.raises(StoreUnavailable) as info:
        await queue.open()
    assert "s3cret" not in info.value.message
    assert ":***@" in info.value.message
    await queue.close()


async def test_list_jobs_newest_first_per_tenant_by_kind_and_state(queue: JobQueue) -> None:
    first = await queue.enqueue("ingest", "t1", {"n": 1})
    second = await queue.enqueue("lifecycle", "t1", {"n": 2})
    third = await queue.enqueue("ingest", "t1", {"n": 3})
    await queue.enqueue("ingest", "t2", {"n": 4})
    assert [j.id for j in await queue.list_jobs(JobListing("t1"))] == [
        third.id,
        second.id,
        first.id,
    ]
    assert [j.id for j in await queue.list_jobs(JobListing("t1", limit=2))] == [third.id, second.id]
    assert [j.id for j in await queue.list_jobs(JobListing("t1", kind="lifecycle"))] == [second.id]
    delivery = await queue.claim("w1")
    assert delivery is not None
    await queue.ack(delivery, result={"archived": 3})
    [done] = await queue.list_jobs(JobListing("t1", state=JobState.DONE))
    assert (done.id, done.result, done.progress) == (first.id, {"archived": 3}, 1.0)
    assert await queue.list_jobs(JobListing("t3")) == []
    with pytest.raises(InvalidInput):
        await queue.list_jobs(JobListing("t1", limit=0))


async def test_heartbeat_records_progress_while_the_delivery_is_current(
    make_queue: MakeQueue,
) -> None:
    queue = await make_queue(visibility_timeout_s=LEASE_S)
    job = await queue.enqueue("lifecycle", "t1", {})
    stale = await queue.claim("w1")
    assert stale is not None
    assert await queue.heartbeat(stale, 0.25) is True
    assert (await queue.get("t1", job.id)).progress == 0.25
    assert await queue.heartbeat(stale) is True  # no progress: the last one stays
    assert (await queue.get("t1", job.id)).progress == 0.25
    with pytest.raises(InvalidInput):
        await queue.heartbeat(stale, 1.5)

    fresh = await queue.claim("w2", block_s=BLOCK_S)  # once w1's lease has run out
    assert fresh is not None
    assert await queue.heartbeat(stale, 0.9) is False  # w1 lost it
    assert await queue.heartbeat(fresh, 0.5) is True
    assert (await queue.get("t1", job.id)).progress == 0.5


async def test_a_retry_with_a_delay_is_claimable_only_when_it_is_due(
    make_queue: MakeQueue,
) -> None:
    now = [datetime(2024, 1, 1, tzinfo=UTC)]
    queue = await make_queue(clock=lambda: now[0])
    job = await queue.enqueue("lifecycle", "t1", {})
    first = await queue.claim("w1")
    assert first is not None
    await queue.fail(first, "the LLM timed out", retry=True, delay_s=60)
    waiting = await queue.get("t1", job.id)
    assert (waiting.state, waiting.error) == (JobState.QUEUED, "the LLM timed out")
    assert await queue.claim("w1") is None
    now[0] += timedelta(seconds=59)
    assert await queue.claim("w1") is None
    now[0] += timedelta(seconds=2)
    second = await queue.claim("w2")
    assert second is not None
    assert (second.job.id, second.job.attempts) == (job.id, 2)
