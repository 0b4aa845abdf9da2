"""PostgreSQL schema version 21: api key levels."""

SQL = """
-- the level of memory a key may write (see the SQLite migration of the same number)
ALTER TABLE api_keys ADD COLUMN level text NOT NULL DEFAULT 'organisation';
ALTER TABLE api_keys ADD COLUMN user_id text;
ALTER TABLE api_keys ADD COLUMN agent_id text;
"""
