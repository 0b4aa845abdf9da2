"""PostgreSQL schema version 16: item search stats."""

from __future__ import annotations

from cognimem.store.postgres import search_stats

SQL = search_stats.MIGRATION
