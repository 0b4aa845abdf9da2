"""SQLite schema version 14: item usage (the SQL both backends share)."""

from cognimem.store.migration_sql import SQLITE, item_usage

SQL = item_usage(SQLITE)
