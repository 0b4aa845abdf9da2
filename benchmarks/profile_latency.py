"""What the standing profile and the decision areas add to a read at 10k items.

A user scope of ``--items`` synthetic chat turns (``read_latency.py``'s corpus) and
``--constraints`` first-person constraints (the cues of
``benchmarks/data/cue_trigger_long.jsonl``), read with decision-like requests (the
triggers of the same file, each a text the scope has never seen). Two ``Memory``
objects on the one SQLite file, in the same process, the same embedder: one with the
profile (``recall.profile_tokens`` 120, the default), one without (0). Each request is
first read once unmeasured (so its embedding is cached and neither side pays it), then
by both, the order alternating, and the paired difference taken per request: on a busy
machine the pairs move together, so the median difference says what the profile costs
where the two p50s alone could not. Each read is timed twice: wall time, and the
process's CPU time (``time.process_time``: every thread, the store's workers too),
which on a loaded machine is the one to read — the wall time mostly measures the wait
for a core. The load average before and after is recorded beside them.

The decision areas are in both reads (the constraint step uses them too); what they add
at read time is timed apart: putting the request in areas (``QueryView.of`` with and
without the areas' description vectors) and marking the fact rows that share one.

Usage (repository root):

    python benchmarks/profile_latency.py [--items 10000] [--constraints 80]
        [--reads 200] [--db PATH] [--out benchmarks/results] [--no-write]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from _machine import describe
from cue_trigger import load
from read_latency import USER, corpus, count_items, grow, stats

from cognimem import Memory, Message
from cognimem.config import RecallSettings, Settings
from cognimem.providers.embeddings import CachedEmbedder
from cognimem.recall.constraints import QueryView
from cognimem.text.areas import AREA_PHRASES

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "cue_trigger_long.jsonl"
SEED = 20240521
READ_AT = datetime(2100, 1, 1, tzinfo=UTC)  # after every synthetic turn
AREA_REPS = 2_000


async def build(db: Path, items: int, constraints: int) -> int:
    """The scope: ``items`` turns, then the constraints said by the user (reused when
    the database already holds them)."""
    async with Memory.open(f"sqlite:///{db}") as mem:
        have = await count_items(mem)
        if have >= items:
            return have
        stream = corpus(SEED)
        await grow(mem, stream, items - constraints, 500)
        at = datetime(2030, 1, 1, tzinfo=UTC)
        cues = [p.cue for p in load(DATA)][:constraints]
        await mem.write_batch(
            [
                Message(content=c, name="Ada", occurred_at=at + timedelta(hours=i))
                for i, c in enumerate(cues)
            ],
            user_id=USER,
        )
        return await count_items(mem)


async def timed(mem: Memory, query: str) -> tuple[float, float, Any]:
    """Wall and process CPU milliseconds of one read (CPU: every thread of the process,
    the store's worker threads too; on a loaded machine the wall time mostly measures
    the wait for a core, the CPU time what the read itself costs)."""
    start, cpu = time.perf_counter(), time.process_time()
    packet = await mem.read(query, user_id=USER, reference_time=READ_AT)
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000, packet


def area_cost(
    queries: list[str], vectors: np.ndarray, descriptions: np.ndarray
) -> dict[str, float]:
    """Median microseconds of the request's view with and without the areas."""
    out = {}
    for name, desc in (("with_areas", descriptions), ("without_areas", None)):
        times = []
        for i in range(AREA_REPS):
            q = queries[i % len(queries)]
            start = time.perf_counter()
            QueryView.of(q, vectors[i % len(queries)], True, desc)
            times.append((time.perf_counter() - start) * 1e6)
        out[name] = round(statistics.median(times), 1)
    return out


async def run(args: argparse.Namespace, db: Path) -> dict[str, Any]:
    items = await build(db, args.items, args.constraints)
    triggers = [p.trigger for p in load(DATA)][: args.reads + args.warmup]
    on = Settings(recall=RecallSettings(profile_tokens=120))
    off = Settings(recall=RecallSettings(profile_tokens=0))
    with_ms: list[float] = []
    without_ms: list[float] = []
    with_cpu: list[float] = []
    without_cpu: list[float] = []
    load_before = os.getloadavg()
    step_ms: list[float] = []
    entries: list[int] = []
    async with (
        Memory.open(f"sqlite:///{db}", settings=on) as mem_on,
        Memory.open(f"sqlite:///{db}", settings=off) as mem_off,
    ):
        for i, query in enumerate(triggers):
            await timed(mem_on, query)  # embeds the request: neither measured read pays it
            await timed(mem_off, query)
            pair = (mem_on, mem_off) if i % 2 else (mem_off, mem_on)
            got = {}
            for mem in pair:
                got[id(mem)] = await timed(mem, query)
            if i < args.warmup:
                continue
            (a, a_cpu, packet), (b, b_cpu, _) = got[id(mem_on)], got[id(mem_off)]
            with_ms.append(a)
            without_ms.append(b)
            with_cpu.append(a_cpu)
            without_cpu.append(b_cpu)
            steps = {s.name: s for s in packet.steps}
            if "profile" in steps:
                step_ms.append(steps["profile"].latency_ms)
                entries.append(steps["profile"].results)
        cached = mem_on.embedder
        assert isinstance(cached, CachedEmbedder)
        vectors = await cached.inner.embed(triggers, "query")
        descriptions = await cached.inner.embed(list(AREA_PHRASES), "document")
    diffs = [a - b for a, b in zip(with_ms, without_ms, strict=True)]
    cpu_diffs = [a - b for a, b in zip(with_cpu, without_cpu, strict=True)]
    return {
        "items": items,
        "constraints": args.constraints,
        "reads": len(with_ms),
        "profile_on_ms": stats(with_ms),
        "profile_off_ms": stats(without_ms),
        "paired_difference_ms": stats(diffs),
        "profile_on_cpu_ms": stats(with_cpu),
        "profile_off_cpu_ms": stats(without_cpu),
        "paired_difference_cpu_ms": stats(cpu_diffs),
        "load_average_1_5_15": {"before": load_before, "after": os.getloadavg()},
        "profile_step_ms": stats(step_ms) if step_ms else None,
        "profile_reads": len(step_ms),
        "profile_candidates_mean": round(statistics.mean(entries), 2) if entries else 0.0,
        "area_view_us": area_cost(triggers, np.asarray(vectors), np.asarray(descriptions)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--constraints", type=int, default=80)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--db", type=Path, help="keep the database here (reused if present)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    machine = describe()
    started = time.perf_counter()
    if args.db:
        result = asyncio.run(run(args, args.db))
    else:
        with tempfile.TemporaryDirectory() as raw:
            result = asyncio.run(run(args, Path(raw) / "profile_latency.db"))
    result["command"] = ("python benchmarks/profile_latency.py " + " ".join(sys.argv[1:])).strip()
    result["machine"] = machine
    result["seconds"] = round(time.perf_counter() - started, 1)
    on, off, diff = (
        result["profile_on_ms"],
        result["profile_off_ms"],
        result["paired_difference_ms"],
    )
    step = result["profile_step_ms"] or {"p50": 0.0, "p95": 0.0}
    on_cpu, off_cpu, diff_cpu = (
        result["profile_on_cpu_ms"],
        result["profile_off_cpu_ms"],
        result["paired_difference_cpu_ms"],
    )
    load = result["load_average_1_5_15"]
    areas = result["area_view_us"]
    lines = [
        "# What the standing profile and the decision areas add to a read",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']} — shared with other work while it ran: the "
        "timings are of a busy machine, the paired difference is what to read  ",
        "",
        f"{result['items']} items in one user scope ({result['constraints']} of them "
        f"constraints), {result['reads']} decision-like requests, each read with the "
        "profile and without it (its embedding cached for both, the order alternating).",
        "",
        "| | p50 | p95 | mean |",
        "|---|---|---|---|",
        f"| read, profile on (ms) | {on['p50']} | {on['p95']} | {on['mean']} |",
        f"| read, profile off (ms) | {off['p50']} | {off['p95']} | {off['mean']} |",
        f"| paired difference, on − off (ms) | {diff['p50']} | {diff['p95']} | {diff['mean']} |",
        f"| the profile step alone (ms) | {step['p50']} | {step['p95']} | |",
        f"| read, profile on (process CPU ms) | {on_cpu['p50']} | {on_cpu['p95']} | "
        f"{on_cpu['mean']} |",
        f"| read, profile off (process CPU ms) | {off_cpu['p50']} | {off_cpu['p95']} | "
        f"{off_cpu['mean']} |",
        f"| paired difference, on − off (process CPU ms) | {diff_cpu['p50']} | "
        f"{diff_cpu['p95']} | {diff_cpu['mean']} |",
        "",
        "Load average (1 / 5 / 15 min) on the machine's 2 cores: "
        + " / ".join(f"{v:.1f}" for v in load["before"])
        + " before, "
        + " / ".join(f"{v:.1f}" for v in load["after"])
        + " after. Wall times on a loaded machine mostly measure the wait for a core; "
        "the process CPU time (`time.process_time`, every thread of the process) is what "
        "a read costs, and its paired difference is what the profile adds.",
        "",
        f"The profile ran on {result['profile_reads']} of {result['reads']} reads (the "
        f"decision-like ones), {result['profile_candidates_mean']} entries bearing on the "
        "request on average. The decision areas, in both reads: the request's view takes "
        f"{areas['with_areas']} µs with the areas and {areas['without_areas']} µs without "
        f"(median of {AREA_REPS}).",
        "",
        f"{result['seconds']} s.",
        "",
    ]
    print("\n".join(lines))
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "profile_latency.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.out / "profile_latency.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
