"""What a bulk ingest stores, as text that two trees can diff: a check that a change to
the write path's speed left what it stores alone.

Writes the ingest of ``ingest_ratio.py`` (``Memory.write_batch``, default ``chat``
profile, onnx:minilm) into a fresh database (SQLite, or a throwaway PostgreSQL server)
and prints every row of every table but ``schema_migrations``, one JSON line each:
ids (``evt_…``, ``mem_…``, …) replaced by their order of first appearance, and the
times of the run (today's date; on SQLite, microseconds since the epoch within today)
by ``<now>``, so two runs compare equal when they stored the same content. Rows are
ordered by ``seq`` where a table has one, else by their text (the events, items, facts
and entities first; rows alike but for their ids by the ids' numbers).

Usage (from a tree's root, with that tree's code on the path):

    PYTHONPATH=src:. python benchmarks/ingest_content_dump.py [PATH] [--messages 400]
        [--batch 200] [--backend postgresql|sqlite] > dump.txt
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ingest_ratio import ingest_pass, message_arguments, messages
from tests.servers import start_postgres  # ingest_ratio put the repository on the path

_ID = re.compile(r"\b[a-z]{3}_[0-9a-f]{28}\b")
_MICROS = re.compile(r"\b1[0-9]{15}\b")


async def pg_rows(dsn: str) -> dict[str, list[dict[str, Any]]]:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        tables = [
            r["tablename"]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        out = {}
        for table in tables:
            found = await conn.fetch(f'SELECT to_jsonb(t)::text AS j FROM "{table}" t')
            out[table] = [json.loads(r["j"]) for r in found]
        return out
    finally:
        await conn.close()


def sqlite_rows(path: str) -> dict[str, list[dict[str, Any]]]:
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1"
            ).fetchall()
        ]
        out = {}
        for table in tables:
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            names = [d[0] for d in cursor.description]
            out[table] = [
                {k: (v.hex() if isinstance(v, bytes) else v) for k, v in zip(names, r, strict=True)}
                for r in cursor.fetchall()
            ]
        return out
    finally:
        conn.close()


def normalised(tables: dict[str, list[dict[str, Any]]]) -> list[str]:
    today = datetime.now(UTC).date().isoformat()
    iso = re.compile(re.escape(today) + r"[T ][0-9:.+Z-]*")
    # SQLite keeps times as microseconds since the epoch
    midnight = int(datetime.fromisoformat(today).replace(tzinfo=UTC).timestamp()) * 10**6

    def run_time(match: re.Match[str]) -> str:
        return "<now>" if 0 <= int(match.group(0)) - midnight < 86_400 * 10**6 else match.group(0)

    def masked(row: dict[str, Any]) -> str:
        return _MICROS.sub(run_time, iso.sub("<now>", json.dumps(row, sort_keys=True)))

    ids: dict[str, str] = {}

    def canonical(match: re.Match[str]) -> str:
        return ids.setdefault(match.group(0), f"<{match.group(0)[:3]}{len(ids)}>")

    lines = []
    # tables with a sequence first (their order is the writes'), then the rest by text,
    # the events, items, facts and entities before the tables that link them (an id is
    # numbered where it first appears: in a row alike to no other but for its ids)
    first = {"events": 0, "items": 1, "facts": 2, "entities": 3}
    ordered = sorted(
        tables,
        key=lambda t: (not any("seq" in r for r in tables[t][:1]), first.get(t, len(first)), t),
    )
    for table in ordered:
        if table == "schema_migrations":
            continue
        rows = tables[table]
        if rows and "seq" in rows[0]:
            rows = sorted(rows, key=lambda r: r["seq"])
            lines += [f"{table} {_ID.sub(canonical, masked(r))}" for r in rows]
        else:
            texts = sorted((masked(r) for r in rows), key=lambda t: _ID.sub("<id>", t))
            # rows alike but for their ids (a link table's) by the ids' numbers: the
            # order SQLite returns them in follows the random ids
            lines += sorted(f"{table} {_ID.sub(canonical, t)}" for t in texts)
    return lines


def main() -> None:
    parser = message_arguments(__doc__, messages=400, batch=200)
    parser.add_argument("--backend", choices=["postgresql", "sqlite"], default="postgresql")
    args = parser.parse_args()
    by_user = messages(args.path, args.messages, args.restated)
    with tempfile.TemporaryDirectory() as tmp:
        if args.backend == "sqlite":
            db = f"{tmp}/dump.db"
            asyncio.run(ingest_pass(f"sqlite:///{db}", by_user, args.batch))
            tables = sqlite_rows(db)
        else:
            server = start_postgres(Path(tmp) / "pg")
            try:
                server.psql("CREATE DATABASE dump")
                asyncio.run(ingest_pass(server.admin_dsn("dump"), by_user, args.batch))
                tables = asyncio.run(pg_rows(server.admin_dsn("dump")))
            finally:
                server.destroy()
    print("\n".join(normalised(tables)))


if __name__ == "__main__":
    main()
