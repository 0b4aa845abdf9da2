"""Where the PostgreSQL server's time goes during a bulk ingest (pg_stat_statements).

Runs the ingest of ``benchmarks/ingest_ratio.py`` (``Memory.write_batch``, default
``chat`` profile, onnx:minilm) once into a fresh database on a throwaway server started
with ``pg_stat_statements`` preloaded (``track = all``), then lists the statements by
total execution time with their calls per message, and the server's CPU over the writes.

``--vector-index`` is a diagnostic, never a setting of cognimem: ``none`` writes without
the HNSW index (so the near-duplicate search scans exactly), ``halfvec`` builds it (and
searches it) over ``halfvec`` instead of ``vector``, ``hnsw`` is what cognimem does;
``--ef-construction`` builds the index with another ``ef_construction`` (cognimem's
``hnsw_ef_construction`` URL option, default 64).

Usage (from the repository root):

    python benchmarks/ingest_pg_statements.py [PATH] [--messages 400] [--batch 200]
        [--top 25] [--vector-index hnsw|halfvec|none] [--ef-construction 64] [--out FILE.md]
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import tempfile
from pathlib import Path
from typing import Any

from ingest_ratio import ingest_pass, message_arguments, messages
from tests.servers import (
    PostgresServer,
    start_postgres,
)  # ingest_ratio put the repository on the path

from cognimem import Memory
from cognimem.store.postgres import database, items, migrations, rows

QUERY = (
    "SELECT calls, total_exec_time, rows, "
    "regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements "
    "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'ingest_1') "
    "ORDER BY total_exec_time DESC"
)


def patch_index(kind: str, ef_construction: int) -> None:
    """Swap the HNSW index cognimem builds for the diagnostic's (see the module doc)."""
    make = migrations.vector_index_sql
    if kind == "none":
        database.vector_index_sql = lambda dim, m, ef: None  # type: ignore[assignment]
        return
    if kind == "halfvec":

        def half(dim: int) -> str | None:
            return "halfvec" if dim <= 4000 else None

        migrations.index_type = rows.index_type = items.index_type = half  # type: ignore[assignment]
    database.vector_index_sql = lambda dim, m, ef: make(dim, m, ef_construction)  # type: ignore[assignment]


def explain_insert(server: PostgresServer) -> str:
    """EXPLAIN (ANALYZE, BUFFERS, WAL) of inserting copies of 200 of the ingest's items
    (new ids), with and without the HNSW index, each in a transaction rolled back."""
    cols = server.psql(
        "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM "
        "information_schema.columns WHERE table_name = 'items' AND column_name NOT IN "
        "('seq', 'change_seq')",
        database="ingest_1",
    ).strip()
    copied = cols.replace("id,", "'copy-' || id,", 1) if cols.startswith("id,") else cols
    insert = (
        f"EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF) INSERT INTO items ({cols}) "
        f"SELECT {copied} FROM items ORDER BY seq LIMIT 200"
    )
    out = []
    for label, drop in (
        ("with the HNSW index", ""),
        ("without it", "DROP INDEX items_embedding_hnsw_384;"),
    ):
        plan = server.psql(f"BEGIN; {drop} {insert}; ROLLBACK;", database="ingest_1")
        out += ["", f"Insert of 200 copied items, {label}:", "", "```", plan.strip(), "```"]
    return "\n".join(out) + "\n"


def analyze_after_each_batch(server: PostgresServer) -> None:
    """Diagnostic: ``ANALYZE items, events`` after each ``write_batch``, inside its timing
    (its server CPU counts), so the next batch is planned with the tables' statistics."""
    write_batch = Memory.write_batch

    async def analyzed(self: Memory, *args: Any, **kwargs: Any) -> Any:
        result = await write_batch(self, *args, **kwargs)
        server.psql("ANALYZE items, events", database="ingest_1")
        return result

    Memory.write_batch = analyzed  # type: ignore[method-assign]


async def migrate(url: str) -> None:
    async with Memory.open(url):
        pass


def main() -> None:
    parser = message_arguments(__doc__, messages=400, batch=200)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--vector-index", choices=["hnsw", "halfvec", "none"], default="hnsw")
    parser.add_argument("--ef-construction", type=int, default=64)
    parser.add_argument(
        "--analyze-after-batch",
        action="store_true",
        help="diagnostic: ANALYZE items and events after every write_batch (counted)",
    )
    parser.add_argument("--explain", action="store_true", help="EXPLAIN an items insert")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    patch_index(args.vector_index, args.ef_construction)
    analyzed = {"on": args.analyze_after_batch}
    by_user = messages(args.path, args.messages, args.restated)
    with tempfile.TemporaryDirectory() as tmp:
        server = start_postgres(Path(tmp) / "pg")
        try:
            conf = server.datadir / "postgresql.auto.conf"
            conf.write_text(
                conf.read_text() + "shared_preload_libraries = 'pg_stat_statements'\n"
                "pg_stat_statements.track = all\npg_stat_statements.max = 10000\n"
            )
            server.stop()
            server.start()
            server.psql("CREATE DATABASE ingest_1")
            server.psql("CREATE EXTENSION pg_stat_statements", database="ingest_1")
            asyncio.run(migrate(server.admin_dsn("ingest_1")))  # not counted below
            server.psql("SELECT pg_stat_statements_reset()", database="ingest_1")
            if analyzed["on"]:
                analyze_after_each_batch(server)
            postmaster = int((server.datadir / "postmaster.pid").read_text().split()[0])
            ingest, _ = asyncio.run(
                ingest_pass(server.admin_dsn("ingest_1"), by_user, args.batch, postmaster)
            )
            out = server.psql(f"COPY ({QUERY}) TO STDOUT WITH (FORMAT csv)", database="ingest_1")
            explained = explain_insert(server) if args.explain else ""
            sessions, commits = (
                server.psql(
                    "COPY (SELECT sessions, xact_commit FROM pg_stat_database"
                    " WHERE datname = 'ingest_1') TO STDOUT WITH (FORMAT csv)",
                    database="ingest_1",
                )
                .strip()
                .split(",")
            )
        finally:
            server.destroy()
    rows = [(int(c), float(t), int(r), q) for c, t, r, q in csv.reader(io.StringIO(out))]
    total = sum(t for _, t, _, _ in rows)
    n = args.messages
    lines = [
        f"server CPU over the writes: {ingest.server_cpu:.2f} s; statements' execution "
        f"time: {total / 1000:.3f} s in {sum(c for c, *_ in rows)} calls "
        f"({sum(c for c, *_ in rows) / n:.1f} per message); ingest {ingest.seconds:.2f} s, "
        f"load {os.getloadavg()[0]:.2f}; sessions {sessions}, commits {commits} (with this "
        "script's own queries)",
        "",
        "| ms total | share | calls | calls/message | rows | statement |",
        "|---|---|---|---|---|---|",
    ]
    for c, t, r, q in rows[: args.top]:
        q = q.replace("|", "\\|")
        lines.append(f"| {t:.1f} | {t / total:.1%} | {c} | {c / n:.2f} | {r} | `{q[:160]}` |")
    text = "\n".join(lines) + "\n" + explained
    print(text)
    if args.out is not None:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
