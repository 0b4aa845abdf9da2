"""SQLite schema version 21: api key levels."""

SQL = """
-- the level of memory a key may write (issue 33): keys made before levels write every
-- level of their tenant, as they did, so they default to the organisation level
ALTER TABLE api_keys ADD COLUMN level TEXT NOT NULL DEFAULT 'organisation';
ALTER TABLE api_keys ADD COLUMN user_id TEXT;
ALTER TABLE api_keys ADD COLUMN agent_id TEXT;
"""
