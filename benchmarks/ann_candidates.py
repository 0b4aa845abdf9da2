"""Which approximate nearest-neighbour library for a large SQLite scope? usearch against faiss.

What it measures: the item vectors of a database ``growth.py --keep`` left (one scope, in
rowid order), the first ``--size`` rows as the scope. Two kinds of query:

- *read*: LoCoMo dev questions embedded by the project's embedder as queries
  (``onnx:minilm``, kind ``query``), top 10 over the scope, as a read's vector search;
- *write*: the ``--writes`` item vectors after the scope's rows, top 1 over the scope, as
  the write path's near-duplicate search (``store.sqlite.vectors.nearest``).

For each index (library, storage type, M, ef_construction, ef_search) and each number of
candidates taken from it (``--take``; the candidates are then scored exactly against the
float32 matrix, as the store does): recall@10 (``--k``) of the read queries against the exact scan,
how often the write query's exact nearest row is found, CPU per query (one query at a
time for reads, the whole write batch in one call), CPU to build the index (one thread),
and the index's bytes. The exact scan's CPU per query is given beside.

Usage: ``python benchmarks/ann_candidates.py DB --questions LOCOMO.json [--size 100000]``
(faiss is optional: with it importable the faiss rows are measured too).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from cognimem.providers.factory import build_embedder


def scope_matrix(path: Path, rows: int) -> np.ndarray:
    with sqlite3.connect(path) as conn:
        blobs = conn.execute(
            "SELECT embedding FROM items WHERE embedding IS NOT NULL ORDER BY rowid LIMIT ?",
            (rows,),
        ).fetchall()
    return np.frombuffer(b"".join(b for (b,) in blobs), dtype=np.float32).reshape(len(blobs), -1)


def grown(stored: np.ndarray, rows: int) -> np.ndarray:
    """``stored`` and noisy copies of it (Gaussian noise, sigma 0.02 a dimension, made unit
    length again) up to ``rows`` rows: a larger scope of the same kind of vectors (not
    real items: for the cost of a search at that size, and the recall on such data)."""
    rng = np.random.default_rng(0)
    parts = [stored]
    while sum(len(p) for p in parts) < rows:
        copy = stored + rng.normal(0, 0.02, stored.shape).astype(np.float32)
        parts.append(copy / np.linalg.norm(copy, axis=1, keepdims=True))
    return np.concatenate(parts)[:rows]


def question_vectors(path: Path, n: int) -> np.ndarray:
    raw = json.loads(path.read_text())
    texts = list(dict.fromkeys(str(q["question"]) for conv in raw for q in conv["qa"]))[:n]
    embedder = build_embedder("onnx:minilm")
    vectors = asyncio.run(embedder.embed(texts, "query"))
    return np.asarray(vectors, dtype=np.float32)


def exact_top(stored: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """Exact top ``k`` row numbers of every query, and CPU ms per query (one at a time)."""
    out = np.zeros((len(queries), k), dtype=np.int64)
    start = time.process_time()
    for i, q in enumerate(queries):
        scores = stored @ q
        top = np.argpartition(-scores, k - 1)[:k]
        out[i] = top[np.argsort(-scores[top])]
    return out, (time.process_time() - start) / len(queries) * 1000


MERGE = 0.95  # config.IngestSettings.merge_similarity's default
Search = Callable[[np.ndarray, int], np.ndarray]  # (queries, k) -> (n, k) row numbers, -1 none


def usearch_index(
    stored: np.ndarray, dtype: str, m: int, ef_add: int, ef: int
) -> tuple[Search, int]:
    from usearch.index import Index

    index = Index(
        ndim=stored.shape[1], metric="ip", dtype=dtype, connectivity=m,
        expansion_add=ef_add, expansion_search=ef,
    )  # fmt: skip
    index.add(np.arange(len(stored)), stored, threads=1)

    def search(queries: np.ndarray, k: int) -> np.ndarray:
        found = index.search(queries, k, threads=1)
        if not hasattr(found, "counts"):  # one query: a Matches of the found only
            keys = np.full((1, k), -1, dtype=np.int64)
            got = np.asarray(found.keys, dtype=np.int64)
            keys[0, : len(got)] = got
            return keys
        keys = np.asarray(found.keys, dtype=np.int64).reshape(len(queries), -1)
        for i, c in enumerate(np.asarray(found.counts).reshape(-1)):
            keys[i, c:] = -1
        return keys

    return search, int(index.memory_usage)


def faiss_index(stored: np.ndarray, kind: str, m: int, ef_add: int, ef: int) -> tuple[Search, int]:
    import faiss

    faiss.omp_set_num_threads(1)
    dim = stored.shape[1]
    if kind == "flat":
        index = faiss.IndexHNSWFlat(dim, m, faiss.METRIC_INNER_PRODUCT)
    else:
        index = faiss.IndexHNSWSQ(dim, faiss.ScalarQuantizer.QT_8bit, m, faiss.METRIC_INNER_PRODUCT)
        index.train(stored)
    index.hnsw.efConstruction = ef_add
    index.add(stored)
    index.hnsw.efSearch = ef

    def search(queries: np.ndarray, k: int) -> np.ndarray:
        index.hnsw.efSearch = max(ef, k)
        _, keys = index.search(queries, k)
        return np.asarray(keys, dtype=np.int64)

    return search, int(faiss.serialize_index(index).nbytes)


def rescored(stored: np.ndarray, queries: np.ndarray, cands: np.ndarray, k: int) -> np.ndarray:
    """The best ``k`` of each query's candidates by the exact score (as the store does)."""
    out = np.full((len(queries), k), -1, dtype=np.int64)
    for i, (q, c) in enumerate(zip(queries, cands, strict=True)):
        c = c[c >= 0]
        scores = stored[c] @ q
        top = np.argsort(-scores, kind="stable")[:k]
        out[i, : len(top)] = c[top]
    return out


def best(stored: np.ndarray, queries: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Each query's exact score against its first found row (-inf: none found)."""
    rows = found[:, 0]
    scores = np.einsum("ij,ij->i", stored[np.maximum(rows, 0)], queries)
    return np.where(rows >= 0, scores, -np.inf)


def recall(found: np.ndarray, truth: np.ndarray) -> float:
    hits = [len(set(f.tolist()) & set(t.tolist())) for f, t in zip(found, truth, strict=True)]
    return float(sum(hits) / truth.size)


def measure(
    name: str, build: Callable[[], tuple[Search, int]], stored: np.ndarray,
    reads: np.ndarray, writes: np.ndarray, truth: np.ndarray, nearest: np.ndarray,
    takes: list[int],
) -> list[dict[str, Any]]:  # fmt: skip
    start = time.process_time()
    search, nbytes = build()
    build_s = time.process_time() - start
    out = []
    for take in takes:
        start = time.process_time()
        cands = np.concatenate([search(q[None, :], take) for q in reads])
        found = rescored(stored, reads, cands, truth.shape[1])
        read_ms = (time.process_time() - start) / len(reads) * 1000
        start = time.process_time()
        wcands = search(writes, take)
        wfound = rescored(stored, writes, wcands, 1)
        write_ms = (time.process_time() - start) / len(writes) * 1000
        out.append(
            {
                "index": name,
                "take": take,
                "build_cpu_s": round(build_s, 2),
                "index_mib": round(nbytes / 2**20, 1),
                f"recall_at_{truth.shape[1]}": round(recall(found, truth), 4),
                "read_cpu_ms_per_query": round(read_ms, 3),
                # the nearest found scores as the exact nearest (rows with equal vectors
                # tie): the novelty the write would store is the same
                "write_same_best": round(
                    float(np.mean(best(stored, writes, wfound) >= nearest - 1e-6)), 4
                ),
                "write_cpu_ms_per_query": round(write_ms, 3),
                # near-duplicate merges (cosine >= 0.95, the default merge_similarity):
                # by the exact nearest and by the nearest found
                "merges_exact": int(np.sum(nearest >= MERGE)),
                "merges_found": int(np.sum(best(stored, writes, wfound) >= MERGE)),
            }
        )
        print(json.dumps(out[-1]), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--reads", type=int, default=500)
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--take", type=int, nargs="+", default=[10, 40])
    # the read's vector search asks for ``RecallConfig.candidates`` (100) rows
    parser.add_argument("--k", type=int, default=10, help="top k of the read queries")
    parser.add_argument("--index", nargs="+", default=["usearch:f32:16:64:64"])
    parser.add_argument("--grow-to", type=int, help="rows, with noisy copies (see grown)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    every = scope_matrix(args.database, args.size + args.writes)
    stored, writes = every[: args.size], every[args.size :]
    if args.grow_to:
        stored = grown(stored, args.grow_to)
    reads = question_vectors(args.questions, args.reads)
    truth, exact_read_ms = exact_top(stored, reads, args.k)
    start = time.process_time()
    nearest = np.array([float(np.max(stored @ w)) for w in writes])
    exact_write_ms = (time.process_time() - start) / len(writes) * 1000
    head = {
        "size": len(stored), "reads": len(reads), "writes": len(writes),
        "exact_read_cpu_ms_per_query": round(exact_read_ms, 3),
        "exact_write_cpu_ms_per_query_one_at_a_time": round(exact_write_ms, 3),
        "load": os.getloadavg(), "machine": platform.processor() or platform.machine(),
        "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }  # fmt: skip
    print(json.dumps(head), flush=True)
    rows = []
    for spec in args.index:
        lib, kind, m, ef_add, ef = spec.split(":")
        make = usearch_index if lib == "usearch" else faiss_index

        def build(make: Any = make, kind: str = kind, m: str = m, a: str = ef_add, e: str = ef):
            return make(stored, kind, int(m), int(a), int(e))

        rows += measure(spec, build, stored, reads, writes, truth, nearest, args.take)
    if args.out:
        args.out.write_text(json.dumps({"head": head, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
