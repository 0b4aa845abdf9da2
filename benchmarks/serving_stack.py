"""Serving stack alone: the server's CPU per ``POST /v1/memory/read`` with ``Memory.read``
replaced by one stored real packet, so that what is measured is the HTTP layer only
(uvicorn, middleware, routing, the key check, the dependencies, rendering, metrics).

One SQLite database is grown by ``read_latency.py``'s corpus (``--items``), one real read
is stored as the packet, and an API key is issued. Then, for each source tree given with
``--tree NAME=ROOT[:SITE]`` (``ROOT/src`` first on ``PYTHONPATH``, then ``SITE``, e.g. a
folder holding ``httptools``), a server is started in its own process: this file with
``--serve``, which patches ``Memory.read`` to return the packet and runs
``cognimem serve`` (one worker, API-key auth and rate limiting on, logs at WARNING).
After ``--warmup`` requests, ``--requests`` requests are sent by one client (one at a
time) and then by ``--clients`` clients at once; the server's CPU (``utime + stime`` from
``/proc/<pid>/stat``) over each phase, divided by the requests, is its CPU per request.
Trees alternate within every round, in a rotated order, so drift of the machine's load
falls on all; the table gives the median and the range over rounds. Each tree serves a
copy of the database of its own: the database is built by the ``cognimem`` this file
imports (its own ``PYTHONPATH``), so run it with the tree of the oldest schema first on
the path when the trees' schemas differ (a newer tree migrates its copy on its start).

Usage (repository root):

    python benchmarks/serving_stack.py --tree base=/tmp/base --tree branch=. \\
        [--rounds 10] [--requests 1000] [--items 300] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from _machine import describe
from http_read_latency import concurrently, free_port, server_env, wait_ready
from read_latency import SEED, USER, corpus, grow

TICK = os.sysconf("SC_CLK_TCK")
QUERY = "what did Dana say about the trip to Lisbon next spring?"


def serve(port: int, packet_file: Path) -> None:
    """The server process: ``cognimem serve`` with ``Memory.read`` answering the packet."""
    from cognimem.memory import Memory
    from cognimem.models.packets import ContextPacket

    packet = ContextPacket.model_validate_json(packet_file.read_text())

    async def stored_read(self: Memory, query: str, **_: Any) -> ContextPacket:
        return packet

    Memory.read = stored_read  # type: ignore[method-assign]
    sys.argv = ["cognimem", "serve", "--port", str(port), "--workers", "1"]
    runpy.run_module("cognimem", run_name="__main__")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def start(tree: str, db: Path, packet: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    root, _, site = tree.partition(":")
    env = server_env(
        f"sqlite:///{db}", os.pathsep.join(p for p in (str(Path(root) / "src"), site) if p)
    )
    argv = [sys.executable, __file__, "--serve", "--port", str(port), "--packet", str(packet)]
    with log.open("ab") as out:
        return subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT)


async def one_tree(
    tree: str, db: Path, packet: Path, secret: str, args: argparse.Namespace
) -> tuple[float, float]:
    """Server CPU ms per request with one client and with ``args.clients``."""
    port = free_port()
    proc = start(tree, db, packet, port, Path(tempfile.gettempdir()) / f"stack-{port}.log")
    base = f"http://127.0.0.1:{port}"
    body = {"query": QUERY, "scope": {"user_id": USER}, "limit": 10}
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    try:
        await wait_ready(base, proc)
        headers = {"Authorization": f"Bearer {secret}"}
        async with httpx.AsyncClient(
            base_url=base, headers=headers, timeout=60, limits=limits
        ) as client:

            async def call() -> None:
                response = await client.post("/v1/memory/read", json=body)
                response.raise_for_status()

            await concurrently(args.clients, args.warmup, call, [])
            result = []
            for clients in (1, args.clients):
                before = cpu_seconds(proc.pid)
                await concurrently(clients, args.requests, call, [])
                result.append((cpu_seconds(proc.pid) - before) * 1000 / args.requests)
            return result[0], result[1]
    finally:
        proc.terminate()
        proc.wait(timeout=60)


async def prepare(db: Path, packet: Path, items: int) -> str:
    """Grow the database, store one real read's packet; the API key's secret."""
    from cognimem import Memory
    from cognimem.api.auth import issue_key

    async with Memory.open(f"sqlite:///{db}") as mem:
        await grow(mem, corpus(SEED), items, 300)
        stored = (await mem.read(QUERY, user_id=USER)).model_dump_json()
        await asyncio.to_thread(packet.write_text, stored)
        _, secret = await issue_key(mem.store, "default", name="serving-stack")
    return secret


async def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    db, packet = work / "stack.db", work / "packet.json"
    secret = await prepare(db, packet, args.items)
    trees: dict[str, str] = dict(t.split("=", 1) for t in args.tree)
    names = list(trees)
    # a database per tree: a tree whose schema is newer migrates its own copy on its
    # first start, and an older tree would refuse a database migrated past it
    dbs = {name: work / f"stack-{i}.db" for i, name in enumerate(names)}
    for copy in dbs.values():
        await asyncio.to_thread(shutil.copyfile, db, copy)
    samples: dict[str, dict[str, list[float]]] = {n: {"one": [], "many": []} for n in names}
    loads = []
    for r in range(args.rounds):
        loads.append(os.getloadavg()[0])
        for name in names[r % len(names) :] + names[: r % len(names)]:
            one, many = await one_tree(trees[name], dbs[name], packet, secret, args)
            samples[name]["one"].append(one)
            samples[name]["many"].append(many)
            print(f"round {r + 1} {name}: {one:.3f} / {many:.3f} ms", flush=True)
    return {
        "trees": trees,
        "packet_bytes": len(await asyncio.to_thread(packet.read_bytes)),
        "samples": samples,
        "load_1min_per_round": loads,
    }


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def render(result: dict[str, Any], machine: dict[str, Any], command: str, args: Any) -> str:
    samples = result["samples"]
    first = next(iter(samples))
    rows = []
    for name, phases in samples.items():
        cells = []
        for key in ("one", "many"):
            cells.append(spread(phases[key]))
            saved = [a - b for a, b in zip(samples[first][key], phases[key], strict=True)]
            lower = sum(d > 0 for d in saved)
            cells.append("" if name == first else f"{spread(saved)}, {lower}/{len(saved)}")
        rows.append(f"| {name} | `{result['trees'][name]}` | " + " | ".join(cells) + " |")
    loads = result["load_1min_per_round"]
    return "\n".join(
        [
            "# Serving stack alone: server CPU per read request, `Memory.read` stored",
            "",
            f"Command: `{command}`  ",
            f"Machine: {machine['summary']}  ",
            f"Packet: {result['packet_bytes']} bytes of JSON; {args.requests} requests per"
            f" phase after {args.warmup} warm-up; {args.rounds} rounds, trees rotated each"
            f" round; 1-minute load at each round's start {min(loads):.1f}–{max(loads):.1f}",
            "",
            "Server CPU ms per request, median (range) over rounds; *saved* = the first"
            f" tree's ({first}) CPU minus this tree's in the same round, median (range), and"
            " in how many rounds this tree used less.",
            "",
            f"| tree | source | 1 client | saved | {args.clients} clients | saved |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--packet", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tree", action="append", default=None)
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--from-json", type=Path, default=None, help="render a saved run")
    args = parser.parse_args()
    if args.from_json is not None:
        saved = json.loads(args.from_json.read_text())
        print(
            render(saved, saved["machine"], saved["command"], argparse.Namespace(**saved["args"]))
        )
        return
    if args.serve:
        serve(args.port, args.packet)
        return
    args.tree = args.tree or ["this=."]
    machine = describe()
    with tempfile.TemporaryDirectory() as work:
        result = asyncio.run(run(args, Path(work)))
    command = "python " + " ".join(sys.argv)
    text = render(result, machine, command, args)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        run_args = {
            k: v for k, v in vars(args).items() if k in ("requests", "warmup", "rounds", "clients")
        }
        saved = result | {"machine": machine, "command": command, "args": run_args}
        (args.out / "serving_stack.json").write_text(json.dumps(saved))
        (args.out / "serving_stack.md").write_text(text)


if __name__ == "__main__":
    main()
