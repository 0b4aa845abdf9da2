"""Migration 20 (``items_kind``) on SQLite: a database from before it gets the index, a
read's mandates listing seeks it instead of visiting every row of the user, and a
user's listing by kind keeps the user in its seek. PostgreSQL has had its
``items_kind`` since its first schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cognimem import Memory, Scope
from cognimem.models import ItemKind
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.sqlite.items import item_clause
from cognimem.store.types import ItemFilter

USER = "ana"
RULE = "Never give medical dosage advice."


def plan(conn: sqlite3.Connection, flt: ItemFilter) -> str:
    """The plan of ``flt``'s listing (the listing's WHERE clause and order)."""
    where, params = item_clause(flt)
    sql = f"SELECT id FROM items WHERE {where} ORDER BY occurred_at DESC, rowid DESC LIMIT 40"
    return " | ".join(r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))


async def test_migration_adds_the_kind_index_to_an_old_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    async with Memory.open(url, embedder=HashingEmbedder()) as mem:
        await mem.write(RULE, user_id=USER, profile="mandate")
        await mem.write("I went hiking with Maya on Sunday.", user_id=USER)
    with sqlite3.connect(tmp_path / "old.db") as conn:  # as migration 19 left it
        conn.execute("DROP INDEX items_kind")
        conn.execute("DELETE FROM schema_migrations WHERE version = 20")
    async with Memory.open(url, embedder=HashingEmbedder()) as mem:
        packet = await mem.read("Can I take more ibuprofen?", user_id=USER)
        assert [m.text for m in packet.sections.mandates] == [RULE]
    scope = Scope(user_id=USER)
    with sqlite3.connect(tmp_path / "old.db") as conn:
        assert conn.execute("SELECT name FROM schema_migrations WHERE version = 20").fetchone() == (
            "items_kind",
        )
        mandates = ItemFilter(
            scope=scope, kinds=(ItemKind.MANDATE, ItemKind.GUARDRAIL), with_organisation=True
        )
        # the kinds narrow the seek (before: items_scope on tenant and namespace alone)
        assert "USING INDEX items_kind (tenant_id=? AND namespace=? AND kind=?" in plan(
            conn, mandates
        )
        episodes = ItemFilter(scope=scope, kinds=(ItemKind.EPISODE,))
        assert "kind=? AND status=? AND user_id=?)" in plan(conn, episodes)
        # a listing without kinds keeps the scope's index
        assert "USING INDEX items_scope" in plan(conn, ItemFilter(scope=scope))
