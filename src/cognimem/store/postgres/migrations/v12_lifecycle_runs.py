"""PostgreSQL schema version 12: lifecycle runs (the SQL both backends share)."""

from cognimem.store.migration_sql import POSTGRES, lifecycle_runs

SQL = lifecycle_runs(POSTGRES)
