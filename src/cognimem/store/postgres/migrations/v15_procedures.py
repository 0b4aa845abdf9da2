"""PostgreSQL schema version 15: procedures."""

SQL = """
-- procedural memory (see the SQLite migration of the same number)
CREATE TABLE procedures (
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    trigger_text text NOT NULL,
    trigger_terms jsonb NOT NULL,
    action jsonb NOT NULL,
    observed_count integer NOT NULL,
    trigger_count integer NOT NULL,
    confidence double precision NOT NULL,
    request_event_ids jsonb NOT NULL,
    source_event_ids jsonb NOT NULL,
    first_seen_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    revision integer NOT NULL DEFAULT 0
);
CREATE INDEX procedures_scope ON procedures (tenant_id, namespace, user_id, confidence);
"""
