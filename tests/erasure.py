"""The erasure check shared by the contract and end-to-end suites: every table of a
store's schema, found in the database's own catalogue (so a table added later is
checked without anyone remembering to), scanned for rows that still name a user."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from cognimem.store import Store
from cognimem.store.sqlite import SQLiteStore


def _mentions(value: object, needles: Sequence[str]) -> bool:
    if isinstance(value, str):
        return any(n in value for n in needles)
    if isinstance(value, bytes):
        return any(n.encode() in value for n in needles)
    return False


def sqlite_leftovers(path: Path, user_id: str, needles: Sequence[str]) -> dict[str, int]:
    """Rows per table (FTS shadow tables and the job queue included) whose ``user_id``
    is the user, whose ``user_key`` is theirs, or any of whose cells contains a needle."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        found: dict[str, int] = {}
        for table in tables:
            columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                cells = dict(zip(columns, row, strict=True))
                if (
                    cells.get("user_id") == user_id
                    or cells.get("user_key") == f"u:{user_id}"
                    or any(_mentions(v, needles) for v in row)
                ):
                    found[table] = found.get(table, 0) + 1
        return found
    finally:
        conn.close()


async def postgres_leftovers(dsn: str, user_id: str, needles: Sequence[str]) -> dict[str, int]:
    """The same scan over every table of the public schema (each row as text)."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        found: dict[str, int] = {}
        tables = [
            r[0]
            for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        for table in tables:
            columns = {
                r[0]
                for r in await conn.fetch(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_schema = 'public' AND table_name = $1",
                    table,
                )
            }
            clauses = [f"t::text LIKE '%' || ${i} || '%'" for i in range(1, len(needles) + 1)]
            params: list[str] = list(needles)
            if "user_id" in columns:
                params.append(user_id)
                clauses.append(f"user_id = ${len(params)}")
            if "user_key" in columns:
                params.append(f"u:{user_id}")
                clauses.append(f"user_key = ${len(params)}")
            count = await conn.fetchval(
                f'SELECT count(*) FROM "{table}" t WHERE {" OR ".join(clauses)}', *params
            )
            if count:
                found[table] = int(count)
        return found
    finally:
        await conn.close()


async def leftovers(store: Store, user_id: str, needles: Sequence[str]) -> dict[str, int]:
    """Rows that still name ``user_id`` or contain one of ``needles``, per table."""
    if isinstance(store, SQLiteStore):
        return sqlite_leftovers(store.path, user_id, needles)
    dsn: str = getattr(store, "dsn")  # noqa: B009 - PostgresStore; imported lazily
    return await postgres_leftovers(dsn, user_id, needles)


async def table_names(store: Store) -> set[str]:
    """Every table of the store's schema, from the database's catalogue (SQLite's own
    and an FTS index's shadow tables aside)."""
    if isinstance(store, SQLiteStore):
        conn = sqlite3.connect(store.path)
        try:
            found = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            names = {r[0] for r in found}
        finally:
            conn.close()
        return {n for n in names if not n.startswith(("sqlite_", "items_fts_"))}
    import asyncpg

    pg = await asyncpg.connect(getattr(store, "dsn"))  # noqa: B009 - PostgresStore
    try:
        found = await pg.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return {r[0] for r in found}
    finally:
        await pg.close()
