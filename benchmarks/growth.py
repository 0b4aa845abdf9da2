"""How a read's cost and a process's memory grow with the scope: 1k → 10k → 100k items.

What it measures: one user scope grown through the real write path, ``Memory.write_batch``
(batches of ``--batch``, by default 1000, the most one call takes; the default ``chat``
profile: rule extraction, entity resolution, reconciliation, near-duplicate merging)
with the default local embedder
(onnx:minilm), on SQLite and on PostgreSQL (a throwaway local server,
``tests/servers.py``: fsync off), until the scope holds each ``--sizes`` items; then at
each size, in a fresh child process (so its resident memory is a reader's alone):

- the first (cold) read: the model already loaded by one bare embedding, so it times
  what a read must load of the scope (vector matrix, lexical index, caches);
- ``--reads`` reads after ``--warmup``, each a question never embedded before (LoCoMo
  dev questions, a disjoint slice per size), wall p50/p95/p99 and process CPU (every
  thread), each beside a bare query embedding of the same text by the same onnx session
  (its CPU: what the read spends beyond it is "CPU per read minus the embedding");
- the process's resident memory (VmRSS) before the first read and after the last, its
  peak (VmHWM), and VmRSS once glibc's ``malloc_trim(0)`` gave back the freed memory
  the allocator kept (what of the RSS is garbage, not copies);
- the bytes the store's scope copies held after the reads, their cap
  (``COGNIMEM_CACHE_MAX_MB``, passed on to the child) and its evictions;
- the database's size on disk (SQLite: the file and its WAL; PostgreSQL:
  ``pg_database_size``).

What the build costs is recorded beside each row: process CPU per message, the write
path's own step times (``WriteResult.steps``, wall), the texts it sent to the raw
embedder and their CPU per text when the last two batches are replayed alone after the
row is built (so the embedding's share of the build's CPU is texts × that, an estimate).

The messages are LoCoMo-like: each joins one to three sentences drawn (seeded) from the
dev conversations' turns, read from PATH at run time (nothing is copied into the
repository), with the speaker of its first sentence and times a few minutes apart; a
text already written is drawn again, so the scope grows by distinct messages.

Usage (from the repository root; run it niced, one at a time, on a shared machine):

    python benchmarks/growth.py [PATH] [--sizes 1000 10000 100000] [--reads 100]
        [--warmup 10] [--batch 1000] [--backend sqlite --backend postgresql]
        [--keep DIR] [--out benchmarks/results]

PATH defaults to ../shared/data/locomo/locomo10_dev.json. ``--keep`` keeps the SQLite
file there (and grows it on the next run) instead of a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from _machine import describe

from cognimem import Memory, Message, Scope
from cognimem.eval import locomo
from cognimem.providers.embeddings import CachedEmbedder, text_hash
from cognimem.store.types import ItemFilter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import start_postgres  # noqa: E402

USER = "growth-user"
SEED = 20261129
START = datetime(2023, 1, 2, 9, 0, tzinfo=UTC)
REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)
GOAL_P95_RATIO = 3.0  # read p95 at the largest size ≤ 3 × read p95 at 10k (issue 35)
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def sentences(path: Path) -> list[tuple[str, str]]:
    """(speaker, sentence) of every dev turn, split at sentence ends."""
    out: list[tuple[str, str]] = []
    for conv in locomo.load(path):
        for session in conv.sessions:
            for turn in session:
                out += [(turn.speaker, s) for s in SENTENCE.split(turn.text.strip()) if s]
    return out


def stream(pool: list[tuple[str, str]], seed: int) -> Iterator[Message]:
    """An endless, reproducible stream of distinct LoCoMo-like messages."""
    rng = random.Random(seed)
    seen: set[str] = set()
    at = START
    while True:
        picked = [rng.choice(pool) for _ in range(rng.choice((1, 2, 2, 3)))]
        text = " ".join(s for _, s in picked)
        if text in seen:
            continue
        seen.add(text)
        at += timedelta(minutes=rng.randint(1, 20))
        yield Message(content=text, name=picked[0][0], occurred_at=at)


def questions(path: Path) -> list[str]:
    """The dev set's questions, deduplicated, in a seeded order."""
    raw = json.loads(path.read_text())
    texts = list(dict.fromkeys(str(q["question"]) for conv in raw for q in conv["qa"]))
    random.Random(SEED).shuffle(texts)
    return texts


def rss_kib() -> dict[str, int]:
    """VmRSS and VmHWM of this process, KiB."""
    out: dict[str, int] = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def trimmed_rss_kib() -> int | None:
    """VmRSS after glibc's ``malloc_trim(0)`` returned the freed memory it kept (None
    where the C library has no such call)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):
        return None
    return rss_kib()["VmRSS"]


# -- the reading child -----------------------------------------------------------------


async def fresh_questions(mem: Memory, texts: list[str], n: int) -> list[str]:
    """The first ``n`` of ``texts`` whose embedding no earlier read has stored."""
    cached = mem.embedder
    assert isinstance(cached, CachedEmbedder)
    out: list[str] = []
    for text in texts:
        if not await mem.store.get_embeddings(cached.model_id, [text_hash(text)]):
            out.append(text)
            if len(out) == n:
                return out
    raise SystemExit(f"only {len(out)} fresh questions left, {n} needed")


async def read_child(url: str, texts: list[str], reads: int, warmup: int) -> dict[str, Any]:
    async with Memory.open(url) as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        await cached.inner.embed(["load the model before the first read"], "query")
        asked = await fresh_questions(mem, texts, 1 + warmup + reads)
        before = rss_kib()
        cpu, start = time.process_time(), time.perf_counter()
        await mem.read(asked[0], user_id=USER, limit=10, reference_time=REFERENCE)
        first = {"wall_ms": (time.perf_counter() - start) * 1000}
        first["cpu_ms"] = (time.process_time() - cpu) * 1000
        # a SQLite scope past the vector index's threshold has its index built on a
        # thread of its own after the first read: waited for here, so the reads below
        # are the indexed ones (and none pays the build's CPU)
        wait = getattr(mem.store, "wait_for_vector_indexes", None)
        if wait is not None:
            cpu, start = time.process_time(), time.perf_counter()
            wait()
            first["index_build_wall_ms"] = (time.perf_counter() - start) * 1000
            first["index_build_cpu_ms"] = (time.process_time() - cpu) * 1000
        for text in asked[1 : 1 + warmup]:
            await mem.read(text, user_id=USER, limit=10, reference_time=REFERENCE)
        wall: list[float] = []
        read_cpu: list[float] = []
        embed_cpu: list[float] = []
        for i, text in enumerate(asked[1 + warmup :]):
            for task in ("read", "embed") if i % 2 else ("embed", "read"):
                cpu, start = time.process_time(), time.perf_counter()
                if task == "read":
                    await mem.read(text, user_id=USER, limit=10, reference_time=REFERENCE)
                    wall.append((time.perf_counter() - start) * 1000)
                    read_cpu.append((time.process_time() - cpu) * 1000)
                else:
                    await cached.inner.embed([text], "query")
                    embed_cpu.append((time.process_time() - cpu) * 1000)
        after = rss_kib()
        trimmed = trimmed_rss_kib()  # the copies still held: the store is open
        budget = mem.store.cache_budget  # type: ignore[attr-defined]
        cache = {
            "max_mib": None if budget.max_bytes is None else budget.max_bytes / 2**20,
            "held_mib": round(budget.held_bytes / 2**20, 1),
            "evictions": budget.evictions,
        }
        status = getattr(mem.store, "vector_index_status", None)
        if status is not None:  # how the reads' vector searches were answered
            cache["vector_index"] = status()
    return {
        "cache": cache,
        "first_read": first,
        "read_wall_ms": wall,
        "read_cpu_ms": read_cpu,
        "embed_cpu_ms": embed_cpu,
        "rss_before_first_read_kib": before["VmRSS"],
        "rss_after_reads_kib": after["VmRSS"],
        # what of it the allocator held as freed memory: RSS once glibc gave it back
        "rss_after_trim_kib": trimmed,
        "rss_peak_kib": after["VmHWM"],
    }


def measure(url: str, texts: list[str], reads: int, warmup: int) -> dict[str, Any]:
    """Run the reads in a child process of their own; its JSON answer."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, __file__, "--child", url, "--reads", str(reads), "--warmup", str(warmup)],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the reading child failed:\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# -- building and reporting --------------------------------------------------------------


class EmbedTally:
    """Counts the texts the write path sends to the raw embedder and keeps the last
    batches it sent, to replay them alone afterwards and learn their CPU cost (the
    embedder runs in threads beside extraction, so its CPU cannot be read off the
    process clock while the build runs)."""

    KEPT = 2

    def __init__(self, mem: Memory) -> None:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        self.inner = cached.inner
        self.texts = 0
        self.calls = 0
        self.last: list[list[str]] = []
        real = self.inner.embed

        async def tally(texts: Any, kind: Any = "document") -> Any:
            self.texts += len(texts)
            self.calls += 1
            self.last = [*self.last[-(self.KEPT - 1) :], list(texts)]
            return await real(texts, kind)

        self._real = real
        self.inner.embed = tally  # type: ignore[method-assign]

    async def cpu_per_text(self) -> float | None:
        """Seconds of process CPU per text, replaying the last batches alone."""
        n = sum(len(t) for t in self.last)
        if not n:
            return None
        c0 = time.process_time()
        for texts in self.last:
            await self._real(texts, "document")
        return (time.process_time() - c0) / n


async def grow(url: str, messages: Iterator[Message], target: int, batch: int) -> dict[str, Any]:
    """Write until the scope holds ``target`` items: the messages, seconds and CPU it
    took, the write path's own step times (wall) and what its embedding cost."""
    written, seconds, cpu = 0, 0.0, 0.0
    steps: dict[str, float] = {}
    async with Memory.open(url) as mem:
        tally = EmbedTally(mem)
        scope = ItemFilter(scope=Scope(user_id=USER))
        have = await mem.store.count_items(scope)
        while have < target:
            said = [next(messages) for _ in range(min(batch, target - have))]
            c0, t0 = time.process_time(), time.perf_counter()
            result = await mem.write_batch(said, user_id=USER)
            seconds += time.perf_counter() - t0
            cpu += time.process_time() - c0
            for step in result.steps:
                steps[step.name] = steps.get(step.name, 0.0) + step.latency_ms / 1000
            written += len(said)
            have = await mem.store.count_items(scope)
            print(
                f"  {have} items, {written / seconds:.1f} msg/s, {cpu / written * 1000:.2f} ms"
                " CPU/msg",
                file=sys.stderr,
                flush=True,
            )
        per_text = await tally.cpu_per_text()
    return {
        "items": have,
        "messages": written,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "step_seconds": {k: round(v, 1) for k, v in steps.items()},
        "embedded_texts": tally.texts,
        "embed_calls": tally.calls,
        "embed_cpu_ms_per_text": None if per_text is None else round(per_text * 1000, 3),
    }


def percentiles(values: list[float]) -> dict[str, float]:
    p50, p95, p99 = np.percentile(np.asarray(values), [50, 95, 99])
    return {"p50": round(float(p50), 2), "p95": round(float(p95), 2), "p99": round(float(p99), 2)}


def row(backend: str, size: int, built: dict[str, Any], read: dict[str, Any], disk: int) -> dict:
    reads, embeds = read["read_cpu_ms"], read["embed_cpu_ms"]
    return {
        "backend": backend,
        "size": size,
        "items": built["items"],
        "messages_written": built["messages"],
        "build_seconds": round(built["seconds"], 1),
        "build_cpu_seconds": round(built["cpu_seconds"], 1),
        "messages_per_s": round(built["messages"] / max(built["seconds"], 1e-9), 1),
        "build_cpu_ms_per_message": round(
            built["cpu_seconds"] / max(built["messages"], 1) * 1000, 2
        ),
        # the write path's own step times (wall, summed over the batches)
        "build_step_seconds": built["step_seconds"],
        # texts the write path embedded, and their CPU when the last batches are
        # replayed alone (an estimate of the embedding's share of the build's CPU)
        "build_embedded_texts": built["embedded_texts"],
        "build_embed_cpu_ms_per_text": built["embed_cpu_ms_per_text"],
        "read_ms": percentiles(read["read_wall_ms"]),
        "read_cpu_ms": percentiles(reads),
        "read_cpu_mean_ms": round(float(np.mean(reads)), 2),
        "embedding_cpu_ms": percentiles(embeds),
        "beyond_embedding_cpu_p50_ms": round(float(np.median(reads) - np.median(embeds)), 2),
        "first_read_ms": {k: round(v, 1) for k, v in read["first_read"].items()},
        "rss_mib": {
            "before_first_read": round(read["rss_before_first_read_kib"] / 1024, 1),
            "after_reads": round(read["rss_after_reads_kib"] / 1024, 1),
            "after_trim": None
            if read.get("rss_after_trim_kib") is None
            else round(read["rss_after_trim_kib"] / 1024, 1),
            "peak": round(read["rss_peak_kib"] / 1024, 1),
        },
        "disk_mib": round(disk / 1024**2, 1),
        # the scope copies' cap (COGNIMEM_CACHE_MAX_MB), what they held after the reads
        "scope_cache": read["cache"],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def disk_bytes(backend: str, url: str, server: Any) -> int:
    if backend == "sqlite":
        path = Path(url.removeprefix("sqlite:///"))
        return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    return int(server.psql("SELECT pg_database_size('growth')", database="growth"))


def run_backend(
    backend: str, args: argparse.Namespace, keep: Path, done: Callable[[dict[str, Any]], None]
) -> None:
    """Grow and measure one backend's scope, handing each row to ``done`` as it is made.
    A size the kept database already holds more items than is skipped."""
    server = None
    if backend == "sqlite":
        url = f"sqlite:///{keep / 'growth.db'}"
    else:
        server = start_postgres(keep / "pg")
        server.psql("CREATE DATABASE growth")
        url = server.admin_dsn("growth")
    texts = questions(args.path)
    per_size = len(texts) // len(args.sizes)
    messages = stream(sentences(args.path), SEED)
    try:
        skip = asyncio.run(grow(url, messages, 0, args.batch))["items"]
        for _ in range(skip):
            next(messages)  # resume the stream where a kept database left off
        for n, size in enumerate(args.sizes):
            if size < skip:
                print(f"{backend}: the database holds {skip} items, past {size}", file=sys.stderr)
                continue
            print(f"{backend}: growing to {size} items", file=sys.stderr, flush=True)
            built = asyncio.run(grow(url, messages, size, args.batch))
            read = measure(url, texts[n * per_size : (n + 1) * per_size], args.reads, args.warmup)
            done(row(backend, size, built, read, disk_bytes(backend, url, server)))
    finally:
        if server is not None:
            server.destroy()


def verdicts(rows: list[dict[str, Any]]) -> list[str]:
    out = []
    for backend in dict.fromkeys(r["backend"] for r in rows):
        mine = [r for r in rows if r["backend"] == backend]
        at_10k = [r for r in mine if r["size"] == 10_000]
        last = mine[-1]
        if not at_10k or last["size"] <= 10_000:
            out.append(f"{backend}: read p95 growth not measured beyond 10k in this run.")
            continue
        ratio = last["read_ms"]["p95"] / at_10k[0]["read_ms"]["p95"]
        met = "met" if ratio <= GOAL_P95_RATIO else "not met"
        if last["size"] < 1_000_000:  # the goal is at 1M
            met = f"the goal is at 1M; at {last['size']:,}: {'within' if met == 'met' else 'over'}"
        out.append(
            f"{backend}: read p95 at {last['size']:,} / at 10,000 = {last['read_ms']['p95']} / "
            f"{at_10k[0]['read_ms']['p95']} = **{ratio:.2f}** (goal ≤ {GOAL_P95_RATIO:g}: {met})."
        )
    return out


def build_cost(r: dict[str, Any]) -> str:
    """CPU per message of a row's build, and the embedding's estimated share of it."""
    if "build_cpu_ms_per_message" not in r:  # a row from before these were recorded
        return "–"
    per_text = r.get("build_embed_cpu_ms_per_text")
    if not per_text or not r["messages_written"]:
        return str(r["build_cpu_ms_per_message"])
    embed = per_text * r["build_embedded_texts"] / r["messages_written"]
    return f"{r['build_cpu_ms_per_message']} ({embed:.2f})"


def table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| backend | items | read p50 / p95 / p99 ms | CPU per read p50 / mean ms | query "
        "embedding CPU p50 ms | CPU beyond embedding p50 ms | first read ms (CPU) | RSS MiB "
        "before / after reads (peak; after malloc_trim) | disk MiB | build s (CPU s) | msg/s "
        "| build CPU ms/msg (embedding est.) | load after |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        rd, rss = r["read_ms"], r["rss_mib"]
        lines.append(
            f"| {r['backend']} | {r['items']:,} | {rd['p50']} / {rd['p95']} / {rd['p99']} | "
            f"{r['read_cpu_ms']['p50']} / {r['read_cpu_mean_ms']} | "
            f"{r['embedding_cpu_ms']['p50']} | {r['beyond_embedding_cpu_p50_ms']} | "
            f"{r['first_read_ms']['wall_ms']} ({r['first_read_ms']['cpu_ms']}) | "
            f"{rss['before_first_read']} / {rss['after_reads']} ({rss['peak']}"
            f"{'' if rss.get('after_trim') is None else '; trimmed ' + str(rss['after_trim'])}) | "
            f"{r['disk_mib']} | {r['build_seconds']} ({r['build_cpu_seconds']}) | "
            f"{r['messages_per_s']} | {build_cost(r)} | {r['load_after'][0]} |"
        )
    return lines


def batches(doc: dict[str, Any]) -> str:
    """The batch size the rows were built with (each row's own where it says)."""
    sizes = sorted({int(r.get("batch", doc["batch"])) for r in doc["rows"]})
    if len(sizes) == 1:
        return str(sizes[0])
    return " or ".join(map(str, sizes)) + " messages, each row's `batch` in growth.json"


def report(doc: dict[str, Any]) -> str:
    machine = doc["machine"]
    return "\n".join(
        [
            "# Growth: read cost, memory and disk as one scope grows (onnx:minilm, no LLM)",
            "",
            "Commands: "
            + "; ".join(f"`{c}`" for c in dict.fromkeys(r["command"] for r in doc["rows"]))
            + "  ",
            f"Machine: {machine['summary']}  ",
            f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, at end "
            f"{doc['load_at_end']}",
            "",
            *table(doc["rows"]),
            "",
            *verdicts(doc["rows"]),
            "",
            "Each row's scope was grown from the previous row's through `Memory.write_batch` "
            f"(batches of {batches(doc)}, default `chat` profile, extraction on); build "
            "seconds and msg/s are those of the messages written for that row. Reads ran in "
            f"a fresh child process per row: one cold read, {doc['warmup']} warm-up reads, "
            f"{doc['reads']} measured reads (limit 10), each beside a bare embedding of its "
            "question by the same onnx session. RSS is that reading process's.",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--reads", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        texts = json.loads(sys.stdin.read())
        print(json.dumps(asyncio.run(read_child(args.child, texts, args.reads, args.warmup))))
        return
    args.sizes = sorted(args.sizes)
    machine = describe()
    command = ("python benchmarks/growth.py " + " ".join(sys.argv[1:])).strip()

    def done(made: dict[str, Any]) -> None:
        made["command"] = command
        made["batch"] = args.batch
        print(json.dumps(made), file=sys.stderr, flush=True)
        save(args, machine, made)

    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep or Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        for backend in args.backend or ["sqlite", "postgresql"]:
            run_backend(backend, args, keep, done)


def save(args: argparse.Namespace, machine: dict[str, Any], made: dict[str, Any]) -> None:
    """Print the report; with ``--out``, write it there, keeping the rows of other
    backends and sizes a previous run wrote (each row names its command)."""
    path = None if args.out is None else args.out / "growth.json"
    rows = [made]
    if path is not None and path.exists():
        old = json.loads(path.read_text())["rows"]
        rows += [r for r in old if (r["backend"], r["size"]) != (made["backend"], made["size"])]
    doc = {
        "machine": machine,
        "load_at_end": [round(x, 2) for x in os.getloadavg()],
        "batch": args.batch,
        "reads": args.reads,
        "warmup": args.warmup,
        "rows": sorted(rows, key=lambda r: (r["backend"] != "sqlite", r["size"])),
    }
    text = report(doc)
    print(text, flush=True)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=2) + "\n")
        path.with_suffix(".md").write_text(text)


if __name__ == "__main__":
    main()
