"""Lifecycle operations as durable jobs, on the embedded default (SQLite outbox) and on
PostgreSQL + Redis: admin calls over real HTTP (a dry run inline, else a queued job),
the job listing with progress and result summary, idempotent job ids, at most one run
per scope and operation, retries with backoff, and the worker's scheduler.

The operation is ``tests.lifecycle_ops.archive_stale`` (the real ones register the same
way); a worker is a second ``Memory`` on the same database and queue, as in production."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from cognimem import InvalidInput, Memory, NotFound
from cognimem.api import create_app
from cognimem.client import AsyncMemoryClient
from cognimem.metrics import Metrics
from cognimem.models import ItemStatus
from cognimem.queue import JobState
from cognimem.services.lifecycle.operations import LIFECYCLE_JOB
from tests import servers
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, serving
from tests.lifecycle_ops import MARK, OP, archive_stale, memory_for, new_name

Backend = tuple[str, str | None, str]


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, db_url: str) -> Backend:
    """(database URL, Redis URL or None for the SQLite outbox, a name for Redis keys)."""
    if request.param == "sqlite":
        return db_url, None, new_name()
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    return str(request.getfixturevalue("postgres_dsn")), redis.url, new_name()


@pytest.fixture
async def worker(backend: Backend) -> AsyncIterator[Memory]:
    async with memory_for(*backend) as mem:
        yield mem


async def write_three(mem: Memory, user: str = "ada") -> list[str]:
    ids = []
    for text in ("I moved to Lisbon in May", f"{MARK} my old phone number was 555-0100",
                 "I play the cello on Sundays"):  # fmt: skip
        ids += (await mem.write(text, user_id=user)).item_ids
    return ids


async def test_admin_calls_over_http_dry_run_then_job_then_listing(
    backend: Backend, worker: Memory
) -> None:
    ids = await write_three(worker)
    stale = ids[1]
    key = issue_api_key(backend[0])
    server_mem = memory_for(*backend)
    with serving(create_app(server_mem)) as base:
        async with (
            AsyncMemoryClient(base, api_key=key) as sdk,
            httpx.AsyncClient(timeout=PATIENT) as http,
        ):
            dry = await sdk.run_lifecycle(OP, user_id="ada", dry_run=True)
            assert dry.job is None
            assert dry.result == {"dry_run": True, "item_ids": [stale]}
            assert dry.summary == {"archived": 1}
            assert (await worker.get(stale)).status is ItemStatus.ACTIVE  # changed nothing
            assert await sdk.list_jobs() == []  # a dry run queues nothing

            auth = {"Authorization": f"Bearer {key}"}
            answer = await http.post(
                f"{base}/v1/lifecycle/{OP}",
                json={"scope": {"user_id": "ada"}, "key": "nightly-1"},
                headers=auth,
            )
            assert answer.status_code == 202, answer.text
            job_id = answer.json()["job"]["id"]
            assert answer.headers["Location"] == f"/v1/jobs/{job_id}"
            again = await sdk.run_lifecycle(OP, user_id="ada", key="nightly-1")
            assert again.job is not None
            assert again.job.id == job_id  # the same key: the same job
            [listed] = await sdk.list_jobs(kind=LIFECYCLE_JOB)
            assert (listed.id, listed.state, listed.payload["op"]) == (job_id, JobState.QUEUED, OP)

            done = await worker.process_next_job("w1")
            assert done is not None
            assert (done.id, done.state, done.attempts) == (job_id, JobState.DONE, 1)
            [listed] = await sdk.list_jobs(state="done")
            assert listed.result == {"archived": 1}
            assert listed.progress == 1.0
            assert (await sdk.get_job(job_id)).result == {"archived": 1}
            assert (await worker.get(stale)).status is ItemStatus.ARCHIVED
            assert (await worker.get(ids[0])).status is ItemStatus.ACTIVE

            bad = await http.post(
                f"{base}/v1/lifecycle/no_such_op", json={"scope": {"user_id": "ada"}}, headers=auth
            )
            assert bad.status_code == 404  # the operation is the route's path
            assert bad.json()["error"]["details"] == {
                "kind": "lifecycle operation", "id": "no_such_op"
            }  # fmt: skip
            nobody = await http.post(f"{base}/v1/lifecycle/{OP}", json={"scope": {}}, headers=auth)
            assert nobody.status_code == 422
            assert nobody.json()["error"]["details"]["field"] == "scope.level"
            wrong_state = await http.get(f"{base}/v1/jobs", params={"state": "lost"}, headers=auth)
            assert wrong_state.status_code == 422


async def test_at_most_one_run_per_scope_and_operation(backend: Backend) -> None:
    entered, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        entered.set()
        await release.wait()

    async with (
        memory_for(*backend, before_change=hold) as first,
        memory_for(*backend) as second,
    ):
        await write_three(first)
        one = (await first.run_lifecycle(OP, user_id="ada", key="a")).job
        two = (await first.run_lifecycle(OP, user_id="ada", key="b")).job
        other_user = (await first.run_lifecycle(OP, user_id="bob", key="a")).job
        assert one is not None
        assert two is not None
        assert other_user is not None
        assert len({one.id, two.id, other_user.id}) == 3
        running = asyncio.create_task(first.process_next_job("w1"))
        await asyncio.wait_for(entered.wait(), 60)
        assert (await second.get_job(one.id)).state is JobState.RUNNING
        skipped = await second.process_next_job("w2")
        assert skipped is not None
        assert skipped.id == two.id
        assert skipped.state is JobState.DONE
        assert skipped.result == {"skipped": "running", "running_job": one.id}
        # another user's scope is not held
        assert (await second.process_next_job("w2")).result == {"archived": 0}  # type: ignore[union-attr]
        release.set()
        finished = await running
        assert finished is not None
        assert (finished.id, finished.result) == (one.id, {"archived": 1})


async def test_a_failed_run_is_retried_after_its_backoff(backend: Backend) -> None:
    now = [datetime(2024, 1, 1, tzinfo=UTC)]
    calls: list[int] = []

    def clock() -> datetime:
        return now[0]

    later = [datetime.now(UTC)]
    settings = {"lifecycle": {"retry_base_s": 600, "retry_max_s": 3600}}
    async with memory_for(
        *backend, settings=settings, clock=clock, queue_clock=lambda: later[0]
    ) as mem:
        fail_once = archive_stale(mem)

        async def flaky(scope: Any, *, dry_run: bool, progress: Any = None) -> Any:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("the LLM timed out")
            return await fail_once(scope, dry_run=dry_run, progress=progress)

        mem.register_lifecycle_operation("flaky", flaky)
        job = (await mem.run_lifecycle("flaky", user_id="ada")).job
        assert job is not None
        failed = await mem.process_next_job("w")
        assert failed is not None
        assert (failed.state, failed.error) == (JobState.QUEUED, "RuntimeError: the LLM timed out")
        assert mem.queue is not None
        assert await mem.queue.claim("w", block_s=0) is None  # waiting out its backoff
        later[0] += timedelta(seconds=601)
        done = await mem.process_next_job("w")
        assert done is not None
        assert (done.id, done.state, done.attempts) == (job.id, JobState.DONE, 2)
        assert len(calls) == 2


async def test_the_scheduler_queues_on_new_episodes_closed_sessions_and_intervals(
    backend: Backend,
) -> None:
    now = [datetime(2024, 1, 1, tzinfo=UTC)]

    def clock() -> datetime:
        return now[0]

    schedule = {"after_episodes": 3, "interval_s": 3600, "on_session_close": True}
    # only the test's operation is scheduled here: the built-in ones' schedules off
    off = {"interval_s": None, "after_episodes": None, "on_session_close": False}
    settings = {"lifecycle": {"operations": {OP: schedule, "revise": off, "consolidate": off}}}
    async with memory_for(*backend, settings=settings, clock=clock) as mem:
        await mem.write("I moved to Lisbon in May", user_id="ada")
        await mem.write(f"{MARK} I drive a blue car", user_id="ada")
        assert await mem.schedule_lifecycle() == []  # 2 new episodes, never run: not yet
        await mem.write("I play the cello", user_id="ada")
        [job] = await mem.schedule_lifecycle()
        assert job.payload == {
            "op": OP, "user_id": "ada", "namespace": "default", "trigger": "episodes",
        }  # fmt: skip
        assert [j.id for j in await mem.schedule_lifecycle()] == [job.id]  # idempotent
        done = await mem.process_next_job("w")
        assert done is not None
        assert (done.id, done.result) == (job.id, {"archived": 1})
        assert await mem.schedule_lifecycle() == []  # nothing new since the run began

        now[0] += timedelta(minutes=1)
        await mem.write("I started learning Portuguese", user_id="ada")
        assert await mem.schedule_lifecycle() == []  # one new, the interval not over
        now[0] += timedelta(hours=1)
        [by_interval] = await mem.schedule_lifecycle()
        assert by_interval.payload["trigger"] == "interval"
        await mem.process_next_job("w")

        now[0] += timedelta(minutes=1)
        await mem.create_session("s1", user_id="bob")
        await mem.write("hello", user_id="bob", session_id="s1")
        assert await mem.schedule_lifecycle() == []
        await mem.close_session("s1")
        [closed] = await mem.schedule_lifecycle()
        assert (closed.payload["user_id"], closed.payload["trigger"]) == ("bob", "session_closed")


async def test_bad_calls_are_invalid_input(worker: Memory) -> None:
    with pytest.raises(NotFound) as unknown:
        await worker.run_lifecycle("nope", user_id="ada")
    assert (unknown.value.kind, unknown.value.id) == ("lifecycle operation", "nope")
    assert f"registered: {OP}" in unknown.value.message
    with pytest.raises(InvalidInput) as no_user:  # not the organisation's level
        await worker.run_lifecycle(OP)
    assert no_user.value.field == "scope.level"
    with pytest.raises(InvalidInput) as session:
        await worker.run_lifecycle(OP, scope={"user_id": "ada", "session_id": "s"})
    assert session.value.field == "scope.session_id"
    with pytest.raises(InvalidInput) as state:
        await worker.list_jobs(state="lost")
    assert state.value.field == "state"


async def test_the_jobs_a_process_runs_are_reported_to_its_metrics(worker: Memory) -> None:
    metrics = Metrics(worker)
    await write_three(worker)

    async def broken(scope: Any, *, dry_run: bool, progress: Any = None) -> Any:
        raise RuntimeError("the LLM timed out")

    worker.register_lifecycle_operation("broken", broken)
    for op in (OP, "broken"):
        assert (await worker.run_lifecycle(op, user_id="ada")).job is not None
        assert await worker.process_next_job("w1") is not None

    got = {(name, labels.get("operation")): v for name, labels, v in metrics.samples()}
    assert got[("cognimem_lifecycle_duration_seconds_count", OP)] == 1
    assert got[("cognimem_lifecycle_duration_seconds_count", "broken")] == 1
    assert got[("cognimem_lifecycle_items_total", OP)] == 1  # the one stale memory
    assert ("cognimem_lifecycle_items_total", "broken") not in got
    assert got[("cognimem_lifecycle_failures_total", "broken")] == 1
    assert ("cognimem_lifecycle_failures_total", OP) not in got
