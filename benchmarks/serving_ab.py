"""Serving overhead, source trees side by side: the server's CPU per read over HTTP (one
client) against the same reads in process, in the same rounds, for each tree.

``serving.py`` measures one tree a phase at a time, so load that changes between its
phases lands on one side of the difference. Here one server per source tree
(``--tree NAME=ROOT[:SITE]``: ``ROOT/src`` first on the server's ``PYTHONPATH``, then
``SITE``) runs from the start, and every round measures a block of ``--reads`` reads in
process (``Memory.read`` in this process, from this checkout) and one block over HTTP to
each server, in an order rotated each round. Every read asks a question never embedded
before, looked up before its block starts.

CPU is read from ``/proc/<pid>/task/<tid>/schedstat`` (nanoseconds run, user and system,
every thread of the server's process tree; for the in-process block, of this process),
so a block of a few hundred reads resolves tenths of a millisecond. *Overhead* is a
tree's server CPU per read minus the in-process CPU per read of the same round; the
table gives medians and ranges over rounds, and for every tree after the first the
overhead it saved against the first in the same round. With one worker the server's own
``cognimem_read_cpu_seconds`` (the process's CPU while ``Memory.read`` ran, scraped
between blocks) splits the overhead into the read's own part (the same read costing more
in the server) and the rest (uvicorn, the middlewares, the key check, JSON, metrics).

Usage (repository root; the database is grown by ``read_latency.py``'s corpus):

    python benchmarks/serving_ab.py --tree base=/tmp/base --tree branch=. \\
        [--workers 1 --workers 2] [--rounds 8] [--reads 100] [--db PATH] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from _machine import describe
from http_read_latency import AT, free_port, server_env, wait_ready
from read_latency import SEED, USER, FreshQueries, corpus, grow

from cognimem import Memory
from cognimem.api.auth import issue_key

METRICS_TOKEN = "serving-ab-metrics-token-0123456789"
IN_PROCESS = "in-process"


def tree_pids(root: int) -> list[int]:
    """``root`` and every live process under it."""
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
            except OSError:
                continue
    return pids


def cpu_ns(pids: list[int]) -> int:
    """Nanoseconds every thread of ``pids`` has run."""
    total = 0
    for pid in pids:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
            except OSError:
                continue
    return total


def start(tree: str, db: Path, port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    root, _, site = tree.partition(":")
    path = os.pathsep.join(p for p in (str(Path(root) / "src"), site) if p)
    env = server_env(f"sqlite:///{db}", path, COGNIMEM_AUTH__METRICS_TOKEN=METRICS_TOKEN)
    argv = [sys.executable, "-m", "cognimem", "serve", "--port", str(port)]
    with log.open("ab") as out:
        return subprocess.Popen(
            [*argv, "--workers", str(workers)], env=env, stdout=out, stderr=subprocess.STDOUT
        )


async def read_cpu_seconds(client: httpx.AsyncClient) -> float:
    """The server's ``cognimem_read_cpu_seconds_sum`` (one worker: its only process)."""
    text = (await client.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})).text
    for line in text.splitlines():
        if line.startswith("cognimem_read_cpu_seconds_sum"):
            return float(line.split()[-1])
    raise RuntimeError("no cognimem_read_cpu_seconds_sum in /metrics")


class Server:
    def __init__(self, name: str, proc: subprocess.Popen[bytes], client: httpx.AsyncClient):
        self.name, self.proc, self.client = name, proc, client

    async def read(self, query: str) -> None:
        body = {"query": query, "scope": {"user_id": USER}, "limit": 10}
        response = await self.client.post(
            "/v1/memory/read", json=body | {"reference_time": AT.isoformat()}
        )
        if response.status_code != 200 or response.json()["degraded"]:
            raise RuntimeError(f"{self.name}: HTTP {response.status_code}: {response.text[:300]}")


async def block(
    mem: Memory, server: Server | None, queries: list[str], split: bool
) -> dict[str, float]:
    """CPU ms per read of one block (and, with ``split``, the server's read CPU)."""
    if server is None:
        before = cpu_ns([os.getpid()])
        for query in queries:
            packet = await mem.read(query, user_id=USER, limit=10, reference_time=AT)
            if packet.degraded:
                raise RuntimeError(f"degraded read: {packet.degraded}")
        return {"cpu": (cpu_ns([os.getpid()]) - before) / 1e6 / len(queries)}
    pids = tree_pids(server.proc.pid)
    read_before = await read_cpu_seconds(server.client) if split else 0.0
    before = cpu_ns(pids)
    for query in queries:
        await server.read(query)
    out = {"cpu": (cpu_ns(pids) - before) / 1e6 / len(queries)}
    if split:
        read = await read_cpu_seconds(server.client) - read_before
        out["read"] = 1000 * read / len(queries)
    return out


async def one_setting(
    mem: Memory, fresh: FreshQueries, secret: str, workers: int, args: argparse.Namespace
) -> dict[str, Any]:
    trees: dict[str, str] = dict(t.split("=", 1) for t in args.tree)
    logs = Path(tempfile.gettempdir())
    servers: dict[str, Server] = {}
    try:
        for name, tree in trees.items():
            port = free_port()
            proc = start(tree, args.db, port, workers, logs / f"serving-ab-{port}.log")
            client = httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}",
                headers={"Authorization": f"Bearer {secret}"},
                timeout=120,
            )
            servers[name] = Server(name, proc, client)
            await wait_ready(f"http://127.0.0.1:{port}", proc)
        for _ in range(args.warmup):
            for server in servers.values():
                await server.read(await fresh.next())
            await mem.read(await fresh.next(), user_id=USER, limit=10, reference_time=AT)
        names = [IN_PROCESS, *servers]
        rounds: list[dict[str, dict[str, float]]] = []
        for r in range(args.rounds):
            load = os.getloadavg()[0]
            measured: dict[str, dict[str, float]] = {}
            for name in names[r % len(names) :] + names[: r % len(names)]:
                queries = [await fresh.next() for _ in range(args.reads)]
                server = servers.get(name)
                measured[name] = await block(mem, server, queries, workers == 1)
            measured["load"] = {"1min": load}
            rounds.append(measured)
            print(f"{workers} worker(s) round {r + 1}: {json.dumps(measured)}", flush=True)
        return {"trees": trees, "rounds": rounds}
    finally:
        for server in servers.values():
            await server.client.aclose()
            server.proc.terminate()
            server.proc.wait(timeout=60)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def render_setting(workers: int, setting: dict[str, Any]) -> list[str]:
    rounds, trees = setting["rounds"], list(setting["trees"])
    inproc = [r[IN_PROCESS]["cpu"] for r in rounds]
    split = "read" in rounds[0][trees[0]]
    head = "| tree | server CPU ms per read | overhead ms | saved ms (rounds lower) |"
    rule = "|---|---|---|---|"
    if split:
        head += " read's own part | rest (HTTP layer) | rest saved (rounds lower) |"
        rule += "---|---|---|"
    lines = [f"**{workers} worker(s)**, in process {spread(inproc)} ms per read", "", head, rule]
    first = [r[trees[0]]["cpu"] - r[IN_PROCESS]["cpu"] for r in rounds]
    for name in trees:
        cpu = [r[name]["cpu"] for r in rounds]
        over = [c - i for c, i in zip(cpu, inproc, strict=True)]
        saved = [a - b for a, b in zip(first, over, strict=True)]
        cells = [name, spread(cpu), spread(over)]
        lower = f"({sum(s > 0 for s in saved)}/{len(saved)})"
        cells.append("" if name == trees[0] else f"{spread(saved)} {lower}")
        if split:
            own = [r[name]["read"] - r[IN_PROCESS]["cpu"] for r in rounds]
            rest = [r[name]["cpu"] - r[name]["read"] for r in rounds]
            cells += [spread(own), spread(rest)]
            first_rest = [r[trees[0]]["cpu"] - r[trees[0]]["read"] for r in rounds]
            less = [a - b for a, b in zip(first_rest, rest, strict=True)]
            lower = f"({sum(s > 0 for s in less)}/{len(less)})"
            cells.append("" if name == trees[0] else f"{spread(less)} {lower}")
        lines.append("| " + " | ".join(cells) + " |")
    loads = [r["load"]["1min"] for r in rounds]
    lines += ["", f"1-minute load at the rounds' starts {min(loads):.1f}–{max(loads):.1f}.", ""]
    return lines


def render(result: dict[str, Any], machine: dict[str, Any], command: str) -> str:
    lines = [
        f"# Serving overhead side by side: {result['items']:,} items (SQLite), one client",
        "",
        f"Command: `{command}`  ",
        f"Machine: {machine['summary']}  ",
        f"{result['rounds']} rounds of {result['reads']} reads a block; overhead = server CPU"
        " per read − in-process CPU per read of the same round; median (range) over rounds.",
        "",
    ]
    for workers, setting in result["by_workers"].items():
        lines += render_setting(int(workers), setting)
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    async with Memory.open(f"sqlite:///{args.db}") as mem:
        have = await grow(mem, corpus(SEED), args.items, 500)
        _, secret = await issue_key(mem.store, "default", name="serving-ab")
        fresh = FreshQueries(mem, mem.embedder, SEED + 41)  # type: ignore[arg-type]
        by_workers = {}
        for workers in args.workers:
            by_workers[workers] = await one_setting(mem, fresh, secret, workers, args)
    return {"items": have, "rounds": args.rounds, "reads": args.reads, "by_workers": by_workers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", default=None)
    parser.add_argument("--workers", type=int, action="append", default=None)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--reads", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--from-json", type=Path, default=None, help="render a saved run")
    args = parser.parse_args()
    if args.from_json is not None:
        saved = json.loads(args.from_json.read_text())
        print(render(saved, saved["machine"], saved["command"]))
        return
    args.tree = args.tree or ["this=."]
    args.workers = args.workers or [1, 2]
    machine = describe()
    with tempfile.TemporaryDirectory() as tmp:
        args.db = args.db or Path(tmp) / "serving.db"
        result = asyncio.run(run(args))
    command = ("python benchmarks/serving_ab.py " + " ".join(sys.argv[1:])).strip()
    text = render(result, machine, command)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        saved = result | {"machine": machine, "command": command}
        (args.out / "serving_ab.json").write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
