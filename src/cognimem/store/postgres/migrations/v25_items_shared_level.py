"""PostgreSQL schema version 25: an index of the live rows of no user, for the scheduler.

The lifecycle scheduler's query (``store/lifecycle_due.py``) counts, on every tick, each
shared level's new active items of every kind but ``summary``: before this index it
read every row of no user through ``items_scope`` (PostgreSQL: a bitmap heap scan;
SQLite: a search over every tenant and namespace), ~9 ms on PostgreSQL and ~21 ms of
CPU on SQLite at 68k items of which 6,800 are of no user. This partial index holds
exactly the rows that branch reads, with the columns it groups and compares, so the
branch is an index-only scan (~2 ms on both). Rows of a user are not in it: a user's
write pays nothing.
"""

SQL = """
CREATE INDEX items_shared_level ON items (tenant_id, namespace, agent_id, recorded_at)
    WHERE user_id IS NULL AND status = 'active' AND kind <> 'summary';
"""
