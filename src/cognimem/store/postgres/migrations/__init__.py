"""Numbered, recorded migrations of the PostgreSQL schema, and the code that runs them.

Each migration runs once, in order, inside a transaction, and is recorded in
``schema_migrations``. A session advisory lock makes concurrent starts safe: the first
process migrates, the others wait and then find nothing left to do. Never edit a
released migration: add the next number, as a module of its own (``vNN_<name>.py``
with its ``SQL``; see :mod:`cognimem.store.schema_versions`).

The tables mean what their SQLite namesakes mean (``store/sqlite/migrations/``), with
PostgreSQL types: ``timestamptz`` for times, ``jsonb`` for JSON, ``tsvector`` for the
lexical index and pgvector's ``vector`` for embeddings. The embedding column has no
dimension because none is known yet; the HNSW index for it is created by the first
write that carries a vector (see ``vector_index_sql``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from cognimem.store.schema_versions import load_versions, pending

if TYPE_CHECKING:
    from asyncpg import Connection

# every version module of this package (vNN_<name>.py), in version order
MIGRATIONS: list[tuple[int, str, str]] = load_versions(__name__, __path__)

# pg_advisory_lock keys (advisory locks are per database); any fixed 64-bit numbers do
MIGRATION_LOCK = 0x636F676E696D0001
VECTOR_INDEX_LOCK = 0x636F676E696D0002

# meta key that records the dimension the HNSW index was built for
VECTOR_DIM_META = "pg_vector_index_dim"
# a ``meta`` key set to a value ($1, $2), whether it was set before or not
SET_META = (
    "INSERT INTO meta (key, value) VALUES ($1, $2)"
    " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


async def index_dimension(conn: Connection) -> int | None:
    """The dimension the HNSW index is built for, as ``meta`` records it (None: no
    vector written yet)."""
    stored = await conn.fetchval("SELECT value FROM meta WHERE key = $1", VECTOR_DIM_META)
    return None if stored is None else int(stored)


def vector_index_name(dim: int) -> str:
    return f"items_embedding_hnsw_{int(dim)}"


def index_type(dim: int) -> str | None:
    """The type the HNSW index stores vectors of this dimension as, if it can hold them.

    pgvector's HNSW takes ``vector`` up to 2,000 dimensions and ``halfvec`` up to 4,000;
    larger embeddings are searched exactly.
    """
    if dim <= 2000:
        return "vector"
    if dim <= 4000:
        return "halfvec"
    return None


def vector_index_sql(dim: int, m: int, ef_construction: int) -> str | None:
    """The HNSW index over the embeddings of one dimension (None: too many dimensions).

    An expression index on ``embedding::vector(dim)``, partial on that dimension, so the
    untyped column can still hold other dimensions (they are searched exactly, never
    indexed). Queries use the index when they repeat both the cast and the predicate.
    """
    d = int(dim)
    kind = index_type(d)
    if kind is None:
        return None
    return (
        f"CREATE INDEX IF NOT EXISTS {vector_index_name(d)} ON items"
        f" USING hnsw ((embedding::{kind}({d})) {kind}_cosine_ops)"
        f" WITH (m = {int(m)}, ef_construction = {int(ef_construction)})"
        f" WHERE vector_dims(embedding) = {d}"
    )


async def migrate(conn: Connection) -> int:
    """Apply pending migrations; returns the schema version. Safe to run concurrently."""
    # a session lock: if anything below fails the caller closes the connection, which
    # releases it
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)"
    )
    applied = {int(r[0]) for r in await conn.fetch("SELECT version FROM schema_migrations")}
    for version, name, sql in pending(MIGRATIONS, applied):
        async with conn.transaction():
            await conn.execute(sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                version,
                name,
                datetime.now(UTC),
            )
    await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    return max({version for version, _, _ in MIGRATIONS} | applied)
