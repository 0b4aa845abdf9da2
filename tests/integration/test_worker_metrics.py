"""`cognimem worker --metrics-port`: a real worker process serves GET /metrics of the jobs
it runs, over real HTTP, behind the API's token check. A job whose LLM extraction fails
(FakeChatServer answers 500) is counted in cognimem_degraded_total{path="ingest_job"} on
the worker's port, on a SQLite file (its own queue) and on PostgreSQL with a real Redis
queue, and so are a job's write steps (cognimem_write_step_duration_seconds{path=
"ingest_job"}). Without the option the worker listens on no TCP port at all; with it and no token
configured it refuses to start. Every wait polls up to a deadline (no timing asserts)."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cognimem import Memory, Settings
from cognimem.metrics import degraded_reason
from cognimem.providers.llm import FakeChatServer
from cognimem.queue import JobState
from tests import servers
from tests.children import CognimemChild
from tests.conftest import child_env
from tests.e2e.http_server import PATIENT

TOKEN = "worker-metrics-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
DEADLINE_S = 180  # generous: a busy 2-core machine; nothing here asserts speed
# the Redis database of this file's queue (test_scale_out uses 7); flushed before use
REDIS_DB = 12
T = TypeVar("T")


@pytest.fixture
def chat() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


class Worker(CognimemChild):
    """A `cognimem worker` child process whose output goes to ``log``."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        super().__init__(["worker", *args], env, log, deadline_s=DEADLINE_S)


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on (its socket inodes in /proc/net/tcp*)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def ingest_job_degraded(url: str) -> dict[str, float]:
    response = httpx.get(url, headers=AUTH, timeout=PATIENT)
    assert response.status_code == 200, response.text
    return {
        s.labels["reason"]: s.value
        for family in text_string_to_metric_families(response.text)
        for s in family.samples
        if s.name == "cognimem_degraded_total" and s.labels["path"] == "ingest_job"
    }


def flushed_redis_url(redis: servers.RedisServer) -> str:
    import redis as redis_client

    url = f"{redis.url.rsplit('/', 1)[0]}/{REDIS_DB}"
    client = redis_client.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
    return url


def worker_env(
    url: str, queue_url: str | None, chat: FakeChatServer, **more: str
) -> dict[str, str]:
    settings = {
        "COGNIMEM_DATABASE_URL": url,
        "COGNIMEM_EMBEDDING__MODEL": "hashing",
        "COGNIMEM_LLM__MODEL": "fake-chat",
        "COGNIMEM_LLM__BASE_URL": chat.base_url,
        "COGNIMEM_LLM__MAX_RETRIES": "0",
        "COGNIMEM_LIFECYCLE__SCHEDULE": "false",
        **({} if queue_url is None else {"COGNIMEM_QUEUE_URL": queue_url}),
        **more,
    }
    return child_env(**settings)


def settings_of(env: dict[str, str]) -> Settings:
    """The settings ``env`` gives a process (read here from a dict, not os.environ)."""
    queue = env.get("COGNIMEM_QUEUE_URL")
    return Settings.model_validate(
        {
            "database_url": env["COGNIMEM_DATABASE_URL"],
            "embedding": {"model": "hashing"},
            "ingest": {"mode": "async"},
            **({} if queue is None else {"queue_url": queue}),
        }
    )


def test_a_worker_serves_its_degraded_jobs_on_its_metrics_port(
    memory_url: str, chat: FakeChatServer, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    queue_url = None
    if not memory_url.startswith("sqlite:///"):
        queue_url = flushed_redis_url(request.getfixturevalue("redis_server"))
    env = worker_env(memory_url, queue_url, chat, COGNIMEM_AUTH__METRICS_TOKEN=TOKEN)
    settings = settings_of(env)

    async def write() -> str:
        async with Memory.open(settings=settings) as mem:
            job_id = (await mem.write("My name is Alice.", user_id="u1")).job_id
            assert job_id is not None
            return job_id

    job_id = asyncio.run(write())
    chat.fail_next(500)  # the worker's extraction of that job fails
    worker = Worker(["--name", "wm", "--metrics-port", "0"], env, tmp_path / "worker.log")
    try:
        line = r"cognimem worker metrics on (http://127\.0\.0\.1:(\d+)/metrics)"
        found = worker.wait_for("metrics line", lambda: re.search(line, worker.output()))
        url, port = found.group(1), int(found.group(2))
        assert listening_ports(worker.popen.pid) == {port}
        counted = worker.wait_for("count", lambda: ingest_job_degraded(url) or None)

        async def job_error() -> str | None:
            async with Memory.open(settings=settings) as mem:
                job = await mem.get_job(job_id)
                assert job.state is JobState.DONE
                return job.error

        error = asyncio.run(job_error())
        assert error is not None
        assert error.startswith("llm extraction failed")
        assert counted == {degraded_reason(error): 1.0}
        # the API's token check: no token, a wrong one → 401; only /metrics is served
        assert httpx.get(url, timeout=PATIENT).status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert httpx.get(url, headers=wrong, timeout=PATIENT).status_code == 401
        other = url.removesuffix("/metrics") + "/v1/health"
        assert httpx.get(other, headers=AUTH, timeout=PATIENT).status_code == 404
    finally:
        status = worker.stop()
    assert status == 0, worker.output()
    assert "stopped after 1 job(s)" in worker.output()


WRITE_STEPS = {"gate", "extraction", "embedding", "reconciliation", "store"}


def write_step_counts(url: str) -> dict[tuple[str, str], float]:
    response = httpx.get(url, headers=AUTH, timeout=PATIENT)
    assert response.status_code == 200, response.text
    return {
        (s.labels["path"], s.labels["step"]): s.value
        for family in text_string_to_metric_families(response.text)
        for s in family.samples
        if s.name == "cognimem_write_step_duration_seconds_count"
    }


def test_a_worker_times_its_jobs_write_steps_on_its_metrics_port(
    memory_url: str, chat: FakeChatServer, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    queue_url = None
    if not memory_url.startswith("sqlite:///"):
        queue_url = flushed_redis_url(request.getfixturevalue("redis_server"))
    env = worker_env(memory_url, queue_url, chat, COGNIMEM_AUTH__METRICS_TOKEN=TOKEN)

    async def write() -> None:
        async with Memory.open(settings=settings_of(env)) as mem:
            assert (await mem.write("I moved to Lisbon in May.", user_id="u1")).job_id

    asyncio.run(write())
    worker = Worker(["--name", "ws", "--metrics-port", "0"], env, tmp_path / "worker.log")
    try:
        line = r"cognimem worker metrics on (http://127\.0\.0\.1:\d+/metrics)"
        found = worker.wait_for("metrics line", lambda: re.search(line, worker.output()))
        url = found.group(1)

        def all_steps() -> dict[tuple[str, str], float] | None:
            # a scrape may land while the job's steps are being observed, one by one
            counts = write_step_counts(url)
            return counts if {step for _, step in counts} >= WRITE_STEPS else None

        counted = worker.wait_for("job steps", all_steps)
    finally:
        status = worker.stop()
    assert status == 0, worker.output()
    assert "stopped after 1 job(s)" in worker.output()
    # each step of the one job, once; the worker answered no write (no path="write")
    assert counted == {("ingest_job", step): 1.0 for step in WRITE_STEPS}


def test_a_worker_has_no_metrics_port_by_default(
    db_url: str, chat: FakeChatServer, tmp_path: Path
) -> None:
    env = worker_env(db_url, None, chat, COGNIMEM_AUTH__METRICS_TOKEN=TOKEN)
    worker = Worker(["--name", "plain"], env, tmp_path / "worker.log")
    try:
        worker.wait_for("start", lambda: "started" in worker.output() or None)
        assert listening_ports(worker.popen.pid) == set()
        assert "metrics" not in worker.output()
    finally:
        status = worker.stop()
    assert status == 0, worker.output()


def test_a_metrics_port_without_a_token_refuses_to_start(
    db_url: str, chat: FakeChatServer, tmp_path: Path
) -> None:
    env = worker_env(db_url, None, chat, COGNIMEM_WORKER__METRICS_PORT="0")
    worker = Worker([], env, tmp_path / "worker.log")
    try:
        worker.wait_for(
            "exit or start",
            lambda: worker.popen.poll() is not None or "started" in worker.output() or None,
        )
        assert "started" not in worker.output()
        assert worker.popen.wait(timeout=DEADLINE_S) == 1, worker.output()
    finally:
        worker.stop()
    assert "COGNIMEM_AUTH__METRICS_TOKEN" in worker.output()
