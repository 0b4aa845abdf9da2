"""PostgreSQL schema migrations from version 11 on (``migrations.py`` holds the runner
and versions 1 to 10; the list is kept in two modules so each stays readable). A number
may exist on one backend only; the numbering is shared."""

from __future__ import annotations

from cognimem.store.postgres import item_changes, search_stats

MIGRATIONS_11_ON: list[tuple[int, str, str]] = [
    (
        11,
        "item_event_period",
        """
-- when what an item tells of happened, resolved at write time from its time expressions
-- against occurred_at ("last night" said on 4 May: 3 May); a read for a period finds an
-- item that occurred in it or tells of it. Items written before have none.
ALTER TABLE items ADD COLUMN event_start timestamptz;
ALTER TABLE items ADD COLUMN event_end timestamptz;
CREATE INDEX items_event_period ON items (tenant_id, namespace, user_id, event_start, event_end)
    WHERE event_start IS NOT NULL;
""",
    ),
    (
        12,
        "lifecycle_runs",
        """
-- lifecycle operations (consolidate, revise, ...) per user scope: the lease of the run
-- holding the scope (at most one per operation; a dead worker's lease runs out) and when
-- the last completed run began (the scheduler counts what is new since)
CREATE TABLE lifecycle_runs (
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_key text NOT NULL,
    op text NOT NULL,
    user_id text,
    job_id text,
    holder text,
    lease_token text,
    lease_until timestamptz,
    done_from timestamptz,
    last_job_id text,
    PRIMARY KEY (tenant_id, namespace, user_key, op)
);
CREATE INDEX items_recorded_kind ON items (kind, recorded_at) WHERE user_id IS NOT NULL;
""",
    ),
    (
        13,
        "item_novelty",
        """
-- the write gate's novelty of an item: 1 - its cosine similarity to the nearest item of
-- its scope stored before it (ingest/scoring.py); the forgetting policy and the rerank's
-- novelty signal read it. Items written before have none (NULL: not scored)
ALTER TABLE items ADD COLUMN novelty double precision;
""",
    ),
    (
        14,
        "item_usage",
        """
-- how each item was used (issue 17): loaded into a packet, cited by an answer, marked
-- correct or incorrect. A narrow table of counters, so a read's bulk update rewrites
-- these rows and not the wide item rows; the items' own counter columns keep the values
-- they had (copied here) and are no longer written
CREATE TABLE item_usage (
    item_id text PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    tenant_id text NOT NULL,
    access_count integer NOT NULL DEFAULT 0,
    loaded_count integer NOT NULL DEFAULT 0,
    cited_count integer NOT NULL DEFAULT 0,
    success_count integer NOT NULL DEFAULT 0,
    failure_count integer NOT NULL DEFAULT 0,
    last_accessed_at timestamptz
);
INSERT INTO item_usage (item_id, tenant_id, access_count, loaded_count, cited_count,
    success_count, failure_count, last_accessed_at)
SELECT id, tenant_id, access_count, loaded_count, cited_count, success_count,
    failure_count, last_accessed_at
FROM items
WHERE access_count > 0 OR loaded_count > 0 OR cited_count > 0 OR success_count > 0
    OR failure_count > 0 OR last_accessed_at IS NOT NULL;
""",
    ),
    (
        15,
        "procedures",
        """
-- procedural memory (see the SQLite migration of the same number)
CREATE TABLE procedures (
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    trigger_text text NOT NULL,
    trigger_terms jsonb NOT NULL,
    action jsonb NOT NULL,
    observed_count integer NOT NULL,
    trigger_count integer NOT NULL,
    confidence double precision NOT NULL,
    request_event_ids jsonb NOT NULL,
    source_event_ids jsonb NOT NULL,
    first_seen_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    revision integer NOT NULL DEFAULT 0
);
CREATE INDEX procedures_scope ON procedures (tenant_id, namespace, user_id, confidence);
""",
    ),
    # BM25's document count and total length per filterable group, kept by triggers
    (16, "item_search_stats", search_stats.MIGRATION),
    # change numbers of items: the in-process lexical index catches up by them
    (17, "item_change_seq", item_changes.MIGRATION),
    (
        18,
        "fact_provenance",
        """
-- how a fact was read beyond its evidence sentence: the pronouns and role words
-- ("She", "my sister") resolved to the person it is about, with why
ALTER TABLE facts ADD COLUMN provenance jsonb NOT NULL DEFAULT '{}';
""",
    ),
    (
        19,
        "fact_times",
        """
-- bi-temporal facts (see the SQLite migration of the same number)
ALTER TABLE facts ADD COLUMN recorded_to timestamptz;
UPDATE facts f SET valid_from = least(
    coalesce((SELECT min(e.occurred_at) FROM jsonb_array_elements_text(f.evidence_event_ids)
        AS j(id) JOIN events e ON e.id = j.id), f.recorded_at),
    coalesce(f.valid_to, f.recorded_at), f.recorded_at)
WHERE f.valid_from IS NULL AND f.status <> 'invalidated' AND NOT EXISTS (
    SELECT 1 FROM history h WHERE h.target_id = f.id AND h.action = 'created'
    AND h.after->>'status' NOT IN ('active', 'aging'));
UPDATE facts f SET valid_to = coalesce(s.valid_from, s.recorded_at)
FROM facts s
WHERE s.id = f.superseded_by AND f.status = 'superseded' AND f.valid_to IS NULL;
UPDATE facts f SET recorded_to = coalesce(
    (SELECT min(h.at) FROM history h WHERE h.target_id = f.id AND h.target_type = 'fact'
        AND h.after->>'status' NOT IN ('active', 'aging')),
    (SELECT greatest(s.recorded_at, f.recorded_at) FROM facts s WHERE s.id = f.superseded_by),
    f.recorded_at)
WHERE f.status NOT IN ('active', 'aging');
""",
    ),
    # number 20 is SQLite's alone (items_kind: PostgreSQL has had its kind index since
    # the first schema)
    (
        21,
        "api_key_levels",
        """
-- the level of memory a key may write (see the SQLite migration of the same number)
ALTER TABLE api_keys ADD COLUMN level text NOT NULL DEFAULT 'organisation';
ALTER TABLE api_keys ADD COLUMN user_id text;
ALTER TABLE api_keys ADD COLUMN agent_id text;
""",
    ),
    (
        22,
        "procedure_agents",
        """
-- procedures of an agent (see the SQLite migration of the same number)
ALTER TABLE procedures ADD COLUMN agent_id text;
CREATE INDEX procedures_agent ON procedures (tenant_id, namespace, agent_id, confidence)
    WHERE user_id IS NULL;
""",
    ),
]
