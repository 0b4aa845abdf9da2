"""Where a read's CPU goes: ``Memory.read`` sampled by py-spy at 10k (and 100k) items.

What it measures: the same scope and fresh questions as ``read_latency.py`` (its corpus,
its question stream, grown through ``Memory.write_batch``), read in a child process that
py-spy samples while it reads — every thread, native frames included (the ONNX embedder
runs in a worker thread, SQLite in its own), idle samples left out. Each sample is put in
one bucket by the deepest frame on its stack that names a known place (the query
embedding, SQLite, the lexical index, the vector scan, ranking, assembly, the access
write, the event loop); the table gives each bucket's share of the sampled CPU and its
share of the read's measured CPU (the child's process time over the sampled reads).

Usage (from the repository root; py-spy must be installed: ``pip install py-spy``, and
it needs ptrace, which root has):

    python benchmarks/read_profile.py [--sizes 10000 100000] [--reads 300]
        [--rate 250] [--db PATH] [--python-only] [--raw DIR] [--out benchmarks/results]

py-spy counts a thread that waits for a core (on a loaded machine, often just after a
system call) as busy in its frame, so its shares follow time on the run queue as well as
CPU; ``read_steps.py`` measures each step's CPU with thread CPU clocks instead.

The child warms up (20 reads) before py-spy attaches, so model loading and the first
reads' caches are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from _machine import describe
from read_latency import SEED, USER, FreshQueries, corpus, count_items, grow

from cognimem import Memory
from cognimem.providers.embeddings import CachedEmbedder

ROOT = Path(__file__).resolve().parent.parent
WARMUP = 20
REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)

# (step, pattern over one frame "function (file:line)"), searched from the deepest frame
# up: the first frame that matches any pattern decides the sample's step. Libraries a
# step calls (numpy, pydantic, the sqlite3 module, the tokenizer of ``text/``) match
# nothing, so their samples go to the cognimem frame that called them.
BUCKETS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        (
            "query embedding (onnx, tokenizer)",
            r"onnxruntime|tokenizers|embed_sync|providers/(onnx|embeddings|embed_batcher)\.py",
        ),
        ("vector scan (numpy)", r"store/sqlite/vectors\.py|blas\.py"),
        ("lexical search (BM25)", r"lexical_index\.py|store/sqlite/lexical\.py"),
        ("scope cache check (SQL)", r"store/sqlite/scopes\.py"),
        ("fetch and decode rows (SQL, records)", r"store/sqlite/|store/records\.py"),
        ("access-count write", r"services/access\.py|record_accesses"),
        ("explain", r"recall/explain\.py|explain_packet|explain_profile|override_explanations"),
        ("analyze and plan", r"recall/(analyze|classify|plan|parts)\.py"),
        ("facts and constraints", r"recall/(constraints|profile|profile_read|procedures)\.py"),
        (
            "fusion and rerank",
            r"recall/(fuse|collect|rerank|graph|steps|step_groups|overrides|levels"
            r"|fact_time|temporal|events)\.py|recall/conversation/(focus|pairs|topic)\.py",
        ),
        (
            "assembly and packing",
            r"recall/(assemble|packing|citations)\.py|recall/conversation/(evidence|stated)\.py"
            r"|providers/tokens\.py",
        ),
        ("read service and reader", r"services/reading\.py|recall/reader\.py|memory/"),
        ("metrics and logging", r"logging|prometheus|structlog|metrics"),
        (
            "thread hops and event loop",
            r"asyncio|concurrent/futures|threading\.py|selectors|queue\.py",
        ),
    )
)
OTHER = "other"
# a thread waiting (for work, a lock, a socket) is not spending CPU: py-spy's own idle
# test does not see waits inside native frames, so they are dropped by their leaf
IDLE = re.compile(
    r"(epoll_wait|pthread_cond_(timed)?wait|sem_(timed)?wait|PyThread_acquire_lock_timed"
    r"|futex|__poll|nanosleep|select_epoll_poll_impl)[^;]*(;0x[0-9a-f]+[^;]*)*$"
    # Python frames only: a pool thread waiting for work, the event loop waiting in epoll
    r"|(_worker \(concurrent/futures/thread\.py|EpollSelector\.select \(selectors\.py)"
    r":\d+\)$"
)


def bucket_of(stack: str) -> str:
    """The bucket of one collapsed stack (frames separated by ``;``, root first)."""
    for frame in reversed(stack.split(";")):
        for name, pattern in BUCKETS:
            if pattern.search(frame):
                return name
    return OTHER


def aggregate(raw: Path) -> Counter[str]:
    """Samples per bucket from py-spy's ``raw`` (collapsed stacks) output."""
    counts: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if stack and n.isdigit() and not IDLE.search(stack):
            counts[bucket_of(stack)] += int(n)
    return counts


# -- the child: open, warm up, wait for py-spy, read ---------------------------------------


async def child(db: Path, reads: int) -> None:
    async with Memory.open(f"sqlite:///{db}") as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        fresh = FreshQueries(mem, cached, SEED + 7)
        questions = [await fresh.next() for _ in range(WARMUP + reads)]
        for q in questions[:WARMUP]:
            await mem.read(q, user_id=USER, limit=10, reference_time=REFERENCE)
        print("ready", flush=True)
        sys.stdin.readline()  # py-spy is attached
        cpu = time.process_time()
        for q in questions[WARMUP:]:
            await mem.read(q, user_id=USER, limit=10, reference_time=REFERENCE)
        print(f"{(time.process_time() - cpu) * 1000 / reads:.3f}", flush=True)


# -- the parent: grow the scope, run the child under py-spy ------------------------------


async def build(db: Path, size: int) -> int:
    async with Memory.open(f"sqlite:///{db}") as mem:
        stream = corpus(SEED)
        for _ in range(await count_items(mem)):
            next(stream)
        return await grow(mem, stream, size, 500)


def profile(db: Path, reads: int, rate: int, raw: Path, native: bool = True) -> float:
    """Sample the child's reads into ``raw``; the child's CPU milliseconds per read (its
    process time over the sampled reads, every thread)."""
    here = Path(__file__).resolve()
    proc = subprocess.Popen(
        [sys.executable, str(here), "--child", "--db", str(db), "--reads", str(reads)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise SystemExit("the reading child did not start")
    spy = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("py-spy")),
            "record",
            "--pid",
            str(proc.pid),
            "--rate",
            str(rate),
            *(["--native"] if native else []),
            "--threads",
            "--format",
            "raw",
            "--output",
            str(raw),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    time.sleep(2.0)  # py-spy attaches (no readiness signal of its own)
    proc.stdin.write("go\n")
    proc.stdin.flush()
    cpu_ms = float(proc.stdout.readline())
    if proc.wait() != 0:
        raise SystemExit("the reading child failed")
    _, err = spy.communicate()
    if not raw.exists():
        raise SystemExit(f"py-spy wrote no profile: {err.decode()[-500:]}")
    return cpu_ms


def table(counts: Counter[str], cpu_ms: float) -> list[dict[str, Any]]:
    """Each bucket's share of the busy samples and that share of the measured CPU."""
    total = sum(counts.values())
    return [
        {
            "bucket": name,
            "samples": n,
            "share": round(n / total, 3),
            "ms_per_read": round(n / total * cpu_ms, 2),
        }
        for name, n in counts.most_common()
    ]


def render(size: int, cpu_ms: float, rows: list[dict[str, Any]]) -> str:
    lines = [
        f"### {size:,} items — {cpu_ms:.1f} ms of CPU per read (process time, every thread)",
        "",
        "| where | share | ms per read |",
        "|---|---|---|",
    ]
    lines += [f"| {r['bucket']} | {r['share']:.1%} | {r['ms_per_read']:.2f} |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    p.add_argument("--reads", type=int, default=300)
    p.add_argument("--rate", type=int, default=250)
    p.add_argument("--db", type=Path)
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    p.add_argument(
        "--python-only",
        action="store_true",
        help="sample Python frames only (native code counts in the Python frame calling it)",
    )
    p.add_argument("--raw", type=Path, help="keep py-spy's collapsed stacks in this folder")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        asyncio.run(child(args.db, args.reads))
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "profile.db"
        results = []
        for size in args.sizes:
            items = asyncio.run(build(db, size))
            raw = Path(tmp) / f"profile-{size}.txt"
            cpu_ms = profile(db, args.reads, args.rate, raw, not args.python_only)
            rows = table(aggregate(raw), cpu_ms)
            if args.raw:
                args.raw.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(raw, args.raw / raw.name)
            results.append({"items": items, "reads": args.reads, "cpu_ms": cpu_ms, "rows": rows})
            print(render(items, cpu_ms, rows), flush=True)
    command = "python benchmarks/read_profile.py " + " ".join(sys.argv[1:])
    doc = {"command": command.strip(), "machine": describe(), "sizes": results}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "read_profile.json").write_text(json.dumps(doc, indent=2) + "\n")
    md = [
        "# Where a read's CPU goes",
        "",
        f"`{doc['command']}` — py-spy samples of every thread (native frames, idle left",
        f"out) over {args.reads} reads of fresh questions, after {WARMUP} warm-up reads;",
        "each sample goes to the bucket of the deepest frame that names one",
        "(`benchmarks/read_profile.py`). Machine: see `read_profile.json`.",
        "",
    ]
    md += [render(r["items"], r["cpu_ms"], r["rows"]) + "\n" for r in results]
    (args.out / "read_profile.md").write_text("\n".join(md))


if __name__ == "__main__":
    main()
