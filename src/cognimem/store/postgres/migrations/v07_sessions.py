"""PostgreSQL schema version 7: sessions."""

SQL = """
-- conversation sessions; optional (a write may name a session never created), but a
-- closed one refuses writes
CREATE TABLE sessions (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    id text NOT NULL,
    user_id text,
    agent_id text,
    status text NOT NULL,
    created_at timestamptz NOT NULL,
    closed_at timestamptz,
    metadata jsonb NOT NULL DEFAULT '{}',
    PRIMARY KEY (tenant_id, namespace, id)
);
CREATE INDEX sessions_user ON sessions (tenant_id, namespace, user_id, created_at);
"""
