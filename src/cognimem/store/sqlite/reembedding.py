"""Re-embedding in SQLite: the ``ReembedStore`` role. The switch is one ``BEGIN
IMMEDIATE`` transaction: other writers wait for it (the busy timeout), readers keep
their snapshot of the old vectors until it commits."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from cognimem.store import reembedding as common
from cognimem.store.sqlite.database import SQLiteDatabase

_CHUNK = 500  # rows per step of the switch (bounds its memory, and SQLite's parameters)


def _rows(
    conn: sqlite3.Connection, table: common.VectorTable, after_id: str, limit: int
) -> list[common.VectorText]:
    found = conn.execute(
        f"SELECT id, {common.AUTHOR_SQL[table]}, text FROM {table}"
        " WHERE embedding IS NOT NULL AND id > ? ORDER BY id LIMIT ?",
        (after_id, limit),
    ).fetchall()
    return [common.vector_text(table, r[0], r[1], r[2]) for r in found]


def _chunks(
    conn: sqlite3.Connection, table: common.VectorTable
) -> Iterator[list[common.VectorText]]:
    after = ""
    while rows := _rows(conn, table, after, _CHUNK):
        yield rows
        after = rows[-1].id


def _cached(
    conn: sqlite3.Connection, model: str, dim: int, keys: list[str], column: str
) -> dict[str, bytes]:
    found = conn.execute(
        f"SELECT text_hash, {column} FROM embedding_cache WHERE model = ? AND dim = ?"
        f" AND text_hash IN ({', '.join('?' * len(keys))})",
        (model, dim, *keys),
    )
    return {str(r[0]): r[1] for r in found}


def _missing(conn: sqlite3.Connection, model: str, dim: int) -> list[str]:
    missing: list[str] = []
    for table in common.VECTOR_TABLES:
        for rows in _chunks(conn, table):
            keyed = common.cache_keys(rows)
            held = _cached(conn, model, dim, sorted({k for _, k in keyed}), "1")
            missing += [row.text for row, key in keyed if key not in held]
    return list(dict.fromkeys(missing))


def _replace(conn: sqlite3.Connection, table: common.VectorTable, model: str, dim: int) -> int:
    changed = 0
    for rows in _chunks(conn, table):
        keyed = common.cache_keys(rows)
        vectors = _cached(conn, model, dim, sorted({k for _, k in keyed}), "vector")
        conn.executemany(
            f"UPDATE {table} SET embedding = ?, embedding_model = ? WHERE id = ?",
            [(vectors[key], model, row.id) for row, key in keyed],
        )
        changed += len(keyed)
    return changed


class SQLiteReembedding(SQLiteDatabase):
    """``ReembedStore`` on SQLite."""

    async def count_vectors(self) -> int:
        def q(conn: sqlite3.Connection) -> int:
            return sum(
                int(
                    conn.execute(
                        f"SELECT count(*) FROM {t} WHERE embedding IS NOT NULL"
                    ).fetchone()[0]
                )
                for t in common.VECTOR_TABLES
            )

        return await self._db.read(q)

    async def vector_texts(
        self, table: common.VectorTable, after_id: str, limit: int
    ) -> list[common.VectorText]:
        return await self._db.read(lambda conn: _rows(conn, table, after_id, limit))

    async def switch_vectors(self, model: str, dim: int) -> common.Switch:
        def tx(conn: sqlite3.Connection) -> common.Switch:
            missing = _missing(conn, model, dim)
            if missing:
                return common.Switch(missing=tuple(missing))
            items = _replace(conn, "items", model, dim)
            facts = _replace(conn, "facts", model, dim)
            # every process's vector matrices and fact rows reload (scopes.py)
            conn.execute(
                "UPDATE scope_versions SET version = version + 1, mutations = mutations + 1,"
                " row_changes = row_changes + 1"
            )
            conn.execute("UPDATE fact_versions SET version = version + 1")
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [(common.MODEL_META, model), (common.DIM_META, str(dim))],
            )
            return common.Switch(items=items, facts=facts)

        switched = await self._db.write(tx)
        if not switched.missing:
            self._vectors.clear()
            self._fact_rows.clear()
            self._scope_facts.clear()
        return switched
