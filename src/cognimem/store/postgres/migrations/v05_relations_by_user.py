"""PostgreSQL schema version 5: relations by user."""

SQL = """
-- a read loads the user's whole graph (and the namespace's shared edges) newest first;
-- without this it scans every user's relations in the namespace
CREATE INDEX relations_user ON relations (tenant_id, namespace, user_id, created_at)
    WHERE active;
"""
