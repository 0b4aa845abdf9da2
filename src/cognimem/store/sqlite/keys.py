"""API keys in SQLite, the ``KeyStore`` role: only hashes are stored. Times are UTC
microseconds."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from cognimem.errors import Conflict, NotFound
from cognimem.models.admin import ApiKey
from cognimem.models.clock import from_micros, to_micros
from cognimem.store.sqlite.database import SQLiteDatabase

_COLUMNS = (
    "id, tenant_id, name, key_hash, prefix, created_at, expires_at, revoked_at,"
    " rate_limit_per_minute"
)


def _time(value: Any) -> datetime | None:
    return None if value is None else from_micros(int(value))


def _key(row: sqlite3.Row | tuple[Any, ...]) -> ApiKey:
    return ApiKey(
        id=row[0],
        tenant_id=row[1],
        name=row[2],
        key_hash=row[3],
        prefix=row[4],
        created_at=from_micros(int(row[5])),
        expires_at=_time(row[6]),
        revoked_at=_time(row[7]),
        rate_limit_per_minute=row[8],
    )


def put(conn: sqlite3.Connection, key: ApiKey) -> None:
    try:
        conn.execute(
            f"INSERT INTO api_keys ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key.id, key.tenant_id, key.name, key.key_hash, key.prefix,
                to_micros(key.created_at),
                None if key.expires_at is None else to_micros(key.expires_at),
                None if key.revoked_at is None else to_micros(key.revoked_at),
                key.rate_limit_per_minute,
            ),
        )  # fmt: skip
    except sqlite3.IntegrityError as exc:
        raise Conflict(f"an API key with this id or secret already exists: {key.id}") from exc


def find(conn: sqlite3.Connection, key_hash: str) -> ApiKey | None:
    row = conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE key_hash = ?", (key_hash,))
    found = row.fetchone()
    return None if found is None else _key(found)


def list_keys(conn: sqlite3.Connection, tenant_id: str | None) -> list[ApiKey]:
    if tenant_id is None:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id")
    else:
        rows = conn.execute(
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
    row = conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
    if row is None:
        raise NotFound("api_key", key_id)
    return _key(row)


class SQLiteKeys(SQLiteDatabase):
    """``KeyStore`` on SQLite."""

    async def put_api_key(self, key: ApiKey) -> None:
        await self._db.write(lambda conn: put(conn, key))

    async def find_api_key(self, key_hash: str) -> ApiKey | None:
        return await self._db.read(lambda conn: find(conn, key_hash))

    async def list_api_keys(self, tenant_id: str | None) -> list[ApiKey]:
        return await self._db.read(lambda conn: list_keys(conn, tenant_id))

    async def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        return await self._db.write(lambda conn: revoke(conn, key_id, at))
