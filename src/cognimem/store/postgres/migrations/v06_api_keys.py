"""PostgreSQL schema version 6: api keys (the SQL both backends share)."""

from cognimem.store.migration_sql import POSTGRES, api_keys

SQL = api_keys(POSTGRES)
