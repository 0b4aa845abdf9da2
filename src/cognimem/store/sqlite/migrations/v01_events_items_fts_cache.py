"""SQLite schema version 1: events items fts cache."""

from cognimem.store.migration_sql import SQLITE

SQL = f"""
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE events (
    {SQLITE.scoped_row}
    role TEXT NOT NULL,
    name TEXT,
    content TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    idempotency_key TEXT,
    external_id TEXT,
    occurred_at INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{{}}'
);
CREATE UNIQUE INDEX events_idempotency ON events (tenant_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX events_dedupe ON events (tenant_id, content_hash, occurred_at);
CREATE INDEX events_scope ON events (tenant_id, namespace, user_id, occurred_at);

CREATE TABLE items (
    {SQLITE.scoped_row}
    text TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT,
    entities TEXT NOT NULL DEFAULT '[]',
    source_event_ids TEXT NOT NULL DEFAULT '[]',
    external_ids TEXT NOT NULL DEFAULT '[]',
    author TEXT,
    occurred_at INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    importance REAL NOT NULL DEFAULT 0.5,
    confidence REAL NOT NULL DEFAULT 1.0,
    tier TEXT NOT NULL DEFAULT 'medium',
    status TEXT NOT NULL DEFAULT 'active',
    token_count INTEGER NOT NULL DEFAULT 0,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_accessed_at INTEGER,
    loaded_count INTEGER NOT NULL DEFAULT 0,
    cited_count INTEGER NOT NULL DEFAULT 0,
    success_count INTEGER NOT NULL DEFAULT 0,
    failure_count INTEGER NOT NULL DEFAULT 0,
    consolidated INTEGER NOT NULL DEFAULT 0,
    supersedes TEXT,
    superseded_by TEXT,
    embedding BLOB,
    embedding_model TEXT,
    metadata TEXT NOT NULL DEFAULT '{{}}'
);
CREATE INDEX items_scope ON items (tenant_id, namespace, user_id, status, occurred_at);
CREATE INDEX items_key ON items (tenant_id, namespace, user_id, key) WHERE key IS NOT NULL;

CREATE TABLE item_events (
    item_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    PRIMARY KEY (item_id, event_id)
) WITHOUT ROWID;
CREATE INDEX item_events_event ON item_events (event_id);

-- rowid of items_fts = rowid of items
CREATE VIRTUAL TABLE items_fts USING fts5 (search_text, tokenize = 'porter unicode61');

-- bumped in the same transaction as any change to a scope's items, so every process
-- can tell whether its cached vector matrix is stale; `mutations` counts changes other
-- than appends (a cache that saw the same mutations only needs the new rows)
CREATE TABLE scope_versions (
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_key TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    mutations INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, namespace, user_key)
) WITHOUT ROWID;

CREATE TABLE embedding_cache (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
"""
