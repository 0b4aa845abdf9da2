"""SQLite schema migrations from version 11 on (``migrations.py`` holds the runner
and versions 1 to 10; the list is kept in two modules so each stays readable). A number
may exist on one backend only; the numbering is shared."""

from __future__ import annotations

MIGRATIONS_11_ON: list[tuple[int, str, str]] = [
    (
        11,
        "item_event_period",
        """
-- when what an item tells of happened, resolved at write time from its time expressions
-- against occurred_at ("last night" said on 4 May: 3 May); a read for a period finds an
-- item that occurred in it or tells of it. Items written before have none.
ALTER TABLE items ADD COLUMN event_start INTEGER;
ALTER TABLE items ADD COLUMN event_end INTEGER;
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
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_key TEXT NOT NULL,
    op TEXT NOT NULL,
    user_id TEXT,
    job_id TEXT,
    holder TEXT,
    lease_token TEXT,
    lease_until INTEGER,
    done_from INTEGER,
    last_job_id TEXT,
    PRIMARY KEY (tenant_id, namespace, user_key, op)
) WITHOUT ROWID;
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
ALTER TABLE items ADD COLUMN novelty REAL;
-- the forgetting policy counts what a scope's summaries state (store/sqlite/retention.py)
CREATE INDEX items_summaries ON items (tenant_id, namespace, user_id, status)
    WHERE kind = 'summary';
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
    item_id TEXT PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    tenant_id TEXT NOT NULL,
    access_count INTEGER NOT NULL DEFAULT 0,
    loaded_count INTEGER NOT NULL DEFAULT 0,
    cited_count INTEGER NOT NULL DEFAULT 0,
    success_count INTEGER NOT NULL DEFAULT 0,
    failure_count INTEGER NOT NULL DEFAULT 0,
    last_accessed_at INTEGER
) WITHOUT ROWID;
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
-- procedural memory: request -> action patterns learnt from a user's turns and
-- tool-discovery writes (lifecycle operation `procedures`); JSON lists of event ids
-- are the provenance, one request per observation
CREATE TABLE procedures (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    trigger_text TEXT NOT NULL,
    trigger_terms TEXT NOT NULL,
    action TEXT NOT NULL,
    observed_count INTEGER NOT NULL,
    trigger_count INTEGER NOT NULL,
    confidence REAL NOT NULL,
    request_event_ids TEXT NOT NULL,
    source_event_ids TEXT NOT NULL,
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX procedures_scope ON procedures (tenant_id, namespace, user_id, confidence);
""",
    ),
    (
        18,
        "fact_provenance",
        """
-- how a fact was read beyond its evidence sentence: the pronouns and role words
-- ("She", "my sister") resolved to the person it is about, with why
ALTER TABLE facts ADD COLUMN provenance TEXT NOT NULL DEFAULT '{}';
""",
    ),
    (
        19,
        "fact_times",
        """
-- bi-temporal facts (issue 31): recorded_to is when the memory learnt that a fact no
-- longer holds (superseded, ended, invalidated; NULL while live); valid_from and
-- valid_to are filled for the rows written before they were, from what is known
ALTER TABLE facts ADD COLUMN recorded_to INTEGER;
-- a fact held from when it was first said (its earliest evidence event), else from
-- when it was recorded; a fact stored as past from the start keeps no start
UPDATE facts SET valid_from = min(
    coalesce((SELECT min(e.occurred_at) FROM json_each(facts.evidence_event_ids) j
        JOIN events e ON e.id = j.value), recorded_at),
    coalesce(valid_to, recorded_at), recorded_at)
WHERE valid_from IS NULL AND status != 'invalidated' AND NOT EXISTS (
    SELECT 1 FROM history h WHERE h.target_id = facts.id AND h.action = 'created'
    AND json_extract(h.after, '$.status') NOT IN ('active', 'aging'));
-- a superseded fact ended where the fact that superseded it started
UPDATE facts SET valid_to = (SELECT coalesce(s.valid_from, s.recorded_at) FROM facts s
    WHERE s.id = facts.superseded_by)
WHERE status = 'superseded' AND valid_to IS NULL AND superseded_by IS NOT NULL;
-- learnt to have ended at its first history entry that says so, else when the fact
-- that superseded it was recorded, else when it was recorded
UPDATE facts SET recorded_to = coalesce(
    (SELECT min(h.at) FROM history h WHERE h.target_id = facts.id
        AND h.target_type = 'fact'
        AND json_extract(h.after, '$.status') NOT IN ('active', 'aging')),
    (SELECT max(s.recorded_at, facts.recorded_at) FROM facts s
        WHERE s.id = facts.superseded_by),
    recorded_at)
WHERE status NOT IN ('active', 'aging');
-- every process's cached facts are stale
UPDATE fact_versions SET version = version + 1;
""",
    ),
    (
        20,
        "items_kind",
        """
-- listings by kind: a read's mandates and guardrails (the scope's own and the
-- organisation's, one OR over user_id that no index can seek) are found among the
-- namespace's few rows of those kinds, not among every row of the user (items_scope
-- has no kind); with user_id after status, a user's listing by kind seeks it too
CREATE INDEX items_kind ON items (tenant_id, namespace, kind, status, user_id, occurred_at);
""",
    ),
    (
        21,
        "api_key_levels",
        """
-- the level of memory a key may write (issue 33): keys made before levels write every
-- level of their tenant, as they did, so they default to the organisation level
ALTER TABLE api_keys ADD COLUMN level TEXT NOT NULL DEFAULT 'organisation';
ALTER TABLE api_keys ADD COLUMN user_id TEXT;
ALTER TABLE api_keys ADD COLUMN agent_id TEXT;
""",
    ),
    (
        22,
        "procedure_agents",
        """
-- procedures learnt from an agent's turns belong to the agent (issue 33): no user, the
-- agent's id; every user's read made with that agent matches them
ALTER TABLE procedures ADD COLUMN agent_id TEXT;
CREATE INDEX procedures_agent ON procedures (tenant_id, namespace, agent_id, confidence)
    WHERE user_id IS NULL;
""",
    ),
]
