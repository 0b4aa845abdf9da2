"""Storage backends behind one ``Store`` protocol, the composition of the roles in
``store/protocols.py`` and ``store/admin_protocols.py``."""

from __future__ import annotations

from cognimem.errors import UsageError
from cognimem.store.admin_protocols import (
    EmbeddingStore,
    JobStore,
    KeyStore,
    RetentionStore,
    SessionStore,
    TransferStore,
)
from cognimem.store.cache_budget import DEFAULT_MAX_MB
from cognimem.store.protocols import (
    Database,
    EditStore,
    ItemStore,
    KnowledgeStore,
    Store,
    UsageStore,
)
from cognimem.store.types import Candidate, ItemFilter, PendingItem, PendingMessage


def open_store(
    url: str,
    *,
    cache_max_bytes: int | None = DEFAULT_MAX_MB << 20,
    vector_index_min_rows: int | None = 20_000,
    vector_index_retry_s: float = 300.0,
) -> Store:
    """Pick a backend from a database URL: ``sqlite:///path`` or ``postgresql://...``;
    ``cache_max_bytes`` caps its in-process copies of scopes (``cache_budget.py``);
    on SQLite a scope of at least ``vector_index_min_rows`` embedded items is searched
    through an HNSW index (None: always exactly; ``sqlite/ann.py``), built again
    ``vector_index_retry_s`` after it failed (doubled per further failure). PostgreSQL
    searches through pgvector's HNSW index at any size."""
    if url.startswith("sqlite:") or "://" not in url:
        from cognimem.store.sqlite import SQLiteStore

        return SQLiteStore.from_url(
            url,
            cache_max_bytes=cache_max_bytes,
            vector_index_min_rows=vector_index_min_rows,
            vector_index_retry_s=vector_index_retry_s,
        )
    scheme = url.split("://", 1)[0]
    if scheme.split("+", 1)[0] in ("postgresql", "postgres"):
        from cognimem.store.postgres import PostgresStore  # asyncpg is imported on open

        return PostgresStore.from_url(url, cache_max_bytes=cache_max_bytes)
    raise UsageError(
        f"unsupported database URL scheme {scheme!r}: use sqlite:///path/to/file.db "
        "or postgresql://user@host/db"
    )


__all__ = [
    "Candidate",
    "Database",
    "EditStore",
    "EmbeddingStore",
    "ItemFilter",
    "ItemStore",
    "JobStore",
    "KeyStore",
    "KnowledgeStore",
    "PendingItem",
    "PendingMessage",
    "RetentionStore",
    "SessionStore",
    "Store",
    "TransferStore",
    "UsageStore",
    "open_store",
]
