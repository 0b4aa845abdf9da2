"""SQL that the two backends' migrations write alike, spelled in each one's types.

A released migration never changes what it runs: each piece here renders, byte for byte,
the SQL its migrations held when they were released (a schema dump of a fresh SQLite
and PostgreSQL database before and after is the check). Only what both backends write
the same but for a type's name lives here; a migration whose steps differ between the
backends keeps its SQL in its own module.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    """How one backend spells the types and the table shapes the migrations share."""

    text: str
    integer: str
    time: str  # a point in time: microseconds on SQLite
    keyed_table_end: str  # closes a table looked up by its primary key alone
    # the columns every scoped row opens with: insertion order (PostgreSQL's seq plays
    # the part of SQLite's rowid, for stable tie-breaking), its id and its scope
    scoped_row: str


POSTGRES = Dialect(
    text="text",
    integer="integer",
    time="timestamptz",
    keyed_table_end=")",
    scoped_row="""seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    agent_id text,
    session_id text,""",
)
SQLITE = Dialect(
    text="TEXT",
    integer="INTEGER",
    time="INTEGER",
    keyed_table_end=") WITHOUT ROWID",
    scoped_row="""rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    session_id TEXT,""",
)


def api_keys(d: Dialect) -> str:
    """Version 6."""
    return f"""
-- HTTP API keys: the SHA-256 of the secret, never the secret itself
CREATE TABLE api_keys (
    id {d.text} PRIMARY KEY,
    tenant_id {d.text} NOT NULL,
    name {d.text} NOT NULL DEFAULT '',
    key_hash {d.text} NOT NULL UNIQUE,
    prefix {d.text} NOT NULL,
    created_at {d.time} NOT NULL,
    expires_at {d.time},
    revoked_at {d.time},
    rate_limit_per_minute {d.integer}
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
"""


def event_jobs(d: Dialect, unprocessed: str) -> str:
    """Version 10; ``unprocessed``: the backend's test for an event not yet processed."""
    return f"""
-- the job that derives an unprocessed event's items, and its ingest profile (async
-- ingestion): a worker's sweep queues a job again from these alone, so a crash between
-- committing the events and queuing their job strands nothing
ALTER TABLE events ADD COLUMN job_id {d.text};
ALTER TABLE events ADD COLUMN profile {d.text};
CREATE INDEX events_unprocessed ON events (recorded_at) WHERE {unprocessed};
CREATE INDEX events_unprocessed_job ON events (job_id) WHERE {unprocessed};
"""


def item_event_period(d: Dialect) -> str:
    """Version 11."""
    return f"""
-- when what an item tells of happened, resolved at write time from its time expressions
-- against occurred_at ("last night" said on 4 May: 3 May); a read for a period finds an
-- item that occurred in it or tells of it. Items written before have none.
ALTER TABLE items ADD COLUMN event_start {d.time};
ALTER TABLE items ADD COLUMN event_end {d.time};
CREATE INDEX items_event_period ON items (tenant_id, namespace, user_id, event_start, event_end)
    WHERE event_start IS NOT NULL;
"""


def lifecycle_runs(d: Dialect) -> str:
    """Version 12."""
    return f"""
-- lifecycle operations (consolidate, revise, ...) per user scope: the lease of the run
-- holding the scope (at most one per operation; a dead worker's lease runs out) and when
-- the last completed run began (the scheduler counts what is new since)
CREATE TABLE lifecycle_runs (
    tenant_id {d.text} NOT NULL,
    namespace {d.text} NOT NULL,
    user_key {d.text} NOT NULL,
    op {d.text} NOT NULL,
    user_id {d.text},
    job_id {d.text},
    holder {d.text},
    lease_token {d.text},
    lease_until {d.time},
    done_from {d.time},
    last_job_id {d.text},
    PRIMARY KEY (tenant_id, namespace, user_key, op)
{d.keyed_table_end};
CREATE INDEX items_recorded_kind ON items (kind, recorded_at) WHERE user_id IS NOT NULL;
"""


def item_usage(d: Dialect) -> str:
    """Version 14."""
    return f"""
-- how each item was used (issue 17): loaded into a packet, cited by an answer, marked
-- correct or incorrect. A narrow table of counters, so a read's bulk update rewrites
-- these rows and not the wide item rows; the items' own counter columns keep the values
-- they had (copied here) and are no longer written
CREATE TABLE item_usage (
    item_id {d.text} PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    tenant_id {d.text} NOT NULL,
    access_count {d.integer} NOT NULL DEFAULT 0,
    loaded_count {d.integer} NOT NULL DEFAULT 0,
    cited_count {d.integer} NOT NULL DEFAULT 0,
    success_count {d.integer} NOT NULL DEFAULT 0,
    failure_count {d.integer} NOT NULL DEFAULT 0,
    last_accessed_at {d.time}
{d.keyed_table_end};
INSERT INTO item_usage (item_id, tenant_id, access_count, loaded_count, cited_count,
    success_count, failure_count, last_accessed_at)
SELECT id, tenant_id, access_count, loaded_count, cited_count, success_count,
    failure_count, last_accessed_at
FROM items
WHERE access_count > 0 OR loaded_count > 0 OR cited_count > 0 OR success_count > 0
    OR failure_count > 0 OR last_accessed_at IS NOT NULL;
"""


# Version 25, the same on both backends. The lifecycle scheduler's query
# (``store/lifecycle_due.py``) counts, on every tick, each shared level's new active items
# of every kind but ``summary``: before this index it read every row of no user through
# ``items_scope`` (PostgreSQL: a bitmap heap scan; SQLite: a search over every tenant and
# namespace), ~9 ms on PostgreSQL and ~21 ms of CPU on SQLite at 68k items of which
# 6,800 are of no user. This partial index holds exactly the rows that branch reads, with
# the columns it groups and compares, so the branch is an index-only scan (~2 ms on
# both). Rows of a user are not in it: a user's write pays nothing.
ITEMS_SHARED_LEVEL = """
CREATE INDEX items_shared_level ON items (tenant_id, namespace, agent_id, recorded_at)
    WHERE user_id IS NULL AND status = 'active' AND kind <> 'summary';
"""
