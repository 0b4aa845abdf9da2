"""Where a write's CPU grows with the scope: ``write_batch`` into a grown SQLite scope.

What it measures: a copy of each database ``growth.py --keep`` left (one user scope grown
through the real write path) takes one warm-up ``write_batch`` of ``--batch`` messages
and then ``--batches`` more, all from ``growth.py``'s message stream after its first
``--skip`` messages (so every database gets the same new messages; by default the
stream past what the database holds). Over the measured batches it reports the
process CPU (every thread), the main thread's CPU, the write path's own step times
(``WriteResult.steps``, wall), and the thread CPU of the two parts of reconciliation
that read the scope: the near-duplicate search (``store.sqlite.vectors.nearest``, run
on a SQLite reader thread) and the knowledge build (entity resolution, paraphrase
renewal, reconciliation against the stored facts: the main thread's CPU while it ran); and the
thread CPU of every call into SQLite (reads, the commit, the scope copies' refresh, the
search among them), and of decoding the stored events the pronoun window reads
(``store.sqlite.procedures.event_from_row``, timed per event, so it carries the timer's
own ~1 µs an event).

Usage (from the repository root, niced on a shared machine):

    python benchmarks/write_growth_profile.py DB [DB ...] [--batch 1000]
        [--batches 2] [--skip N] [--path PATH] [--ready FILE]

The copies are made in a temporary directory; the databases given are not written.
``--ready FILE``: the file is written (with the process id) once the warm-up batch and
any index build are done and the measured batches start, so a profiler can attach for
them alone (``py-spy record --pid PID``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from growth import SEED, USER, sentences, stream

from cognimem import Memory
from cognimem.ingest import knowledge
from cognimem.store.sqlite import procedures, vectors
from cognimem.store.sqlite.connection import Connections

CPU: dict[str, float] = {}


def timed_sync(owner: Any, name: str, label: str) -> None:
    """``owner.name`` counting the CPU of the thread it runs on under ``label``."""
    real = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return real(*args, **kwargs)
        finally:
            CPU[label] = CPU.get(label, 0.0) + time.thread_time() - start

    setattr(owner, name, timed)


def _timed_async(owner: Any, name: str, label: str) -> None:
    """``owner.name`` (a coroutine) counting the main thread's CPU while it runs (what it
    awaits on other threads is not in it)."""
    real: Callable[..., Awaitable[Any]] = getattr(owner, name)

    async def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return await real(*args, **kwargs)
        finally:
            CPU[label] = CPU.get(label, 0.0) + time.thread_time() - start

    setattr(owner, name, timed)


timed_sync(vectors, "nearest", "near-duplicate search (reader thread)")
# the stored events the pronoun window reads, decoded (``Understander._window``)
timed_sync(procedures, "event_from_row", "events decoded for the pronoun window")
timed_sync(Connections, "_call", "every SQLite call, the search included (any thread)")
_timed_async(knowledge.KnowledgeBuilder, "build", "knowledge build (main thread)")


async def profile(
    url: str, skip: int, batch: int, batches: int, path: Path, ready: Path | None = None
) -> dict[str, Any]:
    messages = stream(sentences(path), SEED)
    for _ in range(skip):
        next(messages)
    async with Memory.open(url) as mem:
        await mem.write_batch([next(messages) for _ in range(batch)], user_id=USER)
        # a scope past SQLite's vector index threshold has its index built on a thread
        # of its own after its first search (the warm-up's): waited for, so the batches
        # measured search through it and none pays the build's CPU
        wait = getattr(mem.store, "wait_for_vector_indexes", None)
        if wait is not None:
            wait()
        if ready is not None:
            await asyncio.to_thread(ready.write_text, f"{os.getpid()}\n")
            await asyncio.sleep(2.0)  # time for a profiler to attach
        CPU.clear()
        steps: dict[str, float] = {}
        cpu, main, wall = time.process_time(), time.thread_time(), time.perf_counter()
        for _ in range(batches):
            result = await mem.write_batch([next(messages) for _ in range(batch)], user_id=USER)
            for step in result.steps:
                steps[step.name] = steps.get(step.name, 0.0) + step.latency_ms
        n = batch * batches
        return {
            "messages": n,
            "wall_s": round(time.perf_counter() - wall, 2),
            "process_cpu_ms_per_message": round((time.process_time() - cpu) / n * 1000, 3),
            "main_thread_cpu_ms_per_message": round((time.thread_time() - main) / n * 1000, 3),
            "thread_cpu_ms_per_message": {k: round(v / n * 1000, 3) for k, v in CPU.items()},
            "step_wall_ms_per_message": {k: round(v / n, 3) for k, v in steps.items()},
            "vector_index": getattr(mem.store, "vector_index_status", lambda: None)(),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", type=Path, nargs="+")
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--batches", type=int, default=2)
    parser.add_argument("--skip", type=int, help="messages of the stream to pass over")
    parser.add_argument(
        "--path", type=Path, default=Path("../shared/data/locomo/locomo10_dev.json")
    )
    parser.add_argument("--ready", type=Path, help="written when the measured batches start")
    args = parser.parse_args()
    for db in args.databases:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "copy.db"
            shutil.copy(db, copy)
            with sqlite3.connect(copy) as conn:
                events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
                items = conn.execute("SELECT count(*) FROM items").fetchone()[0]
            skip = events if args.skip is None else args.skip
            made = asyncio.run(
                profile(f"sqlite:///{copy}", skip, args.batch, args.batches, args.path, args.ready)
            )
        made = {"database": str(db), "items_before": items, "skip": skip, **made}
        made["load"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(made), flush=True)


if __name__ == "__main__":
    main()
