"""PostgreSQL schema version 14: item usage."""

SQL = """
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
"""
