"""Numbered, recorded migrations of the PostgreSQL schema, and the code that runs them.

Each migration runs once, in order, inside a transaction, and is recorded in
``schema_migrations``. A session advisory lock makes concurrent starts safe: the first
process migrates, the others wait and then find nothing left to do. Never edit a
released migration: add the next number.

The tables mean what their SQLite namesakes mean (``store/sqlite/migrations.py``), with
PostgreSQL types: ``timestamptz`` for times, ``jsonb`` for JSON, ``tsvector`` for the
lexical index and pgvector's ``vector`` for embeddings. The embedding column has no
dimension because none is known yet; the HNSW index for it is created by the first
write that carries a vector (see ``vector_index_sql``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from cognimem.errors import SchemaMismatch
from cognimem.store.postgres.migrations_11_on import MIGRATIONS_11_ON

if TYPE_CHECKING:
    from asyncpg import Connection

# pg_advisory_lock keys (advisory locks are per database); any fixed 64-bit numbers do
MIGRATION_LOCK = 0x636F676E696D0001
VECTOR_INDEX_LOCK = 0x636F676E696D0002

# meta key that records the dimension the HNSW index was built for
VECTOR_DIM_META = "pg_vector_index_dim"

MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "events_items_tsvector_cache",
        """
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE meta (
    key text PRIMARY KEY,
    value text NOT NULL
);

-- `seq` plays the part of SQLite's rowid: insertion order, for stable tie-breaking
CREATE TABLE events (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    agent_id text,
    session_id text,
    role text NOT NULL,
    name text,
    content text NOT NULL,
    content_hash text NOT NULL,
    idempotency_key text,
    external_id text,
    occurred_at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}'
);
-- decides idempotency races between processes
CREATE UNIQUE INDEX events_idempotency ON events (tenant_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
-- the dedupe lookup: equality on everything selective, then the time window
CREATE INDEX events_dedupe ON events (tenant_id, content_hash, namespace, role, occurred_at);
CREATE INDEX events_scope ON events (tenant_id, namespace, user_id, session_id, occurred_at);

-- tokens in a text as the 'simple' configuration counts them: BM25's document length
CREATE FUNCTION cognimem_token_count(text) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(sum(cardinality(positions)), 0)::integer
          FROM unnest(to_tsvector('simple'::regconfig, $1)) $$;

CREATE TABLE items (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    agent_id text,
    session_id text,
    text text NOT NULL,
    kind text NOT NULL,
    key text,
    entities jsonb NOT NULL DEFAULT '[]',
    source_event_ids jsonb NOT NULL DEFAULT '[]',
    external_ids jsonb NOT NULL DEFAULT '[]',
    author text,
    occurred_at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL,
    importance double precision NOT NULL DEFAULT 0.5,
    confidence double precision NOT NULL DEFAULT 1.0,
    tier text NOT NULL DEFAULT 'medium',
    status text NOT NULL DEFAULT 'active',
    token_count integer NOT NULL DEFAULT 0,
    access_count integer NOT NULL DEFAULT 0,
    last_accessed_at timestamptz,
    loaded_count integer NOT NULL DEFAULT 0,
    cited_count integer NOT NULL DEFAULT 0,
    success_count integer NOT NULL DEFAULT 0,
    failure_count integer NOT NULL DEFAULT 0,
    consolidated boolean NOT NULL DEFAULT false,
    supersedes text,
    superseded_by text,
    embedding vector,
    embedding_model text,
    metadata jsonb NOT NULL DEFAULT '{}',
    search_text text NOT NULL DEFAULT '',
    search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED,
    search_len integer GENERATED ALWAYS AS (cognimem_token_count(search_text)) STORED
);
-- one index per way a search can narrow the scope; tenant + namespace always filter
CREATE INDEX items_scope ON items (tenant_id, namespace, user_id, status, occurred_at);
CREATE INDEX items_session ON items (tenant_id, namespace, session_id, occurred_at)
    WHERE session_id IS NOT NULL;
CREATE INDEX items_agent ON items (tenant_id, namespace, agent_id, occurred_at)
    WHERE agent_id IS NOT NULL;
CREATE INDEX items_kind ON items (tenant_id, namespace, kind, status, occurred_at);
CREATE INDEX items_key ON items (tenant_id, namespace, user_id, key) WHERE key IS NOT NULL;
CREATE INDEX items_search ON items USING gin (search_tsv);

CREATE TABLE item_events (
    item_id text NOT NULL,
    event_id text NOT NULL,
    PRIMARY KEY (item_id, event_id)
);
CREATE INDEX item_events_event ON item_events (event_id);

CREATE TABLE embedding_cache (
    model text NOT NULL,
    text_hash text NOT NULL,
    dim integer NOT NULL,
    vector bytea NOT NULL,  -- float32, little-endian, as in the SQLite store
    created_at timestamptz NOT NULL,
    PRIMARY KEY (model, text_hash)
);
""",
    ),
    # number 2 is SQLite's alone (an FTS index hint); the knowledge layer is 3 on both
    # backends, so one schema version means the same tables everywhere
    (
        3,
        "knowledge",
        """
-- true once the event's items (and facts) have been derived; async jobs skip done events
ALTER TABLE events ADD COLUMN processed boolean NOT NULL DEFAULT true;
UPDATE events SET processed = false
    WHERE NOT EXISTS (SELECT 1 FROM item_events ie WHERE ie.event_id = events.id);

CREATE TABLE entities (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    name text NOT NULL,
    type text NOT NULL,
    external_ref text,
    properties jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL
);
CREATE INDEX entities_scope ON entities (tenant_id, namespace, user_id);

-- user_key: '' for aliases shared by the namespace, else 'u:' || user_id (a NULL could
-- not be part of the primary key the upsert relies on)
CREATE TABLE aliases (
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_key text NOT NULL,
    alias text COLLATE "C" NOT NULL,
    entity_id text NOT NULL,
    source text NOT NULL,
    confidence double precision NOT NULL,
    use_count integer NOT NULL DEFAULT 1,
    PRIMARY KEY (tenant_id, namespace, user_key, alias, entity_id)
);
CREATE INDEX aliases_entity ON aliases (entity_id);

-- keys compare bytewise (COLLATE "C"), so the range [key || ':', key || ';') is exactly
-- the multi-valued keys below a base key, whatever the database's collation
CREATE TABLE facts (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    agent_id text,
    session_id text,
    key text COLLATE "C" NOT NULL,
    subject text NOT NULL,
    subject_entity_id text,
    predicate text NOT NULL,
    category text NOT NULL,
    value text NOT NULL,
    polarity boolean NOT NULL,
    object_entity_id text,
    text text NOT NULL,
    scope_tags jsonb NOT NULL DEFAULT '[]',
    confidence double precision NOT NULL,
    confidence_factors jsonb NOT NULL DEFAULT '{}',
    reinforcement_count integer NOT NULL,
    last_validated_at timestamptz NOT NULL,
    status text NOT NULL,
    superseded_by text,
    valid_from timestamptz,
    valid_to timestamptz,
    recorded_at timestamptz NOT NULL,
    evidence_item_ids jsonb NOT NULL DEFAULT '[]',
    evidence_event_ids jsonb NOT NULL DEFAULT '[]',
    importance double precision NOT NULL,
    revision integer NOT NULL,
    embedding vector,
    embedding_model text
);
-- key lookups (exact and prefix) and the read-set check; then a user's facts by time
CREATE INDEX facts_key ON facts (tenant_id, namespace, key, user_id, status);
CREATE INDEX facts_user ON facts (tenant_id, namespace, user_id, recorded_at);

CREATE TABLE relations (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    agent_id text,
    session_id text,
    source_entity_id text NOT NULL,
    relation text NOT NULL,
    target_entity_id text NOT NULL,
    fact_id text,
    confidence double precision NOT NULL,
    active boolean NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX relations_source ON relations (tenant_id, namespace, source_entity_id)
    WHERE active;
CREATE INDEX relations_target ON relations (tenant_id, namespace, target_entity_id)
    WHERE active;
CREATE INDEX relations_fact ON relations (fact_id);

CREATE TABLE conflicts (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    agent_id text,
    session_id text,
    key text NOT NULL,
    fact_ids jsonb NOT NULL,
    strategy text NOT NULL,
    status text NOT NULL,
    winner_fact_id text,
    created_at timestamptz NOT NULL,
    resolved_at timestamptz,
    note text NOT NULL DEFAULT ''
);
CREATE INDEX conflicts_scope ON conflicts (tenant_id, namespace, user_id, status);

CREATE TABLE history (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    target_type text NOT NULL,
    target_id text NOT NULL,
    action text NOT NULL,
    actor text NOT NULL,
    at timestamptz NOT NULL,
    before jsonb,
    after jsonb,
    event_id text
);
CREATE INDEX history_target ON history (target_id);
""",
    ),
    # number 4 is SQLite's alone (its per-process fact cache's version counter)
    (
        5,
        "relations_by_user",
        """
-- a read loads the user's whole graph (and the namespace's shared edges) newest first;
-- without this it scans every user's relations in the namespace
CREATE INDEX relations_user ON relations (tenant_id, namespace, user_id, created_at)
    WHERE active;
""",
    ),
    (
        6,
        "api_keys",
        """
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
""",
    ),
    (
        7,
        "sessions",
        """
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
-- left as they were. (The same steps as SQLite's migration 9.)
CREATE TEMP TABLE speaker_self ON COMMIT DROP AS
SELECT tenant_id, namespace, user_id,
       CASE WHEN user_id IS NULL THEN '' ELSE 'u:' || user_id END AS user_key,
       lower(trim(name)) COLLATE "C" AS alias, lower(replace(trim(name), ' ', '_')) AS subject,
       NULL::text AS named_id, NULL::text AS self_id
FROM (
    SELECT tenant_id, namespace, user_id, name, row_number() OVER (
        PARTITION BY tenant_id, namespace, user_id ORDER BY occurred_at, seq) AS n
    FROM events WHERE role = 'user' AND name IS NOT NULL AND trim(name) <> ''
) first_names
WHERE n = 1 AND lower(trim(name)) NOT IN ('user', 'i', 'me', 'myself');

UPDATE speaker_self s SET
    named_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = s.tenant_id
        AND a.namespace = s.namespace AND a.user_key = s.user_key AND a.alias = s.alias),
    self_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = s.tenant_id
        AND a.namespace = s.namespace AND a.user_key = s.user_key AND a.alias = 'user');

-- no entity for the user yet: the one of their name becomes it
INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source, confidence,
    use_count)
SELECT tenant_id, namespace, user_key, 'user', named_id, 'exact', 1.0, 1 FROM speaker_self
WHERE self_id IS NULL AND named_id IS NOT NULL
ON CONFLICT DO NOTHING;
UPDATE speaker_self SET self_id = named_id WHERE self_id IS NULL;

-- both: the entity of the name merges into the user's
CREATE TEMP TABLE speaker_merged ON COMMIT DROP AS
SELECT named_id, self_id FROM speaker_self
WHERE named_id IS NOT NULL AND self_id IS NOT NULL AND named_id <> self_id;
UPDATE facts f SET subject_entity_id = m.self_id FROM speaker_merged m
WHERE f.subject_entity_id = m.named_id;
UPDATE facts f SET object_entity_id = m.self_id FROM speaker_merged m
WHERE f.object_entity_id = m.named_id;
UPDATE relations r SET source_entity_id = m.self_id FROM speaker_merged m
WHERE r.source_entity_id = m.named_id;
UPDATE relations r SET target_entity_id = m.self_id FROM speaker_merged m
WHERE r.target_entity_id = m.named_id;
INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source, confidence,
    use_count)
SELECT a.tenant_id, a.namespace, a.user_key, a.alias, m.self_id, a.source, a.confidence,
    a.use_count
FROM aliases a JOIN speaker_merged m ON a.entity_id = m.named_id
ON CONFLICT DO NOTHING;
DELETE FROM aliases WHERE entity_id IN (SELECT named_id FROM speaker_merged);
DELETE FROM entities WHERE id IN (SELECT named_id FROM speaker_merged);

-- the name is the user's, and the user's entity is marked
INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source, confidence,
    use_count)
SELECT tenant_id, namespace, user_key, alias, self_id, 'user_stated', 1.0, 1 FROM speaker_self
WHERE self_id IS NOT NULL
ON CONFLICT DO NOTHING;
UPDATE aliases a SET source = 'user_stated' FROM speaker_self s
WHERE s.tenant_id = a.tenant_id AND s.namespace = a.namespace AND s.user_key = a.user_key
    AND s.alias = a.alias AND s.self_id = a.entity_id;
UPDATE entities SET properties = properties || '{"self": true}'::jsonb
WHERE id IN (SELECT self_id FROM speaker_self);

-- the facts keyed by the name move to 'user'
CREATE TEMP TABLE speaker_moved ON COMMIT DROP AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id,
    ('user' || substr(f.key, length(f.subject) + 1)) COLLATE "C" AS key
FROM facts f JOIN speaker_self s ON f.tenant_id = s.tenant_id AND f.namespace = s.namespace
    AND f.user_id IS NOT DISTINCT FROM s.user_id AND f.subject = s.subject;
UPDATE facts SET subject = 'user', key = 'user' || substr(key, length(subject) + 1),
    revision = revision + 1
WHERE id IN (SELECT id FROM speaker_moved);

-- two live facts under one key now: the newer supersedes the older
CREATE TEMP TABLE speaker_ranked ON COMMIT DROP AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id, f.key,
    coalesce(f.valid_from, f.recorded_at) AS since,
    row_number() OVER (PARTITION BY f.tenant_id, f.namespace, f.user_id, f.key
        ORDER BY coalesce(f.valid_from, f.recorded_at) DESC, f.recorded_at DESC,
        f.seq DESC) AS n
FROM facts f
WHERE f.status IN ('active', 'aging') AND EXISTS (SELECT 1 FROM speaker_moved m
    WHERE m.tenant_id = f.tenant_id AND m.namespace = f.namespace
    AND m.user_id IS NOT DISTINCT FROM f.user_id AND m.key = f.key);
UPDATE facts f SET status = 'superseded', superseded_by = w.id,
    valid_to = coalesce(f.valid_to, w.since), revision = f.revision + 1
FROM speaker_ranked r JOIN speaker_ranked w ON w.tenant_id = r.tenant_id
    AND w.namespace = r.namespace AND w.user_id IS NOT DISTINCT FROM r.user_id
    AND w.key = r.key AND w.n = 1
WHERE r.id = f.id AND r.n > 1;
UPDATE relations SET active = false
WHERE fact_id IN (SELECT id FROM speaker_ranked WHERE n > 1);
""",
    ),
    (
        10,
        "event_jobs",
        """
-- the job that derives an unprocessed event's items, and its ingest profile (async
-- ingestion): a worker's sweep queues a job again from these alone, so a crash between
-- committing the events and queuing their job strands nothing
ALTER TABLE events ADD COLUMN job_id text;
ALTER TABLE events ADD COLUMN profile text;
CREATE INDEX events_unprocessed ON events (recorded_at) WHERE NOT processed;
CREATE INDEX events_unprocessed_job ON events (job_id) WHERE NOT processed;
""",
    ),
    *MIGRATIONS_11_ON,
]


def vector_index_name(dim: int) -> str:
    return f"items_embedding_hnsw_{int(dim)}"


def index_type(dim: int) -> str | None:
    """The type the HNSW index stores vectors of this dimension as, if it can hold them.

    pgvector's HNSW takes ``vector`` up to 2,000 dimensions and ``halfvec`` up to 4,000;
    larger embeddings are searched exactly.
    """
    if dim <= 2000:
        return "vector"
    if dim <= 4000:
        return "halfvec"
    return None


def vector_index_sql(dim: int, m: int, ef_construction: int) -> str | None:
    """The HNSW index over the embeddings of one dimension (None: too many dimensions).

    An expression index on ``embedding::vector(dim)``, partial on that dimension, so the
    untyped column can still hold other dimensions (they are searched exactly, never
    indexed). Queries use the index when they repeat both the cast and the predicate.
    """
    d = int(dim)
    kind = index_type(d)
    if kind is None:
        return None
    return (
        f"CREATE INDEX IF NOT EXISTS {vector_index_name(d)} ON items"
        f" USING hnsw ((embedding::{kind}({d})) {kind}_cosine_ops)"
        f" WITH (m = {int(m)}, ef_construction = {int(ef_construction)})"
        f" WHERE vector_dims(embedding) = {d}"
    )


async def migrate(conn: Connection) -> int:
    """Apply pending migrations; returns the schema version. Safe to run concurrently."""
    # a session lock: if anything below fails the caller closes the connection, which
    # releases it
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)"
    )
    applied = {int(r[0]) for r in await conn.fetch("SELECT version FROM schema_migrations")}
    known = {version for version, _, _ in MIGRATIONS}
    if applied - known:
        raise SchemaMismatch(
            f"the database has schema versions {sorted(applied - known)} that this "
            "cognimem does not know; upgrade cognimem"
        )
    # in version order, whatever the list's: a number may be skipped (one backend's
    # alone) and two branches may append theirs in either order
    for version, name, sql in sorted(MIGRATIONS):
        if version in applied:
            continue
        async with conn.transaction():
            await conn.execute(sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                version,
                name,
                datetime.now(UTC),
            )
    await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    return max(known | applied)
