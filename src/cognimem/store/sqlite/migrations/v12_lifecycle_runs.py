"""SQLite schema version 12: lifecycle runs (the SQL both backends share)."""

from cognimem.store.migration_sql import SQLITE, lifecycle_runs

SQL = lifecycle_runs(SQLITE)
