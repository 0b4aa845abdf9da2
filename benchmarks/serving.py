"""Serving overhead: the server's CPU per read over HTTP against ``Memory.read``'s CPU in
process, and reads/s with 8 clients against what the server's CPU per read allows.

What it measures, on one SQLite database grown by ``read_latency.py``'s corpus (``--items``):

- **in-process**: ``Memory.read`` (default preset, limit 10) in this process, its CPU
  (``time.process_time``: every thread, the ONNX worker and SQLite reader threads too);
- **HTTP, 1 client**: ``POST /v1/memory/read`` against ``cognimem serve --workers N``
  (its own process tree, API-key auth and rate limiting on, logs at WARNING), one
  request at a time; the CPU is the server's: the ``utime + stime`` of the server
  process and every process under it (``/proc/<pid>/stat``), so the client's CPU is not in
  it. HTTP overhead = server CPU per read − in-process CPU per read; goal ≤ 1 ms;
- **HTTP, 8 clients**: reads/s against the most the server's CPU per read allows on the
  machine's cores (cores ÷ server CPU per read, both from this phase); goal ≥ 0.8, with
  1 and with 2 worker processes. The machine is shared: the phase also gives the busy
  time of everything else on it (``/proc/stat`` minus this process and the server), and
  the ratio against the cores that other work left free.

Every read uses a question never embedded before (no cache serves it). Phases run in
rounds (in-process, 1 client, 8 clients, and again) so drift of the load falls on all.
Usage (repository root):

    python benchmarks/serving.py [--items 2000] [--reads 120] [--rounds 2]
        [--workers 1 --workers 2] [--db PATH] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from _machine import describe
from http_read_latency import concurrently, free_port, read_calls, wait_ready
from http_workers import busy_seconds, start_server
from read_latency import SEED, FreshQueries, corpus, grow

from cognimem import Memory
from cognimem.api.auth import issue_key
from cognimem.providers.embeddings import CachedEmbedder

OVERHEAD_GOAL_MS = 1.0
THROUGHPUT_GOAL = 0.8
CLIENTS = 8
TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of process ``root`` and every live process under it."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / TICK
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


class Phase:
    def __init__(self, name: str) -> None:
        self.name = name
        self.reads = 0
        self.seconds = 0.0
        self.cpu = 0.0  # the server's (or, in process, this process's) CPU seconds
        self.others = 0.0  # busy seconds of everything else on the machine

    def summary(self, cores: int) -> dict[str, Any]:
        cpu_ms = 1000 * self.cpu / self.reads
        out: dict[str, Any] = {
            "phase": self.name,
            "reads": self.reads,
            "reads_per_s": round(self.reads / self.seconds, 1),
            "cpu_ms_per_read": round(cpu_ms, 2),
            "others_cores": round(self.others / self.seconds, 2),
        }
        allowed = cores / (cpu_ms / 1000)
        free = max(cores - self.others / self.seconds, 0.1)
        out["allowed_reads_per_s"] = round(allowed, 1)
        out["ratio"] = round(out["reads_per_s"] / allowed, 3)
        out["ratio_of_free_cores"] = round(out["reads_per_s"] / (free / (cpu_ms / 1000)), 3)
        return out


async def measure(
    mem: Memory, db: Path, workers: int, args: argparse.Namespace, fresh: FreshQueries, secret: str
) -> list[Phase]:
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"serving-{port}.log"
    proc = start_server(f"sqlite:///{db}", port, workers, log)
    base = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {secret}"}
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    try:
        await wait_ready(base, proc)
        async with httpx.AsyncClient(
            base_url=base, headers=headers, timeout=120, limits=limits
        ) as client:
            over_http, in_process = read_calls(client, mem, fresh)
            await concurrently(2 * workers, args.warmup * workers, over_http, [])
            for _ in range(args.warmup):
                await in_process()
            phases = [
                Phase("in-process"),
                Phase("HTTP, 1 client"),
                Phase(f"HTTP, {CLIENTS} clients"),
            ]
            per_round = args.reads // args.rounds
            for _ in range(args.rounds):
                for phase, clients in zip(phases, (0, 1, CLIENTS), strict=True):
                    own, server, busy = time.process_time(), tree_cpu(proc.pid), busy_seconds()
                    start = time.perf_counter()
                    if clients == 0:
                        for _ in range(per_round):
                            await in_process()
                    else:
                        await concurrently(clients, per_round, over_http, [])
                    phase.seconds += time.perf_counter() - start
                    own = time.process_time() - own
                    server = tree_cpu(proc.pid) - server
                    phase.cpu += own if clients == 0 else server
                    phase.others += max(busy_seconds() - busy - own - server, 0.0)
                    phase.reads += per_round
            return phases
    finally:
        proc.terminate()
        proc.wait(timeout=60)


async def run(args: argparse.Namespace, db: Path) -> dict[str, Any]:
    cores = len(os.sched_getaffinity(0))
    async with Memory.open(f"sqlite:///{db}") as mem:
        assert isinstance(mem.embedder, CachedEmbedder)
        have = await grow(mem, corpus(SEED), args.items, 500)
        _, secret = await issue_key(mem.store, "default", name="serving-bench")
        fresh = FreshQueries(mem, mem.embedder, SEED + 13)
        by_workers = {}
        for workers in args.workers:
            phases = await measure(mem, db, workers, args, fresh, secret)
            by_workers[workers] = [p.summary(cores) for p in phases]
            print(f"{workers} worker(s): {by_workers[workers]}", file=sys.stderr, flush=True)
    return {"items": have, "cores": cores, "by_workers": by_workers}


def render(result: dict[str, Any], machine: dict[str, Any], command: str, end: Any) -> str:
    lines = [
        f"# Serving overhead: server CPU per read over HTTP, {result['items']:,} items (SQLite)",
        "",
        f"Command: `{command}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, at end {end}. "
        "The machine is shared with other engineers' work: read the ratios, not the times.",
        "",
        "CPU per read: in process, this process's CPU (every thread); over HTTP, the "
        "server's process tree (`/proc/<pid>/stat`), the client's CPU left out. *Allowed "
        "reads/s* = cores ÷ CPU per read of the same phase; *others* = cores kept busy by "
        "everything else on the machine during the phase (`/proc/stat` minus this process "
        "and the server); *ratio of free cores* = reads/s over (cores − others) ÷ CPU per read.",
        "",
        "| workers | phase | reads | reads/s | CPU ms per read | allowed reads/s | "
        "ratio | others (cores) | ratio of free cores |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    goals = []
    for workers, phases in result["by_workers"].items():
        for s in phases:
            lines.append(
                f"| {workers} | {s['phase']} | {s['reads']} | {s['reads_per_s']} | "
                f"{s['cpu_ms_per_read']} | {s['allowed_reads_per_s']} | {s['ratio']} | "
                f"{s['others_cores']} | {s['ratio_of_free_cores']} |"
            )
        overhead = phases[1]["cpu_ms_per_read"] - phases[0]["cpu_ms_per_read"]
        met = "met" if overhead <= OVERHEAD_GOAL_MS else "not met"
        goals.append(
            f"- {workers} worker(s): HTTP overhead {overhead:.2f} ms of server CPU per read "
            f"(goal ≤ {OVERHEAD_GOAL_MS}: {met}); {CLIENTS} clients reach "
            f"{phases[2]['ratio']} of the reads/s the CPU per read allows "
            f"({phases[2]['ratio_of_free_cores']} of what the cores other work left free "
            f"allow; goal ≥ {THROUGHPUT_GOAL}: "
            f"{'met' if phases[2]['ratio'] >= THROUGHPUT_GOAL else 'not met'})."
        )
    return "\n".join([*lines, "", *goals]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--workers", type=int, action="append", default=None)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    args.workers = args.workers or [1, 2]
    machine = describe()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "serving.db"
        result = asyncio.run(run(args, db))
    end = [round(x, 2) for x in os.getloadavg()]
    command = ("python benchmarks/serving.py " + " ".join(sys.argv[1:])).strip()
    text = render(result, machine, command, end)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        data = {"machine": machine, "command": command, "load_at_end": end, **result}
        (args.out / "serving.json").write_text(json.dumps(data, indent=2) + "\n")
        (args.out / "serving.md").write_text(text)


if __name__ == "__main__":
    main()
