"""PostgreSQL schema version 6: api keys."""

SQL = """
-- HTTP API keys: the SHA-256 of the secret, never the secret itself
CREATE TABLE api_keys (
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    name text NOT NULL DEFAULT '',
    key_hash text NOT NULL UNIQUE,
    prefix text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz,
    revoked_at timestamptz,
    rate_limit_per_minute integer
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
"""
