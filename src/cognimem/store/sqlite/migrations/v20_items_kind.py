"""SQLite schema version 20: items kind."""

SQL = """
-- listings by kind: a read's mandates and guardrails (the scope's own and the
-- organisation's, one OR over user_id that no index can seek) are found among the
-- namespace's few rows of those kinds, not among every row of the user (items_scope
-- has no kind); with user_id after status, a user's listing by kind seeks it too
CREATE INDEX items_kind ON items (tenant_id, namespace, kind, status, user_id, occurred_at);
"""
