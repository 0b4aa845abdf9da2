"""API keys in SQLite, the ``KeyStore`` role: only hashes are stored. Times are UTC
microseconds."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from cognimem.errors import Conflict, NotFound
from cognimem.models.admin import ApiKey
from cognimem.models.clock import to_micros
from cognimem.store import records, row_values
from cognimem.store.records import API_KEY_COLUMNS as _COLUMNS
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.rows import decode_time, encode_time, query


def _key(row: sqlite3.Row) -> ApiKey:
    return records.api_key_from_row(row, decode_time)


def put(conn: sqlite3.Connection, key: ApiKey) -> None:
    try:
        conn.execute(
            f"INSERT INTO api_keys ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row_values.api_key_values(key, encode_time),
        )
    except sqlite3.IntegrityError as exc:
        raise Conflict(f"an API key with this id or secret already exists: {key.id}") from exc


def find(conn: sqlite3.Connection, key_hash: str) -> ApiKey | None:
    found = query(conn, f"SELECT {_COLUMNS} FROM api_keys WHERE key_hash = ?", (key_hash,))
    return _key(found[0]) if found else None


def changes(conn: sqlite3.Connection) -> int:
    # no row yet: no key has changed since the table was made
    row = conn.execute("SELECT changes FROM api_key_changes").fetchone()
    return 0 if row is None else int(row[0])


def list_keys(conn: sqlite3.Connection, tenant_id: str | None) -> list[ApiKey]:
    if tenant_id is None:
        rows = query(conn, f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id", ())
    else:
        rows = query(
            conn,
            f"SELECT {_COLUMNS} FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id",
            (tenant_id,),
        )
    return [_key(r) for r in rows]


def revoke(conn: sqlite3.Connection, key_id: str, at: datetime) -> ApiKey:
    # revoking twice keeps the first time
    conn.execute(
        "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
        (to_micros(at), key_id),
    )
    found = query(conn, f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,))
    if not found:
        raise NotFound("api_key", key_id)
    return _key(found[0])


class SQLiteKeys(SQLiteDatabase):
    """``KeyStore`` on SQLite."""

    async def put_api_key(self, key: ApiKey) -> None:
        await self._db.write(lambda conn: put(conn, key))

    async def find_api_key(self, key_hash: str) -> ApiKey | None:
        # every HTTP request asks this: one row by a unique key, read on the calling
        # thread (a hop to a reader thread and back costs more than the lookup)
        return await self._db.read(lambda conn: find(conn, key_hash), here=True)

    async def api_key_changes(self) -> int:
        # every HTTP request asks this (api/key_cache.py): on the calling thread too
        return await self._db.read(changes, here=True)

    async def list_api_keys(self, tenant_id: str | None) -> list[ApiKey]:
        return await self._db.read(lambda conn: list_keys(conn, tenant_id))

    async def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        return await self._db.write(lambda conn: revoke(conn, key_id, at))
