"""CPU per read minus the query embedding's CPU, for one or more source trees, interleaved.

What it measures: ``Memory.read`` (onnx:minilm, the default preset, limit 10) on the
scope ``read_latency.py`` grows, with every question a text never embedded before, and
beside each read the same onnx session embedding another fresh question alone. Both are
timed as process CPU (``time.process_time``: every thread of the process, so the ONNX
worker, the SQLite reader threads and any background task count), which moves far less
than wall time when other work shares the machine. Per read it reports the CPU of the
whole block (reads, their background work and the bare embeddings) minus the bare
embeddings' CPU, divided by the reads: what a read costs beyond its query's embedding.

Each ``--tree`` (a checkout's root: its ``src`` goes first on the path) runs in a child
process of its own on its own copy of ``--db``, and the children take turns, a block of
``--block`` reads each, so a change of load on the machine falls on every tree alike.
With ``--timed`` every read's question names a time (it ends in "last summer"): the
read then picks its facts by valid time from the scope's facts of any status
(``recall/steps.py``, ``_timed_fact_rows``).
Usage (from the repository root; the database is built by ``read_latency.py --db`` or
``read_profile.py --db``):

    python benchmarks/read_cpu.py --db PATH [--tree . [--tree ../other]]
        [--blocks 8] [--block 25] [--warmup 20] [--timed] [--write] [--user ID]
        [--out FILE.json]

``--user`` reads another scope's user: the growth scopes (``growth.py``, LoCoMo-like
turns) are of ``growth-user``; the questions are still ``read_latency.py``'s.

With ``--write`` a conversation goes on between the reads: before each read, one message
that states a fact (``Memory.write``, the same user, an hour after the one before; each
names a value of one of a few keys, so it adds a fact or supersedes one) is written,
untimed and left out of the block's CPU; the read after it is the one measured. Each
block also reports how many of its writes changed the scope's facts (its
``fact_versions`` row moved).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)
TIMED = " last summer"
SAID_FROM = datetime(2030, 1, 1, tzinfo=UTC)  # when ``--write``'s first message is said


# what ``--write`` says between reads: a new value of one of a few keys each time
# (a value the extraction takes for that key: a colour, a city, a job, a name)
_STATED = (
    ("My favourite colour is {}.", ("teal", "amber", "olive", "crimson", "navy", "ochre")),
    ("I live in {} now.", ("Oslo", "Lisbon", "Rome", "Vienna", "Dublin", "Prague", "Madrid")),
    ("I work as a {} these days.", ("baker", "pilot", "nurse", "plumber", "teacher", "tailor")),
    ("My dog is called {}.", ("Rex", "Bo", "Milo", "Luna", "Pip", "Otto", "Nell")),
)


def _stated(n: int) -> str:
    """The ``n``-th message ``--write`` writes."""
    template, values = _STATED[n % len(_STATED)]
    return template.format(values[n // len(_STATED) % len(values)])


def _fact_version(db: Path, user: str) -> int:
    with sqlite3.connect(db) as conn:
        found = conn.execute(
            "SELECT coalesce(sum(version), 0) FROM fact_versions WHERE user_key = ?",
            (f"u:{user}",),
        ).fetchone()
    return int(found[0])


async def child(db: Path, warmup: int, timed: bool, user: str | None, write: bool) -> None:
    """Read blocks on request (a line with the block's size on stdin), and answer each
    with one JSON line: the block's CPU, the bare embeddings' CPU, the reads' own."""
    from read_latency import SEED, USER, FreshQueries
    from read_steps import wait_for_index

    from cognimem import Memory
    from cognimem.providers.embeddings import CachedEmbedder

    async with Memory.open(f"sqlite:///{db}") as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        fresh = FreshQueries(mem, cached, SEED + 11)
        said = TIMED if timed else ""
        user = user or USER
        for _ in range(warmup):
            question = await fresh.next() + said
            await mem.read(question, user_id=user, limit=10, reference_time=REFERENCE)
            await cached.inner.embed([await fresh.next()], "query")
        wait_for_index(mem)
        said_before = 0  # messages ``--write`` wrote in earlier blocks
        print("ready", flush=True)
        for line in sys.stdin:
            n = int(line)
            questions = [(await fresh.next() + said, await fresh.next()) for _ in range(n)]
            reads: list[float] = []
            embeds: list[float] = []
            writes: list[float] = []
            changed = 0
            block = time.process_time()
            for i, (read_q, embed_q) in enumerate(questions):
                if write:  # untimed, with the check whether it changed the facts
                    cpu = time.process_time()
                    before = _fact_version(db, user)
                    n_said = said_before + len(writes)
                    # an hour apart: a value said again is not a duplicate message
                    said_at = SAID_FROM + timedelta(hours=n_said)
                    await mem.write(_stated(n_said), user_id=user, occurred_at=said_at)
                    changed += _fact_version(db, user) != before
                    writes.append(time.process_time() - cpu)
                for task in ("read", "embed") if i % 2 else ("embed", "read"):
                    cpu = time.process_time()
                    if task == "read":
                        await mem.read(read_q, user_id=user, limit=10, reference_time=REFERENCE)
                        reads.append(time.process_time() - cpu)
                    else:
                        await cached.inner.embed([embed_q], "query")
                        embeds.append(time.process_time() - cpu)
            total = time.process_time() - block - sum(writes)
            line = {
                "block": total, "reads": reads, "embeds": embeds, "rss_mb": rss_mb(),
                "writes": len(writes), "writes_changing_facts": changed,
            }  # fmt: skip
            said_before += len(writes)
            print(json.dumps(line), flush=True)


def rss_mb() -> float:
    """This process's resident set now, in MiB (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def start(
    tree: Path, db: Path, warmup: int, timed: bool, user: str | None, write: bool = False
) -> subprocess.Popen[str]:
    options = [
        *("--db", str(db), "--warmup", str(warmup)),
        *(["--timed"] if timed else []),
        *(["--user", user] if user else []),
        *(["--write"] if write else []),
    ]
    return spawn(tree, Path(__file__).resolve(), options)


def spawn(tree: Path, script: Path, options: list[str]) -> subprocess.Popen[str]:
    """``script --child options`` on ``tree``'s source, once it says it is ready."""
    env = {**os.environ, "PYTHONPATH": f"{tree / 'src'}{os.pathsep}{HERE}"}
    proc = subprocess.Popen(
        [sys.executable, str(script), "--child", *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise SystemExit(f"the child for {tree} did not start")
    return proc


def summary(blocks: list[dict[str, Any]]) -> dict[str, float]:
    reads = [r * 1000 for b in blocks for r in b["reads"]]
    embeds = [e * 1000 for b in blocks for e in b["embeds"]]
    n = len(reads)
    block_ms = sum(b["block"] for b in blocks) * 1000
    beyond = (block_ms - sum(embeds)) / n
    return {
        "reads": n,
        "read_cpu_p50": round(statistics.median(reads), 3),
        "read_cpu_mean": round(sum(reads) / n, 3),
        "embed_cpu_p50": round(statistics.median(embeds), 3),
        "embed_cpu_mean": round(sum(embeds) / n, 3),
        # everything the process spent over the blocks but the bare embeddings, per read,
        # minus one embedding: background work (a flush) counts here
        "beyond_embedding_mean": round(beyond - sum(embeds) / n, 3),
        "beyond_embedding_p50": round(statistics.median(reads) - statistics.median(embeds), 3),
        # resident set after the first and the last block: a growth that goes on with
        # the reads shows here
        "rss_mb_first": round(blocks[0]["rss_mb"], 1),
        "rss_mb_last": round(blocks[-1]["rss_mb"], 1),
        "read_cpu_p95": round(sorted(reads)[int(0.95 * (n - 1))], 3),
        "writes": sum(b.get("writes", 0) for b in blocks),
        "writes_changing_facts": sum(b.get("writes_changing_facts", 0) for b in blocks),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--tree", type=Path, action="append")
    p.add_argument("--blocks", type=int, default=8)
    p.add_argument("--block", type=int, default=25)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--timed", action="store_true", help="questions that name a time")
    p.add_argument("--user", help="the scope's user (default: read_latency.py's)")
    p.add_argument("--write", action="store_true", help="a message stating a fact before each read")
    p.add_argument("--out", type=Path)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        asyncio.run(child(args.db, args.warmup, args.timed, args.user, args.write))
        return
    trees = [t.resolve() for t in (args.tree or [HERE.parent])]
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for n, tree in enumerate(trees):
            copy = Path(tmp) / f"tree{n}.db"
            shutil.copyfile(args.db, copy)
            procs.append(start(tree, copy, args.warmup, args.timed, args.user, args.write))
        results = take_turns(trees, procs, args.blocks, args.block)
    report("read_cpu.py", load_start, {t: summary(b) for t, b in results.items()}, args.out)


def take_turns(
    trees: list[Path], procs: list[subprocess.Popen[str]], blocks: int, block: int
) -> dict[str, list[Any]]:
    """Ask each child in turn for ``blocks`` blocks of ``block`` reads; the JSON line each
    answers, per tree. The children are closed (and must exit 0) at the end."""
    results: dict[str, list[Any]] = {str(t): [] for t in trees}
    for _ in range(blocks):
        for tree, proc in zip(trees, procs, strict=True):
            assert proc.stdin is not None
            assert proc.stdout is not None
            proc.stdin.write(f"{block}\n")
            proc.stdin.flush()
            results[str(tree)].append(json.loads(proc.stdout.readline()))
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.close()
        if proc.wait() != 0:
            raise SystemExit("a reading child failed")
    return results


def report(
    script: str, load_start: tuple[float, ...], trees: dict[str, Any], out: Path | None
) -> None:
    """Print (and with ``out`` write) the run's JSON: its command, the load average at
    its start and end, and each tree's summary."""
    doc = {
        "command": f"python benchmarks/{script} " + " ".join(sys.argv[1:]),
        "load_average_start": [round(x, 2) for x in load_start],
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        "trees": trees,
    }
    print(json.dumps(doc, indent=2))
    if out:
        out.write_text(json.dumps(doc, indent=2) + "\n")


if __name__ == "__main__":
    main()
