"""SQLite schema version 18: fact provenance."""

SQL = """
-- how a fact was read beyond its evidence sentence: the pronouns and role words
-- ("She", "my sister") resolved to the person it is about, with why
ALTER TABLE facts ADD COLUMN provenance TEXT NOT NULL DEFAULT '{}';
"""
