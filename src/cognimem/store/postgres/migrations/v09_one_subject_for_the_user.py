"""PostgreSQL schema version 9: one subject for the user."""

SQL = """
-- a fact about the scope's user was keyed by the name its message carried (ada:value:diet)
-- beside 'user' for messages without one; it is always 'user' now. Per scope, the name
-- the user first spoke under becomes a user_stated alias of the user's entity (the
-- entity of that name is merged into it, or becomes it), the facts keyed by that name
-- move to 'user', and where that leaves two live facts under one key the older is
-- superseded by the newer. Names whose slug is not lower(name) with spaces as '_' are
-- left as they were. (The same steps as SQLite's migration 9.)
CREATE TEMP TABLE speaker_self ON COMMIT DROP AS
SELECT tenant_id, namespace, user_id,
       CASE WHEN user_id IS NULL THEN '' ELSE 'u:' || user_id END AS user_key,
       lower(trim(name)) COLLATE "C" AS alias, lower(replace(trim(name), ' ', '_')) AS subject,
       NULL::text AS named_id, NULL::text AS self_id
FROM (
    SELECT tenant_id, namespace, user_id, name, row_number() OVER (
        PARTITION BY tenant_id, namespace, user_id ORDER BY occurred_at, seq) AS n
    FROM events WHERE role = 'user' AND name IS NOT NULL AND trim(name) <> ''
) first_names
WHERE n = 1 AND lower(trim(name)) NOT IN ('user', 'i', 'me', 'myself');

UPDATE speaker_self s SET
    named_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = s.tenant_id
        AND a.namespace = s.namespace AND a.user_key = s.user_key AND a.alias = s.alias),
    self_id = (SELECT min(a.entity_id) FROM aliases a WHERE a.tenant_id = s.tenant_id
        AND a.namespace = s.namespace AND a.user_key = s.user_key AND a.alias = 'user');

-- no entity for the user yet: the one of their name becomes it
INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source, confidence,
    use_count)
SELECT tenant_id, namespace, user_key, 'user', named_id, 'exact', 1.0, 1 FROM speaker_self
WHERE self_id IS NULL AND named_id IS NOT NULL
ON CONFLICT DO NOTHING;
UPDATE speaker_self SET self_id = named_id WHERE self_id IS NULL;

-- both: the entity of the name merges into the user's
CREATE TEMP TABLE speaker_merged ON COMMIT DROP AS
SELECT named_id, self_id FROM speaker_self
WHERE named_id IS NOT NULL AND self_id IS NOT NULL AND named_id <> self_id;
UPDATE facts f SET subject_entity_id = m.self_id FROM speaker_merged m
WHERE f.subject_entity_id = m.named_id;
UPDATE facts f SET object_entity_id = m.self_id FROM speaker_merged m
WHERE f.object_entity_id = m.named_id;
UPDATE relations r SET source_entity_id = m.self_id FROM speaker_merged m
WHERE r.source_entity_id = m.named_id;
UPDATE relations r SET target_entity_id = m.self_id FROM speaker_merged m
WHERE r.target_entity_id = m.named_id;
INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source, confidence,
    use_count)
SELECT a.tenant_id, a.namespace, a.user_key, a.alias, m.self_id, a.source, a.confidence,
    a.use_count
FROM aliases a JOIN speaker_merged m ON a.entity_id = m.named_id
ON CONFLICT DO NOTHING;
DELETE FROM aliases WHERE entity_id IN (SELECT named_id FROM speaker_merged);
DELETE FROM entities WHERE id IN (SELECT named_id FROM speaker_merged);

-- the name is the user's, and the user's entity is marked
INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source, confidence,
    use_count)
SELECT tenant_id, namespace, user_key, alias, self_id, 'user_stated', 1.0, 1 FROM speaker_self
WHERE self_id IS NOT NULL
ON CONFLICT DO NOTHING;
UPDATE aliases a SET source = 'user_stated' FROM speaker_self s
WHERE s.tenant_id = a.tenant_id AND s.namespace = a.namespace AND s.user_key = a.user_key
    AND s.alias = a.alias AND s.self_id = a.entity_id;
UPDATE entities SET properties = properties || '{"self": true}'::jsonb
WHERE id IN (SELECT self_id FROM speaker_self);

-- the facts keyed by the name move to 'user'
CREATE TEMP TABLE speaker_moved ON COMMIT DROP AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id,
    ('user' || substr(f.key, length(f.subject) + 1)) COLLATE "C" AS key
FROM facts f JOIN speaker_self s ON f.tenant_id = s.tenant_id AND f.namespace = s.namespace
    AND f.user_id IS NOT DISTINCT FROM s.user_id AND f.subject = s.subject;
UPDATE facts SET subject = 'user', key = 'user' || substr(key, length(subject) + 1),
    revision = revision + 1
WHERE id IN (SELECT id FROM speaker_moved);

-- two live facts under one key now: the newer supersedes the older
CREATE TEMP TABLE speaker_ranked ON COMMIT DROP AS
SELECT f.id, f.tenant_id, f.namespace, f.user_id, f.key,
    coalesce(f.valid_from, f.recorded_at) AS since,
    row_number() OVER (PARTITION BY f.tenant_id, f.namespace, f.user_id, f.key
        ORDER BY coalesce(f.valid_from, f.recorded_at) DESC, f.recorded_at DESC,
        f.seq DESC) AS n
FROM facts f
WHERE f.status IN ('active', 'aging') AND EXISTS (SELECT 1 FROM speaker_moved m
    WHERE m.tenant_id = f.tenant_id AND m.namespace = f.namespace
    AND m.user_id IS NOT DISTINCT FROM f.user_id AND m.key = f.key);
UPDATE facts f SET status = 'superseded', superseded_by = w.id,
    valid_to = coalesce(f.valid_to, w.since), revision = f.revision + 1
FROM speaker_ranked r JOIN speaker_ranked w ON w.tenant_id = r.tenant_id
    AND w.namespace = r.namespace AND w.user_id IS NOT DISTINCT FROM r.user_id
    AND w.key = r.key AND w.n = 1
WHERE r.id = f.id AND r.n > 1;
UPDATE relations SET active = false
WHERE fact_id IN (SELECT id FROM speaker_ranked WHERE n > 1);
"""
