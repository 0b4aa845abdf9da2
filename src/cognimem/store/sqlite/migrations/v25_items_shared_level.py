"""SQLite schema version 25: an index of the live rows of no user, for the scheduler
(the same on both backends; the why is beside the SQL)."""

from cognimem.store.migration_sql import ITEMS_SHARED_LEVEL

SQL = ITEMS_SHARED_LEVEL
