"""Read latency over HTTP at 10k memories, with one and with eight concurrent clients,
beside the in-process ``Memory.read`` on the same database (the HTTP overhead as a ratio).

What it measures: ``POST /v1/memory/read`` (JSON packet, default preset, limit 10) against
``cognimem serve`` running as its own process (uvicorn, one worker, API-key auth and
rate limiting on, request logging at WARNING), from an httpx client with keep-alive in
this process; and ``Memory.read`` called in this process on the same SQLite file. Every
read, in every phase, uses a question never embedded before (neither the server's nor
this process's embedding cache can serve it). The phases run in rounds (in-process,
1 client, 8 clients, and again) so drift of the machine's load spreads over all three.

With eight clients each request's latency includes its wait behind the others (one
server process); throughput is reported beside it. Both processes share the machine's
cores, as a client and a server on one host do.

The corpus is the one of ``read_latency.py`` (synthetic chat turns in one user scope,
written through ``write_batch`` with the real embedder). Usage (repository root):

    python benchmarks/http_read_latency.py [--items 10000] [--reads 300] [--warmup 30]
        [--rounds 3] [--db PATH] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from _machine import describe
from read_latency import SEED, USER, FreshQueries, corpus, grow, stats

from cognimem import Memory
from cognimem.api.auth import issue_key
from cognimem.providers.embeddings import CachedEmbedder

ROOT = Path(__file__).resolve().parent.parent
AT = datetime(2026, 1, 1, tzinfo=UTC)
CLIENTS = (1, 8)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(url: str, pythonpath: str, **settings: str) -> dict[str, str]:
    """The environment of a benchmark's ``cognimem serve``: this process's without its
    ``COGNIMEM_`` settings, then the database at ``url``, no rate limit, warnings only,
    ``pythonpath`` and ``settings`` (more ``COGNIMEM_`` variables)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COGNIMEM_")}
    return env | {
        "COGNIMEM_DATABASE_URL": url,
        "COGNIMEM_AUTH__RATE_LIMIT_PER_MINUTE": "100000000",
        "COGNIMEM_LOG__LEVEL": "WARNING",
        "PYTHONPATH": pythonpath,
        **settings,
    }


def this_tree_path() -> str:
    """This repository's ``src`` first, then the caller's ``PYTHONPATH``."""
    return os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])


def start_server(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = server_env(f"sqlite:///{db}", this_tree_path())
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "cognimem", "serve", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


async def wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    async with httpx.AsyncClient(base_url=base) as client:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"cognimem serve exited with {proc.returncode}")
            try:
                if (await client.get("/v1/health", timeout=1)).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("cognimem serve did not become healthy")
            await asyncio.sleep(0.2)


class Phase:
    """The latencies of one way of reading, gathered over the rounds."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.ms: list[float] = []
        self.seconds = 0.0

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"phase": self.name, "reads": len(self.ms), **stats(self.ms)}
        out["reads_per_s"] = round(len(self.ms) / self.seconds, 1) if self.seconds else 0.0
        return out


async def timed(call: Callable[[], Awaitable[None]]) -> float:
    start = time.perf_counter()
    await call()
    return (time.perf_counter() - start) * 1000


Call = Callable[[], Awaitable[None]]


def read_calls(client: httpx.AsyncClient, mem: Memory, fresh: FreshQueries) -> tuple[Call, Call]:
    """The same read over HTTP and in-process, each on a fresh query; a failed or
    degraded read stops the benchmark."""

    async def over_http() -> None:
        body = {"query": await fresh.next(), "scope": {"user_id": USER}, "limit": 10}
        body["reference_time"] = AT.isoformat()
        response = await client.post("/v1/memory/read", json=body)
        if response.status_code != 200:
            raise RuntimeError(f"HTTP {response.status_code}: {response.text}")
        if response.json()["degraded"]:
            raise RuntimeError(f"degraded read: {response.json()['degraded']}")

    async def in_process() -> None:
        packet = await mem.read(await fresh.next(), user_id=USER, limit=10, reference_time=AT)
        if packet.degraded:
            raise RuntimeError(f"degraded read: {packet.degraded}")

    return over_http, in_process


async def run(args: argparse.Namespace, db: Path, log: Path) -> list[Phase]:
    async with Memory.open(f"sqlite:///{db}") as mem:
        assert isinstance(mem.embedder, CachedEmbedder)
        have = await grow(mem, corpus(SEED), args.items, 500)
        print(f"{have} items in the scope", flush=True)
        _, secret = await issue_key(mem.store, "default", name="http-bench")
        fresh = FreshQueries(mem, mem.embedder, SEED + 7)

        port = free_port()
        proc = start_server(db, port, log)
        base = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {secret}"}
        limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
        try:
            await wait_ready(base, proc)
            async with httpx.AsyncClient(
                base_url=base, headers=headers, timeout=60, limits=limits
            ) as client:
                over_http, in_process = read_calls(client, mem, fresh)
                for _ in range(args.warmup):
                    await over_http()
                    await in_process()
                phases = {"in-process": Phase("in-process")}
                phases |= {f"http-{n}": Phase(f"HTTP, {n} client{'s' * (n > 1)}") for n in CLIENTS}
                per_round = args.reads // args.rounds
                for r in range(args.rounds):
                    start = time.perf_counter()
                    for _ in range(per_round):
                        phases["in-process"].ms.append(await timed(in_process))
                    phases["in-process"].seconds += time.perf_counter() - start
                    for n in CLIENTS:
                        phase = phases[f"http-{n}"]
                        start = time.perf_counter()
                        await concurrently(n, per_round, over_http, phase.ms)
                        phase.seconds += time.perf_counter() - start
                    print(f"round {r + 1}/{args.rounds} done", flush=True)
                return list(phases.values())
        finally:
            proc.terminate()
            proc.wait(timeout=30)


async def concurrently(
    clients: int, reads: int, call: Callable[[], Awaitable[None]], out: list[float]
) -> None:
    """``reads`` calls spread over ``clients`` workers that each call in a loop."""
    left = reads

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            out.append(await timed(call))

    await asyncio.gather(*(worker() for _ in range(clients)))


HEADER = (
    "| phase | reads | p50 | p95 | p99 | mean | reads/s | p95 / in-process p95 |\n"
    "|---|---|---|---|---|---|---|---|"
)


def row(s: dict[str, Any], base_p95: float) -> str:
    ratio = s["p95"] / base_p95 if base_p95 else 0.0
    return (
        f"| {s['phase']} | {s['reads']} | {s['p50']:.1f} | {s['p95']:.1f} | {s['p99']:.1f} "
        f"| {s['mean']:.1f} | {s['reads_per_s']:.1f} | {ratio:.2f} |"
    )


def write_results(args: argparse.Namespace, result: dict[str, Any]) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "http_read_latency.json").write_text(json.dumps(result, indent=2) + "\n")
    machine = result["machine"]
    phases = result["phases"]
    base_p95 = phases[0]["p95"]
    lines = [
        f"# Read latency over HTTP vs in-process, {args.items:,} items (onnx:minilm, balanced)",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, "
        f"at end {result['load_average_at_end']}",
        "",
        f"{args.reads} measured reads per phase in {args.rounds} rounds, after {args.warmup} "
        "warm-up reads each over HTTP and in-process; limit 10; every query a text never "
        "embedded before. Milliseconds per read (with 8 clients: per request, waiting "
        "included).",
        "",
        HEADER,
        *(row(s, base_p95) for s in phases),
        "",
        "The server is `cognimem serve` (uvicorn, one process) on the same SQLite file, with "
        "API-key authentication and rate limiting on; the client is httpx with keep-alive in "
        "the benchmark's process, which also runs the in-process reads. Client and server "
        "share the machine's two cores.",
        "",
    ]
    (args.out / "http_read_latency.md").write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--db", type=Path, help="keep the database here (reused if present)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    machine = describe()
    started = time.perf_counter()
    print(HEADER)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "http_read_latency.db"
        phases = asyncio.run(run(args, db, Path(tmp) / "serve.log"))
    summaries = [p.summary() for p in phases]
    for s in summaries:
        print(row(s, summaries[0]["p95"]))
    result = {
        "command": ("python benchmarks/http_read_latency.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(time.perf_counter() - started, 1),
        "settings": {k: str(v) for k, v in vars(args).items()},
        "phases": summaries,
    }
    write_results(args, result)


if __name__ == "__main__":
    main()
