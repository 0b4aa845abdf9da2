"""`cognimem serve --metrics-port P`: each server process serves its own app's metrics on
a port of its own.

Real `cognimem serve` processes over real HTTP. With `--workers 2` the two processes take
P and P+1 (one each, seen in /proc), and after reads through the shared API port (each on
a new connection, so the kernel hands it to either process) each port counts the reads
its own process answered: both non-zero, summing to the reads made. One process serves
the same registry on P as on its `/metrics` route. A port with no token configured, and a
range whose every port is taken, stop the server with a clear error. In-process, the port
answers while the app's event loop is held (as a CPU-bound step holds it) and is released
when the app stops. Every wait polls up to a generous deadline (no timing asserts)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TypeVar

import httpx
from prometheus_client.parser import text_string_to_metric_families

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.children import CognimemChild
from tests.conftest import child_env
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, free_port, wait_healthy
from tests.integration.test_serve_workers import spawned_workers
from tests.integration.test_worker_metrics import listening_ports

TOKEN = "serve-metrics-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
DEADLINE_S = 300  # generous: processes start on a busy 2-core machine
T = TypeVar("T")


def free_port_pair() -> int:
    """A port P with P and P+1 both free at this moment."""
    for _ in range(100):
        first = free_port()
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", first))
                b.bind(("127.0.0.1", first + 1))
        except OSError:
            continue
        return first
    raise AssertionError("no two consecutive free ports")


class Serve(CognimemChild):
    """A `cognimem serve` child process on a free port, its output going to ``log``."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        super().__init__(
            ["serve", "--port", str(self.port), *args], env, log, deadline_s=DEADLINE_S
        )


@contextmanager
def serving(args: list[str], env: dict[str, str], log: Path) -> Iterator[Serve]:
    server = Serve(args, env, log)
    try:
        yield server
    finally:
        code = server.stop()
    assert code == 0, server.output()


def reads_counted(url: str) -> int | None:
    """The reads ``url``'s exposition counts, or None while it does not answer 200."""
    try:
        response = httpx.get(url, headers=AUTH, timeout=PATIENT)
    except httpx.TransportError:
        return None
    if response.status_code != 200:
        return None
    return int(
        sum(
            s.value
            for family in text_string_to_metric_families(response.text)
            for s in family.samples
            if s.name == "cognimem_reads_with_facts_total"
        )
    )


def read_once(base: str, auth: dict[str, str]) -> None:
    # a new client each time: a new connection, which either process may accept
    with httpx.Client(base_url=base, headers=auth, timeout=PATIENT) as client:
        response = client.post(
            "/v1/memory/read",
            json={"query": "where is the spare key?", "scope": {"user_id": "ada"}},
        )
    assert response.status_code == 200, response.text


def env_for(url: str, **more: str) -> dict[str, str]:
    return child_env(
        COGNIMEM_EMBEDDING__MODEL="hashing",
        COGNIMEM_DATABASE_URL=url,
        COGNIMEM_LOG__FORMAT="text",
        **more,
    )


def _two_processes_scenario(url: str, tmp_path: Path) -> None:
    first = free_port_pair()
    ports = [first, first + 1]
    urls = [f"http://127.0.0.1:{p}/metrics" for p in ports]
    args = ["--workers", "2", "--metrics-port", str(first)]
    env = env_for(url, COGNIMEM_AUTH__METRICS_TOKEN=TOKEN)
    with serving(args, env, tmp_path / "serve.log") as server:
        wait_healthy(server.base, server.exited, timeout=DEADLINE_S)
        server.wait_for(
            "both metrics ports", lambda: all(reads_counted(u) == 0 for u in urls) or None
        )

        # one port per process, each process its own (polled: /proc is read while the
        # processes run)
        def one_port_each() -> bool | None:
            workers = spawned_workers(server.popen.pid)
            try:
                held = sorted(sorted(listening_ports(pid) - {server.port}) for pid in workers)
            except OSError:  # a process that ended meanwhile
                return None
            return held == [[first], [first + 1]] or None

        server.wait_for("one metrics port held by each process", one_port_each)
        # each process logs the port it took
        lines = [f"its metrics on {u}" for u in urls]
        server.wait_for(
            "a log line per port", lambda: all(x in server.output() for x in lines) or None
        )
        assert httpx.get(urls[0], timeout=PATIENT).status_code == 401
        auth = {"Authorization": f"Bearer {issue_api_key(url)}"}
        made = 0

        def both_served() -> bool | None:
            nonlocal made
            read_once(server.base, auth)
            made += 1
            counts = [reads_counted(u) or 0 for u in urls]
            return all(counts) or None

        server.wait_for("a read answered by each process", both_served)

        # a read is counted before its answer is sent: the sum is exact once both agree
        def all_counted() -> list[int] | None:
            found = [reads_counted(u) for u in urls]
            counts = [c for c in found if c is not None]
            return counts if len(counts) == 2 and sum(counts) == made else None

        counts = server.wait_for("every read counted", all_counted)
        assert all(c >= 1 for c in counts), (counts, made)


def test_serve_workers_metrics_port_per_process_on_sqlite(tmp_path: Path) -> None:
    _two_processes_scenario(f"sqlite:///{tmp_path / 'shared.db'}", tmp_path)


def test_serve_workers_metrics_port_per_process_on_postgres(
    postgres_dsn: str, tmp_path: Path
) -> None:
    _two_processes_scenario(postgres_dsn, tmp_path)


def test_serve_one_process_metrics_port_serves_its_routes_registry(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    port = free_port()
    metrics_url = f"http://127.0.0.1:{port}/metrics"
    env = env_for(url, COGNIMEM_AUTH__METRICS_TOKEN=TOKEN)
    with serving(["--metrics-port", str(port)], env, tmp_path / "serve.log") as server:
        wait_healthy(server.base, server.exited, timeout=DEADLINE_S)
        server.wait_for(
            "the metrics line", lambda: f"Metrics: {metrics_url}" in server.output() or None
        )
        auth = {"Authorization": f"Bearer {issue_api_key(url)}"}
        for _ in range(3):
            read_once(server.base, auth)
        assert reads_counted(metrics_url) == 3
        assert reads_counted(f"{server.base}/metrics") == 3  # the route's registry: the same
        assert httpx.get(metrics_url, timeout=PATIENT).status_code == 401


def test_serve_refuses_a_metrics_port_without_a_token(tmp_path: Path) -> None:
    env = env_for(f"sqlite:///{tmp_path}/x.db")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cognimem",
            "serve",
            "--port",
            str(free_port()),
            "--workers",
            "2",
            "--metrics-port",
            str(free_port()),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0
    assert "COGNIMEM_AUTH__METRICS_TOKEN" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_serve_stops_when_every_metrics_port_is_taken(tmp_path: Path) -> None:
    first = free_port_pair()
    env = env_for(f"sqlite:///{tmp_path / 'x.db'}", COGNIMEM_AUTH__METRICS_TOKEN=TOKEN)
    with ExitStack() as held:
        for port in (first, first + 1):
            sock = held.enter_context(socket.socket())
            sock.bind(("127.0.0.1", port))
            sock.listen()
        server = Serve(["--workers", "2", "--metrics-port", str(first)], env, tmp_path / "s.log")
        try:
            code = server.popen.wait(timeout=DEADLINE_S)
        finally:
            server.stop()
    output = server.output()
    assert code != 0, output
    assert f"no free metrics port on 127.0.0.1 in {first}..{first + 1}" in output
    assert "a server process failed to start" in output


def test_the_metrics_port_answers_while_the_apps_loop_is_held(tmp_path: Path) -> None:
    settings = Settings.model_validate(
        {"auth": {"metrics_token": TOKEN}, "server": {"metrics_port": 0}}
    )
    memory = Memory.open(
        f"sqlite:///{tmp_path / 'm.db'}", settings=settings, embedder=HashingEmbedder()
    )
    app = create_app(memory)
    started, release = threading.Event(), threading.Event()

    async def run() -> None:
        async with app.router.lifespan_context(app):
            started.set()
            release.wait(DEADLINE_S)  # blocks the app's loop thread until the scrape is done

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(asyncio.run, run())
        try:
            deadline = time.monotonic() + DEADLINE_S
            while not started.wait(0.05):
                assert not running.done(), running.result()
                assert time.monotonic() < deadline, "the app did not start"
            port = app.state.metrics_port.port
            response = httpx.get(app.state.metrics_port.url, headers=AUTH, timeout=PATIENT)
        finally:
            release.set()
        running.result(DEADLINE_S)
    assert response.status_code == 200, response.text
    assert "cognimem_http_request_duration_seconds" in response.text  # the app's registry
    assert app.state.metrics_port is None
    with socket.socket() as again:  # released at shutdown: nothing listens there now
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME_WAIT
        again.bind(("127.0.0.1", port))
        again.listen()
