"""A write's CPU in a grown SQLite scope with and without this branch's two changes to
how a cached scope is brought up to date, interleaved in one process.

What it measures: two copies of a database ``growth.py --keep`` left, opened in one
process, each take one warm-up ``write_batch`` of ``--batch`` messages (the scope's
matrix loaded, its HNSW index built and waited for), then ``--rounds`` rounds in which
both copies take the same new batch, one each way, the order alternating (A B, B A,
...), so both ways write the same messages into the same state (the two ways store the
same content: ``ingest_content_dump.py``): ``base`` reads the rows a write appended through the
``items_scope`` index and, after a status change, every row's status, as main c0e4445
does (the same SQL: ``ScopeRef._by_rowid`` answers False, and ``vectors.restatus`` is
c0e4445's, copied below); ``branch`` reads the appended rows by rowid when they are
few and the statuses of the rows not active alone (this branch).
Per batch: process CPU (every thread), the thread CPU of every call
into SQLite and of the scope matrix's reads of new rows (``vector_rows.read``), the
near-duplicate search and the knowledge build (``write_growth_profile.py``'s counters),
per message. The messages are ``growth.py``'s stream after its first ``--skip``.

Usage (from the repository root, niced on a shared machine):

    python benchmarks/write_growth_ab.py DB [--batch 1000] [--rounds 2] [--skip N]
        [--path PATH] [--tmp DIR] [--ready FILE]

The database given is not written (two copies in ``--tmp`` are, then deleted). ``--ready``:
written with the process id when the measured batches start (for ``py-spy``).
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
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import write_growth_profile as profiled
from growth import SEED, USER, sentences, stream

from cognimem import Memory
from cognimem.store.scope_columns import STATUS_CODES
from cognimem.store.sqlite import vector_rows, vectors
from cognimem.store.sqlite.scopes import ScopeRef

profiled.timed_sync(vector_rows, "read", "scope rows read after a write (reader thread)")
BY_ROWID = ScopeRef._by_rowid
RESTATUS = vectors.restatus


def _never(self: ScopeRef, conn: sqlite3.Connection, after_rowid: int) -> bool:
    return False


def restatus_every_row(conn: sqlite3.Connection, scope: ScopeRef, m: Any, version: Any) -> Any:
    """c0e4445's ``vectors.restatus``: every (rowid, status) of the scope read again."""
    if m.row_changes < 0 or m.row_changes != version.row_changes or len(m.rowids) != m.rows:
        return None
    sql = "SELECT i.rowid, i.status FROM items i WHERE i.tenant_id = ? AND i.namespace = ?"
    params: list[object] = [scope.tenant_id, scope.namespace]
    if scope.shared:
        sql += " AND i.user_id IS NULL"
    elif scope.user_id is not None:
        sql += " AND i.user_id = ?"
        params.append(scope.user_id)
    found = conn.execute(sql, params).fetchall()
    rowids = np.fromiter((r[0] for r in found), dtype=np.int64, count=len(found))
    codes = np.fromiter((STATUS_CODES[r[1]] for r in found), dtype=np.int8, count=len(found))
    order = np.argsort(rowids, kind="stable")
    rowids, codes = rowids[order], codes[order]
    pos = np.minimum(np.searchsorted(rowids, m.rowids), max(len(rowids) - 1, 0))
    if not len(rowids) or not np.array_equal(rowids[pos], m.rowids):
        return None
    cols = replace(m.cols, status=codes[pos])
    return replace(m, version=version.version, mutations=version.mutations, cols=cols)


def _use(way: str) -> None:
    ScopeRef._by_rowid = BY_ROWID if way == "branch" else _never  # type: ignore[method-assign]
    vectors.restatus = RESTATUS if way == "branch" else restatus_every_row
    profiled.timed_sync(vectors, "restatus", "statuses read again (reader thread)")


async def _batch(mem: Memory, way: str, texts: list[Any], r: int) -> dict[str, Any]:
    """One measured write of ``texts`` the ``way`` given."""
    _use(way)
    profiled.CPU.clear()
    cpu, wall = time.process_time(), time.perf_counter()
    await mem.write_batch(texts, user_id=USER)
    n = len(texts)
    return {
        "batch": r,
        "way": way,
        "process_cpu_ms_per_message": round((time.process_time() - cpu) / n * 1000, 3),
        "wall_s": round(time.perf_counter() - wall, 2),
        "thread_cpu_ms_per_message": {k: round(v / n * 1000, 3) for k, v in profiled.CPU.items()},
        "load": [round(x, 2) for x in os.getloadavg()],
    }


async def measure(
    urls: dict[str, str], skip: int, batch: int, rounds: int, path: Path, ready: Path | None
) -> list[dict[str, Any]]:
    messages = stream(sentences(path), SEED)
    for _ in range(skip):
        next(messages)
    out: list[dict[str, Any]] = []
    async with Memory.open(urls["base"]) as base, Memory.open(urls["branch"]) as branch:
        mems = {"base": base, "branch": branch}
        texts = [next(messages) for _ in range(batch)]
        for way, mem in mems.items():  # the warm-up: each copy's scope loaded, indexed
            _use(way)
            await mem.write_batch(texts, user_id=USER)
            wait = getattr(mem.store, "wait_for_vector_indexes", None)
            if wait is not None:
                wait()
        if ready is not None:
            await asyncio.to_thread(ready.write_text, f"{os.getpid()}\n")
            await asyncio.sleep(2.0)  # time for a profiler to attach
        for r in range(rounds):
            texts = [next(messages) for _ in range(batch)]
            for way in ("base", "branch") if r % 2 == 0 else ("branch", "base"):
                out.append(await _batch(mems[way], way, texts, r))
                print(json.dumps(out[-1]), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip", type=int, help="messages of the stream to pass over")
    parser.add_argument(
        "--path", type=Path, default=Path("../shared/data/locomo/locomo10_dev.json")
    )
    parser.add_argument("--tmp", type=Path, help="where the copies are made")
    parser.add_argument("--ready", type=Path, help="written when the measured batches start")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        urls = {}
        for way in ("base", "branch"):
            copy = Path(tmp) / f"{way}.db"
            shutil.copy(args.database, copy)
            urls[way] = f"sqlite:///{copy}"
        with sqlite3.connect(copy) as conn:
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
            items = conn.execute("SELECT count(*) FROM items").fetchone()[0]
        skip = events if args.skip is None else args.skip
        print(json.dumps({"database": str(args.database), "items_before": items}), flush=True)
        runs = asyncio.run(measure(urls, skip, args.batch, args.rounds, args.path, args.ready))
    for way in ("base", "branch"):
        mine = [r["process_cpu_ms_per_message"] for r in runs if r["way"] == way]
        print(json.dumps({"way": way, "process_cpu_ms_per_message": mine}), flush=True)


if __name__ == "__main__":
    main()
