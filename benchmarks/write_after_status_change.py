"""What a write pays after a status change in a grown SQLite scope.

A write that supersedes a constraint silences the items it was drawn from
(``rows.set_status``); forgetting archives or silences items. Each such change is a
mutation of the scope (``scope_versions``), and the next search of the scope (the next
write's near-duplicate search) had to load the scope's whole vector matrix again and
reconcile its HNSW index: work linear in the scope, paid once per status change.

What it measures: a copy of a database ``growth.py --keep`` left takes one warm-up
``write_batch`` of 1000 messages (its HNSW index built and waited for), then ``--rounds``
times: a ``write_batch`` of ``--batch`` messages ("plain"), one item of the scope
silenced through ``rows.set_status`` in a transaction of its own (as another process
would), and a second ``write_batch`` ("after status change"). For each batch it prints
the process CPU and the thread CPU of every call into SQLite and of the near-duplicate
search. The messages come from ``growth.py``'s stream after its first ``--skip``.

Usage (from the repository root, niced on a shared machine):

    python benchmarks/write_after_status_change.py DB [--batch 200] [--rounds 3]
        [--skip 120000] [--path PATH]

The copy is made in a temporary directory; the database given is not written.
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
from pathlib import Path

import write_growth_profile as profiled  # times every SQLite call and the search
from growth import SEED, USER, sentences, stream

from cognimem import Memory
from cognimem.models import ItemStatus
from cognimem.store.sqlite import rows

SQLITE = "every SQLite call, the search included (any thread)"
SEARCH = "near-duplicate search (reader thread)"


def silence_one(path: Path, nth: int) -> None:
    """Silence the ``nth`` active item of the database, in a transaction of its own."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        (item_id,) = conn.execute(
            "SELECT id FROM items WHERE status = 'active' ORDER BY rowid LIMIT 1 OFFSET ?",
            (nth,),
        ).fetchone()
        rows.set_status(conn, [item_id], ItemStatus.SILENT)
        conn.execute("COMMIT")
    finally:
        conn.close()


async def measure(copy: Path, args: argparse.Namespace) -> list[dict[str, object]]:
    messages = stream(sentences(args.path), SEED)
    for _ in range(args.skip):
        next(messages)
    out: list[dict[str, object]] = []
    async with Memory.open(f"sqlite:///{copy}") as mem:
        await mem.write_batch([next(messages) for _ in range(1000)], user_id=USER)
        wait = getattr(mem.store, "wait_for_vector_indexes", None)
        if wait is not None:
            wait()
        for n in range(args.rounds):
            for kind in ("plain", "after status change"):
                if kind != "plain":
                    await asyncio.to_thread(silence_one, copy, 100 + n)
                profiled.CPU.clear()
                cpu = time.process_time()
                await mem.write_batch([next(messages) for _ in range(args.batch)], user_id=USER)
                row = {
                    "batch": kind,
                    "process_cpu_s": round(time.process_time() - cpu, 3),
                    "sqlite_calls_cpu_s": round(profiled.CPU.get(SQLITE, 0.0), 3),
                    "near_duplicate_search_cpu_s": round(profiled.CPU.get(SEARCH, 0.0), 3),
                }
                print(json.dumps(row), flush=True)
                out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip", type=int, default=120_000)
    parser.add_argument(
        "--path", type=Path, default=Path("../shared/data/locomo/locomo10_dev.json")
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "copy.db"
        shutil.copy(args.database, copy)
        with sqlite3.connect(copy) as conn:
            items = conn.execute("SELECT count(*) FROM items").fetchone()[0]
        made = asyncio.run(measure(copy, args))
    summary: dict[str, object] = {"database": str(args.database), "items_before": items}
    for kind in ("plain", "after status change"):
        cpu = sorted(float(str(r["process_cpu_s"])) for r in made if r["batch"] == kind)
        summary[f"{kind}: process CPU s (median)"] = cpu[len(cpu) // 2]
    summary["load"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
