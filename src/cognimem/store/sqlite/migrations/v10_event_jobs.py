"""SQLite schema version 10: event jobs (the SQL both backends share)."""

from cognimem.store.migration_sql import SQLITE, event_jobs

SQL = event_jobs(SQLITE, unprocessed="processed = 0")
