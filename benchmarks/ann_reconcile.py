"""CPU of catching a SQLite scope's vector index up after a mutation, beside the matrix's reload.

What it measures: the growth user's matrix of DB (``store.sqlite.vectors.load``), its
index built (``store.sqlite.ann.build``, one thread), then the index caught up with the
same matrix as a mutation left it (10 rows deleted, one row's vector changed): the
reconcile's CPU, and the CPU of loading the matrix again, which every mutation costs.

Usage: ``python benchmarks/ann_reconcile.py DB``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sqlite3
import time
from pathlib import Path

import numpy as np
from growth import USER

from cognimem.store.sqlite import ann, vectors
from cognimem.store.sqlite.scopes import ScopeRef


def main(db: Path) -> dict[str, float]:
    conn = sqlite3.connect(db, isolation_level=None)
    scope = ScopeRef("default", "default", USER)
    m = vectors.load(conn, scope, 0, (1, 1))
    start = time.process_time()
    index = ann.build(m)
    built = time.process_time() - start
    keep = np.ones(m.rows, dtype=bool)
    keep[100:110] = False
    matrix = m.matrix[keep].copy()
    matrix[500] = -matrix[500]
    after = dataclasses.replace(m, mutations=2, matrix=matrix, rowids=m.rowids[keep])
    start = time.process_time()
    index.catch_up(after)
    reconciled = time.process_time() - start
    start = time.process_time()
    vectors.load(conn, scope, 0, (1, 1))
    reloaded = time.process_time() - start
    return {
        "rows": m.rows,
        "build_cpu_s": round(built, 1),
        "index_rows_after": len(index),
        "reconcile_cpu_ms": round(reconciled * 1000, 1),
        "matrix_reload_cpu_ms": round(reloaded * 1000, 1),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    print(json.dumps(main(parser.parse_args().database)))
