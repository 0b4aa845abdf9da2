"""Re-embedding in PostgreSQL: the ``ReembedStore`` role. The switch is one
transaction that holds off writers of items and facts (``SHARE ROW EXCLUSIVE``: reads
go on, with the old vectors, until it commits) and, for a model of another dimension,
builds the HNSW index of the new dimension and drops the old one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import numpy as np

from cognimem.store import reembedding as common
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.postgres.migrations import (
    SET_META,
    VECTOR_DIM_META,
    VECTOR_INDEX_LOCK,
    index_dimension,
    vector_index_name,
    vector_index_sql,
)
from cognimem.store.postgres.rows import vector_bytes

if TYPE_CHECKING:
    from asyncpg import Connection

_CHUNK = 1_000  # rows per step of the switch (bounds its memory)


async def _rows(
    conn: Connection, table: common.VectorTable, after_id: str, limit: int
) -> list[common.VectorText]:
    found = await conn.fetch(
        f"SELECT id, {common.AUTHOR_SQL[table]} AS author, text FROM {table}"
        " WHERE embedding IS NOT NULL AND id > $1 ORDER BY id LIMIT $2",
        after_id,
        limit,
    )
    return [common.vector_text(table, r["id"], r["author"], r["text"]) for r in found]


async def _chunks(
    conn: Connection, table: common.VectorTable
) -> AsyncIterator[list[common.VectorText]]:
    after = ""
    while rows := await _rows(conn, table, after, _CHUNK):
        yield rows
        after = rows[-1].id


async def _cached(
    conn: Connection, model: str, dim: int, keys: list[str], column: str
) -> dict[str, bytes]:
    found = await conn.fetch(
        f"SELECT text_hash, {column} AS value FROM embedding_cache"
        " WHERE model = $1 AND dim = $2 AND text_hash = ANY($3::text[])",
        model,
        dim,
        keys,
    )
    return {r["text_hash"]: r["value"] for r in found}


async def _missing(conn: Connection, model: str, dim: int) -> list[str]:
    missing: list[str] = []
    for table in common.VECTOR_TABLES:
        async for rows in _chunks(conn, table):
            keyed = common.cache_keys(rows)
            held = await _cached(conn, model, dim, sorted({k for _, k in keyed}), "1")
            missing += [row.text for row, key in keyed if key not in held]
    return list(dict.fromkeys(missing))


async def _replace(conn: Connection, table: common.VectorTable, model: str, dim: int) -> int:
    changed = 0
    async for rows in _chunks(conn, table):
        keyed = common.cache_keys(rows)
        vectors = await _cached(conn, model, dim, sorted({k for _, k in keyed}), "vector")
        await conn.execute(
            f"UPDATE {table} t SET embedding = v.embedding, embedding_model = $1"
            " FROM unnest($2::text[], $3::vector[]) AS v(id, embedding) WHERE t.id = v.id",
            model,
            [row.id for row, _ in keyed],
            # the cache holds little-endian float32, the column pgvector's binary form
            [vector_bytes(np.frombuffer(vectors[key], dtype="<f4")) for _, key in keyed],
        )
        changed += len(keyed)
    return changed


class PostgresReembedding(PostgresDatabase):
    """``ReembedStore`` on PostgreSQL."""

    async def count_vectors(self) -> int:
        async with self._connection() as conn:
            counts = [
                await conn.fetchval(f"SELECT count(*) FROM {t} WHERE embedding IS NOT NULL")
                for t in common.VECTOR_TABLES
            ]
        return sum(int(c) for c in counts)

    async def vector_texts(
        self, table: common.VectorTable, after_id: str, limit: int
    ) -> list[common.VectorText]:
        async with self._connection() as conn:
            return await _rows(conn, table, after_id, limit)

    async def switch_vectors(self, model: str, dim: int) -> common.Switch:
        async def body(conn: Connection) -> common.Switch:
            # the first vector's index creation and this switch take turns
            await conn.execute("SELECT pg_advisory_xact_lock($1)", VECTOR_INDEX_LOCK)
            await conn.execute("LOCK TABLE items, facts IN SHARE ROW EXCLUSIVE MODE")
            missing = await _missing(conn, model, dim)
            if missing:
                return common.Switch(missing=tuple(missing))
            items = await _replace(conn, "items", model, dim)
            facts = await _replace(conn, "facts", model, dim)
            await self._index_vectors(conn, dim)
            await conn.executemany(
                SET_META, [(common.MODEL_META, model), (common.DIM_META, str(dim))]
            )
            return common.Switch(items=items, facts=facts)

        switched = await self._write(body, None)
        if not switched.missing:
            self._index_dim = dim
        return switched

    async def _index_vectors(self, conn: Connection, dim: int) -> None:
        """The HNSW index of ``dim`` (built now if the index was of another one)."""
        stored = await index_dimension(conn)
        if stored == dim:
            return
        if stored is not None:
            await conn.execute(f"DROP INDEX IF EXISTS {vector_index_name(stored)}")
        sql = vector_index_sql(dim, self.hnsw_m, self.hnsw_ef_construction)
        if sql is not None:
            await conn.execute(sql)
        await conn.execute(SET_META, VECTOR_DIM_META, str(dim))
