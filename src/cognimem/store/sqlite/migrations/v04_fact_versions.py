"""SQLite schema version 4: fact versions."""

SQL = """
-- bumped in the transaction that changes a user's facts, so a process can tell whether
-- its cached copy of them (what a read scores) is stale
CREATE TABLE fact_versions (
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_key TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, namespace, user_key)
) WITHOUT ROWID;
"""
