"""Change numbers per (tenant, namespace), so each process can keep a scope's lexical
index in memory (``lexical.py``) and bring it up to date with a cheap check.

``item_scope_versions`` holds, per (tenant, namespace), ``version``: the last change
number handed out, and ``removals``: how many times rows left the namespace. Triggers on
``items`` keep them:

- an inserted row, or a row whose searched columns change (search text, status, kind,
  agent, session, times), gets the next change number in ``items.change_seq``; it is
  taken under the version row's lock, held to commit, so within a namespace the change
  numbers commit in order: a reader that has seen number ``v`` has seen every row
  changed at or before ``v``, and ``change_seq > v`` finds exactly what is new;
- a deleted row, or a row moved to another tenant, namespace or user, counts a removal
  of its old namespace (a reader reloads that namespace's entries);
- ``TRUNCATE items`` counts a removal everywhere.

Writers of one namespace take turns on its version row from their first item change to
their commit (the statistics triggers of migration 16 already made writers of one user
scope take turns). Rows written before this migration have change number 0.
"""

from __future__ import annotations

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
CREATE TABLE item_scope_versions (
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    version bigint NOT NULL DEFAULT 0,
    removals bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, namespace)
);
ALTER TABLE items ADD COLUMN change_seq bigint NOT NULL DEFAULT 0;
CREATE INDEX items_change_seq ON items (tenant_id, namespace, change_seq);

CREATE FUNCTION cognimem_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND ({_changed(_PLACE)}) THEN
        INSERT INTO item_scope_versions AS v (tenant_id, namespace, removals)
        VALUES (OLD.tenant_id, OLD.namespace, 1)
        ON CONFLICT (tenant_id, namespace) DO UPDATE SET removals = v.removals + 1;
    END IF;
    INSERT INTO item_scope_versions AS v (tenant_id, namespace, version)
    VALUES (NEW.tenant_id, NEW.namespace, 1)
    ON CONFLICT (tenant_id, namespace) DO UPDATE SET version = v.version + 1
    RETURNING v.version INTO NEW.change_seq;
    RETURN NEW;
END $$;

CREATE FUNCTION cognimem_items_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO item_scope_versions AS v (tenant_id, namespace, removals)
    SELECT tenant_id, namespace, 1 FROM old_rows
    GROUP BY tenant_id, namespace ORDER BY tenant_id, namespace
    ON CONFLICT (tenant_id, namespace) DO UPDATE SET removals = v.removals + 1;
    RETURN NULL;
END $$;

CREATE FUNCTION cognimem_items_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE item_scope_versions SET removals = removals + 1;
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
