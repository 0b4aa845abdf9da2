"""SQLite schema version 27: a counter of API key changes."""

SQL = """
-- `api_key_changes` counts every change to `api_keys` (a key issued, revoked, edited or
-- deleted, by this code or by hand), bumped by triggers in the changing transaction: a
-- server caches the keys it has looked up and reads this one row per request instead
-- of the key, so a key revoked by another process is refused on its next request
-- (api/key_cache.py). No row reads as 0: the first change inserts it
CREATE TABLE api_key_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    changes INTEGER NOT NULL
);
CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys
BEGIN
    INSERT INTO api_key_changes (id, changes) VALUES (1, 1)
        ON CONFLICT (id) DO UPDATE SET changes = changes + 1;
END;
CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys
BEGIN
    INSERT INTO api_key_changes (id, changes) VALUES (1, 1)
        ON CONFLICT (id) DO UPDATE SET changes = changes + 1;
END;
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
BEGIN
    INSERT INTO api_key_changes (id, changes) VALUES (1, 1)
        ON CONFLICT (id) DO UPDATE SET changes = changes + 1;
END;
"""
