"""PostgreSQL schema version 22: procedure agents."""

SQL = """
-- procedures of an agent (see the SQLite migration of the same number)
ALTER TABLE procedures ADD COLUMN agent_id text;
CREATE INDEX procedures_agent ON procedures (tenant_id, namespace, agent_id, confidence)
    WHERE user_id IS NULL;
"""
