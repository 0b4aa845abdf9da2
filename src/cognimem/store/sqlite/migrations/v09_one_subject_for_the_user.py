"""SQLite schema version 9: one subject for the user."""

SQL = """
-- a fact about the scope's user was keyed by the name its message carried (ada:value:diet)
-- beside 'user' for messages without one; it is always 'user' now. Per scope, the name
-- the user first spoke under becomes a user_stated alias of the user's entity (the
-- entity of that name is merged into it, or becomes it), the facts keyed by that name
-- move to 'user', and where that leaves two live facts under one key the older is
-- superseded by the newer. Names whose slug is not lower(name) with spaces as '_' are
-- left as they were.
CREATE TEMP TABLE speaker_self AS
SELECT tenant_id, namespace, user_id,
       CASE WHEN user_id IS NULL THEN '' ELSE 'u:' || user_id END AS user_key,
       lower(trim(name)) AS alias, lower(replace(trim(name), ' ', '_')) AS subject,
       NULL AS named_id, NULL AS self_id
FROM (
    SELECT tenant_id, namespace, user_id, name, row_number() OVER (
        PARTITION BY tenant_id, namespace, user_id ORDER BY occurred_at, rowid) AS n
    FROM events WHERE role = 'user' AND name IS NOT NULL AND trim(name) <> ''
) WHERE n = 1 AND lower(trim(name)) NOT IN ('user', 'i', 'me', 'myself');

UPDATE speaker_self SET
    named_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = speaker_self.tenant_id
        AND a.namespace = speaker_self.namespace AND a.user_key = speaker_self.user_key
        AND a.alias = speaker_self.alias),
    self_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = speaker_self.tenant_id
        AND a.namespace = speaker_self.namespace AND a.user_key = speaker_self.user_key
        AND a.alias = 'user');

-- no entity for the user yet: the one of their name becomes it
INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,
    confidence, use_count)
SELECT tenant_id, namespace, user_key, 'user', named_id, 'exact', 1.0, 1 FROM speaker_self
WHERE self_id IS NULL AND named_id IS NOT NULL;
UPDATE speaker_self SET self_id = named_id WHERE self_id IS NULL;

-- both: the entity of the name merges into the user's
CREATE TEMP TABLE speaker_merged AS
SELECT named_id, self_id FROM speaker_self
WHERE named_id IS NOT NULL AND self_id IS NOT NULL AND named_id <> self_id;
UPDATE facts SET subject_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = facts.subject_entity_id)
WHERE subject_entity_id IN (SELECT named_id FROM speaker_merged);
UPDATE facts SET object_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = facts.object_entity_id)
WHERE object_entity_id IN (SELECT named_id FROM speaker_merged);
UPDATE relations SET source_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = relations.source_entity_id)
WHERE source_entity_id IN (SELECT named_id FROM speaker_merged);
UPDATE relations SET target_entity_id = (SELECT self_id FROM speaker_merged
    WHERE named_id = relations.target_entity_id)
WHERE target_entity_id IN (SELECT named_id FROM speaker_merged);
INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,
    confidence, use_count)
SELECT a.tenant_id, a.namespace, a.user_key, a.alias, m.self_id, a.source, a.confidence,
    a.use_count
FROM aliases a JOIN speaker_merged m ON a.entity_id = m.named_id;
DELETE FROM aliases WHERE entity_id IN (SELECT named_id FROM speaker_merged);
DELETE FROM entities WHERE id IN (SELECT named_id FROM speaker_merged);

-- the name is the user's, and the user's entity is marked
INSERT OR IGNORE INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source,
    confidence, use_count)
SELECT tenant_id, namespace, user_key, alias, self_id, 'user_stated', 1.0, 1 FROM speaker_self
WHERE self_id IS NOT NULL;
UPDATE aliases SET source = 'user_stated' WHERE EXISTS (SELECT 1 FROM speaker_self s
    WHERE s.tenant_id = aliases.tenant_id AND s.namespace = aliases.namespace
    AND s.user_key = aliases.user_key AND s.alias = aliases.alias
    AND s.self_id = aliases.entity_id);
UPDATE entities SET properties = json_set(properties, '$.self', json('true'))
WHERE id IN (SELECT self_id FROM speaker_self);

-- the facts keyed by the name move to 'user'
CREATE TEMP TABLE speaker_moved AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id,
    'user' || substr(f.key, length(f.subject) + 1) AS key
FROM facts f JOIN speaker_self s ON f.tenant_id = s.tenant_id AND f.namespace = s.namespace
    AND f.user_id IS s.user_id AND f.subject = s.subject;
UPDATE facts SET subject = 'user', key = 'user' || substr(key, length(subject) + 1),
    revision = revision + 1
WHERE id IN (SELECT id FROM speaker_moved);

-- two live facts under one key now: the newer supersedes the older
CREATE TEMP TABLE speaker_ranked AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id, f.key,
    coalesce(f.valid_from, f.recorded_at) AS since,
    row_number() OVER (PARTITION BY f.tenant_id, f.namespace, f.user_id, f.key
        ORDER BY coalesce(f.valid_from, f.recorded_at) DESC, f.recorded_at DESC,
        f.rowid DESC) AS n
FROM facts f
WHERE f.status IN ('active', 'aging') AND EXISTS (SELECT 1 FROM speaker_moved m
    WHERE m.tenant_id = f.tenant_id AND m.namespace = f.namespace
    AND m.user_id IS f.user_id AND m.key = f.key);
UPDATE facts SET status = 'superseded',
    superseded_by = (SELECT w.id FROM speaker_ranked r JOIN speaker_ranked w
        ON w.tenant_id = r.tenant_id AND w.namespace = r.namespace
        AND w.user_id IS r.user_id AND w.key = r.key AND w.n = 1 WHERE r.id = facts.id),
    valid_to = coalesce(valid_to, (SELECT w.since FROM speaker_ranked r JOIN speaker_ranked w
        ON w.tenant_id = r.tenant_id AND w.namespace = r.namespace
        AND w.user_id IS r.user_id AND w.key = r.key AND w.n = 1 WHERE r.id = facts.id)),
    revision = revision + 1
WHERE id IN (SELECT id FROM speaker_ranked WHERE n > 1);
UPDATE relations SET active = 0 WHERE fact_id IN (SELECT id FROM speaker_ranked WHERE n > 1);

-- every process's cached facts and graphs are stale
UPDATE fact_versions SET version = version + 1;
DROP TABLE speaker_ranked;
DROP TABLE speaker_moved;
DROP TABLE speaker_merged;
DROP TABLE speaker_self;
"""
