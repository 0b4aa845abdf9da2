"""SQLite schema version 3: knowledge."""

from cognimem.store.migration_sql import SQLITE

SQL = f"""
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
    properties TEXT NOT NULL DEFAULT '{{}}',
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
    {SQLITE.scoped_row}
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
    confidence_factors TEXT NOT NULL DEFAULT '{{}}',
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
    {SQLITE.scoped_row}
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
    {SQLITE.scoped_row}
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
"""
