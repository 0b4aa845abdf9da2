"""SQLite schema version 22: procedure agents."""

SQL = """
-- procedures learnt from an agent's turns belong to the agent (issue 33): no user, the
-- agent's id; every user's read made with that agent matches them
ALTER TABLE procedures ADD COLUMN agent_id TEXT;
CREATE INDEX procedures_agent ON procedures (tenant_id, namespace, agent_id, confidence)
    WHERE user_id IS NULL;
"""
