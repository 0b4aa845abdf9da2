"""PostgreSQL schema version 19: fact times."""

SQL = """
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
"""
