"""Reads over HTTP from ``cognimem serve --workers N``: reads/s and latency at 1, 8 and
32 concurrent clients, on a SQLite file and on PostgreSQL, one worker beside several.

What it measures: ``POST /v1/memory/read`` (JSON packet, default preset, limit 10) against
``cognimem serve --workers N`` running as its own process tree, from httpx clients with
keep-alive in this process (one connection per client). Every read uses a question never
embedded before. For each backend the same database is served first by one worker and
then by ``--workers`` workers, and each is read by 1, 8 and 32 concurrent clients in
rounds (so drift of the machine's load spreads over every phase). The goal of issue 18
is an 8-client p95 under 3x the 1-client p95 of the same server.

The corpus is ``read_latency.py``'s (synthetic chat turns in one user scope, written
through ``write_batch`` with the real embedder). PostgreSQL is a throwaway cluster from
``tests/servers.py``. Usage (repository root):

    python benchmarks/http_workers.py [--items 10000] [--workers 2] [--reads 240]
        [--rounds 2] [--backends sqlite,postgres] [--db PATH] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from _machine import describe
from http_read_latency import (
    AT,
    Phase,
    concurrently,
    free_port,
    server_env,
    this_tree_path,
    wait_ready,
)
from read_latency import SEED, USER, FreshQueries, corpus, grow

from cognimem import Memory
from cognimem.api.auth import issue_key
from cognimem.providers.embeddings import CachedEmbedder

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import start_postgres  # noqa: E402

CLIENTS = (1, 8, 32)


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (every process, every core), from
    ``/proc/stat``: user, nice, system, irq, softirq and steal time."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def start_server(url: str, port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    env = server_env(url, this_tree_path())
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cognimem",
                "serve",
                "--port",
                str(port),
                "--workers",
                str(workers),
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


async def measure(
    url: str, workers: int, args: argparse.Namespace, fresh: FreshQueries, secret: str, log: Path
) -> tuple[list[Phase], list[int], list[float]]:
    port = free_port()
    proc = start_server(url, port, workers, log)
    base = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {secret}"}
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    try:
        await wait_ready(base, proc)
        async with httpx.AsyncClient(
            base_url=base, headers=headers, timeout=120, limits=limits
        ) as client:
            degraded: dict[int, int] = dict.fromkeys(CLIENTS, 0)
            clients = 0

            async def read() -> None:
                body = {"query": await fresh.next(), "scope": {"user_id": USER}, "limit": 10}
                body["reference_time"] = AT.isoformat()
                response = await client.post("/v1/memory/read", json=body)
                if response.status_code != 200:
                    raise RuntimeError(f"HTTP {response.status_code}: {response.text}")
                # a step that timed out under load is counted, not hidden
                degraded[clients] = degraded.get(clients, 0) + bool(response.json()["degraded"])

            # every worker loads its model on its first reads: warm them all up
            await concurrently(2 * workers, args.warmup * workers, read, [])
            phases = {n: Phase(f"{n} client{'s' * (n > 1)}") for n in CLIENTS}
            busy = dict.fromkeys(CLIENTS, 0.0)
            per_round = args.reads // args.rounds
            for _ in range(args.rounds):
                for n, phase in phases.items():
                    clients = n
                    start, cpu = time.perf_counter(), busy_seconds()
                    await concurrently(n, per_round, read, phase.ms)
                    phase.seconds += time.perf_counter() - start
                    busy[n] += busy_seconds() - cpu
            # the machine's CPU per read: server, clients and anything else running
            cpu_ms = [round(1000 * busy[n] / len(phases[n].ms), 2) for n in CLIENTS]
            return list(phases.values()), [degraded[n] for n in CLIENTS], cpu_ms
    finally:
        proc.terminate()
        proc.wait(timeout=60)


async def run_backend(url: str, args: argparse.Namespace, log: Path) -> dict[str, Any]:
    async with Memory.open(url) as mem:
        assert isinstance(mem.embedder, CachedEmbedder)
        have = await grow(mem, corpus(SEED), args.items, 500)
        print(f"{have} items in the scope", flush=True)
        _, secret = await issue_key(mem.store, "default", name="workers-bench")
        fresh = FreshQueries(mem, mem.embedder, SEED + 11)
        out: dict[str, Any] = {"items": have, "servers": []}
        for workers in sorted({1, args.workers}):
            phases, degraded, cpu_ms = await measure(url, workers, args, fresh, secret, log)
            cores = os.cpu_count() or 1
            summaries = [
                p.summary()
                | {
                    "degraded_reads": d,
                    "machine_cpu_ms_per_read": c,
                    # Little's law with n reads always in flight: n = reads/s x latency,
                    # and reads/s <= cores / CPU per read
                    "least_mean_ms_the_cores_allow": round(n * c / cores, 1),
                }
                for p, d, c, n in zip(phases, degraded, cpu_ms, CLIENTS, strict=True)
            ]
            one = summaries[0]["p95"]
            for s in summaries:
                s["p95_over_1_client_p95"] = round(s["p95"] / one, 2) if one else 0.0
                print(workers, s, flush=True)
            out["servers"].append({"workers": workers, "phases": summaries})
        return out


def render(result: dict[str, Any], args: argparse.Namespace) -> str:
    machine = result["machine"]
    lines = [
        f"# Reads over HTTP from `cognimem serve --workers N`, {args.items:,} items",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, "
        f"at end {result['load_average_at_end']}. The machine is shared with other "
        "engineers' builds and tests: compare the ratios, not the absolute times.",
        "",
        f"{args.reads} measured reads per phase in {args.rounds} rounds after warm-up; "
        "limit 10, onnx:minilm, preset balanced; every query a text never embedded before. "
        "Milliseconds per request, waiting included.",
        "",
        "| backend | workers | clients | reads/s | p50 | p95 | p99 | p95 / 1-client p95 "
        "| degraded reads | machine CPU ms per read | least mean ms the cores allow |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for backend, data in result["backends"].items():
        for server in data["servers"]:
            for s in server["phases"]:
                lines.append(
                    f"| {backend} | {server['workers']} | {s['phase']} | {s['reads_per_s']} "
                    f"| {s['p50']:.1f} | {s['p95']:.1f} | {s['p99']:.1f} "
                    f"| {s['p95_over_1_client_p95']:.2f} | {s['degraded_reads']} "
                    f"| {s['machine_cpu_ms_per_read']:.1f} "
                    f"| {s['least_mean_ms_the_cores_allow']:.1f} |"
                )
    lines += [
        "",
        "Client and server share the machine's cores. *Machine CPU ms per read* is the "
        "busy time of the whole machine (`/proc/stat`: server, clients and anything else) "
        "over the phase's reads. With N reads always in flight, N = reads/s x mean "
        "latency and reads/s cannot exceed cores / CPU per read, so the mean latency "
        "cannot be below N x CPU per read / cores (*least mean ms the cores allow*): an "
        "8-client p95 under 3x the 1-client p95 needs that least mean at 8 clients below "
        "3x the 1-client p95, that is the CPU per read at 8 clients below 3 / 4 of the "
        "1-client p95 on two cores. Extra workers add parallelism only up to the number "
        "of cores.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reads", type=int, default=240)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--db", type=Path, help="keep the SQLite database here (reused if present)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    machine = describe()
    result: dict[str, Any] = {
        "command": ("python benchmarks/http_workers.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "settings": {k: str(v) for k, v in vars(args).items()},
        "backends": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "serve.log"
        for backend in args.backends.split(","):
            if backend == "sqlite":
                url = f"sqlite:///{args.db or Path(tmp) / 'workers.db'}"
                result["backends"][backend] = asyncio.run(run_backend(url, args, log))
            else:
                server = start_postgres(Path(tmp) / "pg")
                try:
                    result["backends"][backend] = asyncio.run(run_backend(server.dsn, args, log))
                finally:
                    server.destroy()
    result["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "http_workers.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "http_workers.md").write_text(render(result, args))


if __name__ == "__main__":
    main()
