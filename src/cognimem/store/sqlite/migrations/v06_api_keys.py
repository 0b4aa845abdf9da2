"""SQLite schema version 6: api keys (the SQL both backends share)."""

from cognimem.store.migration_sql import SQLITE, api_keys

SQL = api_keys(SQLITE)
