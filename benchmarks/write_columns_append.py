"""A scope's filter columns extended by a write's rows: copied whole each time (the
base's ``Columns.append``, copied here) or written into the room left after them (this
branch's), interleaved.

What it measures: synthetic columns of ``--rows`` rows shaped as a grown scope's (an id
string per row, no agent, a session string per conversation, int8 kinds and statuses,
int64 times), then ``--writes`` appends of ``--batch`` rows each, every one appended to
the previous result as the scope cache does after each write; the thread CPU of each
append, both ways, the order alternating per round, ``--rounds`` rounds; and whether
both ways end with equal columns (they must).

Usage (from the repository root, niced on a shared machine):

    python benchmarks/write_columns_append.py [--rows 100000 --rows 1000000]
        [--batch 1000] [--writes 8] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cognimem.store.scope_columns import Columns

NAMES = ("ids", "agent", "session", "kind", "status", "occurred", "event_start", "event_end")


def copied(a: Columns, b: Columns) -> Columns:
    """The base's ``Columns.append`` (2f84165): every column concatenated."""
    return Columns(**{n: np.concatenate([getattr(a, n), getattr(b, n)]) for n in NAMES})


def columns(start: int, n: int) -> Columns:
    ids = np.array([f"{start + i:032x}" for i in range(n)], dtype=object)
    sessions = np.array([f"conv-{(start + i) // 400}" for i in range(n)], dtype=object)
    times = np.arange(start, start + n, dtype=np.int64) * 1_000_000
    return Columns(
        ids=ids, agent=np.full(n, None, dtype=object), session=sessions,
        kind=np.zeros(n, np.int8), status=np.zeros(n, np.int8), occurred=times,
        event_start=np.full(n, np.iinfo(np.int64).max),
        event_end=np.full(n, np.iinfo(np.int64).min),
    )  # fmt: skip


def run(
    way: Callable[[Columns, Columns], Columns], base: Columns, batches: list[Columns]
) -> tuple[list[float], Columns]:
    cols, ms = base, []
    for batch in batches:
        start = time.thread_time()
        cols = way(cols, batch)
        ms.append(round((time.thread_time() - start) * 1000, 2))
    return ms, cols


def measure(rows: int, batch: int, writes: int, rounds: int) -> dict[str, Any]:
    base = columns(0, rows)
    batches = [columns(rows + w * batch, batch) for w in range(writes)]
    ways = {"base": copied, "branch": Columns.append}
    out: dict[str, Any] = {"rows": rows, "batch": batch, "writes": writes}
    for r in range(rounds):
        ends = {}
        for name in ("base", "branch") if r % 2 == 0 else ("branch", "base"):
            ms, ends[name] = run(ways[name], base, batches)
            out.setdefault(f"{name}_ms", []).append(ms)
        same = all(
            np.array_equal(getattr(ends["base"], n), getattr(ends["branch"], n)) for n in NAMES
        )
        out["same"] = out.get("same", True) and same
    for name in ways:
        every = [m for ms in out[f"{name}_ms"] for m in ms]
        out[f"{name}_median_ms"] = float(np.median(every))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, action="append")
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--writes", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for rows in args.rows or [100_000, 1_000_000]:
        found = measure(rows, args.batch, args.writes, args.rounds)
        print(json.dumps({**found, "load": [round(x, 2) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
