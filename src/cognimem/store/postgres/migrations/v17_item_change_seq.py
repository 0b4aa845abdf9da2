"""PostgreSQL schema version 17: item change seq."""

from __future__ import annotations

from cognimem.store.postgres import item_changes

SQL = item_changes.MIGRATION
