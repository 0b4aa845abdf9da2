"""Instructions a read executes beyond its query embedding, counted by callgrind.

What it measures: ``Memory.read`` (onnx:minilm, the default preset, limit 10) on a fresh
copy of the scope ``read_latency.py`` grows, every question a text never embedded before,
run under ``valgrind --tool=callgrind``; then, in the same process, the same onnx
session embedding the same questions alone (its own model call, past the embedding
cache), so the query embedding's instructions cancel out of the difference.
Instruction counts do not depend on the machine's load, unlike CPU time on a shared
machine, so two trees are compared by their counts, one run each, whatever else the
machine is doing.

**What is excluded, and why** (round of 2026-12-01, 06:30 UTC, ``read_profile.md``).
Earlier rounds found the counts clean on the first four reads only: from the fifth on,
reads of 100M-628M instructions against ~57M, and sha256 hashing on the event loop's
thread in some runs even in reads 1-4. Traced (the child under callgrind, its SQL,
``text_hash`` calls and each thread's CPU logged a phase), that was the reads' own
first-of-a-kind work, which a read pays once a process, cut by the steps' time limits
under callgrind's slowdown and run on into the next reads' dumps:

- the first question naming a time loads the scope's facts once (``scope_facts``, on a
  reader thread: 62 ms of CPU at normal speed, 2.8 s under callgrind, where its
  ``constraints`` and ``facts`` steps were cut at 2 s and the load went on);
- the first decision question ("What should I cook ...") builds the profile once
  (``profile`` step, on the loop's thread: ~27 ms, 2.3 s under callgrind);
- the first read with a query vector embeds the decision areas' 122 phrases through the
  embedding cache (244 sha256 digests, two steps each asking; ``text/areas.py``), again
  at every read while a step timed out (fixed in the library the same round: one shared
  embedding, kept past a timeout).

No SQLite write ran during any read (only the access counts' flush at close), and no
other thread of the library (scheduler, exporter, index build at 10k) ran between
reads. So the child reads one fresh question of each of ``read_latency``'s templates
before the warm-up (``each_kind``), the steps' time limits are lifted
(``COGNIMEM_RECALL__STEP_TIMEOUT_S``/``BUDGET_S``: no read under callgrind is cut), and
a read that still comes back degraded stops the run. No counted question embeds a
text an earlier read of the process embedded (a read embeds the question less the
person it names: ``embedded_text``), so each counted read runs its query embedding.
What is counted is a warm read: the first-of-a-kind costs above are the cold reads' and
are not in these counts.

The child calls ``os.getppid`` (its C function, ``os_getppid``, is run by nothing else
here) before every read and every bare embedding, and callgrind dumps its counts before
each call (``--dump-before=os_getppid``): one dump a read, one an embedding. It reports
the median over the questions of a read's instructions minus its question's bare
embedding's (a median: the odd read that pays a full collection of the heap, tens of
millions of instructions, moves the mean), the mean beside it, every read's count, and
where the reads' and the embeddings' instructions went by shared object (libpython,
SQLite, onnxruntime, numpy, ...), self cost, mean a read. Under callgrind a read takes
~1 s (threads run one at a time).

``--by-thread`` has callgrind keep each thread's counts apart
(``--separate-threads=yes``; at each marker it writes the main thread's file alone,
``cg.PID.N-01``) and prints the main thread's count a read: the event loop's thread (the
read's Python, its SQLite reads on the calling thread, the int8 scan), not the
embedding's pool threads nor the SQLite reader pool's. ``--compare --thread 1``
compares that thread's files.

Usage (from the repository root):

    python benchmarks/read_callgrind.py --db PATH [--tree . [--tree ../other]]
        [--reads 20] [--warmup 10] [--user ID] [--out FILE.json] [--keep DIR]
        [--by-thread]
    python benchmarks/read_callgrind.py --compare DIR [DIR ...] [--first 4] [--top 25]
        [--thread 1]

``--compare`` reads the dumps ``--keep`` kept (one directory a run: ``DIR/TREE``), the
first half of the runs against the second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)


async def child(db: Path, reads: int, warmup: int, user: str | None) -> None:
    """Warm up, then the reads and the bare embeddings, each phase after a marker."""
    from read_latency import SEED, USER, FreshQueries
    from read_steps import wait_for_index

    from cognimem import Memory
    from cognimem.providers.embeddings import CachedEmbedder

    async with Memory.open(f"sqlite:///{db}") as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        fresh = FreshQueries(mem, cached, SEED + 11)
        user = user or USER
        # one question of every kind first: the first read of a kind in a process loads
        # what later ones keep (see the docstring), and no counted read may be that one
        read: set[str] = set()  # what the reads embedded (a question less its subject)
        for question in await each_kind(mem, cached, SEED + 13):
            await read_whole(mem, question, user)
            read.add(embedded_text(question))
        for _ in range(warmup):
            question = await fresh.next()
            await read_whole(mem, question, user)
            read.add(embedded_text(question))
            await cached.inner.embed([await fresh.next()], "query")
        wait_for_index(mem)
        questions: list[str] = []
        while len(questions) < reads:  # each one's query embedding not in the LRU yet
            question = await fresh.next()
            if embedded_text(question) not in read:
                questions.append(question)
                read.add(embedded_text(question))
        for q in questions:
            os.getppid()  # marker: a read begins
            await read_whole(mem, q, user)
        for q in questions:  # the same texts: their embeddings' instructions cancel out
            os.getppid()  # marker: a bare embedding begins
            await cached.inner.embed([q], "query")
        os.getppid()  # marker: the end


async def each_kind(mem: Any, cached: Any, seed: int) -> list[str]:
    """One fresh question of each of ``read_latency``'s question templates."""
    import random

    from read_latency import QUESTIONS, fill

    from cognimem.providers.embeddings import text_hash

    rng, out = random.Random(seed), []
    for template in QUESTIONS:
        while True:
            text = fill(template, rng)
            if not await mem.store.get_embeddings(cached.model_id, [text_hash(text)]):
                break
        out.append(text)
    return out


def embedded_text(question: str) -> str:
    """What a read of ``question`` embeds: the question less the person it asks about
    ("Did Ravi ever visit Boston?" and "Did Zara ever visit Boston?" embed one text, the
    second read's from the embedding cache)."""
    from cognimem.recall.conversation.topic import split_subject

    return split_subject(question)[0]


async def read_whole(mem: Any, question: str, user: str) -> None:
    """One read, which must not have cut a step at its time limit: a cut step's work
    goes on after the read returns and would be counted in the next phases."""
    packet = await mem.read(question, user_id=user, limit=10, reference_time=REFERENCE)
    if packet.degraded:
        raise RuntimeError(f"a read was degraded under callgrind: {packet.degraded}")


def self_costs(path: Path) -> tuple[int, dict[tuple[str, str], int]]:
    """A callgrind dump's total instructions and its self cost by (shared object,
    function)."""
    objects: dict[str, str] = {}
    functions: dict[str, str] = {}
    costs: dict[tuple[str, str], int] = defaultdict(int)
    total = 0
    obj, fn = "?", "?"
    skip_next = False
    ref = re.compile(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$")
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            total = int(line.split()[1])
            continue
        m = ref.match(line)
        if m:
            kind, num, name = m.groups()
            names = objects if kind in ("ob", "cob") else functions
            if name:
                names[num] = name
            if kind == "ob":
                obj = Path(objects.get(num, num)).name
            elif kind == "fn":
                fn = functions.get(num, num)
            continue
        if line.startswith("calls="):
            skip_next = True  # the next cost line is the call's inclusive cost
            continue
        if line and (line[0].isdigit() or line[0] in "+-*"):
            if skip_next:
                skip_next = False
                continue
            parts = line.split()
            if len(parts) > 1:
                costs[(obj, fn)] += int(parts[1])
    return total, dict(costs)


def parse(paths: list[Path]) -> tuple[int, dict[str, int]]:
    """A callgrind dump's total instructions and its self cost by shared object (over
    its threads' files)."""
    total, costs = group_costs(paths)
    by_object: dict[str, int] = defaultdict(int)
    for (obj, _), cost in costs.items():
        by_object[obj] += cost
    return total, dict(by_object)


_DUMP = re.compile(r"^cg\.\d+\.(\d+)(?:-(\d+))?$")


def numbered_dumps(d: Path, thread: int | None = None) -> list[Path]:
    """The numbered dumps in ``d`` in order (one a marker). With ``--by-thread``
    callgrind writes one file a dump and thread (``cg.PID.N-TT``): ``thread`` picks
    that thread's (1: the main thread, the event loop's), None every thread's in
    turn."""
    found = []
    for p in d.iterdir():
        m = _DUMP.match(p.name)
        if m and (thread is None or m.group(2) is None or int(m.group(2)) == thread):
            found.append((int(m.group(1)), int(m.group(2) or 0), p))
    return [p for _, _, p in sorted(found)]


def thread_dumps(d: Path, thread: int | None) -> list[list[Path]]:
    """The files of each numbered dump (one a thread with ``--by-thread``), in order."""
    groups: dict[int, list[Path]] = defaultdict(list)
    for p in numbered_dumps(d, thread):
        m = _DUMP.match(p.name)
        assert m is not None
        groups[int(m.group(1))].append(p)
    return [groups[n] for n in sorted(groups)]


def group_costs(paths: list[Path]) -> tuple[int, dict[tuple[str, str], int]]:
    """``self_costs`` summed over one dump's files (its threads')."""
    total, costs = 0, defaultdict(int)
    for path in paths:
        t, by = self_costs(path)
        total += t
        for k, c in by.items():
            costs[k] += c
    return total, dict(costs)


def compare(dirs: list[Path], first: int, top: int, thread: int | None = None) -> None:
    """The kept dumps of runs (``--keep``'s directories, one a run), reads 1 to
    ``first``: each run's instructions a read, then self cost by shared object and the
    functions that differ most between the first half of the runs and the second (say,
    main's runs, then a branch's), mean a read."""
    runs = []
    for d in dirs:
        reads = [group_costs(g) for g in thread_dumps(d, thread)[1 : first + 1]]
        costs: dict[tuple[str, str], float] = defaultdict(float)
        for _, by in reads:
            for key, cost in by.items():
                costs[key] += cost / first
        print(f"{d}: reads 1-{first}, thousands: {[round(r[0] / 1000) for r in reads]}")
        runs.append(costs)
    objects: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(runs))
    for n, costs in enumerate(runs):
        for (obj, _), cost in costs.items():
            objects[obj][n] += cost
    print("self cost by shared object, thousands a read (runs in order):")
    for obj, row in sorted(objects.items(), key=lambda kv: -kv[1][0])[:top]:
        print("  " + " ".join(f"{c / 1000:9.0f}" for c in row) + f"  {obj}")
    keys = set().union(*runs)
    half = max(len(runs) // 2, 1)
    before, after = runs[:half], runs[half:] or runs[:half]

    def mean(group: list[dict[tuple[str, str], float]], k: tuple[str, str]) -> float:
        return sum(r.get(k, 0.0) for r in group) / len(group)

    change = {k: mean(after, k) - mean(before, k) for k in keys}
    print("functions, self cost, thousands a read (runs in order), most changed first:")
    for k in sorted(keys, key=lambda k: (change[k], -mean(before, k)))[:top]:
        row = " ".join(f"{r.get(k, 0.0) / 1000:9.0f}" for r in runs)
        print(f"  {row}  {k[0][:28]} {k[1][:80]}")


def callgrind_prefix(out: Path | str, *, by_thread: bool = False) -> list[str]:
    """The valgrind command a counted child runs under: a dump before each
    ``os.getppid`` call (the child's mark between phases), one file per process under
    ``out`` (and per thread with ``by_thread``)."""
    return [
        "valgrind",
        "--tool=callgrind",
        "--dump-before=os_getppid",
        *(["--separate-threads=yes"] if by_thread else []),
        f"--callgrind-out-file={out}/cg.%p",
    ]


def child_env(tree: Path | str) -> dict[str, str]:
    """The environment of a counted child that runs ``tree``'s code: its ``src`` first on
    the path (then these benchmarks), string hashing fixed (``0`` unless the caller chose
    a seed) and the access counts' flush held off: it runs on a timer (once a second),
    and under callgrind a read takes ~1 s, so how many flushes fell in a phase would
    follow the machine's load."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(tree) / "src"), str(HERE)])
    env["PYTHONHASHSEED"] = env.get("PYTHONHASHSEED", "0")
    env["COGNIMEM_RECALL__ACCESS_FLUSH_S"] = "3600"
    return env


def run_tree(tree: Path, db: Path, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """One tree's reads under callgrind: instructions a read and by object."""
    copy = work / "read.db"
    shutil.copyfile(db, copy)
    out = work / "cg"
    out.mkdir()
    env = child_env(tree)
    # a read takes ~1 s under callgrind, a cold one far more: the steps' time limits
    # (2 s a step, 4 s a plan) would cut steps whose work then runs on into the next
    # reads' counts (and change the packet); limits no read reaches here
    env["COGNIMEM_RECALL__STEP_TIMEOUT_S"] = "600"
    env["COGNIMEM_RECALL__BUDGET_S"] = "1200"
    command = [
        *callgrind_prefix(out, by_thread=args.by_thread),
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        "--db",
        str(copy),
        "--reads",
        str(args.reads),
        "--warmup",
        str(args.warmup),
        *(["--user", args.user] if args.user else []),
    ]
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dumps = thread_dumps(out, None)
    n = args.reads
    if len(dumps) < 2 * n + 1:
        raise RuntimeError(f"expected the markers' dumps, found {len(dumps)}")
    if args.keep:
        keep = args.keep / tree.name
        keep.mkdir(parents=True, exist_ok=True)
        for group in dumps:
            for d in group:
                shutil.copy(d, keep / d.name)
    # dump 0: start-up and warm-up; then one dump a read, one a bare embedding (the
    # last, at exit, has no number)
    reads = [parse(d) for d in dumps[1 : n + 1]]
    embeds = [parse(d) for d in dumps[n + 1 : 2 * n + 1]]
    loop = [group_costs(g[:1])[0] for g in dumps[1 : n + 1]] if args.by_thread else []
    beyond = [r[0] - e[0] for r, e in zip(reads, embeds, strict=True)]
    by_object: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (_, read_by), (_, embed_by) in zip(reads, embeds, strict=True):
        for o, cost in read_by.items():
            by_object[o][0] += cost
        for o, cost in embed_by.items():
            by_object[o][1] += cost
    objects = sorted(by_object, key=lambda o: -by_object[o][0])
    return {
        "reads": n,
        "read_instructions_k": [round(r[0] / 1000) for r in reads],
        # with --by-thread: the main thread's alone (the event loop's: the read's own
        # Python, its SQLite reads and the int8 scan; not the embedding's pool threads)
        "loop_thread_instructions_k": [round(c / 1000) for c in loop],
        "embedding_instructions_k": [round(e[0] / 1000) for e in embeds],
        "read_median_k": round(statistics.median(r[0] for r in reads) / 1000),
        "embedding_median_k": round(statistics.median(e[0] for e in embeds) / 1000),
        "beyond_embedding_median_k": round(statistics.median(beyond) / 1000),
        "beyond_embedding_mean_k": round(statistics.fmean(beyond) / 1000),
        "by_object_mean_k": {
            o: [round(by_object[o][0] / n / 1000), round(by_object[o][1] / n / 1000)]
            for o in objects
            if sum(by_object[o]) > n * 5000
        },
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path)
    p.add_argument("--tree", type=Path, action="append")
    p.add_argument("--reads", type=int, default=20)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--user")
    p.add_argument("--out", type=Path)
    p.add_argument("--keep", type=Path, help="copy the callgrind dumps here")
    p.add_argument("--compare", type=Path, nargs="+", help="kept dump directories")
    p.add_argument("--first", type=int, default=4, help="reads --compare takes")
    p.add_argument("--top", type=int, default=25)
    p.add_argument(
        "--by-thread", action="store_true", help="one dump file a thread (--separate-threads)"
    )
    p.add_argument("--thread", type=int, help="--compare: this thread's files alone (1: main)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.compare:
        compare(args.compare, args.first, args.top, args.thread)
        return
    if args.db is None:
        p.error("--db is required")
    if args.child:
        sys.path.insert(0, str(HERE))
        asyncio.run(child(args.db, args.reads, args.warmup, args.user))
        return
    result: dict[str, Any] = {"command": "python " + " ".join(sys.argv), "trees": {}}
    for tree in args.tree or [Path(".")]:
        with tempfile.TemporaryDirectory() as tmp:
            found = run_tree(tree.resolve(), args.db, args, Path(tmp))
        result["trees"][str(tree)] = found
        print(
            f"{tree}: beyond the embedding {found['beyond_embedding_median_k']}k instructions"
            f" a read (median; mean {found['beyond_embedding_mean_k']}k); read "
            f"{found['read_median_k']}k, embedding {found['embedding_median_k']}k (medians)",
            flush=True,
        )
        print(f"  per read: {found['read_instructions_k']}")
        if args.by_thread:
            print(f"  main thread per read: {found['loop_thread_instructions_k']}")
        for obj, (r, e) in found["by_object_mean_k"].items():
            print(f"  {r:>8}k {e:>8}k  {obj}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
