"""PostgreSQL schema version 3: knowledge."""

from cognimem.store.migration_sql import POSTGRES

SQL = f"""
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
    properties jsonb NOT NULL DEFAULT '{{}}',
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
    {POSTGRES.scoped_row}
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
    confidence_factors jsonb NOT NULL DEFAULT '{{}}',
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
    {POSTGRES.scoped_row}
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
    {POSTGRES.scoped_row}
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
"""
