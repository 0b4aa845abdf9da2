"""Time to the first event of a streamed read against a plain read, at 10k memories.

What it measures: in-process, with the default local embedder (onnx:minilm) and the
default preset, on the synthetic conversational corpus of ``read_latency.py`` in one
user scope (plus three mandates of that user): the wall time of ``Memory.read`` (the
plain read: ``POST /v1/memory/read``), and of the same read with ``on_section`` (what
``POST /v1/memory/read/stream`` runs): the time until its first section is sent (the
mandates, listed before any search) and until the packet is whole. Plain and streamed
reads alternate, each with a question never embedded before, after warm-up reads.
Issue 33's goal: first event p50 ≤ 0.3 × the plain read's p50.

Usage (from the repository root):

    python benchmarks/read_stream.py [--items 10000] [--reads 200] [--warmup 20]
        [--db PATH] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from _machine import describe
from read_latency import SEED, USER, FreshQueries, corpus, count_items, grow, stats

from cognimem import Memory
from cognimem.providers.embeddings import CachedEmbedder

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.3  # first event p50 / plain read p50
MANDATES = (
    "Never give medical dosage advice.",
    "Always answer in British English.",
    "Do not share one customer's details with another.",
)


async def plain(mem: Memory, query: str, at: datetime) -> float:
    start = time.perf_counter()
    await mem.read(query, user_id=USER, reference_time=at)
    return (time.perf_counter() - start) * 1000


async def streamed(mem: Memory, query: str, at: datetime) -> tuple[float, float]:
    """Milliseconds to the first section and to the whole packet."""
    first: list[float] = []
    start = time.perf_counter()

    async def on_section(name: str, entries: list[Any]) -> None:
        if not first:
            first.append((time.perf_counter() - start) * 1000)

    await mem.read(query, user_id=USER, reference_time=at, on_section=on_section)
    return first[0], (time.perf_counter() - start) * 1000


async def run(args: argparse.Namespace, db: Path) -> dict[str, Any]:
    at = datetime(2100, 1, 1, tzinfo=UTC)
    async with Memory.open(f"sqlite:///{db}") as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        stream = corpus(SEED)
        for _ in range(await count_items(mem)):
            next(stream)
        await grow(mem, stream, args.items - len(MANDATES), 500)
        mandates = await mem.list_items(user_id=USER, kinds=["mandate"])
        if not mandates:
            for rule in MANDATES:
                await mem.write(rule, user_id=USER, profile="mandate")
        fresh = FreshQueries(mem, cached, SEED + 2)
        for _ in range(args.warmup):
            await plain(mem, await fresh.next(), at)
            await streamed(mem, await fresh.next(), at)
        reads: list[float] = []
        firsts: list[float] = []
        wholes: list[float] = []
        for i in range(args.reads):
            a, b = await fresh.next(), await fresh.next()
            if i % 2:
                first, whole = await streamed(mem, a, at)
                reads.append(await plain(mem, b, at))
            else:
                reads.append(await plain(mem, a, at))
                first, whole = await streamed(mem, b, at)
            firsts.append(first)
            wholes.append(whole)
        items = await count_items(mem)
    return {
        "items": items,
        "plain_read_ms": stats(reads),
        "first_event_ms": stats(firsts),
        "streamed_whole_ms": stats(wholes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--db", type=Path, help="keep the database here (reused if present)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    machine = describe()
    with tempfile.TemporaryDirectory() as tmp:
        measured = asyncio.run(run(args, args.db or Path(tmp) / "read_stream.db"))
    ratio = measured["first_event_ms"]["p50"] / measured["plain_read_ms"]["p50"]
    result = {
        "command": "python benchmarks/read_stream.py " + " ".join(sys.argv[1:]),
        "machine": machine,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        **measured,
        "first_event_over_plain_p50": round(ratio, 3),
        "goal": GOAL,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "read_stream.json").write_text(json.dumps(result, indent=2) + "\n")
    p, f, w = (measured[k] for k in ("plain_read_ms", "first_event_ms", "streamed_whole_ms"))
    met = "met" if ratio <= GOAL else "NOT met"
    lines = [
        "# Streamed read: time to the first event vs a plain read (onnx:minilm, balanced)",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, "
        f"at end {result['load_average_at_end']} (a busy shared machine: other engineers' "
        "tests and CI ran beside it; wall times are inflated, the ratio less so)",
        "",
        f"{measured['items']:,} memories in one user scope (3 of them mandates); "
        f"{args.reads} plain and {args.reads} streamed reads, alternating, after "
        f"{args.warmup} warm-up reads of each; every query a text never embedded before. "
        "In-process `Memory.read`, without and with `on_section`. Milliseconds.",
        "",
        "| | p50 | p95 | p99 |",
        "|---|---|---|---|",
        f"| plain read | {p['p50']} | {p['p95']} | {p['p99']} |",
        f"| streamed: first event (mandates) | {f['p50']} | {f['p95']} | {f['p99']} |",
        f"| streamed: whole packet | {w['p50']} | {w['p95']} | {w['p99']} |",
        "",
        f"First event p50 / plain read p50 = **{ratio:.3f}** (goal ≤ {GOAL}: {met}).",
        "",
        "The first event is the mandates section: listed by one indexed store query before "
        "the query is embedded or searched. The constraints and facts follow once the "
        "plan's steps are in (they are scored by meaning: the query's embedding), then the "
        "ranked items, then the whole packet.",
        "",
    ]
    (args.out / "read_stream.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
