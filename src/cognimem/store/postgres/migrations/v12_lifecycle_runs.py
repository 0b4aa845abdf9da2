"""PostgreSQL schema version 12: lifecycle runs."""

SQL = """
-- lifecycle operations (consolidate, revise, ...) per user scope: the lease of the run
-- holding the scope (at most one per operation; a dead worker's lease runs out) and when
-- the last completed run began (the scheduler counts what is new since)
CREATE TABLE lifecycle_runs (
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_key text NOT NULL,
    op text NOT NULL,
    user_id text,
    job_id text,
    holder text,
    lease_token text,
    lease_until timestamptz,
    done_from timestamptz,
    last_job_id text,
    PRIMARY KEY (tenant_id, namespace, user_key, op)
);
CREATE INDEX items_recorded_kind ON items (kind, recorded_at) WHERE user_id IS NOT NULL;
"""
