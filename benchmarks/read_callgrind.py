"""Instructions a read executes beyond its query embedding, counted by callgrind.

What it measures: ``Memory.read`` (onnx:minilm, the default preset, limit 10) on a fresh
copy of the scope ``read_latency.py`` grows, every question a text never embedded before,
run under ``valgrind --tool=callgrind``; then, in the same process, the same onnx
session embedding the same questions alone (its own model call, past the embedding
cache), so the query embedding's instructions cancel out of the difference.
Instruction counts do not depend on the machine's load, unlike CPU time on a shared
machine: the same tree, data and ``PYTHONHASHSEED`` give nearly the same count run
after run (``read_profile.md`` gives how near), so two trees are compared by their
counts, one run each, whatever else the machine is doing.

The child marks the phases by calling ``os.getppid`` (its C function, ``os_getppid``, is
run by nothing else here), and callgrind dumps its counts before each call
(``--dump-before=os_getppid``): the second dump holds the reads, the third the bare
embeddings. Per read it reports the reads' instructions minus the bare embeddings', and
where they went by shared object (libpython, SQLite, onnxruntime, numpy, pydantic's
core, ...), self cost. Under callgrind a read takes ~1 s (threads run one at a time).

Usage (from the repository root):

    python benchmarks/read_callgrind.py --db PATH [--tree . [--tree ../other]]
        [--reads 20] [--warmup 10] [--user ID] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
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
        for _ in range(warmup):
            await mem.read(await fresh.next(), user_id=user, limit=10, reference_time=REFERENCE)
            await cached.inner.embed([await fresh.next()], "query")
        wait_for_index(mem)
        questions = [await fresh.next() for _ in range(reads)]
        os.getppid()  # marker: the reads begin
        for q in questions:
            await mem.read(q, user_id=user, limit=10, reference_time=REFERENCE)
        os.getppid()  # marker: the bare embeddings begin
        for q in questions:  # the same texts: their embeddings' instructions cancel out
            await cached.inner.embed([q], "query")
        os.getppid()  # marker: the end


def parse(path: Path) -> tuple[int, dict[str, int]]:
    """A callgrind dump's total instructions and its self cost by shared object."""
    names: dict[str, str] = {}
    by_object: dict[str, int] = defaultdict(int)
    total = 0
    current = "?"
    skip_next = False
    ref = re.compile(r"^(ob|cob)=\((\d+)\)(?: (.*))?$")
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            total = int(line.split()[1])
            continue
        m = ref.match(line)
        if m:
            kind, num, name = m.groups()
            if name:
                names[num] = name
            if kind == "ob":
                current = names.get(num, num)
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
                by_object[Path(current).name] += int(parts[1])
    return total, dict(by_object)


def run_tree(tree: Path, db: Path, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """One tree's reads under callgrind: instructions a read and by object."""
    copy = work / "read.db"
    shutil.copyfile(db, copy)
    out = work / "cg"
    out.mkdir()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "src"), str(HERE)])
    env["PYTHONHASHSEED"] = env.get("PYTHONHASHSEED", "0")
    # the access counts' flush runs on a timer (once a second): under callgrind a read
    # takes ~1 s, so how many flushes fall in a phase would follow the machine's load
    env["COGNIMEM_RECALL__ACCESS_FLUSH_S"] = "3600"
    command = [
        "valgrind",
        "--tool=callgrind",
        "--dump-before=os_getppid",
        f"--callgrind-out-file={out}/cg.%p",
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
    dumps = sorted(out.glob("cg.*.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
    if len(dumps) < 3:
        raise RuntimeError(f"expected the markers' dumps, found {[d.name for d in dumps]}")
    if args.keep:
        keep = args.keep / tree.name
        keep.mkdir(parents=True, exist_ok=True)
        for d in dumps:
            shutil.copy(d, keep / d.name)
    reads_total, reads_by = parse(dumps[1])  # dump 1: before the 2nd marker = the reads
    embeds_total, embeds_by = parse(dumps[2])
    n = args.reads
    objects = sorted(set(reads_by) | set(embeds_by), key=lambda o: -reads_by.get(o, 0))
    return {
        "reads": n,
        "read_instructions_k": round(reads_total / n / 1000),
        "embedding_instructions_k": round(embeds_total / n / 1000),
        "beyond_embedding_k": round((reads_total - embeds_total) / n / 1000),
        "by_object_k": {
            o: [round(reads_by.get(o, 0) / n / 1000), round(embeds_by.get(o, 0) / n / 1000)]
            for o in objects
            if reads_by.get(o, 0) + embeds_by.get(o, 0) > n * 5000
        },
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--tree", type=Path, action="append")
    p.add_argument("--reads", type=int, default=20)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--user")
    p.add_argument("--out", type=Path)
    p.add_argument("--keep", type=Path, help="copy the callgrind dumps here")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
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
            f"{tree}: read {found['read_instructions_k']}k, embedding "
            f"{found['embedding_instructions_k']}k, beyond {found['beyond_embedding_k']}k "
            "instructions a read",
            flush=True,
        )
        for obj, (r, e) in found["by_object_k"].items():
            print(f"  {r:>8}k {e:>8}k  {obj}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
