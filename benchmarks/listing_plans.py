"""The query plans of SQLite's item listings with and without the ``items_kind`` index.

What it checks: migration 20 adds ``items_kind`` (tenant, namespace, kind, status,
user_id, occurred_at) so that a read's mandates listing stops visiting every row of
the user. An index can also draw other queries away from the one that served them; this
runs the listings a user meets through ``Memory`` (a read, a streamed read, item listings
by user and kind, across users, the stats, the mandate candidates) on a copy of
``--db``, records every statement they send to SQLite that reads ``items`` (the
statements as SQLite ran them, values inlined), and prints each one's plan with the
index and after dropping it.

Usage (from the repository root; the database is built by ``read_latency.py --db``):

    python benchmarks/listing_plans.py --db PATH [--user bench-user] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from cognimem import Memory
from cognimem.store.sqlite import connection

REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)
READS_ITEMS = re.compile(r"\bFROM items\b", re.IGNORECASE)


async def listings(url: str, user: str, seen: list[str]) -> None:
    """The calls whose statements are checked; ``seen`` collects the statements."""
    real = connection.connect

    def traced(path: Path) -> sqlite3.Connection:
        conn = real(path)
        conn.set_trace_callback(seen.append)
        return conn

    connection.connect = traced  # type: ignore[assignment]
    try:
        async with Memory.open(url) as mem:
            await mem.read("Where did Maya go hiking?", user_id=user, reference_time=REFERENCE)

            async def sink(name: str, entries: list[object]) -> None:
                return None

            await mem.read(
                "What should I cook?", user_id=user, reference_time=REFERENCE, on_section=sink
            )
            await mem.list_items(user_id=user, limit=50)
            await mem.list_items(user_id=user, kinds=["episode"], limit=50)
            await mem.list_items(user_id=user, kinds=["mandate", "guardrail"], limit=50)
            await mem.list_items(all_users=True, kinds=["mandate"], limit=50)
            await mem.list_items(all_users=True, limit=50)
            await mem.stats(user_id=user)
            await mem.mandate_candidates(user_id=user)
    finally:
        connection.connect = real  # type: ignore[assignment]


def plan(conn: sqlite3.Connection, sql: str) -> list[str]:
    return [str(r[3]) for r in conn.execute("EXPLAIN QUERY PLAN " + sql)]


def shorten(sql: str, width: int = 160) -> str:
    one = " ".join(sql.split())
    return one if len(one) <= width else one[: width - 1] + "…"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--user", default="bench-user")
    p.add_argument("--out", type=Path)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "plans.db"
        shutil.copyfile(args.db, db)
        seen: list[str] = []
        asyncio.run(listings(f"sqlite:///{db}", args.user, seen))
        statements = list(
            dict.fromkeys(s for s in seen if READS_ITEMS.search(s) and not s.startswith("INSERT"))
        )
        # no statement cache: a cached plan outlives the index it was made with
        conn = sqlite3.connect(db, cached_statements=0)
        with_index = [plan(conn, s) for s in statements]
        conn.execute("DROP INDEX items_kind")
        without = [plan(conn, s) for s in statements]
        conn.close()
    lines = [
        "| statement | plan without items_kind | plan with items_kind | changed |",
        "|---|---|---|---|",
    ]
    for sql, before, after in zip(statements, without, with_index, strict=True):
        lines.append(
            f"| `{shorten(sql)}` | {'<br>'.join(before)} | {'<br>'.join(after)} |"
            f" {'yes' if before != after else 'no'} |"
        )
    text = "\n".join(lines)
    print(text)
    if args.out:
        command = "python benchmarks/listing_plans.py " + " ".join(sys.argv[1:])
        args.out.write_text(f"Command: `{command}`\n\n{text}\n")


if __name__ == "__main__":
    main()
