"""SQLite schema version 13: item novelty."""

SQL = """
-- the write gate's novelty of an item: 1 - its cosine similarity to the nearest item of
-- its scope stored before it (ingest/scoring.py); the forgetting policy and the rerank's
-- novelty signal read it. Items written before have none (NULL: not scored)
ALTER TABLE items ADD COLUMN novelty REAL;
-- the forgetting policy counts what a scope's summaries state (store/sqlite/retention.py)
CREATE INDEX items_summaries ON items (tenant_id, namespace, user_id, status)
    WHERE kind = 'summary';
"""
