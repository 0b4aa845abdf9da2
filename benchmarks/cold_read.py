"""The first (cold) read of a fresh process on a kept SQLite file, and where its CPU goes.

Each run copies the file (a read writes: the query's embedding, access counts), starts
a child process that loads the embedding model with one bare embedding, then times one
read of the scope: wall, process CPU, and the thread CPU of each scope loader it ran
(``vectors.load``, ``lexical.load``, the facts' ``_scope_facts_in``). Run it on two
trees, interleaved, to compare them::

    nice -n 5 .venv/bin/python benchmarks/cold_read.py --db /tmp/growth.db \\
        --user growth-user --tree /path/base --tree /path/branch --rounds 3

A file built by ``benchmarks/growth.py`` has the user ``growth-user`` in the tenant and
namespace ``default``. The read's CPU includes what the vector index's build (which
the read's vector search starts on a thread of its own past the index threshold) spent
before the read returned; the build is then waited for, outside the read's times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

QUESTION = "What did she paint last summer?"
REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)


def _child(db: str, user: str) -> dict[str, Any]:
    """One cold read in this process (the tree is the one on ``sys.path``)."""
    from cognimem import Memory
    from cognimem.store.sqlite import knowledge, lexical, vectors

    loads: list[tuple[str, float]] = []

    def timed(owner: Any, name: str, label: str) -> None:
        real = getattr(owner, name)

        def inner(*args: Any, **kwargs: Any) -> Any:
            cpu = time.thread_time()
            try:
                return real(*args, **kwargs)
            finally:
                loads.append((label, time.thread_time() - cpu))

        setattr(owner, name, inner)

    timed(vectors, "load", "vectors.load")
    timed(lexical, "load", "lexical.load")
    timed(knowledge.SQLiteKnowledge, "_scope_facts_in", "scope_facts")

    async def run() -> dict[str, Any]:
        async with Memory.open(f"sqlite:///{db}") as mem:
            await mem.embedder.inner.embed(["load the model"], "query")  # type: ignore[attr-defined]
            cpu, start = time.process_time(), time.perf_counter()
            packet = await mem.read(QUESTION, user_id=user, limit=10, reference_time=REFERENCE)
            out = {
                "wall_s": round(time.perf_counter() - start, 3),
                "cpu_s": round(time.process_time() - cpu, 3),
                "degraded": packet.degraded,
            }
            # the vector index build the read started (past the index threshold), on a
            # thread of its own: waited for, so the process ends cleanly
            start = time.perf_counter()
            getattr(mem.store, "wait_for_vector_indexes", lambda: None)()
            out["index_build_wall_s"] = round(time.perf_counter() - start, 3)
        return out

    result = asyncio.run(run())
    by_loader: dict[str, float] = {}
    for name, cpu in loads:
        by_loader[name] = round(by_loader.get(name, 0.0) + cpu, 3)
    result["loader_cpu_s"] = by_loader
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="the kept SQLite file")
    parser.add_argument("--user", default="growth-user")
    parser.add_argument("--tree", action="append", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(str(args.db), args.user)), flush=True)
        return
    for n in range(args.rounds):
        for tree in args.tree:
            with tempfile.TemporaryDirectory() as tmp:
                copy = Path(tmp) / "cold.db"
                shutil.copyfile(args.db, copy)
                env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(tree)])}
                load = os.getloadavg()[0]
                done = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--child",
                        "--db",
                        str(copy),
                        "--user",
                        args.user,
                        "--tree",
                        str(tree),
                    ],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                found = json.loads(done.stdout.strip().splitlines()[-1])
                print(json.dumps({"round": n + 1, "tree": str(tree), "load": load, **found}))


if __name__ == "__main__":
    main()
