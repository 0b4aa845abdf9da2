"""What the vector step's exact scan costs by scope size: the bare product a read makes.

What it measures: ``matrix @ query`` (float32, 384 columns, single-threaded BLAS as
``store/sqlite/vectors.py`` runs it) for scopes of several sizes, as thread CPU per
product, two ways: *warm*, the same matrix scanned again and again (it stays in the
CPU's caches when it fits), and *cold*, a 64 MiB buffer written between products
(what a read's other work, the ONNX model's weights above all, does to the caches).
The rows are random unit vectors; the product's cost depends only on the shape.

A scan that is cheap warm and dear cold is bound by memory traffic, not arithmetic:
a read cannot make it cheaper except by reading fewer bytes (fewer rows, or fewer
bytes a row, which would change the scores).

With ``--copy``, each size from 4,096 to 20,000 rows is also searched as a read
searches it (top 100 of every row, cold): the whole float32 product, and through the
scope's int8 copy (``store/sqlite/quantized.py``: the copy's integer scores pick the
candidates, scored exactly), on rows clustered as embeddings of related texts are
(random unit rows score alike, so nearly every row would be a candidate), queries
near a row; the two answers are checked equal to the bit.

Usage (from the repository root):

    python benchmarks/read_scan.py [--sizes 1000 2500 5000 10000 20000 100000]
        [--dim 384] [--products 200] [--copy] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from cognimem.blas import single_threaded
from cognimem.store.sqlite import quantized
from cognimem.store.sqlite.vectors import top_rows

_EVICT_BYTES = 64 * 1024 * 1024


def _products(matrix: np.ndarray, query: np.ndarray, count: int, evict: np.ndarray | None) -> float:
    """Median thread CPU of one product, ms."""
    times = []
    for n in range(count):
        if evict is not None:
            evict[n % 64 :: 64] += 1  # a byte of every cache line: the caches lose the matrix
        start = time.thread_time()
        matrix @ query
        times.append(time.thread_time() - start)
    return statistics.median(times) * 1000


def _clustered(rng: np.random.Generator, rows: int, dim: int) -> np.ndarray:
    centres = rng.standard_normal((40, dim))
    m = centres[rng.integers(0, 40, rows)] + 0.6 * rng.standard_normal((rows, dim))
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return m.astype(np.float32)


def _searches(size: int, dim: int, count: int, evict: np.ndarray) -> dict[str, float]:
    """Median thread CPU of a top-100 search, ms: the whole product and the copy's."""
    rng = np.random.default_rng(size)
    matrix = _clustered(rng, size, dim)
    copy = quantized.build(matrix)
    assert copy is not None
    idx = np.arange(size)
    whole, picked, candidates = [], [], []
    for n in range(count):
        query = matrix[rng.integers(size)] + 0.3 * rng.standard_normal(dim).astype(np.float32)
        evict[n % 64 :: 64] += 1
        start = time.thread_time()
        scores = matrix @ query
        top = top_rows(scores, 100)
        want = (top.tolist(), scores[top].tolist())
        whole.append(time.thread_time() - start)
        evict[(n + 1) % 64 :: 64] += 1
        start = time.thread_time()
        found = copy.scores(query)
        assert found is not None
        rows = quantized.candidates(copy, *found, idx, 100)
        exact = quantized.exact(matrix, rows, query, copy.group)
        top = top_rows(exact, 100)
        got = (rows[top].tolist(), exact[top].tolist())
        picked.append(time.thread_time() - start)
        assert got == want
        candidates.append(rows.size)
    return {
        "whole_cold_ms": round(statistics.median(whole) * 1000, 3),
        "copy_cold_ms": round(statistics.median(picked) * 1000, 3),
        "candidates_p50": int(statistics.median(candidates)),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 2500, 5000, 10000, 20000, 100000])
    p.add_argument("--dim", type=int, default=384)
    p.add_argument("--products", type=int, default=200)
    p.add_argument("--copy", action="store_true", help="also search through the int8 copy")
    p.add_argument("--out", type=Path)
    args = p.parse_args()
    rng = np.random.default_rng(7)
    evict = np.zeros(_EVICT_BYTES, dtype=np.uint8)
    rows = []
    with single_threaded():
        for size in args.sizes:
            matrix = rng.standard_normal((size, args.dim), dtype=np.float32)
            matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
            query = matrix[0].copy()
            warm = _products(matrix, query, args.products, None)
            cold = _products(matrix, query, args.products, evict)
            mib = matrix.nbytes / 2**20
            row: dict[str, object] = {
                "rows": size,
                "matrix_mib": round(mib, 2),
                "warm_ms": round(warm, 3),
                "cold_ms": round(cold, 3),
                "cold_gib_per_s": round(mib / 1024 / (cold / 1000), 1) if cold else None,
            }
            if args.copy and quantized.MIN_ROWS <= size <= quantized.MAX_ROWS:
                row |= _searches(size, args.dim, args.products, evict)
            rows.append(row)
            print(json.dumps(rows[-1]), flush=True)
    result = {
        "command": "python benchmarks/read_scan.py " + " ".join(sys.argv[1:]),
        "load_average_end": list(os.getloadavg()),
        "rows": rows,
    }
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
