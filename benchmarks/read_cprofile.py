"""Where a read's Python calls go: cProfile of fresh reads on the event loop's thread.

What it measures: ``Memory.read`` (onnx:minilm, the default preset, limit 10) on a
fresh copy of the scope ``read_latency.py`` grows, every question a text never embedded
before (half of them naming a time with ``--timed-share 0.5``), after ``--warmup`` reads
that are not profiled. cProfile runs with the thread CPU clock (``time.thread_time``), so
a call is charged the CPU of the loop's thread, not the time it waited for a core; the
query embedding's onnx run is on a pool thread and not in the table (its hand-off is).
The profiler costs ~3x a read's CPU (most of it per call), so the table gives shares and
calls a read, not the milliseconds a read costs (``read_cpu.py`` measures those).

Usage (from the repository root; the database is built by ``read_latency.py --db``):

    python benchmarks/read_cprofile.py --db PATH [--reads 300] [--warmup 30]
        [--timed-share 0.0] [--top 40] [--user ID] [--out FILE.prof]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)
TIMED = " last summer"


async def profile(args: argparse.Namespace) -> cProfile.Profile:
    from read_latency import SEED, USER, FreshQueries

    from cognimem import Memory

    user = args.user or USER
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "read.db"
        shutil.copyfile(args.db, copy)
        async with Memory.open(f"sqlite:///{copy}") as mem:
            fresh = FreshQueries(mem, mem.embedder, SEED + 31)
            for _ in range(args.warmup):
                await mem.read(await fresh.next(), user_id=user, limit=10, reference_time=REFERENCE)
            every = round(1 / args.timed_share) if args.timed_share > 0 else 0
            questions = [
                await fresh.next() + (TIMED if every and i % every == every - 1 else "")
                for i in range(args.reads)
            ]
            prof = cProfile.Profile(time.thread_time)
            prof.enable()
            for q in questions:
                await mem.read(q, user_id=user, limit=10, reference_time=REFERENCE)
            prof.disable()
    return prof


def table(prof: cProfile.Profile, reads: int, top: int) -> str:
    """The ``top`` functions by cumulative and by own time, per read."""
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    calls = sum(nc for _, nc, _, _, _ in stats.stats.values())
    out.write(f"{reads} reads, {calls / reads:.0f} function calls a read\n")
    for order in ("cumulative", "tottime"):
        out.write(f"\n-- by {order} (ms a read under the profiler, calls a read)\n")
        rows = sorted(
            stats.stats.items(),
            key=lambda kv: -kv[1][3 if order == "cumulative" else 2],
        )
        for (path, line, name), (_, nc, tt, ct, _) in rows[:top]:
            where = path.split("/src/")[-1] if "/src/" in path else Path(path).name
            out.write(
                f"{ct / reads * 1000:8.3f} {tt / reads * 1000:8.3f} {nc / reads:8.1f}"
                f"  {where}:{line}({name})\n"
            )
    return out.getvalue()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--reads", type=int, default=300)
    p.add_argument("--warmup", type=int, default=30)
    p.add_argument("--timed-share", type=float, default=0.0, help="share naming a time")
    p.add_argument("--top", type=int, default=40)
    p.add_argument("--user", help="the scope's user (default: read_latency.py's)")
    p.add_argument("--out", type=Path, help="also write the raw profile (pstats)")
    args = p.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    prof = asyncio.run(profile(args))
    print(table(prof, args.reads, args.top))
    if args.out:
        prof.dump_stats(args.out)


if __name__ == "__main__":
    main()
