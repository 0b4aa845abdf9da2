"""SQLite schema version 6: api keys."""

SQL = """
-- HTTP API keys: the SHA-256 of the secret, never the secret itself
CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER,
    rate_limit_per_minute INTEGER
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
"""
