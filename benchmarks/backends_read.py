"""Read latency at 100k items in one user scope: PostgreSQL (pgvector HNSW) beside SQLite.

What it measures: in-process ``Memory.read`` latency (p50/p95/p99), query embedding
included (default onnx:minilm embedder, default preset), on the same 100k synthetic
conversational turns (the corpus of ``read_latency.py``, same seed) written to a fresh
SQLite database and to a throwaway PostgreSQL 15 + pgvector server
(``tests/services.start_postgres``). Every measured query is a question never embedded
before (each store has its own embedding cache, so asking both the same text gives no
hit); the two stores are read alternately, query by query, alternating which goes first.
Per store it also reports the packet's own ``vector`` step (incl. the query embedding)
and ``lexical`` step latencies, and for PostgreSQL the recall of the HNSW vector step
(``store.vector_search``, as the reader calls it with the preset's 100 candidates, and
with limit 10) against an exact cosine top-k in numpy over PostgreSQL's own vectors.

How the corpus is built: the turns are embedded ONCE with ``OnnxMiniLMEmbedder``
("<speaker>: <text>", as the write funnel embeds them) and cached in ``--vectors``; both
stores are then written through the real ``Memory.write_batch`` path (batches of
``--batch``), with an embedder that has the onnx model's ``model_id`` and serves those
precomputed rows (falling back to the onnx model for any text it does not know, counted
as ``precomputed_misses``). Build time is therefore the store write path, not embedding.

Usage (from the repository root, PostgreSQL and pgvector installed):

    PYTHONPATH=src python benchmarks/backends_read.py [--items 100000] [--reads 200]
        [--warmup 20] [--recall-queries 50] [--batch 500]
        [--vectors /tmp/backends_read_vectors.npz] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
from _machine import describe
from read_latency import SEED, USER, corpus, queries, stats, timed_read

from cognimem import Memory, Message, Scope
from cognimem.ingest.funnel import index_text
from cognimem.providers.embeddings import CachedEmbedder, EmbedKind, FloatMatrix, WrappingEmbedder
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.store.types import ItemFilter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import start_postgres  # noqa: E402

STORES = ("sqlite", "postgres")


class PrecomputedEmbedder(WrappingEmbedder):
    """An ``Embedder`` with the onnx model's id that serves vectors computed beforehand."""

    def __init__(self, inner: OnnxMiniLMEmbedder, vectors: dict[str, np.ndarray]) -> None:
        super().__init__(inner)
        self.vectors = vectors
        self.misses = 0

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        unknown = [t for t in texts if t not in self.vectors]
        if unknown:
            self.misses += len(unknown)
            for text, row in zip(unknown, await self.inner.embed(unknown, kind), strict=True):
                self.vectors[text] = row
        return np.stack([self.vectors[t] for t in texts]).astype(np.float32)


def embed_corpus(messages: list[Message], path: Path) -> tuple[dict[str, np.ndarray], float]:
    """Vectors of every turn's funnel text, from ``path`` if it holds them; seconds spent."""
    texts = sorted({index_text(m.name, m.content) for m in messages})
    if path.exists():
        saved = np.load(path, allow_pickle=False)
        known = dict(zip(saved["texts"].tolist(), saved["vectors"], strict=True))
        if all(t in known for t in texts):
            print(f"reusing {len(known)} vectors from {path}", flush=True)
            return known, 0.0
    embedder = OnnxMiniLMEmbedder()
    embedder.embed_sync(["warm up the model"])
    start = time.perf_counter()
    rows: list[np.ndarray] = []
    step = 4096
    for i in range(0, len(texts), step):
        rows.append(embedder.embed_sync(texts[i : i + step]))
        print(f"embedded {i + len(rows[-1])}/{len(texts)}", flush=True)
    seconds = time.perf_counter() - start
    matrix = np.concatenate(rows).astype(np.float32)
    np.savez(path, texts=np.array(texts), vectors=matrix)
    return dict(zip(texts, matrix, strict=True)), seconds


@dataclass
class StoreRun:
    name: str
    build_seconds: float = 0.0
    items: int = 0
    first_read_ms: float = 0.0
    read: list[float] = field(default_factory=list)
    lexical: list[float] = field(default_factory=list)
    vector: list[float] = field(default_factory=list)
    cache_hits: int = 0
    degraded: int = 0


async def count(mem: Memory) -> int:
    return await mem.store.count_items(ItemFilter(scope=Scope(user_id=USER)))


async def build(url: str, messages: list[Message], target: int, batch: int, pre: Any) -> StoreRun:
    """Write turns in order through ``write_batch`` until the scope holds ``target`` items."""
    run = StoreRun(name=url.split(":", 1)[0])
    async with Memory.open(url, embedder=pre) as mem:
        start = time.perf_counter()
        have, pos = await count(mem), 0
        while have < target:
            chunk = messages[pos : pos + min(batch, target - have)]
            if not chunk:
                raise SystemExit("ran out of corpus messages before reaching the target")
            pos += len(chunk)
            await mem.write_batch(chunk, user_id=USER)
            have = await count(mem)
            if pos % 10_000 < batch:
                print(f"  {run.name}: {have} items, {time.perf_counter() - start:.0f}s", flush=True)
        run.build_seconds = time.perf_counter() - start
        run.items = have
    return run


async def measure(mems: dict[str, Memory], runs: dict[str, StoreRun], args: Any) -> None:
    """Warm up, then read each fresh query on both stores, alternating which goes first."""
    at = datetime(2100, 1, 1, tzinfo=UTC)
    stream = queries(SEED + 1)
    for name in STORES:
        runs[name].first_read_ms, _, _ = await timed_read(mems[name], next(stream), 10, at)
    for _ in range(args.warmup):
        q = next(stream)
        for name in STORES:
            await timed_read(mems[name], q, 10, at)
    hits = {n: _cached(mems[n]).hits for n in STORES}
    for i in range(args.reads):
        q = next(stream)
        for name in STORES if i % 2 else STORES[::-1]:
            ms, _, packet = await timed_read(mems[name], q, 10, at)
            steps = {s.name: s.latency_ms for s in packet.steps}
            runs[name].read.append(ms)
            runs[name].lexical.append(steps.get("lexical", 0.0))
            runs[name].vector.append(steps.get("vector", 0.0))
            runs[name].degraded += bool(packet.degraded)
    for name in STORES:
        runs[name].cache_hits = _cached(mems[name]).hits - hits[name]


def _cached(mem: Memory) -> CachedEmbedder:
    assert isinstance(mem.embedder, CachedEmbedder)
    return mem.embedder


async def recall(mem: Memory, dsn: str, n: int, depth: int) -> dict[str, Any]:
    """Recall of the HNSW ``vector_search`` against exact cosine over the same vectors."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        found = await conn.fetch(
            "SELECT id, embedding::real[] AS e FROM items WHERE user_id = $1"
            " AND status = 'active' AND embedding IS NOT NULL",
            USER,
        )
    finally:
        await conn.close()
    ids = np.array([r["id"] for r in found])
    matrix = np.array([r["e"] for r in found], dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    embedder = _cached(mem).inner
    flt = ItemFilter(scope=Scope(user_id=USER))
    texts = list(islice(queries(SEED + 7), n))
    vectors = await embedder.embed(texts, "query")
    at10: list[float] = []
    tie10: list[float] = []
    at10_limit10: list[float] = []
    at_depth: list[float] = []
    hnsw_ms: list[float] = []
    exact_ms: list[float] = []
    row = {item_id: i for i, item_id in enumerate(ids)}
    worst: dict[str, Any] = {}
    for text, v in zip(texts, vectors, strict=True):
        start = time.perf_counter()
        got = await mem.store.vector_search(flt, v, depth)
        hnsw_ms.append((time.perf_counter() - start) * 1000)
        # a limit-10 call gets ef_search 40 (max(40, limit)) rather than the reader's 100
        got10 = await mem.store.vector_search(flt, v, 10)
        start = time.perf_counter()
        scores = matrix @ (v / np.linalg.norm(v))
        order = np.argsort(-scores)
        exact_ms.append((time.perf_counter() - start) * 1000)
        exact10, exact_depth = set(ids[order[:10]]), set(ids[order[:depth]])
        top10 = [c.item_id for c in got[:10]]
        at10.append(len(exact10 & set(top10)) / 10)
        # tie-aware: a hit counts if its exact score reaches the exact 10th score (the
        # corpus repeats some texts verbatim, so equal vectors can swap ids at the cut)
        tenth = float(scores[order[9]])
        tie10.append(sum(float(scores[row[i]]) >= tenth - 1e-6 for i in top10) / 10)
        at10_limit10.append(len(exact10 & {c.item_id for c in got10}) / 10)
        at_depth.append(len(exact_depth & {c.item_id for c in got}) / depth)
        if at10[-1] <= min(at10):
            worst = {
                "query": text,
                "recall_at_10_by_id": at10[-1],
                "recall_at_10_tie_aware": tie10[-1],
                "items_scoring_at_least_the_exact_10th": int((scores >= tenth - 1e-6).sum()),
                "exact_top10_scores": [round(float(scores[j]), 4) for j in order[:10]],
                "hnsw_top10_exact_scores": [round(float(scores[row[i]]), 4) for i in top10],
            }
    return {
        "queries": n,
        "items_compared": len(ids),
        "recall_at_10_of_depth_call_top10": round(float(np.mean(at10)), 4),
        "recall_at_10_tie_aware_of_depth_call_top10": round(float(np.mean(tie10)), 4),
        "recall_at_10_of_limit10_call": round(float(np.mean(at10_limit10)), 4),
        f"recall_at_{depth}_of_depth_call": round(float(np.mean(at_depth)), 4),
        "min_recall_at_10_of_depth_call": round(float(min(at10)), 2),
        "min_recall_at_10_tie_aware_of_depth_call": round(float(min(tie10)), 2),
        "worst_query": worst,
        "depth": depth,
        "hnsw_vector_search_ms": stats(hnsw_ms),
        "numpy_exact_ms": stats(exact_ms),
    }


async def explain(dsn: str, texts: Sequence[str], depth: int) -> dict[str, Any]:
    """Why PostgreSQL's steps take what they take, for one query: the vector query's
    ``EXPLAIN ANALYZE``, and the share of the scope's items the lexical OR-query of each
    of ``texts`` matches (the rows the SQL search main had read per query)."""
    import asyncpg

    from cognimem.recall.analyze import query_terms
    from cognimem.store.postgres import rows

    conn = await asyncpg.connect(dsn)
    try:
        await conn.set_type_codec(
            "vector",
            schema="public",
            encoder=rows.encode_vector,
            decoder=rows.decode_vector,
            format="binary",
        )
        flt = ItemFilter(scope=Scope(user_id=USER))
        total = await conn.fetchval("SELECT count(*) FROM items WHERE user_id = $1", USER)
        shares = []
        for text in texts:
            n = await conn.fetchval(
                "SELECT count(*) FROM items WHERE user_id = $2"
                " AND to_tsvector('simple', search_text) @@"
                " replace(strip(to_tsvector('simple', $1))::text, $3, $4)::tsquery",
                " ".join(query_terms(text)),
                USER,
                "' '",
                "' | '",
            )
            shares.append(n / total)
        vector = (await OnnxMiniLMEmbedder().embed([texts[0]], "query"))[0]
        sql, params = rows.vector_sql(flt, vector, depth, indexed_dim=vector.shape[0])
        async with conn.transaction():
            await conn.execute(
                f"SET LOCAL hnsw.ef_search = {max(40, depth)};"
                " SET LOCAL hnsw.iterative_scan = relaxed_order"
            )
            vec = await conn.fetch("EXPLAIN (ANALYZE, BUFFERS) " + sql, *params)
    finally:
        await conn.close()
    return {
        "query": texts[0],
        "lexical_matches_median_share_of_items": round(float(np.median(shares)), 3),
        "lexical_matches_share_per_query": [round(x, 3) for x in shares],
        "vector_plan": [r[0] for r in vec],
    }


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    messages = list(islice(corpus(SEED), int(args.items * 1.02) + args.batch))
    vectors, embed_seconds = embed_corpus(messages, args.vectors)
    onnx = OnnxMiniLMEmbedder()
    pre = PrecomputedEmbedder(onnx, vectors)
    server = start_postgres(tmp / "pg")
    try:
        urls = {"sqlite": f"sqlite:///{tmp}/backends.db", "postgres": server.dsn}
        runs: dict[str, StoreRun] = {}
        for name in STORES:
            print(f"building {name}…", flush=True)
            runs[name] = await build(urls[name], messages, args.items, args.batch, pre)
            runs[name].name = name
            print(f"  {name}: {runs[name].items} items in {runs[name].build_seconds:.0f}s")
        misses = pre.misses
        async with (
            Memory.open(urls["sqlite"]) as lite,
            Memory.open(urls["postgres"]) as pg,
        ):
            mems = {"sqlite": lite, "postgres": pg}
            for mem in mems.values():
                await _cached(mem).inner.embed(["warm up the model"], "query")
            print("measuring reads…", flush=True)
            await measure(mems, runs, args)
            print("measuring recall…", flush=True)
            rec = await recall(pg, server.dsn, args.recall_queries, 100)
            texts = list(islice(queries(SEED + 9), 10))
            plans = await explain(server.dsn, texts, 100)
            plans["lexical_search_alone_ms"] = await lexical_alone(pg, texts, 100)
        index_mb = server.psql(
            "SELECT round(pg_relation_size(indexrelid) / 1048576.0, 1) FROM pg_index"
            " JOIN pg_class c ON c.oid = indexrelid JOIN pg_am a ON a.oid = c.relam"
            " WHERE a.amname = 'hnsw'",
            database=server.dsn.rsplit("/", 1)[1],
        ).strip()
        index_options = server.psql(
            "SELECT array_to_string(c.reloptions, ', ') FROM pg_class c JOIN pg_am a"
            " ON a.oid = c.relam WHERE a.amname = 'hnsw'",
            database=server.dsn.rsplit("/", 1)[1],
        ).strip()
    finally:
        server.destroy()
    return {
        "corpus_embedding_seconds": round(embed_seconds, 1),
        "precomputed_misses": misses,
        "stores": {n: summary(r) for n, r in runs.items()},
        "ratios_postgres_to_sqlite": ratios(runs),
        "postgres_vector_recall": rec,
        "postgres_hnsw_index_mb": index_mb,
        "postgres_hnsw_index_options": index_options,
        "postgres_plans": plans,
    }


async def lexical_alone(mem: Memory, texts: Sequence[str], depth: int) -> dict[str, float]:
    """``lexical_search`` alone (the in-process index, loaded), as a read calls it."""
    from cognimem.recall.analyze import query_terms

    flt = ItemFilter(scope=Scope(user_id=USER))
    times = []
    for text in texts:
        start = time.perf_counter()
        await mem.store.lexical_search(flt, query_terms(text), depth)
        times.append((time.perf_counter() - start) * 1000)
    return stats(times)


def summary(r: StoreRun) -> dict[str, Any]:
    return {
        "items": r.items,
        "build_seconds": round(r.build_seconds, 1),
        "build_items_per_s": round(r.items / r.build_seconds, 1),
        "first_read_ms": round(r.first_read_ms, 2),
        "reads": len(r.read),
        "read_ms": stats(r.read),
        "vector_step_incl_embedding_ms": stats(r.vector),
        "lexical_step_ms": stats(r.lexical),
        "embedding_cache_hits_during_reads": r.cache_hits,
        "degraded_reads": r.degraded,
    }


def ratios(runs: dict[str, StoreRun]) -> dict[str, dict[str, float]]:
    pg, lite = runs["postgres"], runs["sqlite"]
    out: dict[str, dict[str, float]] = {}
    for key, a, b in (
        ("read", pg.read, lite.read),
        ("vector_step", pg.vector, lite.vector),
        ("lexical_step", pg.lexical, lite.lexical),
    ):
        sa, sb = stats(a), stats(b)
        out[key] = {p: round(sa[p] / sb[p], 2) for p in ("p50", "p95", "p99")}
    out["build_seconds"] = {"total": round(pg.build_seconds / lite.build_seconds, 2)}
    return out


def render(result: dict[str, Any], args: argparse.Namespace) -> str:
    machine, r = result["machine"], result
    s, q = r["stores"], r["ratios_postgres_to_sqlite"]
    rec, pl = r["postgres_vector_recall"], r["postgres_plans"]

    def row(name: str) -> str:
        x = s[name]
        rd, vec, lex = x["read_ms"], x["vector_step_incl_embedding_ms"], x["lexical_step_ms"]
        return (
            f"| {name} | {x['items']:,} | {rd['p50']} / {rd['p95']} / {rd['p99']} | "
            f"{vec['p50']} / {vec['p95']} / {vec['p99']} | "
            f"{lex['p50']} / {lex['p95']} / {lex['p99']} | {x['first_read_ms']} | "
            f"{x['embedding_cache_hits_during_reads']} | {x['degraded_reads']} |"
        )

    def ratio_row(key: str, label: str) -> str:
        v = q[key]
        return f"| {label} | {v['p50']} | {v['p95']} | {v['p99']} |"

    lines = [
        "# Read latency at 100k items: PostgreSQL (pgvector HNSW) beside SQLite",
        "",
        f"Command: `{r['command']}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, "
        f"at end {r['load_average_at_end']}",
        "",
        f"In-process `Memory.read`, limit 10, preset balanced, onnx:minilm; {args.reads} "
        f"reads per store after {args.warmup} warm-up reads, the same fresh query texts on "
        "both stores, read alternately. Milliseconds.",
        "",
        "| store | items | read p50 / p95 / p99 | vector step (incl. embedding) p50 / p95 / p99 "
        "| lexical step p50 / p95 / p99 | first read | cache hits | degraded |",
        "|---|---|---|---|---|---|---|---|",
        row("sqlite"),
        row("postgres"),
        "",
        "| ratio PostgreSQL / SQLite | p50 | p95 | p99 |",
        "|---|---|---|---|",
        ratio_row("read", "read"),
        ratio_row("vector_step", "vector step"),
        ratio_row("lexical_step", "lexical step"),
        "",
        f"PostgreSQL HNSW vector step ({r.get('postgres_hnsw_index_options', '?')}, ef_search"
        " 100) against an "
        f"exact numpy cosine top-k over the same {rec['items_compared']:,} vectors, "
        f"{rec['queries']} fresh queries: recall@10 **{rec['recall_at_10_of_depth_call_top10']}**"
        f" by id (top 10 of the reader's 100-candidate call; worst query "
        f"{rec['min_recall_at_10_of_depth_call']}), tie-aware (a hit scores at least the exact "
        f"10th) **{rec['recall_at_10_tie_aware_of_depth_call_top10']}** (worst "
        f"{rec['min_recall_at_10_tie_aware_of_depth_call']}), recall@100 "
        f"{rec['recall_at_100_of_depth_call']}; a limit-10 call (ef_search 40) gets recall@10 "
        f"{rec['recall_at_10_of_limit10_call']}. `vector_search` alone (no embedding) p50 "
        f"{rec['hnsw_vector_search_ms']['p50']} ms vs numpy exact p50 "
        f"{rec['numpy_exact_ms']['p50']} ms. HNSW index size {r['postgres_hnsw_index_mb']} MB.",
        "",
        "PostgreSQL `lexical_search` alone (the in-process index, loaded; 10 queries): "
        f"p50 {pl['lexical_search_alone_ms']['p50']} ms, p95 "
        f"{pl['lexical_search_alone_ms']['p95']} ms; an OR-query of the same words matches a "
        f"median {pl['lexical_matches_median_share_of_items']:.1%} of the scope's items (the "
        "rows the SQL search before migration 17 read). The vector query's plan is in the "
        "JSON (`postgres_plans`); its "
        f"{next((x.strip() for x in pl['vector_plan'] if 'Execution Time' in x), '?')}.",
        "",
        f"| build (write_batch of {args.batch}, precomputed vectors) | items | seconds | items/s |",
        "|---|---|---|---|",
        *(
            f"| {n} | {s[n]['items']:,} | {s[n]['build_seconds']} | {s[n]['build_items_per_s']} |"
            for n in STORES
        ),
        "",
        f"Corpus: the `read_latency.py` generator (seed {SEED}), embedded once with "
        f"`OnnxMiniLMEmbedder` ({r['corpus_embedding_seconds']} s; 0 = reused from "
        f"`--vectors`) and written to both stores through `Memory.write_batch` with an "
        "embedder serving those rows under the onnx model id (texts it did not know, embedded "
        f"by onnx on the spot: {r['precomputed_misses']}). PostgreSQL: a throwaway "
        "PostgreSQL 15 cluster from `tests/servers.py` (fsync off, shared_buffers 64MB), "
        "on the same machine. The vector step includes the query embedding (~5 ms); the "
        "steps run concurrently, so a read is roughly its slower step plus fetch, fusion and "
        "the access-count write.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--recall-queries", type=int, default=50)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument(
        "--vectors", type=Path, default=Path(tempfile.gettempdir()) / "backends_read_vectors.npz"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    machine = describe()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        measured = asyncio.run(run(args, Path(tmp)))
    result = {
        "command": ("python benchmarks/backends_read.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(time.perf_counter() - started, 1),
        "settings": {k: str(v) for k, v in vars(args).items()},
        **measured,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "backends_read.json").write_text(json.dumps(result, indent=2) + "\n")
    text = render(result, args)
    (args.out / "backends_read.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
