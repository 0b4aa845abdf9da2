"""PostgreSQL schema version 11: item event period (the SQL both backends share)."""

from cognimem.store.migration_sql import POSTGRES, item_event_period

SQL = item_event_period(POSTGRES)
