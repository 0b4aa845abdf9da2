"""Recall@10 of the PostgreSQL vector search through its HNSW index, against exact search.

What it measures: the LoCoMo dev set's turns (one scope per conversation) embedded with
onnx:minilm, written into PostgreSQL in batches of 200 after the index exists (the way
a bulk ingest grows it: one multi-row insert per batch, each row added to the graph as
it comes), and each question of the set searched in its conversation's scope with the
query ``items.vector_search`` sends (``rows.vector_sql``'s shape: the index's cast and
distance, ``limit + TIE_SLACK`` nearest, re-ordered by the full-precision score;
``iterative_scan`` as the store sets it, ``hnsw.ef_search`` 42 as the store sets it
for limit 10 unless ``--index`` names others; limit 10). Exact: the
same scope's top 10 by the dot product, in numpy. Recall@10 = share of the exact top 10
the search returned, over every question.

``--copies N`` also writes N-1 perturbed copies of every conversation as scopes of
their own (each vector plus Gaussian noise, re-normalised; seed 0): a graph of N times
the turns where every scope has near-twins in other scopes, which the filtered search
must skip. The table is a stand-in for ``items`` holding what the search reads (the
scope, the embedding, ``seq``) with the index exactly as cognimem builds it
(``migrations.vector_index_sql``); reads are forced through the HNSW index
(``enable_seqscan``, ``enable_bitmapscan`` and the scope's btree off), the worst case:
the store's planner may choose the scope's btree and an exact sort instead.

Usage (from the repository root):

    python benchmarks/pg_hnsw_recall.py [PATH] [--copies 1]
        [--index 16,64,42 --index 8,32,42,100] [--out FILE.md]

``--rebuild`` also times building each index again over the filled table, as migration
27 does (``maintenance_work_mem`` 256MB).

PATH defaults to ../shared/data/locomo/locomo10_dev.json (read, never copied); the
embeddings are cached under the system's temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _machine import describe

from cognimem.eval import locomo
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.store.postgres.migrations import vector_index_sql
from cognimem.store.postgres.rows import TIE_SLACK

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import start_postgres  # noqa: E402

LIMIT = 10
BATCH = 200
DIM = 384

SEARCH = f"""
SELECT id FROM (
    SELECT id, seq, (embedding::vector({DIM})) <=> $1::vector::vector({DIM}) AS distance,
           (embedding <#> $1::vector) * -1 AS score
    FROM items WHERE vector_dims(embedding) = {DIM} AND scope = $2
    ORDER BY distance LIMIT {LIMIT + TIE_SLACK}
) hits ORDER BY score DESC, seq LIMIT {LIMIT}
"""


def embedded(path: Path) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per conversation: its turns' vectors and its questions' vectors (cached)."""
    convs = locomo.load(path)
    turns = [[t.text for s in c.sessions for t in s if t.text.strip()] for c in convs]
    questions = [[q.text for q in c.questions] for c in convs]
    key = hashlib.sha256(repr((turns, questions)).encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"pg_hnsw_recall_{key}.npz"
    if not cache.exists():
        model = OnnxMiniLMEmbedder()
        arrays = {}
        for i, (t, q) in enumerate(zip(turns, questions, strict=True)):
            arrays[f"t{i}"] = model.embed_sync(t, "document")
            arrays[f"q{i}"] = model.embed_sync(q, "query")
        np.savez(cache, **arrays)  # type: ignore[arg-type]
    data = np.load(cache)
    n = len(convs)
    return [data[f"t{i}"] for i in range(n)], [data[f"q{i}"] for i in range(n)]


def scopes(turns: list[np.ndarray], copies: int, noise: float) -> list[np.ndarray]:
    """The conversations, then ``copies - 1`` perturbed copies of each, as scopes."""
    rng = np.random.default_rng(0)
    out = list(turns)
    for _ in range(copies - 1):
        for t in turns:
            v = t + rng.normal(0.0, noise, t.shape).astype(np.float32)
            out.append(v / np.linalg.norm(v, axis=1, keepdims=True))
    return out


def text(v: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in v) + "]"


def backend_cpu(pid: int) -> float:
    """CPU seconds (user + system) of one server process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    dsn: str,
    all_scopes: list[np.ndarray],
    questions: list[np.ndarray],
    m: int,
    ef: int,
    ef_searches: list[int],
    rebuild: bool = False,
) -> tuple[dict[int, tuple[float, float]], float, int]:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        await conn.execute(
            "DROP TABLE IF EXISTS items;"
            " CREATE TABLE items (seq bigserial, id text PRIMARY KEY, scope int NOT NULL,"
            " embedding vector);"
            " CREATE INDEX items_scope ON items (scope)"
        )
        sql = vector_index_sql(DIM, m, ef)
        assert sql is not None
        await conn.execute(sql)
        # interleave the scopes' batches, as many users' imports would
        rows = [
            (f"{s}:{i}", s, text(v))
            for s, vecs in enumerate(all_scopes)
            for i, v in enumerate(vecs)
        ]
        order = sorted(range(len(rows)), key=lambda k: (int(rows[k][0].split(":")[1]), k))
        start = time.perf_counter()
        for b in range(0, len(order), BATCH):
            chunk = [rows[k] for k in order[b : b + BATCH]]
            await conn.execute(
                "INSERT INTO items (id, scope, embedding)"
                " SELECT * FROM unnest($1::text[], $2::int[], $3::text[]::vector[])",
                [r[0] for r in chunk],
                [r[1] for r in chunk],
                [r[2] for r in chunk],
            )
        insert_s = time.perf_counter() - start
        await conn.execute("ANALYZE items")
        await conn.execute(
            "SET hnsw.iterative_scan = relaxed_order;"
            " SET enable_seqscan = off; SET enable_bitmapscan = off; DROP INDEX items_scope"
        )
        plan = await conn.fetch("EXPLAIN " + SEARCH, text(questions[0][0]), 0)
        assert "items_embedding_hnsw" in "\n".join(r[0] for r in plan), plan
        backend = await conn.fetchval("SELECT pg_backend_pid()")
        out: dict[int, tuple[float, float]] = {}
        for ef_search in ef_searches:
            await conn.execute(f"SET hnsw.ef_search = {ef_search}")
            hits = total = 0
            cpu = backend_cpu(backend)
            for s, qs in enumerate(questions):
                vecs = all_scopes[s]
                exact = np.argsort(-(qs @ vecs.T), axis=1, kind="stable")[:, :LIMIT]
                for q, best in zip(qs, exact, strict=True):
                    got = {r[0] for r in await conn.fetch(SEARCH, text(q), s)}
                    hits += len(got & {f"{s}:{i}" for i in best})
                    total += LIMIT
            per_query_ms = (backend_cpu(backend) - cpu) / (total / LIMIT) * 1000
            out[ef_search] = (hits / total, per_query_ms)
    finally:
        await conn.close()
        if rebuild:
            # what migration 27 does: drop the index, build it again with its options
            cpu, start = backend_cpu(backend), time.perf_counter()
            await conn.execute(
                "SET maintenance_work_mem = '256MB'; DROP INDEX items_embedding_hnsw_384;" + sql
            )
            out[0] = (time.perf_counter() - start, backend_cpu(backend) - cpu)
    return out, insert_s, len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--noise", type=float, default=0.02)
    parser.add_argument(
        "--index", action="append", default=None, help="m,ef_construction[,ef_search...]"
    )
    parser.add_argument("--rebuild", action="store_true", help="time building each index again")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    variants = []
    for v in args.index or ["16,64,42", "8,32,42"]:
        m, ef, *searches = (int(x) for x in v.split(","))
        variants.append((m, ef, searches or [LIMIT + TIE_SLACK]))
    machine = describe()
    turns, questions = embedded(args.path)
    all_scopes = scopes(turns, args.copies, args.noise)
    lines = [
        "| m | ef_construction | rows | questions | insert wall s | hnsw.ef_search |"
        " recall@10 | server CPU ms per search |",
        "|---|---|---|---|---|---|---|---|",
    ]
    n_q = sum(len(q) for q in questions)
    built: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = start_postgres(Path(tmp) / "pg")
        try:
            for m, ef, ef_searches in variants:
                got, insert_s, n_rows = asyncio.run(
                    measure(
                        server.admin_dsn(), all_scopes, questions, m, ef, ef_searches, args.rebuild
                    )
                )
                if 0 in got:
                    wall, cpu = got.pop(0)
                    built.append(
                        f"Index built again over the {n_rows} rows (m {m}, ef_construction {ef},"
                        f" maintenance_work_mem 256MB, as migration 27 does): {wall:.1f} s wall,"
                        f" {cpu:.1f} s server CPU."
                    )
                for ef_search, (recall, cpu_ms) in got.items():
                    lines.append(
                        f"| {m} | {ef} | {n_rows} | {n_q} | {insert_s:.1f} | {ef_search} |"
                        f" {recall:.4f} | {cpu_ms:.2f} |"
                    )
                    print(lines[-1], file=sys.stderr, flush=True)
        finally:
            server.destroy()
    command = ("python benchmarks/pg_hnsw_recall.py " + " ".join(sys.argv[1:])).strip()
    text_out = "\n".join(
        [
            f"Command: `{command}`  ",
            f"Machine: {machine['summary']}; load at end {[round(x, 2) for x in os.getloadavg()]}",
            "",
            *lines,
            *(["", *built] if built else []),
        ]
    )
    print(text_out)
    if args.out is not None:
        args.out.write_text(text_out + "\n")


if __name__ == "__main__":
    main()
