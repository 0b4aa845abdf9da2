"""SQLite schema version 11: item event period (the SQL both backends share)."""

from cognimem.store.migration_sql import SQLITE, item_event_period

SQL = item_event_period(SQLITE)
