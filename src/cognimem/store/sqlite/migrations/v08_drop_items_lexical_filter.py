"""SQLite schema version 8: drop items lexical filter."""

SQL = """
-- lexical search ranks over an index in process (store/sqlite/lexical.py) and no longer
-- joins FTS matches to items: the covering index only cost writes and space
DROP INDEX IF EXISTS items_lexical_filter;
"""
