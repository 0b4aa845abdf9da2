"""Scale-out reliability: several `cognimem serve` and `cognimem worker` processes on one
PostgreSQL and one Redis, a worker killed while it holds a job, and PostgreSQL or Redis
going away under a running API.

Everything is real: servers, processes, HTTP over loopback. Process output goes to files
(not pipes: uvicorn logs every request and a full pipe would stall the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import subprocess
import sys
import time
import uuid
import warnings
from collections.abc import Coroutine, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import pytest

from cognimem import AsyncMemoryClient, CognimemError
from cognimem.queue import JobState
from tests import servers
from tests.conftest import child_env, require_postgres, run_in_thread
from tests.doubles import issue_api_key
from tests.e2e.http_server import serving, wait_healthy
from tests.relay import relaying

SRC = Path(__file__).resolve().parents[2] / "src"
# the session Redis is shared; the queue stream name of `cognimem serve/worker` is fixed,
# so the scale-out test keeps to a database index nobody else uses and flushes it first
SCALE_OUT_REDIS_DB = 7
# `cognimem serve` and `cognimem worker` both exit 0 after a graceful SIGTERM shutdown
SERVE_CLEAN_EXIT = {0}
# 1,000 jobs take the two workers ~16 s on a 2-core machine running two CPU hogs
JOBS_DONE_WITHIN_S = 600
# The write client's pool never closes a connection of its own accord. httpcore 1.0.9's
# pool hands an idle connection to a waiting request, and until that request's task runs
# the connection still looks idle: another request's pass over the pool may close it then,
# because its keep-alive expiry (httpx's 5 s) has passed meanwhile -- as it has for every
# pooled connection after a busy machine stalls for 5 s -- or to make room for the other
# API's connections at max_connections; a request that has started on it by the time the
# close comes reads from a socket closed under it (ReadError from ClosedResourceError; the
# server logs a 400 when the body stops; encode/httpcore#1110). With no expiry (the APIs
# keep idle connections 75 s, and the writes leave none idle) and room for 50 connections
# to each API (50 requests at once), the pool has nothing to close.
WRITE_LIMITS = httpx.Limits(
    max_connections=100, max_keepalive_connections=100, keepalive_expiry=None
)


# ------------------------------------------------------------------------- helpers


def _env(**settings: str) -> dict[str, str]:
    """The parent's environment without the developer's COGNIMEM_* settings (with the
    suite's read limits), plus `settings`."""
    env = child_env()
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])
    env["COGNIMEM_EMBEDDING__MODEL"] = "hashing"
    # these tests load the servers on purpose; rate limits have tests of their own
    env["COGNIMEM_AUTH__RATE_LIMIT_PER_MINUTE"] = "1000000"
    env.update(settings)
    return env


def _api_key(env: dict[str, str]) -> dict[str, str]:
    """Headers with a fresh key of the default tenant in ``env``'s database, issued in
    this process (`cognimem keys create` has its own tests; a process start here cost
    ~1.5 s of CPU and a fifth of a scenario's wall time)."""
    return {"Authorization": f"Bearer {issue_api_key(env['COGNIMEM_DATABASE_URL'])}"}


class Proc:
    """A child process whose output goes to a log file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self._out = log.open("wb")
        self.popen = subprocess.Popen(
            args, env=env, stdin=subprocess.DEVNULL, stdout=self._out, stderr=subprocess.STDOUT
        )

    def output(self) -> str:
        if not self._out.closed:
            self._out.flush()
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.popen.poll() is None

    def exited(self) -> str | None:
        """Its output once it has stopped; None while it runs."""
        return None if self.alive() else self.output()

    def terminate(self, timeout: float = 30) -> int:
        """SIGTERM and wait; the exit status (SIGKILL after `timeout`, then -9)."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=10)
        self._out.close()
        return self.popen.returncode

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait(timeout=10)
        self._out.close()


@contextlib.contextmanager
def _processes() -> Iterator[list[Proc]]:
    """A list to add processes to; any still running at the end are killed."""
    procs: list[Proc] = []
    try:
        yield procs
    finally:
        for p in procs:
            with contextlib.suppress(Exception):
                p.kill()


def _serve(tmp_path: Path, env: dict[str, str], name: str) -> tuple[Proc, str]:
    port = servers.free_port()
    proc = Proc(
        [sys.executable, "-m", "cognimem", "serve", "--port", str(port)],
        env,
        tmp_path / f"{name}.log",
    )
    return proc, f"http://127.0.0.1:{port}"


def _worker(tmp_path: Path, env: dict[str, str], name: str) -> Proc:
    return Proc(
        [sys.executable, "-m", "cognimem", "worker", "--name", name],
        env,
        tmp_path / f"{name}.log",
    )


def _wait_output(proc: Proc, text: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while text not in proc.output():
        assert proc.alive(), f"process exited early:\n{proc.output()}"
        assert time.monotonic() < deadline, f"no {text!r} in {timeout} s:\n{proc.output()}"
        time.sleep(0.05)


def _assert_served_and_stopped(proc: Proc, code: int) -> None:
    """A `cognimem serve` process that was sent SIGTERM shut down cleanly."""
    output = proc.output()
    assert code in SERVE_CLEAN_EXIT, f"exit status {code}:\n{output[-3000:]}"
    assert "Application shutdown complete." in output, output[-3000:]
    assert "Finished server process" in output, output[-3000:]


def _pg(dsn: str, sql: str, *args: Any) -> Any:
    """One value from PostgreSQL (its own connection, on a private loop)."""
    import asyncpg

    async def go() -> Any:
        conn = await asyncpg.connect(dsn, timeout=10)
        try:
            return await conn.fetchval(sql, *args)
        finally:
            await conn.close()

    return run_in_thread(go)


T = TypeVar("T")


async def _together(calls: Iterable[Coroutine[Any, Any, T]]) -> list[T]:
    """Run ``calls`` concurrently, results in order. The first failure cancels the rest
    and is raised once they have all ended, so the scenario's clients close no request
    still in flight (``asyncio.gather`` leaves them running while the clients close, and
    their sockets, never closed, fail a later test on the same worker with an
    unraisable ``ResourceWarning``).

    The cancelling is anyio's, not ``asyncio.TaskGroup``'s: httpcore closes a cancelled
    request's connection, and the connections its pool drops, inside anyio scopes shielded
    from cancellation, which anyio's cancelling respects and a plain ``Task.cancel()``
    does not -- a write failing after a stall, as the pool was closing the connections
    that had expired meanwhile, left their sockets unclosed under ``asyncio.TaskGroup``."""
    pending = list(calls)
    results: dict[int, T] = {}

    async def run(i: int) -> None:
        results[i] = await pending[i]

    try:
        async with anyio.create_task_group() as group:
            for i in range(len(pending)):
                group.start_soon(run, i)
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from None
    finally:
        for call in pending:  # one cancelled before it began was never awaited
            call.close()
    return [results[i] for i in range(len(pending))]


class _Asked(logging.Handler):
    """The SDK's "asking again" log lines: requests it sent once more after their
    connection closed without an answer (counted in the scenario's summary)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _errors_logged(proc: Proc) -> list[str]:
    """The lines of a process's JSON log at level ERROR or above (an exception in the
    app, which uvicorn answers by closing the connection once a response has started)."""
    return [
        line
        for line in proc.output().splitlines()
        if '"level": "ERROR"' in line or '"level": "CRITICAL"' in line
    ]


def _token() -> str:
    """A unique word of letters only (digits or hex could look like a secret or PII)."""
    return "tok" + "".join(chr(ord("a") + int(c, 16)) for c in uuid.uuid4().hex[:12])


# ------------------------------------------------ 1. two APIs + two workers, 1,000 writes


@pytest.mark.slow
def test_two_apis_and_two_workers_share_postgres_and_redis(
    postgres_dsn: str, redis_server: servers.RedisServer, tmp_path: Path
) -> None:
    import redis

    queue_url = f"redis://127.0.0.1:{redis_server.port}/{SCALE_OUT_REDIS_DB}"
    with redis.Redis.from_url(queue_url) as client:
        client.flushdb()
    env = _env(
        COGNIMEM_DATABASE_URL=postgres_dsn,
        COGNIMEM_QUEUE_URL=queue_url,
        COGNIMEM_INGEST__MODE="async",
        # each message's unique word in its own lexical index only, not also in the next
        # message's (the previous message's text is that one's lexical context): BM25
        # would tie the two, and the vector step cannot always settle it (a word whose
        # hashed slot cancels a word every message has leaves the message orthogonal to
        # its own word; pgvector's HNSW can miss the one near item among equidistant ones)
        COGNIMEM_INGEST__CONTEXT_CHARS="0",
        # ingestion only: the workers' scheduler would queue consolidation once a user has
        # 50 episodes (each user writes 50), adding summaries to the items and jobs this
        # counts whenever a slow run lets a tick come round (lifecycle jobs on Redis are
        # tested in tests/e2e/test_lifecycle_crash.py)
        COGNIMEM_LIFECYCLE__SCHEDULE="false",
    )
    # the spawned servers' reads plan with the suite's limits, not the preset's
    read_budget_s = float(env["COGNIMEM_RECALL__BUDGET_S"])
    users = [f"u{i}" for i in range(20)]
    writes = [
        {
            "user": users[i % 20],
            "text": f"user {users[i % 20]} note {i // 20} word {_token()}",
            "key": f"scale-{i}",
        }
        for i in range(1000)
    ]

    auth = _api_key(env)
    with _processes() as procs:
        api1, base1 = _serve(tmp_path, env, "api1")
        api2, base2 = _serve(tmp_path, env, "api2")
        w1 = _worker(tmp_path, env, "w1")
        w2 = _worker(tmp_path, env, "w2")
        procs += [api1, api2, w1, w2]
        wait_healthy(base1, api1.exited)
        wait_healthy(base2, api2.exited)
        bases = [base1, base2]
        t0 = time.monotonic()
        phases: dict[str, float] = {}

        async def scenario() -> None:
            key = auth["Authorization"].removeprefix("Bearer ")
            # writes through plain HTTP (their status and headers are checked); job polls
            # and reads through the SDK, one client per API, as an application polls and
            # reads: a request safe to repeat whose connection closes without an answer
            # is asked again once (counted below), anything else fails the test
            async with (
                httpx.AsyncClient(timeout=120, limits=WRITE_LIMITS, headers=auth) as client,
                AsyncMemoryClient(base1, api_key=key, timeout=120) as sdk1,
                AsyncMemoryClient(base2, api_key=key, timeout=120) as sdk2,
            ):
                sdks = [sdk1, sdk2]
                gate = asyncio.Semaphore(50)

                async def post(i: int) -> dict[str, Any]:
                    w = writes[i]
                    async with gate:
                        r = await client.post(
                            f"{bases[i % 2]}/v1/memory/write",
                            json={
                                "content": w["text"],
                                "idempotency_key": w["key"],
                                "scope": {"user_id": w["user"]},
                            },
                        )
                    assert r.status_code == 202, (i, r.status_code, r.text)
                    body = r.json()
                    assert body["mode"] == "async"
                    assert body["job_id"]
                    assert r.headers["location"] == f"/v1/jobs/{body['job_id']}"
                    return dict(body)

                answers = await _together(post(i) for i in range(len(writes)))
                phases["accepted"] = time.monotonic() - t0
                job_ids = [a["job_id"] for a in answers]
                assert len(set(job_ids)) == len(writes)

                # a client retry (same idempotency key, either API) is a duplicate: no new
                # event, no new job
                async def retry(i: int) -> None:
                    w = writes[i]
                    async with gate:
                        r = await client.post(
                            f"{bases[(i + 1) % 2]}/v1/memory/write",
                            json={
                                "content": w["text"],
                                "idempotency_key": w["key"],
                                "scope": {"user_id": w["user"]},
                            },
                        )
                    body = r.json()
                    # processed already: 200 and no job; not yet: 202 with the job that will
                    assert (r.status_code, body["job_id"]) in (
                        (200, None),
                        (202, answers[i]["job_id"]),
                    ), r.text
                    assert body["messages"][0]["outcome"] == "duplicate"
                    assert body["messages"][0]["event_id"] == answers[i]["messages"][0]["event_id"]

                await _together(retry(i) for i in range(0, len(writes), 20))

                # every job ends done (asked of either API); a failed job or a dead worker
                # fails at once, so the deadline only has to be generous
                pending = dict(enumerate(job_ids))
                deadline = time.monotonic() + JOBS_DONE_WITHIN_S
                while pending:
                    for p in (w1, w2):
                        assert p.alive(), p.output()

                    async def state(i: int, job_id: str) -> tuple[int, JobState]:
                        async with gate:
                            job = await sdks[i % 2].get_job(job_id)
                        assert job.state is not JobState.FAILED, job
                        return i, job.state

                    states = await _together(state(i, j) for i, j in pending.items())
                    for i, s in states:
                        if s is JobState.DONE:
                            del pending[i]
                    if pending:
                        assert time.monotonic() < deadline, (
                            f"{len(pending)} job(s) not done in time; "
                            f"w1:\n{w1.output()[-2000:]}\nw2:\n{w2.output()[-2000:]}"
                        )
                        await asyncio.sleep(0.5)

                phases["done"] = time.monotonic() - t0

                # readable in its own scope: the exact text, first, found by its unique
                # word. The servers run under the suite's read limits (tests/conftest.py);
                # a step cut even so is reported as such, not as a wrong ranking
                async def own(i: int) -> None:
                    w = writes[i]
                    token = w["text"].rsplit(" ", 1)[1]
                    async with gate:
                        packet = await sdks[(i + 1) % 2].read(token, user_id=w["user"], limit=1)
                    assert packet.meta["plan"]["budget_s"] == read_budget_s
                    cut = [s for s in packet.steps if s.timed_out or s.error]
                    assert not cut, f"read {i}: steps cut on a machine this busy: {cut}"
                    found = [it.text for it in packet.items]
                    assert found == [w["text"]], (i, found, packet.degraded, packet.steps)

                await _together(own(i) for i in range(len(writes)))

                # ... and in no other scope
                async def other(i: int) -> None:
                    w = writes[i]
                    token = w["text"].rsplit(" ", 1)[1]
                    stranger = users[(i + 7) % 20]
                    async with gate:
                        packet = await sdks[i % 2].read(token, user_id=stranger, limit=10)
                    for it in packet.items:
                        assert token not in it.text, (i, stranger, it)

                await _together(other(i) for i in range(0, len(writes), 5))

        asked = _Asked()
        logging.getLogger("cognimem.client").addHandler(asked)
        try:
            asyncio.run(scenario())
        except (httpx.TransportError, CognimemError, AssertionError) as exc:
            # what the APIs said is what tells a dropped connection's cause
            said = "\n".join(
                f"{name} (alive: {p.alive()}):\n{p.output()[-3000:]}"
                for name, p in (("api1", api1), ("api2", api2))
            )
            raise AssertionError(f"{exc!r}\nasked again: {asked.lines}\n{said}") from exc
        finally:
            logging.getLogger("cognimem.client").removeHandler(asked)
        elapsed = time.monotonic() - t0
        # a connection the server closed on an error of its own is the server's fault,
        # whether or not the client asked again
        for api in (api1, api2):
            assert _errors_logged(api) == [], _errors_logged(api)[:5]

        assert _pg(postgres_dsn, "SELECT count(*) FROM items") == len(writes)
        assert _pg(postgres_dsn, "SELECT count(*) FROM events") == len(writes)
        assert _pg(postgres_dsn, "SELECT count(DISTINCT text) FROM items") == len(writes)
        per_user = _pg(
            postgres_dsn,
            "SELECT count(*) FROM items WHERE user_id IS NULL "
            "OR split_part(text, ' ', 2) <> user_id",
        )
        assert per_user == 0  # every item sits in the scope of the user it names

        codes = {p.log.stem: p.terminate() for p in (api1, api2, w1, w2)}
        for api in (api1, api2):
            _assert_served_and_stopped(api, codes[api.log.stem])
        assert (codes["w1"], codes["w2"]) == (0, 0), (w1.output()[-2000:], w2.output()[-2000:])
        handled = [
            int(p.output().rsplit("stopped after ", 1)[1].split(" ", 1)[0]) for p in (w1, w2)
        ]
        assert sum(handled) == len(writes)
        print(
            f"1,000 writes through 2 APIs + 2 workers: accepted after {phases['accepted']:.1f} s, "
            f"all jobs done after {phases['done']:.1f} s, checks done after {elapsed:.1f} s; "
            f"jobs per worker {handled}; requests asked again after a dropped connection: "
            f"{len(asked.lines)} {asked.lines[:3]}"
        )


def test_a_failing_scenario_ends_its_requests_before_its_client_closes() -> None:
    """The scenario's first failure (here a connection reset under 50 concurrent
    requests) leaves no socket behind for the garbage collector to report in a later
    test on the same worker (with ``asyncio.gather`` in ``_together``'s place, several)."""
    from fastapi import FastAPI

    app = FastAPI()

    @app.get("/slow/{i}")
    async def slow(i: int) -> dict[str, int]:
        await asyncio.sleep(0.01 * (i % 7))
        return {"i": i}

    with serving(app) as base, relaying(int(base.rsplit(":", 1)[1])) as relay:

        async def scenario() -> None:
            limits = httpx.Limits(max_connections=60, max_keepalive_connections=60)
            async with httpx.AsyncClient(timeout=120, limits=limits) as client:
                gate = asyncio.Semaphore(50)

                async def one(i: int) -> None:
                    async with gate:
                        if i == 150:
                            relay.drop_next("before", "reset")
                        (await client.get(f"{relay.url}/slow/{i}")).raise_for_status()

                await _together(one(i) for i in range(1000))

        with pytest.raises(httpx.ReadError):
            asyncio.run(scenario())
    left: list[str] = []
    hook, sys.unraisablehook = sys.unraisablehook, lambda u: left.append(repr(u.exc_value))
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            gc.collect()
    finally:
        sys.unraisablehook = hook
    assert left == []
    assert [str(w.message) for w in seen if w.category is ResourceWarning] == []


# ------------------------------------------------ 2. a worker killed while it holds a job

_DOOMED_WORKER = """
import asyncio, sys

from cognimem import Memory, Settings
from cognimem.providers.fakes import HashingEmbedder
from cognimem.queue.redis import RedisJobQueue
from cognimem.store import open_store


async def main() -> None:
    dsn, url, name = sys.argv[1:4]
    queue = RedisJobQueue(
        url, stream=f"{name}:jobs", dead_letter_stream=f"{name}:dead",
        key_prefix=f"{name}:job:", visibility_timeout_s=1,
    )
    settings = Settings.model_validate({"ingest": {"mode": "async"}})
    async with Memory(open_store(dsn), HashingEmbedder(), settings, queue=queue) as mem:
        delivery = await mem.queue.claim("doomed", block_s=30)
        assert delivery is not None
        print(f"claimed {delivery.job.id}", flush=True)
        await asyncio.sleep(3600)


asyncio.run(main())
"""


async def test_a_worker_killed_while_holding_a_job_loses_nothing(
    postgres_dsn: str, redis_server: servers.RedisServer, tmp_path: Path
) -> None:
    from cognimem import Memory, Settings
    from cognimem.providers.fakes import HashingEmbedder
    from cognimem.queue.redis import RedisJobQueue
    from cognimem.store import open_store

    name = f"kill{uuid.uuid4().hex[:10]}"
    queue = RedisJobQueue(
        redis_server.url,
        stream=f"{name}:jobs",
        dead_letter_stream=f"{name}:dead",
        key_prefix=f"{name}:job:",
        visibility_timeout_s=1,
    )
    settings = Settings.model_validate({"ingest": {"mode": "async"}})
    texts = [f"message {n} of the doomed job {_token()}" for n in range(3)]
    script = tmp_path / "doomed_worker.py"
    script.write_text(_DOOMED_WORKER)

    async with Memory(open_store(postgres_dsn), HashingEmbedder(), settings, queue=queue) as mem:
        result = await mem.write_batch(texts, user_id="u")
        assert result.job_id is not None
        with _processes() as procs:
            doomed = Proc(
                [sys.executable, str(script), postgres_dsn, redis_server.url, name],
                _env(),
                tmp_path / "doomed.log",
            )
            procs.append(doomed)
            await asyncio.to_thread(_wait_output, doomed, "claimed ")
            assert f"claimed {result.job_id}" in doomed.output()
            held = await mem.get_job(result.job_id)
            assert held.state is JobState.RUNNING
            assert held.attempts == 1
            doomed.popen.send_signal(signal.SIGKILL)
            doomed.popen.wait(timeout=10)
            assert doomed.popen.returncode == -signal.SIGKILL
            killed_at = time.monotonic()

        # another worker gets the job once the lease (1 s) has run out, while it blocks
        # for new jobs: long before its block ends (a loaded machine takes seconds, not
        # the block's two minutes)
        block_s = 120
        job = await mem.process_next_job("rescuer", block_s=block_s)
        waited = time.monotonic() - killed_at
        assert job is not None
        assert job.id == result.job_id
        assert job.state is JobState.DONE, job
        assert job.attempts == 2
        assert waited < block_s / 2, f"the job was reclaimed only after {waited:.1f} s"
        assert await mem.process_next_job("rescuer") is None  # nothing left, nothing twice

        for text, message in zip(texts, result.messages, strict=True):
            assert _pg(postgres_dsn, "SELECT count(*) FROM items WHERE text = $1", text) == 1
            linked = _pg(
                postgres_dsn,
                "SELECT count(*) FROM item_events WHERE event_id = $1",
                message.event_id,
            )
            assert linked == 1
            packet = await mem.read(text.rsplit(" ", 1)[1], user_id="u", limit=1)
            assert [i.text for i in packet.items] == [text]
        assert _pg(postgres_dsn, "SELECT count(*) FROM items") == len(texts)
        assert _pg(postgres_dsn, "SELECT count(*) FROM events") == len(texts)


# ------------------------------------------------ 3. PostgreSQL stops under the API


@pytest.fixture
def own_postgres(tmp_path: Path) -> Iterator[servers.PostgresServer]:
    """A cluster of this test's own: stopping it disturbs nobody else."""
    require_postgres()
    pg = servers.start_postgres(tmp_path / "pg")
    try:
        yield pg
    finally:
        pg.destroy()


@pytest.mark.slow
def test_postgres_stops_during_a_write_through_http(
    own_postgres: servers.PostgresServer, tmp_path: Path
) -> None:
    dsn = own_postgres.dsn
    text = f"the boiler service is booked for friday {_token()}"
    request = {
        "content": text,
        "idempotency_key": "boiler-1",
        "scope": {"user_id": "ada"},
    }
    auth = _api_key(_env(COGNIMEM_DATABASE_URL=dsn))
    with _processes() as procs:
        api, base = _serve(tmp_path, _env(COGNIMEM_DATABASE_URL=dsn), "api")
        procs.append(api)
        wait_healthy(base, api.exited)
        with httpx.Client(base_url=base, timeout=60, headers=auth) as client:
            before = client.post(
                "/v1/memory/write",
                json={"content": "before the outage", "scope": {"user_id": "ada"}},
            )
            assert before.status_code == 200, before.text

            own_postgres.stop()
            down = client.post("/v1/memory/write", json=request)
            assert down.status_code == 503, down.text
            assert int(down.headers["retry-after"]) >= 1
            error = down.json()["error"]
            assert error["type"] == "StoreUnavailable"
            assert error["message"]
            # reads say the same, and the API itself stays up
            read_down = client.post(
                "/v1/memory/read", json={"query": "boiler", "scope": {"user_id": "ada"}}
            )
            assert read_down.status_code == 503, read_down.text
            assert read_down.json()["error"]["type"] == "StoreUnavailable"
            assert client.get("/v1/health").status_code == 200

            own_postgres.start()
            up = client.post("/v1/memory/write", json=request)
            assert up.status_code == 200, up.text
            [message] = up.json()["messages"]
            assert message["outcome"] == "stored"
            assert len(message["item_ids"]) == 1
            # the client retries once more (it never trusted the first answer): a duplicate
            again = client.post("/v1/memory/write", json=request)
            assert again.status_code == 200, again.text
            assert again.json()["messages"][0]["outcome"] == "duplicate"
            assert again.json()["messages"][0]["event_id"] == message["event_id"]

            read = client.post(
                "/v1/memory/read",
                json={"query": text.rsplit(" ", 1)[1], "scope": {"user_id": "ada"}, "limit": 10},
            )
            assert read.status_code == 200, read.text
            found = [i for i in read.json()["items"] if i["text"] == text]
            assert len(found) == 1

        assert _pg(dsn, "SELECT count(*) FROM events WHERE content = $1", text) == 1
        assert _pg(dsn, "SELECT count(*) FROM items WHERE text = $1", text) == 1
        assert _pg(dsn, "SELECT count(*) FROM events") == 2
        assert _pg(dsn, "SELECT count(*) FROM items") == 2
        _assert_served_and_stopped(api, api.terminate())


# ------------------------------------------------ 4. Redis stops under an async-mode API


@pytest.mark.slow
def test_redis_stops_under_async_mode_through_http(
    postgres_dsn: str, redis_server: servers.RedisServer, tmp_path: Path
) -> None:
    servers.require("redis")
    redis = servers.start_redis(tmp_path / "redis")
    try:
        common = {
            "COGNIMEM_DATABASE_URL": postgres_dsn,
            "COGNIMEM_QUEUE_URL": redis.url,
            "COGNIMEM_INGEST__MODE": "async",
            # rate limits in another Redis, which stays up: this test stops the queue's
            "COGNIMEM_AUTH__REDIS_URL": redis_server.url,
        }
        auth = _api_key(_env(**common))
        with _processes() as procs:
            lenient, lenient_base = _serve(
                tmp_path, _env(**common, COGNIMEM_INGEST__ON_QUEUE_UNAVAILABLE="sync"), "lenient"
            )
            strict, strict_base = _serve(
                tmp_path, _env(**common, COGNIMEM_INGEST__ON_QUEUE_UNAVAILABLE="fail"), "strict"
            )
            procs += [lenient, strict]
            wait_healthy(lenient_base, lenient.exited)
            wait_healthy(strict_base, strict.exited)

            def write(base: str, text: str, key: str) -> httpx.Response:
                return httpx.post(
                    f"{base}/v1/memory/write",
                    json={"content": text, "idempotency_key": key, "scope": {"user_id": "bo"}},
                    timeout=60,
                    headers=auth,
                )

            assert write(strict_base, f"queued first {_token()}", "k0").status_code == 202
            redis.stop()

            kept = f"written while redis is down {_token()}"
            r = write(lenient_base, kept, "k1")
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["mode"] == "sync"
            assert body["job_id"] is None
            assert body["degraded"]
            assert body["degraded"][0].startswith("queue unavailable, ingested synchronously")
            assert body["messages"][0]["outcome"] == "stored"
            read = httpx.post(
                f"{lenient_base}/v1/memory/read",
                json={"query": kept.rsplit(" ", 1)[1], "scope": {"user_id": "bo"}, "limit": 1},
                timeout=60,
                headers=auth,
            )
            assert read.status_code == 200, read.text
            assert [i["text"] for i in read.json()["items"]] == [kept]

            refused = f"refused while redis is down {_token()}"
            r = write(strict_base, refused, "k2")
            assert r.status_code == 503, r.text
            assert int(r.headers["retry-after"]) >= 1
            assert r.json()["error"]["type"] == "StoreUnavailable"
            assert _pg(postgres_dsn, "SELECT count(*) FROM events WHERE content = $1", refused) == 0
            assert _pg(postgres_dsn, "SELECT count(*) FROM items WHERE text = $1", refused) == 0

            # Redis is back: the same request is queued (the refusal left no idempotency
            # record behind that would turn it into a duplicate)
            redis.start()
            r = write(strict_base, refused, "k2")
            assert r.status_code == 202, r.text
            assert r.json()["messages"][0]["outcome"] == "queued"
            assert _pg(postgres_dsn, "SELECT count(*) FROM events WHERE content = $1", refused) == 1

            for p in (lenient, strict):
                _assert_served_and_stopped(p, p.terminate())
    finally:
        redis.destroy()


# ------------------------------------------------ exit status of `cognimem serve`


def test_serve_exits_0_on_sigterm(tmp_path: Path) -> None:
    env = _env(COGNIMEM_DATABASE_URL=f"sqlite:///{tmp_path / 'memory.db'}")
    with _processes() as procs:
        api, base = _serve(tmp_path, env, "api")
        procs.append(api)
        wait_healthy(base, api.exited)
        code = api.terminate()
    assert "Application shutdown complete." in api.output()
    assert code == 0, f"exit status {code}"
