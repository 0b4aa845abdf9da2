"""PostgreSQL reads at 100k and 1M items in one user scope: the in-process lexical index
beside the SQL search it replaced, read alternately on the same database.

Two steps, so the reads can be re-run on a quiet machine without rebuilding:

    python benchmarks/postgres_scale.py build --dir /work/bench/pgscale --items 1000000
    python benchmarks/postgres_scale.py read --dir /work/bench/pgscale --items 1000000

``build`` keeps a PostgreSQL 15 + pgvector cluster in ``--dir`` (started by
``tests/servers.py``: fsync off, shared_buffers 64MB; ``server.json`` says where, and
each run starts it again and stops it at the end, the data stays). It writes ``--base``
distinct turns of ``read_latency.py``'s generator (seed 20240521) through
``Memory.write_batch`` once, into database ``scale_base`` (vectors: the onnx MiniLM
model, embedded once and kept in ``--dir/vectors.npz``; the funnel is served those
vectors under the onnx model id). Each size is then a database made from that template
and grown by SQL: every round copies the base rows with new ids, their times shifted
past the previous round and a small fixed random vector added to their embeddings (so
the HNSW graph holds no exact duplicates; texts are the same), with the HNSW index
dropped during the copy and built again after it. This is how a 1M scope is built on
this machine in minutes instead of hours through the funnel: it says so in the results.

``read`` opens two ``Memory`` objects on the size's database: the store as it is (its
lexical index loaded by ``load_scope`` before the clock, load time and the process's
RSS growth reported) and one whose ``lexical_search`` is the SQL search main had
(``_pg_sql_lexical.py``; the search columns and statistics migration 23 dropped are
added back to the size's database first, a table rewrite). Each iteration reads one
fresh question on each, alternating which goes first (each its own question, so neither
finds the other's query embedding in the shared cache). In-process ``Memory.read``,
limit 10, preset balanced, onnx embedder; milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import sys
import time
from datetime import UTC, datetime, timedelta
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
from _machine import describe
from _pg_sql_lexical import restore, sql_lexical_search
from backends_read import PrecomputedEmbedder, embed_corpus
from read_latency import SEED, USER, corpus, queries, stats, timed_read

from cognimem import Memory, Scope
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.store.types import ItemFilter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import PostgresServer, keep_after_exit, start_postgres  # noqa: E402

AT = datetime(2100, 1, 1, tzinfo=UTC)
BASE_DB = "scale_base"
COPY_CHUNK = 20_000  # base rows per INSERT ... SELECT


def cluster(directory: Path) -> tuple[PostgresServer, bool]:
    """The cluster kept in ``directory`` (made on the first run), started, and whether
    this call started it (a run stops only a cluster it started: another run may be
    using it)."""
    meta = directory / "server.json"
    if meta.exists():
        d = json.loads(meta.read_text())
        server = PostgresServer(
            root=Path(d["root"]),
            port=int(d["port"]),
            bindir=Path(d["bindir"]),
            run_as=d["run_as"],
            socket_dir=Path(d["socket_dir"]),
        )
        if server.running:
            return server, False
        server.start()
        return server, True
    directory.mkdir(parents=True, exist_ok=True)
    server = start_postgres(directory)
    keep_after_exit(server)
    meta.write_text(
        json.dumps(
            {
                "root": str(server.root),
                "port": server.port,
                "bindir": str(server.bindir),
                "run_as": server.run_as,
                "socket_dir": str(server.socket_dir),
            }
        )
    )
    return server, True


def database(server: PostgresServer, name: str) -> str:
    return server.admin_dsn(name)


def exists(server: PostgresServer, name: str) -> bool:
    return bool(server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'").strip())


async def count(dsn: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM items WHERE user_id = $1", USER))
    finally:
        await conn.close()


async def build_base(server: PostgresServer, args: argparse.Namespace) -> dict[str, Any]:
    """``--base`` distinct turns through ``Memory.write_batch`` into ``scale_base``."""
    if not exists(server, BASE_DB):
        server.psql(f"CREATE DATABASE {BASE_DB}")
    dsn = database(server, BASE_DB)
    messages = list(islice(corpus(SEED), int(args.base * 1.05) + args.batch))
    vectors, embed_seconds = embed_corpus(messages, args.dir / "vectors.npz")
    pre = PrecomputedEmbedder(OnnxMiniLMEmbedder(), vectors)
    start = time.perf_counter()
    async with Memory.open(dsn, embedder=pre) as mem:
        flt = ItemFilter(scope=Scope(user_id=USER))
        have, pos = await mem.store.count_items(flt), 0
        while have < args.base:
            chunk = messages[pos : pos + min(args.batch, args.base - have)]
            if not chunk:
                raise SystemExit("ran out of corpus messages before reaching --base")
            pos += len(chunk)
            await mem.write_batch(chunk, user_id=USER)
            have = await mem.store.count_items(flt)
            print(f"  base: {have} items, {time.perf_counter() - start:.0f}s", flush=True)
    return {
        "base_items": have,
        "base_write_seconds": round(time.perf_counter() - start, 1),
        "base_embedding_seconds": round(embed_seconds, 1),
        "precomputed_misses": pre.misses,
    }


async def grow(dsn: str, target: int) -> dict[str, Any]:
    """Copy the base rows by SQL (new ids, later times, perturbed vectors) to ``target``."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        base = await conn.fetch("SELECT seq FROM items WHERE user_id = $1 ORDER BY seq", USER)
        seqs = [r[0] for r in base]
        have = len(seqs)
        lo_t, hi_t = await conn.fetchrow(
            "SELECT min(occurred_at), max(occurred_at) FROM items WHERE user_id = $1", USER
        )
        span = (hi_t - lo_t) + timedelta(days=1)
        dim = int(
            await conn.fetchval("SELECT vector_dims(embedding) FROM items LIMIT 1")  # type: ignore[arg-type]
        )
        index = await conn.fetchrow(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'items'"
            " AND indexdef ILIKE '%hnsw%'"
        )
        columns = [
            r[0]
            for r in await conn.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'items'"
                " AND is_generated = 'NEVER' AND is_identity = 'NO'"
                " AND column_name NOT IN ('id', 'change_seq') ORDER BY ordinal_position"
            )
        ]
        shifted = {"occurred_at", "recorded_at", "event_start", "event_end"}
        rng = np.random.default_rng(SEED)
        start = time.perf_counter()
        if index is not None:
            await conn.execute(f"DROP INDEX {index['indexname']}")
        rounds = 0
        while have < target:
            rounds += 1
            noise = "[" + ",".join(f"{x:.5f}" for x in rng.normal(0, 0.02, dim)) + "]"
            shift = span * rounds
            select = ", ".join(
                f"{c} + $2::interval"
                if c in shifted
                else "embedding + $3::vector"
                if c == "embedding"
                else c
                for c in columns
            )
            for i in range(0, len(seqs), COPY_CHUNK):
                take = seqs[i : i + min(COPY_CHUNK, target - have)]
                if not take:
                    break
                await conn.execute(
                    f"INSERT INTO items (id, {', '.join(columns)})"
                    f" SELECT id || '_c{rounds}', {select} FROM items"
                    " WHERE seq = ANY($1::bigint[])",
                    take,
                    shift,
                    noise,
                )
                have += len(take)
                print(f"  copy: {have} items, {time.perf_counter() - start:.0f}s", flush=True)
        copy_seconds = time.perf_counter() - start
        start = time.perf_counter()
        if index is not None:
            await conn.execute("SET maintenance_work_mem = '3GB'")
            await conn.execute(index["indexdef"])
        index_seconds = time.perf_counter() - start
        await conn.execute("VACUUM ANALYZE items")
    finally:
        await conn.close()
    return {
        "copy_rounds": rounds,
        "copy_seconds": round(copy_seconds, 1),
        "hnsw_build_seconds": round(index_seconds, 1),
    }


async def build(args: argparse.Namespace) -> None:
    server, started = cluster(args.dir)
    try:
        info_path = args.dir / "build.json"
        info = json.loads(info_path.read_text()) if info_path.exists() else {}
        if "base" not in info:
            info["base"] = await build_base(server, args)
            info_path.write_text(json.dumps(info, indent=2))
        name = f"scale_{args.items}"
        if exists(server, name):
            print(f"{name} exists: {await count(database(server, name))} items")
            return
        server.psql(f"CREATE DATABASE {name} TEMPLATE {BASE_DB}")
        info[name] = await grow(database(server, name), args.items)
        info[name]["items"] = await count(database(server, name))
        info[name]["built_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        info_path.write_text(json.dumps(info, indent=2))
        print(json.dumps(info, indent=2))
    finally:
        if started:
            server.stop()


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def read(args: argparse.Namespace) -> dict[str, Any]:
    server, started = cluster(args.dir)
    try:
        dsn = database(server, f"scale_{args.items}")
        items = await count(dsn)
        async with Memory.open(dsn) as new, Memory.open(dsn) as old:
            async with old.store._connection() as conn:  # what the SQL search reads
                await restore(conn)
            # the old way: the SQL search main had, on a store that is otherwise the same
            old.store.lexical_search = functools.partial(sql_lexical_search, old.store)  # type: ignore[method-assign]
            scope = Scope(user_id=USER)
            await old.read("warm up the model", user_id=USER, reference_time=AT)
            rss = rss_mb()
            start = time.perf_counter()
            await new.store.load_scope(scope)
            load_s = time.perf_counter() - start
            grown = rss_mb() - rss
            mems = {"in-process index": new, "SQL search (main)": old}
            stream = queries(SEED + 11)
            for _ in range(args.warmup):
                for mem in mems.values():
                    await timed_read(mem, next(stream), 10, AT)
            runs: dict[str, dict[str, list[float]]] = {
                n: {"read": [], "lexical": [], "vector": [], "degraded": []} for n in mems
            }
            for i in range(args.reads):
                names = list(mems) if i % 2 else list(mems)[::-1]
                for name in names:
                    ms, _, packet = await timed_read(mems[name], next(stream), 10, AT)
                    steps = {s.name: s.latency_ms for s in packet.steps}
                    run = runs[name]
                    run["read"].append(ms)
                    run["lexical"].append(steps.get("lexical", 0.0))
                    run["vector"].append(steps.get("vector", 0.0))
                    run["degraded"].append(float(bool(packet.degraded)))
                if (i + 1) % 25 == 0:
                    print(f"  {i + 1}/{args.reads} reads", flush=True)
    finally:
        if started:
            server.stop()
    return {
        "items": items,
        "lexical_index_load_seconds": round(load_s, 2),
        "rss_growth_mb": round(grown, 1),
        "rss_after_mb": round(rss_mb(), 1),
        "reads": {
            n: {
                "read_ms": stats(r["read"]),
                "lexical_step_ms": stats(r["lexical"]),
                "vector_step_incl_embedding_ms": stats(r["vector"]),
                "degraded_reads": int(sum(r["degraded"])),
            }
            for n, r in runs.items()
        },
    }


def render(results: dict[str, Any], build_info: dict[str, Any]) -> str:
    lines = [
        "# PostgreSQL reads at 100k and 1M items: in-process lexical index vs the SQL search",
        "",
        "Built and read with `benchmarks/postgres_scale.py` (`build`, then `read`; see its "
        "docstring). Each size: "
        f"{build_info.get('base', {}).get('base_items', '?'):,} distinct turns written through "
        "`Memory.write_batch` (onnx vectors), then copied by SQL with new ids, later times and "
        "perturbed vectors (same texts) up to the size; HNSW rebuilt after the copy. "
        "In-process `Memory.read`, limit 10, preset balanced, onnx embedder; both variants "
        "read alternately on the same database, each its own fresh question. Milliseconds. "
        "The machine is shared with other engineers' work: the load is stated per run.",
        "",
        "| items | variant | read p50 / p95 / p99 | lexical step p50 / p95 / p99 "
        "| vector step (incl. embedding) p50 / p95 | degraded |",
        "|---|---|---|---|---|---|",
    ]
    for size in sorted(results, key=int):
        r = results[size]
        for name, x in r["reads"].items():
            rd, lx, vc = x["read_ms"], x["lexical_step_ms"], x["vector_step_incl_embedding_ms"]
            lines.append(
                f"| {r['items']:,} | {name} | {rd['p50']} / {rd['p95']} / {rd['p99']} | "
                f"{lx['p50']} / {lx['p95']} / {lx['p99']} | {vc['p50']} / {vc['p95']} | "
                f"{x['degraded_reads']} |"
            )
    lines += ["", "| items | index load (s) | RSS growth (MB) | reads | commit | load average |"]
    lines.append("|---|---|---|---|---|---|")
    for size in sorted(results, key=int):
        r = results[size]
        m = r["machine"]
        lines.append(
            f"| {r['items']:,} | {r['lexical_index_load_seconds']} | {r['rss_growth_mb']} | "
            f"{r['settings']['reads']} | {str(m['source']['commit'])[:7]} | "
            f"start {m['load_average_1_5_15']}, end {r['load_average_at_end']} |"
        )
    lines += ["", "Builds (`build.json`):", "", "```", json.dumps(build_info, indent=2), "```", ""]
    lines.append(f"Machine: {next(iter(results.values()))['machine']['summary']}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("build", "read"))
    parser.add_argument("--dir", type=Path, default=Path("/work/bench/pgscale"))
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--base", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--reads", type=int, default=150)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    args.dir = args.dir.resolve()
    if args.step == "build":
        asyncio.run(build(args))
        return
    machine = describe()
    measured = asyncio.run(read(args))
    measured.update(
        command=("python benchmarks/postgres_scale.py " + " ".join(sys.argv[1:])).strip(),
        machine=machine,
        load_average_at_end=[round(x, 2) for x in os.getloadavg()],
        settings={k: str(v) for k, v in vars(args).items()},
    )
    out = args.out / "postgres_scale.json"
    results = json.loads(out.read_text()) if out.exists() else {}
    results[str(args.items)] = measured
    args.out.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    info_path = args.dir / "build.json"
    build_info = json.loads(info_path.read_text()) if info_path.exists() else {}
    text = render(results, build_info)
    (args.out / "postgres_scale.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
