"""SQLite schema version 15: procedures."""

SQL = """
-- procedural memory: request -> action patterns learnt from a user's turns and
-- tool-discovery writes (lifecycle operation `procedures`); JSON lists of event ids
-- are the provenance, one request per observation
CREATE TABLE procedures (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    trigger_text TEXT NOT NULL,
    trigger_terms TEXT NOT NULL,
    action TEXT NOT NULL,
    observed_count INTEGER NOT NULL,
    trigger_count INTEGER NOT NULL,
    confidence REAL NOT NULL,
    request_event_ids TEXT NOT NULL,
    source_event_ids TEXT NOT NULL,
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX procedures_scope ON procedures (tenant_id, namespace, user_id, confidence);
"""
