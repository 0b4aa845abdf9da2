"""SQLite schema version 7: sessions."""

SQL = """
-- conversation sessions; optional (a write may name a session never created), but a
-- closed one refuses writes
CREATE TABLE sessions (
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    id TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    closed_at INTEGER,
    metadata TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (tenant_id, namespace, id)
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions (tenant_id, namespace, user_id, created_at);
"""
