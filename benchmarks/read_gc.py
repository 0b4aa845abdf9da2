"""The cyclic garbage collector's CPU per read, by the gen-0 threshold the reads run at.

What it measures: ``Memory.read`` (onnx:minilm, the default preset, limit 10) on the
scope ``read_latency.py`` grows, every question a text never embedded before: after
``--warmup`` reads (the scope's caches loaded), ``--reads`` more, each collection timed
by the thread CPU between its ``gc.callbacks`` start and stop. ``--mode`` sets the
collector before the measured reads: ``default`` leaves it (the library raises the
young generation's threshold while a read runs, ``services/collector.py``), ``tN`` sets
the process's gen-0 threshold to N for good, ``freeze`` calls ``gc.freeze()`` after the
warm-up. Reports collections by generation, the collector's CPU a read, the read's CPU
(process CPU over the measured reads, so noisy under load) and the resident set before
and after the measured reads. Access counts are not flushed during the run if
``COGNIMEM_RECALL__ACCESS_FLUSH_S`` is set high. Usage (from the repository root; the
database is changed by the reads' access counts: give it a copy):

    python benchmarks/read_gc.py --db COPY [--mode default] [--reads 600] [--warmup 30]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from read_latency import SEED, USER, FreshQueries

from cognimem import Memory
from cognimem.providers.embeddings import CachedEmbedder

REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)


def rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


class Collections:
    """Count and thread CPU of the collections, by generation."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.cpu = [0.0, 0.0, 0.0]
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.thread_time()
            return
        self.count[info["generation"]] += 1
        self.cpu[info["generation"]] += time.thread_time() - self._start


async def run(db: Path, mode: str, reads: int, warmup: int) -> dict[str, Any]:
    async with Memory.open(f"sqlite:///{db}") as mem:
        assert isinstance(mem.embedder, CachedEmbedder)
        fresh = FreshQueries(mem, mem.embedder, SEED + 7)
        for _ in range(warmup):
            await mem.read(await fresh.next(), user_id=USER, limit=10, reference_time=REFERENCE)
        if mode == "freeze":
            gc.freeze()
        elif mode.startswith("t"):
            gc.set_threshold(int(mode[1:]), *gc.get_threshold()[1:])
        questions = [await fresh.next() for _ in range(reads)]
        seen = Collections()
        gc.callbacks.append(seen)
        rss_before, cpu = rss_mb(), time.process_time()
        for q in questions:
            await mem.read(q, user_id=USER, limit=10, reference_time=REFERENCE)
        cpu = time.process_time() - cpu
        gc.callbacks.remove(seen)
        return {
            "mode": mode,
            "reads": reads,
            "read_cpu_ms_mean": round(cpu / reads * 1000, 3),
            "collections_by_generation": seen.count,
            "collector_cpu_ms_per_read": round(sum(seen.cpu) / reads * 1000, 3),
            "tracked_objects_after": len(gc.get_objects()),
            "rss_mb_before": round(rss_before, 1),
            "rss_mb_after": round(rss_mb(), 1),
        }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--mode", default="default", help="default | tN | freeze")
    p.add_argument("--reads", type=int, default=600)
    p.add_argument("--warmup", type=int, default=30)
    args = p.parse_args()
    load = os.getloadavg()
    doc = asyncio.run(run(args.db, args.mode, args.reads, args.warmup))
    doc["load_average_start"] = [round(x, 2) for x in load]
    print(json.dumps(doc))


if __name__ == "__main__":
    main()
