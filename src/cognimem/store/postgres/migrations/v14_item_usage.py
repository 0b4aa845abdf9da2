"""PostgreSQL schema version 14: item usage (the SQL both backends share)."""

from cognimem.store.migration_sql import POSTGRES, item_usage

SQL = item_usage(POSTGRES)
