"""Change numbers of items, so each process can keep a namespace's lexical index in
memory (``lexical.py``) and bring it up to date with one cheap query.

- An inserted row, or a row whose searched columns change (search text, status, kind,
  agent, session, times, or its tenant, namespace or user), takes the next number of
  the ``item_change_seq`` sequence into ``items.change_seq``, after taking a
  transaction advisory lock on its (tenant, namespace), held to commit: within a
  namespace the numbers commit in order. So a reader whose snapshot holds ``max
  (change_seq) = v`` of a namespace has every row changed at or before ``v``, and
  ``change_seq > v`` later finds exactly what changed since (an index on (tenant,
  namespace, change_seq) answers both).
- ``item_removals`` counts, per (tenant, namespace), how often rows left it: deleted,
  or moved to another tenant, namespace or user (a statement trigger adds one per
  namespace per statement); ``TRUNCATE items`` counts one everywhere. A reader seeing a
  new count loads the namespace's entries again.

Writers of one namespace take turns from their first item change to their commit.
Rows written before this migration have change number 0.
"""

from __future__ import annotations

# the first key of the two-key advisory locks on a namespace (the int8 locks of
# ``locks.py`` are another lock space: they never collide)
LOCK_CLASS = 17

_SEARCHED = (
    "search_text",
    "status",
    "kind",
    "agent_id",
    "session_id",
    "occurred_at",
    "event_start",
    "event_end",
)
_PLACE = ("tenant_id", "namespace", "user_id")


def _changed(columns: tuple[str, ...]) -> str:
    return " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in columns)


MIGRATION = f"""
CREATE SEQUENCE item_change_seq;
ALTER TABLE items ADD COLUMN change_seq bigint NOT NULL DEFAULT 0;
CREATE INDEX items_change_seq ON items (tenant_id, namespace, change_seq);
CREATE TABLE item_removals (
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    removals bigint NOT NULL,
    PRIMARY KEY (tenant_id, namespace)
);

CREATE FUNCTION cognimem_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND ({_changed(_PLACE)}) THEN
        INSERT INTO item_removals AS r (tenant_id, namespace, removals)
        VALUES (OLD.tenant_id, OLD.namespace, 1)
        ON CONFLICT (tenant_id, namespace) DO UPDATE SET removals = r.removals + 1;
    END IF;
    PERFORM pg_advisory_xact_lock({LOCK_CLASS}, hashtext(NEW.tenant_id || '/' || NEW.namespace));
    NEW.change_seq := nextval('item_change_seq');
    RETURN NEW;
END $$;

CREATE FUNCTION cognimem_items_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO item_removals AS r (tenant_id, namespace, removals)
    SELECT tenant_id, namespace, 1 FROM old_rows
    GROUP BY tenant_id, namespace ORDER BY tenant_id, namespace
    ON CONFLICT (tenant_id, namespace) DO UPDATE SET removals = r.removals + 1;
    RETURN NULL;
END $$;

CREATE FUNCTION cognimem_items_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE item_removals SET removals = removals + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER items_change_insert BEFORE INSERT ON items
    FOR EACH ROW EXECUTE FUNCTION cognimem_item_changed();
CREATE TRIGGER items_change_update BEFORE UPDATE ON items
    FOR EACH ROW WHEN ({_changed(_SEARCHED + _PLACE)})
    EXECUTE FUNCTION cognimem_item_changed();
CREATE TRIGGER items_change_delete AFTER DELETE ON items
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION cognimem_items_removed();
CREATE TRIGGER items_change_truncate AFTER TRUNCATE ON items
    FOR EACH STATEMENT EXECUTE FUNCTION cognimem_items_truncated();
"""
