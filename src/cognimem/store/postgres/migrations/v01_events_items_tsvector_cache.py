"""PostgreSQL schema version 1: events items tsvector cache."""

from cognimem.store.migration_sql import POSTGRES

SQL = f"""
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE meta (
    key text PRIMARY KEY,
    value text NOT NULL
);

-- `seq` plays the part of SQLite's rowid: insertion order, for stable tie-breaking
CREATE TABLE events (
    {POSTGRES.scoped_row}
    role text NOT NULL,
    name text,
    content text NOT NULL,
    content_hash text NOT NULL,
    idempotency_key text,
    external_id text,
    occurred_at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{{}}'
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
    {POSTGRES.scoped_row}
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
    metadata jsonb NOT NULL DEFAULT '{{}}',
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
"""
