"""The two steps that bring a cached SQLite scope up to date after a write, alone, the
base's way and this branch's, interleaved: the read of the rows the write appended
(``vector_rows.read`` through ``items_scope``, or by rowid) and, after a status change,
the read of the rows' statuses (c0e4445's ``restatus``, every row; or the rows that are
not active).

What it measures, on a database ``growth.py --keep`` left (opened read-only: it is not
written): thread CPU of ``vectors.load`` of the scope's last ``--rows`` rows, as a
first load (the index's plan) and as an entry holding every row before them would
(the rowid's), and of both ``restatus`` over an entry of every row of the scope (its
vectors left out: neither reads them), ``--repeats`` times each, the order alternating;
and the statuses each found, which must agree.

Usage (from the repository root, niced on a shared machine):

    python benchmarks/write_scope_refresh.py DB [--rows 1000] [--repeats 3]
        [--user growth-user]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from write_growth_ab import restatus_every_row

from cognimem.store.scope_columns import Columns
from cognimem.store.sqlite import vectors
from cognimem.store.sqlite.scopes import ScopeRef, read_version, user_key


def _ms(step: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    start = time.thread_time()
    found = step(*args)
    return round((time.thread_time() - start) * 1000, 1), found


def _entry(rowids: np.ndarray, row_changes: int) -> vectors.ScopeMatrix:
    """An entry of every row of the scope, all active, without vectors."""
    n = len(rowids)
    times = np.zeros(n, np.int64)
    cols = Columns(
        ids=np.empty(n, object), agent=np.empty(n, object), session=np.empty(n, object),
        kind=np.zeros(n, np.int8), status=np.zeros(n, np.int8), occurred=times,
        event_start=times, event_end=times,
    )  # fmt: skip
    return vectors.ScopeMatrix(
        version=0, mutations=0, max_rowid=int(rowids[-1]), cols=cols,
        matrix=np.zeros((n, 1), np.float32), rowids=rowids, row_changes=row_changes,
    )  # fmt: skip


def measure(db: Path, user: str, rows: int, repeats: int) -> dict[str, Any]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    ref = ScopeRef("default", "default", user)
    version = read_version(conn, "default", "default", user_key(user))
    rowids = ref.rowids(conn, 0)
    after = int(rowids[-rows - 1])
    out: dict[str, Any] = {"database": str(db), "rows": len(rowids), "appended": rows}
    m = _entry(rowids, version.row_changes)
    ways = {"base": restatus_every_row, "branch": vectors.restatus}
    for n in range(repeats):
        for way in ("base", "branch") if n % 2 == 0 else ("branch", "base"):
            held = 0 if way == "base" else len(rowids) - rows
            appended = ScopeRef("default", "default", user, held=held)
            ms, got = _ms(vectors.load, conn, appended, after, version)
            assert got.rows == rows, got.rows
            out.setdefault(f"append_{way}_ms", []).append(ms)
            ms, again = _ms(ways[way], conn, ref, m, version)
            out.setdefault(f"restatus_{way}_ms", []).append(ms)
            out.setdefault(f"restatus_{way}_not_active", []).append(
                int(np.count_nonzero(again.cols.status))
            )
    conn.close()
    out["load"] = [round(x, 2) for x in os.getloadavg()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--user", default="growth-user")
    args = parser.parse_args()
    print(json.dumps(measure(args.database, args.user, args.rows, args.repeats)))


if __name__ == "__main__":
    main()
