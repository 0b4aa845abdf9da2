"""SQLite schema version 26: scope row changes."""

SQL = """
-- `row_changes` counts the mutations of a scope that are not a change of status alone (a
-- row deleted, its text, vector or kind changed, vectors switched): a cached vector
-- matrix that saw the same row changes but not the same mutations only re-reads its
-- rows' statuses (one covering-index scan) instead of loading every vector again, and
-- its HNSW index has nothing to reconcile. Starting from `mutations` keeps every entry
-- cached before the migration comparable: any later mutation is seen as before.
ALTER TABLE scope_versions ADD COLUMN row_changes INTEGER NOT NULL DEFAULT 0;
UPDATE scope_versions SET row_changes = mutations;
"""
