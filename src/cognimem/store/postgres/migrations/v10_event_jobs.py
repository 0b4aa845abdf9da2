"""PostgreSQL schema version 10: event jobs (the SQL both backends share)."""

from cognimem.store.migration_sql import POSTGRES, event_jobs

SQL = event_jobs(POSTGRES, unprocessed="NOT processed")
