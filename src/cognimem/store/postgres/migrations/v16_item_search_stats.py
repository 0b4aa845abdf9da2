"""PostgreSQL schema version 16: item search stats.

BM25's statistics kept by the database: triggers on ``items`` kept, per group of the
columns a filter can name without a time bound, the row count and total length, so a
SQL lexical search summed its filter's groups instead of counting rows. Migration 17
moved lexical search into an in-process index that counts its own statistics; no read
used this table again, and migration 23 drops it with its triggers and the ``search_tsv``
and ``search_len`` columns. A released migration: its SQL must not change.
"""

from __future__ import annotations

_COLUMNS = (
    "tenant_id",
    "namespace",
    "user_id",
    "agent_id",
    "session_id",
    "kind",
    "status",
    "consolidated",
)
_GROUP = ", ".join(_COLUMNS)


def _upsert(deltas: str) -> str:
    """Add ``deltas`` (rows of the group columns, ``d`` rows and ``l`` length) to the
    statistics, one upsert per group that changes, in key order."""
    return f"""
    INSERT INTO item_search_stats AS s ({_GROUP}, docs, total_len)
    SELECT {_GROUP}, sum(d), sum(l) FROM ({deltas}) AS delta
    GROUP BY {_GROUP}
    HAVING sum(d) <> 0 OR sum(l) <> 0
    ORDER BY {_GROUP}
    ON CONFLICT ({_GROUP}) DO UPDATE
        SET docs = s.docs + EXCLUDED.docs, total_len = s.total_len + EXCLUDED.total_len;"""


def _row(record: str, sign: str) -> str:
    values = ", ".join(f"{record}.{c}" for c in _COLUMNS)
    return f"SELECT {values}, {sign}1::bigint, {sign}coalesce({record}.search_len, 0)::bigint"


_COLUMN_NAMES = f"({_GROUP}, d, l)"
_INSERTED = f"SELECT {_GROUP}, 1::bigint, coalesce(search_len, 0)::bigint FROM new_rows"
_DELETED = f"SELECT {_GROUP}, -1::bigint, -coalesce(search_len, 0)::bigint FROM old_rows"
_UPDATED = f"{_row('NEW', '')} UNION ALL {_row('OLD', '-')}"
_CHANGED = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in (*_COLUMNS, "search_len"))

SQL = f"""
CREATE TABLE item_search_stats (
    tenant_id text NOT NULL,
    namespace text NOT NULL,
    user_id text,
    agent_id text,
    session_id text,
    kind text NOT NULL,
    status text NOT NULL,
    consolidated boolean NOT NULL,
    docs bigint NOT NULL,
    total_len bigint NOT NULL
);
CREATE UNIQUE INDEX item_search_stats_group ON item_search_stats ({_GROUP}) NULLS NOT DISTINCT;
-- a group left without rows is deleted (an erased user's id must not linger here)
CREATE INDEX item_search_stats_empty ON item_search_stats (docs) WHERE docs = 0;

INSERT INTO item_search_stats ({_GROUP}, docs, total_len)
SELECT {_GROUP}, count(*), coalesce(sum(search_len), 0) FROM items GROUP BY {_GROUP};

CREATE FUNCTION cognimem_search_stats_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN{_upsert(f"SELECT * FROM ({_INSERTED}) AS x{_COLUMN_NAMES}")}
    RETURN NULL;
END $$;

CREATE FUNCTION cognimem_search_stats_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN{_upsert(f"SELECT * FROM ({_DELETED}) AS x{_COLUMN_NAMES}")}
    DELETE FROM item_search_stats WHERE docs = 0;
    RETURN NULL;
END $$;

CREATE FUNCTION cognimem_search_stats_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN{_upsert(f"SELECT * FROM ({_UPDATED}) AS x{_COLUMN_NAMES}")}
    DELETE FROM item_search_stats WHERE docs = 0;
    RETURN NULL;
END $$;

CREATE FUNCTION cognimem_search_stats_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM item_search_stats;
    RETURN NULL;
END $$;

CREATE TRIGGER items_search_stats_insert AFTER INSERT ON items
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION cognimem_search_stats_inserted();
CREATE TRIGGER items_search_stats_delete AFTER DELETE ON items
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION cognimem_search_stats_deleted();
CREATE TRIGGER items_search_stats_update AFTER UPDATE ON items
    FOR EACH ROW WHEN ({_CHANGED})
    EXECUTE FUNCTION cognimem_search_stats_updated();
CREATE TRIGGER items_search_stats_truncate AFTER TRUNCATE ON items
    FOR EACH STATEMENT EXECUTE FUNCTION cognimem_search_stats_truncated();
"""
