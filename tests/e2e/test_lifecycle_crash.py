"""A worker killed in the middle of a lifecycle job loses its leases: the job goes to
another worker once they run out, which takes the scope over and finishes it, exactly
once. The kill is real (SIGKILL to a worker subprocess holding the job), on the embedded
default (SQLite outbox) and on PostgreSQL + Redis."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from cognimem.models import ItemStatus
from cognimem.queue import JobState
from tests import servers
from tests.lifecycle_ops import MARK, OP, memory_for, new_name

ROOT = Path(__file__).resolve().parents[2]
# short leases, so the test waits seconds for a dead worker's to run out
SETTINGS = {
    "ingest": {"visibility_timeout_s": 3, "max_attempts": 5},
    "lifecycle": {"lease_s": 3, "retry_base_s": 0},
}

# the doomed worker: claims the job, reports half done, then hangs until it is killed
CHILD = """
import asyncio, sys
from tests.e2e.test_lifecycle_crash import SETTINGS
from tests.lifecycle_ops import memory_for

async def main(database, redis_url, name):
    async def hang():
        print("halfway", flush=True)
        await asyncio.Event().wait()

    async with memory_for(database, redis_url or None, name, SETTINGS, hang) as mem:
        await mem.process_next_job("doomed", block_s=60)
    raise SystemExit("the job finished: it was meant to hang")

asyncio.run(main(*sys.argv[1:]))
"""

Backend = tuple[str, str | None, str]


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, db_url: str) -> Backend:
    if request.param == "sqlite":
        return db_url, None, new_name()
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    return str(request.getfixturevalue("postgres_dsn")), redis.url, new_name()


async def test_a_job_whose_worker_is_killed_is_finished_by_another(backend: Backend) -> None:
    database, redis_url, name = backend
    async with memory_for(database, redis_url, name, SETTINGS) as mem:
        await mem.write("I moved to Lisbon in May", user_id="ada")
        stale = (await mem.write(f"{MARK} my old phone number", user_id="ada")).item_ids[0]
        job = (await mem.run_lifecycle(OP, user_id="ada")).job
        assert job is not None

        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHILD, database, redis_url or "", name,
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            assert child.stdout is not None
            line = (await asyncio.wait_for(child.stdout.readline(), 120)).decode()
            assert line.strip() == "halfway", line
            # its heartbeat makes the progress visible while it runs
            deadline = time.monotonic() + 60
            while (running := await mem.get_job(job.id)).progress != 0.5:
                assert running.state is JobState.RUNNING
                assert time.monotonic() < deadline, running
                await asyncio.sleep(0.05)
        finally:
            child.kill()
            await child.communicate()  # reaps it and closes its pipes
        assert (await mem.get(stale)).status is ItemStatus.ACTIVE  # it died before changing

        # a blocking claim returns once the dead worker's lease has run out
        done = await mem.process_next_job("rescuer", block_s=60)
        assert done is not None
        assert (done.id, done.state, done.attempts) == (job.id, JobState.DONE, 2)
        assert done.result == {"archived": 1}
        assert (await mem.get(stale)).status is ItemStatus.ARCHIVED
        # the scope is free: a new run takes it at once (and finds nothing left to do)
        again = (await mem.run_lifecycle(OP, user_id="ada")).job
        assert again is not None
        rerun = await mem.process_next_job("rescuer", block_s=60)
        assert rerun is not None
        assert (rerun.id, rerun.result) == (again.id, {"archived": 0})
