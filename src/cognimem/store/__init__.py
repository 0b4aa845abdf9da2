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
from cognimem.store.protocols import (
    Database,
    EditStore,
    ItemStore,
    KnowledgeStore,
    Store,
    UsageStore,
)
from cognimem.store.types import Candidate, ItemFilter, PendingItem, PendingMessage


def open_store(url: str) -> Store:
    """Pick a backend from a database URL: ``sqlite:///path`` or ``postgresql://...``."""
    if url.startswith("sqlite:") or "://" not in url:
        from cognimem.store.sqlite import SQLiteStore

        return SQLiteStore.from_url(url)
    scheme = url.split("://", 1)[0]
    if scheme.split("+", 1)[0] in ("postgresql", "postgres"):
        from cognimem.store.postgres import PostgresStore  # asyncpg is imported on open

        return PostgresStore.from_url(url)
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
