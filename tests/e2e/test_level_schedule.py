"""The lifecycle scheduler per level: beside each user, it queues each agent's own level,
each namespace's and the organisation's, per tenant, by the same triggers; a level's job
says its level (never a user), runs under its own lease, touches that level's rows
alone, and another tenant's levels are never queued under this tenant. On the embedded
default (SQLite outbox) and on PostgreSQL + Redis."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cognimem import Memory
from cognimem.models import ItemStatus, Scope
from cognimem.queue import Job, JobState
from cognimem.services.lifecycle.operations import LIFECYCLE_JOB
from cognimem.store.types import ItemFilter
from tests import servers
from tests.lifecycle_ops import MARK, OP, memory_for, new_name

Backend = tuple[str, str | None, str]
T0 = datetime(2024, 1, 1, tzinfo=UTC)
ORG: dict[str, Any] = {"level": "organisation"}
# only the test's operation is scheduled: the built-in ones' schedules off
OFF = {"interval_s": None, "after_episodes": None, "on_session_close": False}
ONLY_OP = {
    "lifecycle": {
        "operations": {
            OP: {"after_episodes": 1},
            **{op: OFF for op in ("consolidate", "revise", "decay", "promote", "forget_policy")},
        }
    }
}


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, db_url: str) -> Backend:
    """(database URL, Redis URL or None for the SQLite outbox, a name for Redis keys)."""
    if request.param == "sqlite":
        return db_url, None, new_name()
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    return str(request.getfixturevalue("postgres_dsn")), redis.url, new_name()


def _level(job: Job) -> tuple[str, str | None, str | None, str | None]:
    """(tenant, user, level, agent) as the job's payload says them."""
    p = job.payload
    return job.tenant_id, p["user_id"], p.get("level"), p.get("agent_id")


async def _statuses(mem: Memory, tenant: str) -> dict[str, ItemStatus]:
    ids = await mem.store.list_item_ids(
        ItemFilter(Scope(tenant_id=tenant), statuses=tuple(ItemStatus), with_organisation=True),
        10_000,
    )
    return {i.id: i.status for i in await mem.store.get_items(tenant, ids)}


async def test_each_shared_level_of_a_tenant_is_scheduled_and_runs_alone(
    backend: Backend,
) -> None:
    now = [T0]
    async with memory_for(*backend, settings=ONLY_OP, clock=lambda: now[0]) as mem:
        mine: dict[tuple[str, str | None, str | None, str | None], str] = {}
        [mine[("acme", None, "organisation", None)]] = (
            await mem.write(
                f"{MARK} Never give medical dosage advice.",
                profile="mandate",
                scope={**ORG, "tenant_id": "acme"},
            )
        ).item_ids
        [mine[("acme", None, "namespace", None)]] = (
            await mem.write(
                f"{MARK} Quote prices in euros.",
                profile="mandate",
                scope={"level": "namespace", "tenant_id": "acme"},
            )
        ).item_ids
        [mine[("acme", None, "agent", "ops")]] = (
            await mem.write(
                f"{MARK} To deploy, run make ship.",
                profile="tool_gotcha",
                scope={"tenant_id": "acme", "agent_id": "ops"},
            )
        ).item_ids
        [mine[("acme", "ada", None, None)]] = (
            await mem.write(
                f"{MARK} I drive a blue car",
                scope={"tenant_id": "acme", "user_id": "ada", "agent_id": "ops"},
            )
        ).item_ids
        [mine[("globex", None, "organisation", None)]] = (
            await mem.write(
                f"{MARK} Globex answers in French.",
                profile="mandate",
                scope={**ORG, "tenant_id": "globex"},
            )
        ).item_ids

        jobs = await mem.schedule_lifecycle()

        assert len(jobs) == len({j.id for j in jobs}) == 5
        assert {_level(j) for j in jobs} == set(mine)
        by_level = {_level(j): j for j in jobs}
        org = by_level[("acme", None, "organisation", None)].payload
        assert org == {"op": OP, "user_id": None, "namespace": "*", "trigger": "episodes",
                       "agent_id": None, "level": "organisation"}  # fmt: skip
        namespace = by_level[("acme", None, "namespace", None)].payload
        assert (namespace["level"], namespace["namespace"]) == ("namespace", "default")
        agent = by_level[("acme", None, "agent", "ops")].payload
        assert (agent["level"], agent["agent_id"], agent["user_id"]) == ("agent", "ops", None)
        user = by_level[("acme", "ada", None, None)].payload
        assert "level" not in user  # a user's job, with every agent's turns with them
        # another tenant's organisation is queued under that tenant alone
        acme = {j.id for j in await mem.list_jobs(tenant_id="acme", kind=LIFECYCLE_JOB)}
        assert acme == {j.id for j in jobs if j.tenant_id == "acme"}
        assert assert_idempotent(jobs, await mem.schedule_lifecycle())

        # each run archives its own level's memory and nothing of another level
        for _ in jobs:
            before = {t: await _statuses(mem, t) for t in ("acme", "globex")}
            done = await mem.process_next_job("w")
            assert done is not None
            assert (done.state, done.result) == (JobState.DONE, {"archived": 1}), done.error
            after = {t: await _statuses(mem, t) for t in ("acme", "globex")}
            changed = {i for t in after for i in after[t] if after[t][i] != before[t][i]}
            assert changed == {mine[_level(done)]}

        # each level's completed run is recorded under its own lease: nothing is due
        assert await mem.schedule_lifecycle() == []
        now[0] += timedelta(minutes=1)
        await mem.write("To roll back, run make undo.", profile="tool_gotcha",
                        scope={"tenant_id": "acme", "agent_id": "ops"})  # fmt: skip
        [again] = await mem.schedule_lifecycle()
        assert _level(again) == ("acme", None, "agent", "ops")


def assert_idempotent(first: list[Job], second: list[Job]) -> bool:
    return sorted(j.id for j in first) == sorted(j.id for j in second)


async def test_the_built_in_schedules_run_on_a_shared_level(backend: Backend) -> None:
    """By default consolidate, decay and the forgetting policy are scheduled for a
    shared level too; revise and promote, which work on one user alone, are not."""
    now = [T0]
    async with memory_for(*backend, clock=lambda: now[0]) as mem:
        await mem.write("Never give medical dosage advice.", profile="mandate", scope=ORG)
        await mem.write("We moved the office to Leeds in March.", agent_id="ops")
        await mem.write("I prefer tea over coffee.", user_id="ada")
        assert await mem.schedule_lifecycle() == []  # nothing is due before a day passed
        now[0] += timedelta(days=1, minutes=1)

        jobs = await mem.schedule_lifecycle()

        shared = [
            (j.payload["op"], j.payload["level"]) for j in jobs if j.payload["user_id"] is None
        ]
        assert sorted(shared) == sorted(
            (op, level)
            for op in ("consolidate", "decay", "forget_policy")
            for level in ("agent", "organisation")
        )
        users = {j.payload["op"] for j in jobs if j.payload["user_id"] == "ada"}
        assert {"revise", "promote", "consolidate"} <= users
        before = await _statuses(mem, "default")
        while (done := await mem.process_next_job("w")) is not None:
            assert done.state is JobState.DONE, (done.payload, done.error)
        ids = await mem.store.list_item_ids(
            ItemFilter(Scope(), statuses=tuple(ItemStatus), with_organisation=True), 10_000
        )
        items = await mem.store.get_items("default", ids)
        # the agent's consolidation summarised the agent's episode into the agent's level
        summaries = {(i.scope.user_id, i.scope.agent_id) for i in items if i.id not in before}
        assert (None, "ops") in summaries
        assert all(agent is None for user, agent in summaries if user == "ada")


async def test_a_shared_levels_closed_session_triggers_its_run(backend: Backend) -> None:
    off = {op: OFF for op in ("consolidate", "revise", "decay", "promote", "forget_policy")}
    settings = {"lifecycle": {"operations": {OP: {"on_session_close": True}, **off}}}
    async with memory_for(*backend, settings=settings, clock=lambda: T0) as mem:
        await mem.create_session("s1", agent_id="ops")
        await mem.write("The deploy window is on Tuesdays.", agent_id="ops", session_id="s1")
        assert await mem.schedule_lifecycle() == []  # nothing closed yet
        await mem.close_session("s1")

        [job] = await mem.schedule_lifecycle()

        assert _level(job) == ("default", None, "agent", "ops")
        assert job.payload["trigger"] == "session_closed"
