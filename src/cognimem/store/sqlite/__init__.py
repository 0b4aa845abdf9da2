"""The embedded SQLite store."""

from cognimem.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
