"""SQLite schema version 12: lifecycle runs."""

SQL = """
-- lifecycle operations (consolidate, revise, ...) per user scope: the lease of the run
-- holding the scope (at most one per operation; a dead worker's lease runs out) and when
-- the last completed run began (the scheduler counts what is new since)
CREATE TABLE lifecycle_runs (
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_key TEXT NOT NULL,
    op TEXT NOT NULL,
    user_id TEXT,
    job_id TEXT,
    holder TEXT,
    lease_token TEXT,
    lease_until INTEGER,
    done_from INTEGER,
    last_job_id TEXT,
    PRIMARY KEY (tenant_id, namespace, user_key, op)
) WITHOUT ROWID;
CREATE INDEX items_recorded_kind ON items (kind, recorded_at) WHERE user_id IS NOT NULL;
"""
