"""The app's share of a read's HTTP overhead, counted in instructions: the cognimem ASGI
app called in process (no uvicorn, no socket) for ``POST /v1/memory/read``, with
``Memory.read`` replaced by one stored real packet, under callgrind.

Everything the app executes for the request besides ``Memory.read`` is what HTTP adds
over an in-process read *inside the app*: FastAPI/Starlette's outer layers, the app's
middlewares (request id, body limit, the read fast path), the body's JSON and
``ReadRequest``, ``storable_text``, the key check and rate limit (SQLite), the read's
metrics, the packet's JSON and the ``Response``, the HTTP metrics. uvicorn and the
kernel (parsing, the request task, the socket) are outside it. Instruction counts do
not move with the machine's load, so source trees are compared by their counts.

Each tree runs in its own process (``--child``, ``ROOT/src`` first on ``PYTHONPATH``)
under ``valgrind --tool=callgrind --dump-before=os_getppid``: the stub read calls
``os.getppid``, so each dump holds one request's full cycle. The requests are built as
uvicorn builds them (the headers httpx sends); every response is checked to be 200 and
the same bytes as the first (the request id header aside).

Usage (repository root):

    python benchmarks/serving_app.py --tree base=/tmp/base --tree branch=. \\
        [--requests 40] [--warmup 20] [--items 300] [--out FILE.json]
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

from read_callgrind import callgrind_prefix, child_env, self_costs
from read_latency import USER
from serving_stack import QUERY, prepare

AT = "2026-01-01T00:00:00+00:00"


async def child(db: Path, packet_json: str, secret: str, requests: int) -> list[str]:
    """Warm-up and measured requests through the app; their response bodies."""
    import logging

    from cognimem import Memory
    from cognimem.api.app import create_app
    from cognimem.models.packets import ContextPacket

    logging.getLogger("cognimem.access").setLevel(logging.WARNING)
    packet = ContextPacket.model_validate_json(packet_json)

    async def stored_read(self: Memory, query: str, **_: Any) -> ContextPacket:
        os.getppid()  # callgrind dumps before this: one dump a request
        return packet

    Memory.read = stored_read  # type: ignore[method-assign]
    async with Memory.open(f"sqlite:///{db}") as mem:
        app = create_app(mem)
        body = json.dumps(
            {"query": QUERY, "scope": {"user_id": USER}, "limit": 10, "reference_time": AT}
        ).encode()
        headers = [
            (b"host", b"127.0.0.1:8000"),
            (b"accept", b"*/*"),
            (b"accept-encoding", b"gzip, deflate"),
            (b"connection", b"keep-alive"),
            (b"user-agent", b"python-httpx/0.28.1"),
            (b"authorization", f"Bearer {secret}".encode()),
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"application/json"),
        ]
        return [await one_request(app, headers, body) for _ in range(requests)]


async def one_request(app: Any, headers: list[tuple[bytes, bytes]], body: bytes) -> str:
    """One read request through ``app`` as uvicorn would send it; the response body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
        "scheme": "http",
        "method": "POST",
        "root_path": "",
        "path": "/v1/memory/read",
        "raw_path": b"/v1/memory/read",
        "query_string": b"",
        "headers": headers,
        "state": {},
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # pragma: no cover - the app reads the body once
        raise AssertionError

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    if sent[0]["status"] != 200:
        raise RuntimeError(f"the read answered {sent[0]['status']}: {sent[1]['body'][:300]!r}")
    return b"".join(m.get("body", b"") for m in sent[1:]).decode()


def run_tree(tree: str, db: Path, packet: Path, secret: str, args: argparse.Namespace) -> Any:
    """One tree's requests under callgrind: instructions per request and by function."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = child_env(tree)
        env["COGNIMEM_AUTH__RATE_LIMIT_PER_MINUTE"] = "100000000"
        command = [
            *callgrind_prefix(work),
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            "--db",
            str(db),
            "--packet",
            str(packet),
            "--secret",
            secret,
            "--requests",
            str(args.warmup + args.requests + 1),
            "--bodies",
            str(work / "bodies.json"),
        ]
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        dumps = sorted(work.glob("cg.*.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
        # dump k (from 0) holds what ran before request k's read: dump k + 1 is request
        # k's cycle from its read to the next request's read
        measured = dumps[args.warmup + 1 : args.warmup + 1 + args.requests]
        costs = [self_costs(d) for d in measured]
        bodies = json.loads((work / "bodies.json").read_text())
    if len(set(bodies)) != 1:
        raise RuntimeError("the responses' bodies differ between requests")
    totals = [c[0] for c in costs]
    by_function: dict[str, float] = {}
    for _, functions in costs:
        for (obj, fn), cost in functions.items():
            key = f"{obj} {fn}"
            by_function[key] = by_function.get(key, 0.0) + cost / len(costs)
    top = sorted(by_function.items(), key=lambda kv: -kv[1])[: args.top]
    return {
        "median": statistics.median(totals),
        "min": min(totals),
        "max": max(totals),
        "per_request": totals,
        "body_bytes": len(bodies[0]),
        "body": bodies[0],
        "top_functions": [[k, round(v)] for k, v in top],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--packet", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--secret", default="", help=argparse.SUPPRESS)
    parser.add_argument("--bodies", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tree", action="append", default=None)
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.child:
        packet_json = args.packet.read_text()
        bodies = asyncio.run(child(args.db, packet_json, args.secret, args.requests))
        args.bodies.write_text(json.dumps(bodies))
        return
    args.tree = args.tree or ["this=."]
    result: dict[str, Any] = {"command": "python " + " ".join(sys.argv), "trees": {}}
    with tempfile.TemporaryDirectory() as tmp:
        db, packet = Path(tmp) / "app.db", Path(tmp) / "packet.json"
        secret = asyncio.run(prepare(db, packet, args.items))
        for item in args.tree:
            name, tree = item.split("=", 1)
            found = run_tree(tree, db, packet, secret, args)
            result["trees"][name] = {"tree": tree, **found}
            print(
                f"{name}: {found['median'] / 1000:.1f}k instructions a request (median; "
                f"{found['min'] / 1000:.1f}k-{found['max'] / 1000:.1f}k), body "
                f"{found['body_bytes']} bytes",
                flush=True,
            )
            for fn, cost in found["top_functions"][:15]:
                print(f"  {cost / 1000:8.1f}k  {fn[:100]}")
    bodies = {t["body"] for t in result["trees"].values()}
    print("bodies identical across trees:", len(bodies) == 1)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
