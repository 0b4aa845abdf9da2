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

Every read uses a question never embedded before (no cache serves it), looked up before
the phase starts so that the lookup's CPU is in no phase. Phases run in rounds
(in-process, 1 client, 8 clients, and again) so drift of the load falls on all.

The client (this process: httpx and the event loop) runs on the same cores; its CPU per
read is reported beside the server's, and the 8-client ratio is also given against the
cores the client and all other work left free (the nominal ratio stays the goal's).

For one worker, the share of a read's CPU that runs without the GIL bounds what one
process can use: the GIL-held part runs one read at a time, so one process reaches at
most 1 / (1 − share) cores, and 8 clients at most 1 / (cores × (1 − share)) of the
allowed reads/s. It is measured in process on the same reads: thread CPU inside the
ONNX session's run (releases the GIL) as the lower bound, plus every SQLite call's
thread CPU (the driver releases the GIL while SQLite steps; the Python that builds the
rows holds it) as the upper bound.
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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from _machine import describe
from http_read_latency import AT, concurrently, free_port, read_calls, wait_ready
from http_workers import busy_seconds, start_server
from read_latency import SEED, USER, FreshQueries, corpus, grow

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


class Prefetched:
    """Fresh questions looked up ahead of a phase, handed out in order."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def fill(self, fresh: FreshQueries, n: int) -> None:
        self.texts = [await fresh.next() for _ in range(n)]

    async def next(self) -> str:
        return self.texts.pop()


class GilFree:
    """Thread CPU spent inside the ONNX session's run and inside SQLite calls, while
    active (``cognimem.providers.onnx.run_session``, ``Connections._call``)."""

    def __init__(self) -> None:
        self.onnx = 0.0
        self.sqlite = 0.0

    @contextmanager
    def active(self) -> Iterator[None]:
        from cognimem.providers import onnx
        from cognimem.store.sqlite.connection import Connections

        run_session, call = onnx.run_session, Connections._call

        def timed_run(*args: Any) -> Any:
            started = time.thread_time()
            try:
                return run_session(*args)
            finally:
                self.onnx += time.thread_time() - started

        def timed_call(conns: Connections, fn: Any) -> Any:
            started = time.thread_time()
            try:
                return call(conns, fn)
            finally:
                self.sqlite += time.thread_time() - started

        onnx.run_session = timed_run
        Connections._call = timed_call
        try:
            yield
        finally:
            onnx.run_session = run_session
            Connections._call = call


async def gil_free_share(
    mem: Memory, fresh: FreshQueries, reads: int, warmup: int
) -> dict[str, float]:
    """CPU per read in process and the shares of it spent where the GIL is released."""
    pool = Prefetched()
    await pool.fill(fresh, warmup + reads)
    for _ in range(warmup):
        await mem.read(await pool.next(), user_id=USER, limit=10, reference_time=AT)
    probe = GilFree()
    with probe.active():
        started = time.process_time()
        for _ in range(reads):
            await mem.read(await pool.next(), user_id=USER, limit=10, reference_time=AT)
        cpu = time.process_time() - started
    low, high = probe.onnx / cpu, (probe.onnx + probe.sqlite) / cpu
    return {
        "reads": reads,
        "cpu_ms_per_read": round(1000 * cpu / reads, 2),
        "onnx_ms_per_read": round(1000 * probe.onnx / reads, 2),
        "sqlite_ms_per_read": round(1000 * probe.sqlite / reads, 2),
        "share_low": round(low, 3),
        "share_high": round(high, 3),
    }


def gil_bound(share: float, cores: int) -> float:
    """The most of ``cores`` ÷ CPU per read one process can reach at ``share`` GIL-free."""
    return round(min(1.0, 1 / (cores * (1 - share))), 3)


class Phase:
    def __init__(self, name: str) -> None:
        self.name = name
        self.reads = 0
        self.seconds = 0.0
        self.cpu = 0.0  # the server's (or, in process, this process's) CPU seconds
        self.others = 0.0  # busy seconds of everything else on the machine
        self.client = 0.0  # this process's CPU seconds in an HTTP phase (the client's)

    def summary(self, cores: int) -> dict[str, Any]:
        cpu_ms = 1000 * self.cpu / self.reads
        out: dict[str, Any] = {
            "phase": self.name,
            "reads": self.reads,
            "reads_per_s": round(self.reads / self.seconds, 1),
            "cpu_ms_per_read": round(cpu_ms, 2),
            "others_cores": round(self.others / self.seconds, 2),
            "client_cpu_ms_per_read": round(1000 * self.client / self.reads, 2),
            "client_cores": round(self.client / self.seconds, 2),
        }
        allowed = cores / (cpu_ms / 1000)
        free = max(cores - self.others / self.seconds, 0.1)
        out["allowed_reads_per_s"] = round(allowed, 1)
        out["ratio"] = round(out["reads_per_s"] / allowed, 3)
        out["ratio_of_free_cores"] = round(out["reads_per_s"] / (free / (cpu_ms / 1000)), 3)
        left = max(cores - (self.others + self.client) / self.seconds, 0.1)
        out["ratio_of_cores_left"] = round(out["reads_per_s"] / (left / (cpu_ms / 1000)), 3)
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
            pool = Prefetched()
            over_http, in_process = read_calls(client, mem, pool)
            await pool.fill(fresh, args.warmup * (workers + 1))
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
                    await pool.fill(fresh, per_round)
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
                    phase.client += 0.0 if clients == 0 else own
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
        gil = await gil_free_share(mem, fresh, args.gil_reads, args.warmup)
        print(f"GIL-free share: {gil}", file=sys.stderr, flush=True)
        by_workers = {}
        for workers in args.workers:
            phases = await measure(mem, db, workers, args, fresh, secret)
            by_workers[workers] = [p.summary(cores) for p in phases]
            print(f"{workers} worker(s): {by_workers[workers]}", file=sys.stderr, flush=True)
    return {"items": have, "cores": cores, "gil_free": gil, "by_workers": by_workers}


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
        "and the server); *ratio of free cores* = reads/s over (cores − others) ÷ CPU per read; "
        "*client* = this process's CPU in an HTTP phase (httpx and its event loop, on the same "
        "cores); *ratio of cores left* = reads/s over (cores − others − client) ÷ CPU per read.",
        "",
        "| workers | phase | reads | reads/s | CPU ms per read | allowed reads/s | "
        "ratio | others (cores) | ratio of free cores | client CPU ms per read | "
        "client (cores) | ratio of cores left |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    goals = []
    for workers, phases in result["by_workers"].items():
        for s in phases:
            lines.append(
                f"| {workers} | {s['phase']} | {s['reads']} | {s['reads_per_s']} | "
                f"{s['cpu_ms_per_read']} | {s['allowed_reads_per_s']} | {s['ratio']} | "
                f"{s['others_cores']} | {s['ratio_of_free_cores']} | "
                f"{s['client_cpu_ms_per_read']} | {s['client_cores']} | "
                f"{s['ratio_of_cores_left']} |"
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
    gil = result["gil_free"]
    cores = result["cores"]
    goals.append(
        f"- GIL-free share of a read's CPU (1 worker, in process, {gil['reads']} reads): "
        f"{gil['share_low']}–{gil['share_high']} ({gil['onnx_ms_per_read']} ms in the ONNX "
        f"run, {gil['sqlite_ms_per_read']} ms in SQLite calls, of {gil['cpu_ms_per_read']} "
        f"ms); one process reaches at most {gil_bound(gil['share_low'], cores)}–"
        f"{gil_bound(gil['share_high'], cores)} of {cores} cores ÷ CPU per read."
    )
    return "\n".join([*lines, "", *goals]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--gil-reads", type=int, default=60)
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
        # dated analysis sections ("## ...") below the run's table are kept
        report = args.out / "serving.md"
        previous = report.read_text() if report.exists() else ""
        kept = previous[previous.find("\n## ") :] if "\n## " in previous else ""
        report.write_text(text + kept)


if __name__ == "__main__":
    main()
