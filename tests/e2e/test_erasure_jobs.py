"""An erasure and the job queue: erasing a user or a shared level purges their queued
jobs (ingest and lifecycle) and leaves no lease or schedule state of them; a job claimed
before the erasure does not run, and one running during it stores nothing of what was
erased. On the embedded default (SQLite outbox) and on PostgreSQL + Redis; each race is
paused at a fixed point (no sleeps)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cognimem import Memory, NotFound
from cognimem.models import ItemStatus, Scope
from cognimem.queue import JobState
from cognimem.store.types import ItemFilter
from tests import servers
from tests.e2e.test_procedures import agent
from tests.erasure import leftovers
from tests.lifecycle_ops import OP, archive_stale, memory_for, new_name

Backend = tuple[str, str | None, str]
ORG: dict[str, Any] = {"level": "organisation"}
# bounds a wait for a point a task reaches on a busy machine; never a pause
REACH_S = 120
# (how a call names the level, the id its lease and lifecycle_runs row carry)
LEVELS = {
    "user": ({"user_id": "ada"}, "ada"),
    "agent": ({"agent_id": "ops"}, "#agent/ops"),
    "organisation": ({"scope": ORG}, "#organisation"),
}


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, db_url: str) -> Backend:
    """(database URL, Redis URL or None for the SQLite outbox, a name for Redis keys)."""
    if request.param == "sqlite":
        return db_url, None, new_name()
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    return str(request.getfixturevalue("postgres_dsn")), redis.url, new_name()


async def _erase(mem: Memory, whose: str) -> dict[str, int]:
    if whose == "user":
        return (await mem.erase_user("ada")).removed
    return (await mem.erase_level(**LEVELS[whose][0])).removed


async def test_erasing_a_level_purges_its_queued_jobs_alone(backend: Backend) -> None:
    async with memory_for(*backend, settings={"ingest": {"mode": "async"}}) as mem:
        agents = [(await mem.write("To deploy, run make ship.", agent_id="ops")).job_id,
                  (await mem.run_lifecycle(OP, agent_id="ops")).job]  # fmt: skip
        orgs = [(await mem.write("We answer in English.", scope=ORG)).job_id,
                (await mem.run_lifecycle(OP, scope=ORG)).job]  # fmt: skip
        adas = (await mem.write("I drive a blue car", user_id="ada", agent_id="ops")).job_id
        assert None not in (*agents, *orgs, adas)

        removed = (await mem.erase_level(agent_id="ops")).removed

        assert removed["jobs"] == 2
        listed = {j.id: j for j in await mem.list_jobs()}
        assert set(listed) == {orgs[0], orgs[1].id, adas}  # type: ignore[union-attr]
        while await mem.process_next_job("w") is not None:
            pass
        assert {j.state for j in await mem.list_jobs()} == {JobState.DONE}
        ids = await mem.store.list_item_ids(
            ItemFilter(scope=Scope(), statuses=(ItemStatus.ACTIVE,), with_organisation=True), 100
        )
        whose = {
            (i.scope.user_id, i.scope.agent_id) for i in await mem.store.get_items("default", ids)
        }
        assert whose == {(None, None), ("ada", "ops")}  # the agent's write never ran

        # the organisation's jobs go with it, done ones too; the user's stays
        assert (await mem.erase_level(scope=ORG)).removed["jobs"] == 2
        assert [j.id for j in await mem.list_jobs()] == [adas]


def _pause(
    target: Callable[..., Awaitable[Any]],
) -> tuple[Callable[..., Awaitable[Any]], asyncio.Event, asyncio.Event]:
    """``target`` behind a gate: it waits for ``go_on`` after saying ``reached``."""
    reached, go_on = asyncio.Event(), asyncio.Event()

    async def paused(*args: Any, **kwargs: Any) -> Any:
        reached.set()
        await go_on.wait()
        return await target(*args, **kwargs)

    return paused, reached, go_on


@pytest.mark.parametrize("whose", sorted(LEVELS))
async def test_a_job_claimed_before_the_erasure_does_not_run(backend: Backend, whose: str) -> None:
    said, holder = LEVELS[whose]
    ran: list[Scope] = []

    async def count(scope: Scope, *, dry_run: bool, progress: Any = None) -> Any:
        ran.append(scope)
        return await archive(scope, dry_run=dry_run, progress=progress)

    async with memory_for(*backend) as mem:
        await mem.write("I moved to Lisbon in May", **said)
        archive = archive_stale(mem)
        mem.register_lifecycle_operation("counted", count)
        job = (await mem.run_lifecycle("counted", **said)).job
        assert job is not None
        # the worker has claimed the job and is about to take its lease
        mem.store.take_lease, reached, go_on = _pause(mem.store.take_lease)  # type: ignore[method-assign]
        worker = asyncio.create_task(mem.process_next_job("w"))
        await asyncio.wait_for(reached.wait(), REACH_S)

        assert (await _erase(mem, whose))["jobs"] == 1
        go_on.set()
        await asyncio.wait_for(worker, REACH_S)

        assert ran == []  # purged: it never ran
        with pytest.raises(NotFound):
            await mem.get_job(job.id)
        # no lease or schedule state of the erased level is left (nor anything else)
        assert await leftovers(mem.store, holder, ["Lisbon"]) == {}
        assert await mem.schedule_lifecycle() == []


@pytest.mark.parametrize("whose", sorted(LEVELS))
async def test_a_run_during_the_erasure_stores_nothing_of_it(backend: Backend, whose: str) -> None:
    said, holder = LEVELS[whose]
    async with memory_for(*backend) as mem:
        for text in ("I moved to Lisbon in May", "Lisbon has great custard tarts",
                     "We walked along the Tagus in Lisbon"):  # fmt: skip
            await mem.write(text, **said)
        job = (await mem.run_lifecycle("consolidate", **said)).job
        assert job is not None
        # the run has read the episodes and made its summaries, and is about to store them
        mem.store.apply_consolidation, reached, go_on = _pause(mem.store.apply_consolidation)  # type: ignore[method-assign]
        worker = asyncio.create_task(mem.process_next_job("w"))
        await asyncio.wait_for(reached.wait(), REACH_S)

        assert (await _erase(mem, whose))["jobs"] == 1
        go_on.set()
        await asyncio.wait_for(worker, REACH_S)

        with pytest.raises(NotFound):
            await mem.get_job(job.id)
        # no summary came back, no lease or last run was recorded
        assert await leftovers(mem.store, holder, ["Lisbon", "Tagus"]) == {}


async def test_an_agents_procedures_run_keeps_nothing_of_a_user_erased_meanwhile(
    backend: Backend,
) -> None:
    async with memory_for(*backend) as mem:
        await agent(mem, user="ada", agent_id="ops")  # ada taught the agent to deploy
        job = (await mem.run_lifecycle("procedures", agent_id="ops")).job
        assert job is not None
        # the run has read ada's turns and learnt the procedure, and is about to store it
        mem.store.save_procedures, reached, go_on = _pause(mem.store.save_procedures)  # type: ignore[method-assign]
        worker = asyncio.create_task(mem.process_next_job("w"))
        await asyncio.wait_for(reached.wait(), REACH_S)

        await mem.erase_user("ada")  # the agent's job is not ada's: it stays
        go_on.set()
        done = await asyncio.wait_for(worker, REACH_S)

        assert await mem.procedures(agent_id="ops", all_users=True) == []
        assert done is not None
        assert done.state is JobState.QUEUED  # sent back: the next run learns without ada
        assert "StaleKnowledge" in (done.error or "")
        assert await leftovers(mem.store, "ada", ["staging"]) == {}
