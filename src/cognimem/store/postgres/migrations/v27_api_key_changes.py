"""PostgreSQL schema version 27: a counter of API key changes."""

SQL = """
-- every change to api_keys bumps the counter in the changing transaction (see the
-- SQLite migration of the same number); one trigger per statement, truncation too. No
-- row reads as 0: the first change inserts it
CREATE TABLE api_key_changes (
    id integer PRIMARY KEY CHECK (id = 1),
    changes bigint NOT NULL
);
CREATE FUNCTION cognimem_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO api_key_changes (id, changes) VALUES (1, 1)
        ON CONFLICT (id) DO UPDATE SET changes = api_key_changes.changes + 1;
    RETURN NULL;
END $$;
CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION cognimem_api_keys_changed();
"""
