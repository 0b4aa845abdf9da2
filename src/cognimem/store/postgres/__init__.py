"""The PostgreSQL store (pgvector + tsvector); asyncpg is imported only when it is used."""

from cognimem.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
