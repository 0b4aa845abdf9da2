"""PostgreSQL's lexical search as it was before migration 17: one SQL query over the
``search_tsv`` column (``to_tsvector('simple')``: no stemming), BM25 statistics from
``item_search_stats``. Kept only as the baseline ``postgres_scale.py`` measures the
in-process index against; the store no longer uses it, and migration 23 dropped the
column, its GIN index and the statistics: :func:`restore` puts them back in a benchmark's
database (migration 1's columns and index, migration 16's table and triggers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cognimem.store.postgres.migrations import v16_item_search_stats
from cognimem.store.postgres.rows import Params, filter_clause
from cognimem.store.types import Candidate, ItemFilter

# migration 1's search columns and index, as migration 23 found them
_COLUMNS = """
CREATE FUNCTION cognimem_token_count(text) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(sum(cardinality(positions)), 0)::integer
          FROM unnest(to_tsvector('simple'::regconfig, $1)) $$;
ALTER TABLE items
    ADD COLUMN search_tsv tsvector
        GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED,
    ADD COLUMN search_len integer GENERATED ALWAYS AS (cognimem_token_count(search_text)) STORED;
CREATE INDEX items_search ON items USING gin (search_tsv);
"""


async def restore(conn: Any) -> None:
    """Put back, in the database of ``conn``, what the SQL search reads (once)."""
    found = await conn.fetchval(
        "SELECT 1 FROM information_schema.columns"
        " WHERE table_name = 'items' AND column_name = 'search_tsv'"
    )
    if not found:
        async with conn.transaction():
            await conn.execute(_COLUMNS + v16_item_search_stats.SQL)


def _counted(flt: ItemFilter) -> bool:
    """Whether ``item_search_stats`` holds the statistics of ``flt``'s rows (it keeps
    no times: a filter with a time bound counts its rows)."""
    return flt.since is None and flt.until is None and flt.period is None


# BM25 as SQLite's FTS5 computes it (k1 = 1.2, b = 0.75, idf floored at 1e-6), with the
# statistics (document count, average length, document frequency) taken over the rows
# the filter lets the search see, so one tenant's words never weigh on another's ranks.
_K1 = 1.2
_B = 0.75


def lexical_sql(flt: ItemFilter, terms: Sequence[str], limit: int) -> tuple[str, list[object]]:
    """Items matching any of ``terms``, best BM25 first.

    The terms go through the same parser as the documents (``to_tsvector('simple')``)
    and the query is assembled from the resulting lexemes, each quoted, so no term can
    inject tsquery syntax. The matching rows are read once: each one's query lexemes
    with their counts (``hits``) give both the document frequencies and the scores. The
    filter's row count and average length come from ``item_search_stats`` (kept by
    triggers) unless the filter has a time bound; then the rows are counted.
    """
    params = Params(list(terms))
    where_m = filter_clause(flt, params, "i")
    where_s = filter_clause(flt, params, "s")
    lim = params.add(limit)
    stats = (
        "SELECT sum(s.docs)::float8 AS docs,"
        " (sum(s.total_len)::numeric / nullif(sum(s.docs), 0))::float8 AS avgdl"
        f" FROM item_search_stats s WHERE {where_s}"
        if _counted(flt)
        else "SELECT count(*)::float8 AS docs, avg(s.search_len)::float8 AS avgdl"
        f" FROM items s WHERE {where_s} AND EXISTS (SELECT 1 FROM hits)"
    )
    sql = f"""
WITH q AS (
    SELECT array_agg(DISTINCT l) AS lexemes
    FROM unnest($1::text[]) AS t, unnest(tsvector_to_array(to_tsvector('simple', t))) AS l
), query AS (
    SELECT lexemes, ARRAY(
        SELECT ('''' || replace(replace(l, '\\', '\\\\'), '''', '''''') || '''')::tsquery
        FROM unnest(lexemes) AS l) AS each
    FROM q WHERE lexemes IS NOT NULL
), hits AS MATERIALIZED (
    -- one row per matching document and query lexeme, with its count in the document
    SELECT i.id, i.seq, i.search_len::float8 AS len, u.lexeme,
           cardinality(u.positions)::float8 AS f
    FROM items i,
         unnest(ts_filter(setweight(i.search_tsv, 'A', (SELECT lexemes FROM query)), '{{a}}')) AS u
    WHERE i.search_tsv @@ (SELECT array_to_string(each, ' | ')::tsquery FROM query)
      AND {where_m}
), stats AS (
    {stats}
), weights AS (
    SELECT h.lexeme, greatest(ln((stats.docs - count(*) + 0.5) / (count(*) + 0.5)), 1e-6) AS idf
    FROM hits h, stats GROUP BY h.lexeme, stats.docs
)
SELECT h.id, sum(w.idf * h.f * {_K1 + 1}
                 / (h.f + {_K1} * (1 - {_B} + {_B} * h.len / greatest(stats.avgdl, 1e-9))))
       AS score
FROM hits h JOIN weights w ON w.lexeme = h.lexeme, stats
GROUP BY h.id, h.seq
ORDER BY score DESC, h.seq
LIMIT {lim}
"""
    return sql, params.values


async def sql_lexical_search(
    store: Any, flt: ItemFilter, terms: Sequence[str], limit: int
) -> list[Candidate]:
    """``PostgresItems.lexical_search`` as it was (bind to a store to read the old way)."""
    if limit <= 0 or not any(t.strip() for t in terms):
        return []
    sql, params = lexical_sql(flt, terms, limit)
    async with store._connection() as conn:
        found = await conn.fetch(sql, *params)
    return [Candidate(item_id=r["id"], score=float(r["score"])) for r in found]
