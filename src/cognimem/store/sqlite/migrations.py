"""Numbered, recorded migrations of the SQLite schema.

Each migration runs once, in order, inside a transaction, and is recorded in
``schema_migrations``. Never edit a released migration: add the next number.
"""

from __future__ import annotations

MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "events_items_fts_cache",
        """
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE events (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    session_id TEXT,
    role TEXT NOT NULL,
    name TEXT,
    content TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    idempotency_key TEXT,
    external_id TEXT,
    occurred_at INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX events_idempotency ON events (tenant_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX events_dedupe ON events (tenant_id, content_hash, occurred_at);
CREATE INDEX events_scope ON events (tenant_id, namespace, user_id, occurred_at);

CREATE TABLE items (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    session_id TEXT,
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
    metadata TEXT NOT NULL DEFAULT '{}'
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
""",
    ),
    (
        2,
        "items_lexical_filter",
        """
-- lets lexical search check each FTS match's scope without reading the wide items row
-- (which carries the embedding): lexical step p50 at 10k items 9.6 -> 6.5 ms
CREATE INDEX items_lexical_filter ON items (rowid, tenant_id, namespace, user_id, agent_id,
    session_id, status, kind, occurred_at, id);
""",
    ),
    (
        3,
        "knowledge",
        """
-- 1 once the event's items (and facts) have been derived; async jobs skip done events
ALTER TABLE events ADD COLUMN processed INTEGER NOT NULL DEFAULT 1;
UPDATE events SET processed = 0
    WHERE NOT EXISTS (SELECT 1 FROM item_events ie WHERE ie.event_id = events.id);

CREATE TABLE entities (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    external_ref TEXT,
    properties TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL
);
CREATE INDEX entities_scope ON entities (tenant_id, namespace, user_id);

-- user_key: '' for aliases shared by the namespace, else 'u:' || user_id
CREATE TABLE aliases (
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_key TEXT NOT NULL,
    alias TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    source TEXT NOT NULL,
    confidence REAL NOT NULL,
    use_count INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (tenant_id, namespace, user_key, alias, entity_id)
) WITHOUT ROWID;
CREATE INDEX aliases_entity ON aliases (entity_id);

CREATE TABLE facts (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    session_id TEXT,
    key TEXT NOT NULL,
    subject TEXT NOT NULL,
    subject_entity_id TEXT,
    predicate TEXT NOT NULL,
    category TEXT NOT NULL,
    value TEXT NOT NULL,
    polarity INTEGER NOT NULL,
    object_entity_id TEXT,
    text TEXT NOT NULL,
    scope_tags TEXT NOT NULL DEFAULT '[]',
    confidence REAL NOT NULL,
    confidence_factors TEXT NOT NULL DEFAULT '{}',
    reinforcement_count INTEGER NOT NULL,
    last_validated_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    superseded_by TEXT,
    valid_from INTEGER,
    valid_to INTEGER,
    recorded_at INTEGER NOT NULL,
    evidence_item_ids TEXT NOT NULL DEFAULT '[]',
    evidence_event_ids TEXT NOT NULL DEFAULT '[]',
    importance REAL NOT NULL,
    revision INTEGER NOT NULL,
    embedding BLOB,
    embedding_model TEXT
);
CREATE INDEX facts_key ON facts (tenant_id, namespace, user_id, key, status);
CREATE INDEX facts_category ON facts (tenant_id, namespace, user_id, category, status);

CREATE TABLE relations (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    session_id TEXT,
    source_entity_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    target_entity_id TEXT NOT NULL,
    fact_id TEXT,
    confidence REAL NOT NULL,
    active INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX relations_source ON relations (tenant_id, namespace, source_entity_id);
CREATE INDEX relations_target ON relations (tenant_id, namespace, target_entity_id);
CREATE INDEX relations_fact ON relations (fact_id);

CREATE TABLE conflicts (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    session_id TEXT,
    key TEXT NOT NULL,
    fact_ids TEXT NOT NULL,
    strategy TEXT NOT NULL,
    status TEXT NOT NULL,
    winner_fact_id TEXT,
    created_at INTEGER NOT NULL,
    resolved_at INTEGER,
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX conflicts_scope ON conflicts (tenant_id, namespace, user_id, status);

CREATE TABLE history (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    at INTEGER NOT NULL,
    before TEXT,
    after TEXT,
    event_id TEXT
);
CREATE INDEX history_target ON history (target_id);
""",
    ),
    (
        4,
        "fact_versions",
        """
-- bumped in the transaction that changes a user's facts, so a process can tell whether
-- its cached copy of them (what a read scores) is stale
CREATE TABLE fact_versions (
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_key TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, namespace, user_key)
) WITHOUT ROWID;
""",
    ),
    (
        5,
        "relations_by_user",
        """
-- a read loads the user's whole graph (and the namespace's shared edges) newest first;
-- without this it scans every user's relations in the namespace
CREATE INDEX relations_user ON relations (tenant_id, namespace, user_id, created_at)
    WHERE active = 1;
""",
    ),
    (
        6,
        "api_keys",
        """
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
""",
    ),
    (
        7,
        "sessions",
        """
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
""",
    ),
    (
        8,
        "drop_items_lexical_filter",
        """
-- lexical search ranks over an index in process (store/sqlite/lexical.py) and no longer
-- joins FTS matches to items: the covering index only cost writes and space
DROP INDEX IF EXISTS items_lexical_filter;
""",
    ),
    (
        14,
        "event_jobs",
        """
-- the job that derives an unprocessed event's items, and its ingest profile (async
-- ingestion): a worker's sweep queues a job again from these alone, so a crash between
-- committing the events and queuing their job strands nothing
ALTER TABLE events ADD COLUMN job_id TEXT;
ALTER TABLE events ADD COLUMN profile TEXT;
CREATE INDEX events_unprocessed ON events (recorded_at) WHERE processed = 0;
CREATE INDEX events_unprocessed_job ON events (job_id) WHERE processed = 0;
""",
    ),
]
