"""Numbered, recorded migrations of the SQLite schema.

Each migration runs once, in order, inside a transaction, and is recorded in
``schema_migrations``. Never edit a released migration: add the next number, as a
module of its own (``vNN_<name>.py`` with its ``SQL``; see
:mod:`cognimem.store.schema_versions`).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from cognimem.store.schema_versions import load_versions, pending

# every version module of this package (vNN_<name>.py), in version order
MIGRATIONS: list[tuple[int, str, str]] = load_versions(__name__, __path__)


def migrate(conn: sqlite3.Connection) -> None:
    """Apply the migrations ``conn``'s database lacks, each in its own transaction."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    applied = {int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations")}
    for version, name, sql in pending(MIGRATIONS, applied):
        # executescript commits implicitly, so run the statements one by one in our tx
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (version,)
            ).fetchone():
                conn.execute("ROLLBACK")  # another process applied it meanwhile
                continue
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (version, name, datetime.now(UTC).isoformat()),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def _statements(sql: str) -> list[str]:
    """``sql``'s statements without comment lines; a trigger's body, whose statements end
    in ``;`` too, stays in its ``CREATE TRIGGER`` (SQLite says when one is complete)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    out: list[str] = []
    pending = ""
    for part in "\n".join(lines).split(";"):
        pending += part + ";"
        if sqlite3.complete_statement(pending):
            out.append(pending.strip().removesuffix(";").strip())
            pending = ""
    if pending.strip(" \n;"):
        out.append(pending.strip().removesuffix(";").strip())
    return [s for s in out if s]
