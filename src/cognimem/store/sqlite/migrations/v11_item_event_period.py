"""SQLite schema version 11: item event period."""

SQL = """
-- when what an item tells of happened, resolved at write time from its time expressions
-- against occurred_at ("last night" said on 4 May: 3 May); a read for a period finds an
-- item that occurred in it or tells of it. Items written before have none.
ALTER TABLE items ADD COLUMN event_start INTEGER;
ALTER TABLE items ADD COLUMN event_end INTEGER;
CREATE INDEX items_event_period ON items (tenant_id, namespace, user_id, event_start, event_end)
    WHERE event_start IS NOT NULL;
"""
