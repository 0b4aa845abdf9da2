"""SQLite schema version 19: fact times."""

SQL = """
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
"""
