"""Numbered, recorded migrations of the SQLite schema.

Each migration runs once, in order, inside a transaction, and is recorded in
``schema_migrations``. Never edit a released migration: add the next number.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from cognimem.errors import SchemaMismatch
from cognimem.store.sqlite.migrations_11_on import MIGRATIONS_11_ON


def migrate(conn: sqlite3.Connection) -> None:
    """Apply the migrations ``conn``'s database lacks, each in its own transaction."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    applied = {int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations")}
    known = {version for version, _, _ in MIGRATIONS}
    if applied - known:
        raise SchemaMismatch(
            f"the database has schema versions {sorted(applied - known)} that this cognimem "
            "does not know; upgrade cognimem"
        )
    # in version order, whatever the list's: a number may be skipped (one backend's
    # alone) and two branches may append theirs in either order
    for version, name, sql in sorted(MIGRATIONS):
        if version in applied:
            continue
        # executescript commits implicitly, so run the statements one by one in our tx
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (version,)
            ).fetchone():
                conn.execute("ROLLBACK")  # another process applied it meanwhile
                continue
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (version, name, datetime.now(UTC).isoformat()),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def _statements(sql: str) -> list[str]:
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


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
        9,
        "one_subject_for_the_user",
        """
-- a fact about the scope's user was keyed by the name its message carried (ada:value:diet)
-- beside 'user' for messages without one; it is always 'user' now. Per scope, the name
-- the user first spoke under becomes a user_stated alias of the user's entity (the
-- entity of that name is merged into it, or becomes it), the facts keyed by that name
-- move to 'user', and where that leaves two live facts under one key the older is
-- superseded by the newer. Names whose slug is not lower(name) with spaces as '_' are
-- left as they were.
CREATE TEMP TABLE speaker_self AS
SELECT tenant_id, namespace, user_id,
       CASE WHEN user_id IS NULL THEN '' ELSE 'u:' || user_id END AS user_key,
       lower(trim(name)) AS alias, lower(replace(trim(name), ' ', '_')) AS subject,
       NULL AS named_id, NULL AS self_id
FROM (
    SELECT tenant_id, namespace, user_id, name, row_number() OVER (
        PARTITION BY tenant_id, namespace, user_id ORDER BY occurred_at, rowid) AS n
    FROM events WHERE role = 'user' AND name IS NOT NULL AND trim(name) <> ''
) WHERE n = 1 AND lower(trim(name)) NOT IN ('user', 'i', 'me', 'myself');

UPDATE speaker_self SET
    named_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = speaker_self.tenant_id
        AND a.namespace = speaker_self.namespace AND a.user_key = speaker_self.user_key
        AND a.alias = speaker_self.alias),
    self_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = speaker_self.tenant_id
        AND a.namespace = speaker_self.namespace AND a.user_key = speaker_self.user_key
        AND a.alias = 'user');

-- no entity for the user yet: the one of their name becomes it
INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,
    confidence, use_count)
SELECT tenant_id, namespace, user_key, 'user', named_id, 'exact', 1.0, 1 FROM speaker_self
WHERE self_id IS NULL AND named_id IS NOT NULL;
UPDATE speaker_self SET self_id = named_id WHERE self_id IS NULL;

-- both: the entity of the name merges into the user's
CREATE TEMP TABLE speaker_merged AS
SELECT named_id, self_id FROM speaker_self
WHERE named_id IS NOT NULL AND self_id IS NOT NULL AND named_id <> self_id;
UPDATE facts SET subject_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = facts.subject_entity_id)
WHERE subject_entity_id IN (SELECT named_id FROM speaker_merged);
UPDATE facts SET object_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = facts.object_entity_id)
WHERE object_entity_id IN (SELECT named_id FROM speaker_merged);
UPDATE relations SET source_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = relations.source_entity_id)
WHERE source_entity_id IN (SELECT named_id FROM speaker_merged);
UPDATE relations SET target_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = relations.target_entity_id)
WHERE target_entity_id IN (SELECT named_id FROM speaker_merged);
INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,
    confidence, use_count)
SELECT a.tenant_id, a.namespace, a.user_key, a.alias, m.self_id, a.source, a.confidence,
    a.use_count
FROM aliases a JOIN speaker_merged m ON a.entity_id = m.named_id;
DELETE FROM aliases WHERE entity_id IN (SELECT named_id FROM speaker_merged);
DELETE FROM entities WHERE id IN (SELECT named_id FROM speaker_merged);

-- the name is the user's, and the user's entity is marked
INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,
    confidence, use_count)
SELECT tenant_id, namespace, user_key, alias, self_id, 'user_stated', 1.0, 1 FROM speaker_self
WHERE self_id IS NOT NULL;
UPDATE aliases SET source = 'user_stated' WHERE EXISTS (SELECT 1 FROM speaker_self s
    WHERE s.tenant_id = aliases.tenant_id AND s.namespace = aliases.namespace
    AND s.user_key = aliases.user_key AND s.alias = aliases.alias
    AND s.self_id = aliases.entity_id);
UPDATE entities SET properties = json_set(properties, '$.self', json('true'))
WHERE id IN (SELECT self_id FROM speaker_self);

-- the facts keyed by the name move to 'user'
CREATE TEMP TABLE speaker_moved AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id,
    'user' || substr(f.key, length(f.subject) + 1) AS key
FROM facts f JOIN speaker_self s ON f.tenant_id = s.tenant_id AND f.namespace = s.namespace
    AND f.user_id IS s.user_id AND f.subject = s.subject;
UPDATE facts SET subject = 'user', key = 'user' || substr(key, length(subject) + 1),
    revision = revision + 1
WHERE id IN (SELECT id FROM speaker_moved);

-- two live facts under one key now: the newer supersedes the older
CREATE TEMP TABLE speaker_ranked AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id, f.key,
    coalesce(f.valid_from, f.recorded_at) AS since,
    row_number() OVER (PARTITION BY f.tenant_id, f.namespace, f.user_id, f.key
        ORDER BY coalesce(f.valid_from, f.recorded_at) DESC, f.recorded_at DESC,
        f.rowid DESC) AS n
FROM facts f
WHERE f.status IN ('active', 'aging') AND EXISTS (SELECT 1 FROM speaker_moved m
    WHERE m.tenant_id = f.tenant_id AND m.namespace = f.namespace
    AND m.user_id IS f.user_id AND m.key = f.key);
UPDATE facts SET status = 'superseded',
    superseded_by = (SELECT w.id FROM speaker_ranked r JOIN speaker_ranked w
        ON w.tenant_id = r.tenant_id AND w.namespace = r.namespace
        AND w.user_id IS r.user_id AND w.key = r.key AND w.n = 1 WHERE r.id = facts.id),
    valid_to = coalesce(valid_to, (SELECT w.since FROM speaker_ranked r JOIN speaker_ranked w
        ON w.tenant_id = r.tenant_id AND w.namespace = r.namespace
        AND w.user_id IS r.user_id AND w.key = r.key AND w.n = 1 WHERE r.id = facts.id)),
    revision = revision + 1
WHERE id IN (SELECT id FROM speaker_ranked WHERE n > 1);
UPDATE relations SET active = 0 WHERE fact_id IN (SELECT id FROM speaker_ranked WHERE n > 1);

-- every process's cached facts and graphs are stale
UPDATE fact_versions SET version = version + 1;
DROP TABLE speaker_ranked;
DROP TABLE speaker_moved;
DROP TABLE speaker_merged;
DROP TABLE speaker_self;
""",
    ),
    (
        10,
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
    *MIGRATIONS_11_ON,
]
