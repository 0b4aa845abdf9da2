"""``JobQueue.purge_user``: an erasure removes every job of the user, in any state, from
the SQLite outbox and from Redis Streams alike; other users' jobs stay and run."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cognimem.errors import NotFound
from cognimem.queue import JobQueue, JobState, SqliteJobQueue
from tests import servers


def payload(user_id: str | None, *events: str) -> dict[str, Any]:
    return {"event_ids": list(events), "profile": "chat", "user_id": user_id, "namespace": "n"}


@pytest.fixture(params=["sqlite", "redis"])
async def queue(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[JobQueue]:
    q: JobQueue
    if request.param == "sqlite":
        q = SqliteJobQueue(tmp_path / "queue.db", max_attempts=1)
    else:
        from cognimem.queue.redis import RedisJobQueue

        server: servers.RedisServer = request.getfixturevalue("redis_server")
        name = f"t{uuid.uuid4().hex[:12]}"
        q = RedisJobQueue(
            server.url,
            stream=f"{name}:jobs",
            dead_letter_stream=f"{name}:dead",
            key_prefix=f"{name}:job:",
            max_attempts=1,
        )
    await q.open()
    try:
        yield q
    finally:
        await q.close()


async def test_purge_removes_the_users_jobs_in_every_state(queue: JobQueue) -> None:
    done = await queue.enqueue("ingest", "t1", payload("zoe", "e1"))
    delivery = await queue.claim("w1")
    assert delivery is not None
    assert delivery.job.id == done.id
    await queue.ack(delivery)
    failed = await queue.enqueue("ingest", "t1", payload("zoe", "e2"))
    delivery = await queue.claim("w1")
    assert delivery is not None
    await queue.fail(delivery, "boom", retry=False)
    running = await queue.enqueue("ingest", "t1", payload("zoe", "e3"))
    held = await queue.claim("w1")
    assert held is not None
    assert held.job.id == running.id
    queued = await queue.enqueue("ingest", "t1", payload("zoe", "e4"))
    bobs = await queue.enqueue("ingest", "t1", payload("bob", "e5"))
    other_tenant = await queue.enqueue("ingest", "t2", payload("zoe", "e6"))
    shared = await queue.enqueue("ingest", "t1", payload(None, "e7"))

    assert await queue.purge_user("t1", "zoe") == 4
    for job in (done, failed, running, queued):
        with pytest.raises(NotFound):
            await queue.get("t1", job.id)
    assert [j.id for j in await queue.dead_letters()] == []
    # the worker that held a purged job acknowledges nothing
    await queue.ack(held)
    with pytest.raises(NotFound):
        await queue.get("t1", running.id)
    # the others stay, and are the only ones handed out
    assert (await queue.get("t1", bobs.id)).state is JobState.QUEUED
    assert (await queue.get("t2", other_tenant.id)).state is JobState.QUEUED
    claimed = set()
    while (d := await queue.claim("w2")) is not None:
        claimed.add(d.job.id)
        await queue.ack(d)
    assert claimed == {bobs.id, other_tenant.id, shared.id}
    assert await queue.depth() == 0
    assert await queue.purge_user("t1", "zoe") == 0


def level(agent_id: str | None, op: str | None = None) -> dict[str, Any]:
    """A shared level's job: an ingest job's payload, or a lifecycle job's with ``op``."""
    body: dict[str, Any] = {"user_id": None, "namespace": "n", "agent_id": agent_id,
                            "level": "organisation" if agent_id is None else "agent"}  # fmt: skip
    return {**body, "op": op} if op else {**body, "event_ids": ["e"], "profile": "chat"}


async def test_purge_level_removes_one_shared_levels_jobs_in_every_state(queue: JobQueue) -> None:
    done = await queue.enqueue("ingest", "t1", level("ops"))
    delivery = await queue.claim("w1")
    assert delivery is not None
    await queue.ack(delivery)
    running = await queue.enqueue("lifecycle", "t1", level("ops", "consolidate"))
    held = await queue.claim("w1")
    assert held is not None
    assert held.job.id == running.id
    queued = await queue.enqueue("lifecycle", "t1", {**level("ops", "decay"), "namespace": "m"})
    stay = {
        "another agent": await queue.enqueue("ingest", "t1", level("sales")),
        "the organisation": await queue.enqueue("lifecycle", "t1", level(None, "decay")),
        "a user of the agent": await queue.enqueue(
            "ingest", "t1", {**payload("zoe", "e9"), "agent_id": "ops"}
        ),
        "another tenant": await queue.enqueue("ingest", "t2", level("ops")),
        # no level said: never taken for the organisation's
        "an older job": await queue.enqueue("ingest", "t1", payload(None, "e8")),
    }

    assert await queue.purge_level("t1", "ops", None) == 3
    for job in (done, running, queued):
        with pytest.raises(NotFound):
            await queue.get("t1", job.id)
    await queue.ack(held)  # the worker that held a purged job acknowledges nothing
    with pytest.raises(NotFound):
        await queue.get("t1", running.id)
    for job in stay.values():
        assert (await queue.get(job.tenant_id, job.id)).state is JobState.QUEUED

    assert await queue.purge_level("t1", None, "n") == 1  # the namespace's alone
    with pytest.raises(NotFound):
        await queue.get("t1", stay["the organisation"].id)
    assert await queue.purge_level("t1", "ops", None) == 0
    assert (await queue.get("t1", stay["an older job"].id)).state is JobState.QUEUED


async def test_purge_level_tells_the_organisation_from_a_namespace(queue: JobQueue) -> None:
    def shared(name: str, namespace: str) -> dict[str, Any]:
        return {**level(None, "decay"), "level": name, "namespace": namespace}

    organisation = await queue.enqueue("lifecycle", "t1", shared("organisation", "*"))
    sales = await queue.enqueue("lifecycle", "t1", shared("namespace", "sales"))
    default = await queue.enqueue("lifecycle", "t1", shared("namespace", "default"))
    # queued before the organisation's level spanned namespaces: the namespace's now
    older = await queue.enqueue("lifecycle", "t1", shared("organisation", "sales"))
    others = await queue.enqueue("lifecycle", "t2", shared("organisation", "*"))

    assert await queue.purge_level("t1", None, "sales") == 2
    for job in (sales, older):
        with pytest.raises(NotFound):
            await queue.get("t1", job.id)
    assert await queue.purge_level("t1", None, "*") == 1
    with pytest.raises(NotFound):
        await queue.get("t1", organisation.id)
    assert (await queue.get("t1", default.id)).state is JobState.QUEUED
    assert (await queue.get("t2", others.id)).state is JobState.QUEUED
