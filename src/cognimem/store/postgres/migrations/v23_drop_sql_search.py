"""PostgreSQL schema version 23: drop the SQL lexical search's columns and statistics.

Since migration 17 lexical search ranks over an in-process index built from
``items.search_text`` (``lexical.py``), and no query reads the ``search_tsv`` and
``search_len`` generated columns, the ``items_search`` GIN index over ``search_tsv``, or
the ``item_search_stats`` table its triggers kept (migration 16). Every insert still
paid for them: a ``to_tsvector`` twice per row, a GIN insertion, and a statement trigger
upserting the statistics; dropping them cut the server's CPU per bulk write by ~40 %
(``benchmarks/results/ingest_ratio.md``). ``search_text`` stays: the in-process index
reads it. Dropping columns is a catalogue change in PostgreSQL (no table rewrite), so
this runs in moments on a large ``items`` table.

SQLite has no counterpart to drop: its ``items_fts`` is where an item's search text is
kept, the copy its in-process index loads.
"""

SQL = """
DROP TRIGGER items_search_stats_insert ON items;
DROP TRIGGER items_search_stats_delete ON items;
DROP TRIGGER items_search_stats_update ON items;
DROP TRIGGER items_search_stats_truncate ON items;
DROP FUNCTION cognimem_search_stats_inserted();
DROP FUNCTION cognimem_search_stats_deleted();
DROP FUNCTION cognimem_search_stats_updated();
DROP FUNCTION cognimem_search_stats_truncated();
DROP TABLE item_search_stats;
DROP INDEX items_search;
ALTER TABLE items DROP COLUMN search_tsv, DROP COLUMN search_len;
DROP FUNCTION cognimem_token_count(text);
"""
