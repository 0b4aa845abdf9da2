"""Whether two source trees give the same packets: one digest of many fresh reads.

What it checks: ``Memory.read`` (onnx:minilm, the default preset, limit 10) on a fresh
copy of the scope ``read_latency.py`` grows, for ``--reads`` questions never embedded
before (every second one naming a time: "… last summer"), each packet's JSON without
the steps' timings (``latency_ms``, which no two runs share). Prints the digest of all
packets and of each tree; trees that change no result print the same digest. Access
counts are not flushed during the run (``COGNIMEM_RECALL__ACCESS_FLUSH_S``), so the
usage counters the rerank reads are the same in every tree.

Usage (from the repository root):

    PYTHONHASHSEED=0 python benchmarks/read_packets.py --db PATH [--tree . [--tree B]]
        [--reads 200] [--explain] [--user ID]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)
TIMED = " last summer"


async def child(db: Path, reads: int, explain: bool, user: str | None) -> str:
    """The digest of ``reads`` packets, and the number of items they show."""
    from read_latency import SEED, USER, FreshQueries

    from cognimem import Memory

    digest = hashlib.sha256()
    shown = 0
    async with Memory.open(f"sqlite:///{db}") as mem:
        fresh = FreshQueries(mem, mem.embedder, SEED + 29)
        for i in range(reads):
            question = await fresh.next() + (TIMED if i % 2 else "")
            packet = await mem.read(
                question,
                user_id=user or USER,
                limit=10,
                reference_time=REFERENCE,
                explain=explain,
            )
            dumped = packet.model_dump(mode="json")
            for step in dumped["steps"]:
                step.pop("latency_ms")
            shown += len(dumped["items"])
            digest.update(json.dumps(dumped, sort_keys=True).encode())
    return f"{digest.hexdigest()[:32]} ({reads} reads, {shown} items shown)"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--tree", type=Path, action="append")
    p.add_argument("--reads", type=int, default=200)
    p.add_argument("--explain", action="store_true")
    p.add_argument("--user")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        sys.path.insert(0, str(HERE))
        print(asyncio.run(child(args.db, args.reads, args.explain, args.user)))
        return
    for tree in args.tree or [Path(".")]:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "read.db"
            shutil.copyfile(args.db, copy)
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join([str(tree.resolve() / "src"), str(HERE)])
            env["PYTHONHASHSEED"] = env.get("PYTHONHASHSEED", "0")
            env["COGNIMEM_RECALL__ACCESS_FLUSH_S"] = "3600"
            command = [sys.executable, __file__, "--child", "--db", str(copy)]
            command += ["--reads", str(args.reads), *(["--explain"] if args.explain else [])]
            command += ["--user", args.user] if args.user else []
            done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
            print(f"{tree}: {done.stdout.strip().splitlines()[-1]}", flush=True)


if __name__ == "__main__":
    main()
