"""API keys in PostgreSQL, the ``KeyStore`` role: only hashes are stored."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from cognimem.errors import Conflict, NotFound
from cognimem.models.admin import ApiKey
from cognimem.models.clock import to_utc
from cognimem.store import records, row_values
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.postgres.rows import decode_time
from cognimem.store.records import API_KEY_COLUMNS as _COLUMNS

if TYPE_CHECKING:
    from asyncpg import Connection

_UNIQUE_VIOLATION = "23505"


def _key(row: Any) -> ApiKey:
    return records.api_key_from_row(row, decode_time)


async def put(conn: Connection, key: ApiKey) -> None:
    try:
        await conn.execute(
            f"INSERT INTO api_keys ({_COLUMNS})"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            *row_values.api_key_values(key, decode_time),
        )
    except Exception as exc:
        if getattr(exc, "sqlstate", None) == _UNIQUE_VIOLATION:
            raise Conflict(f"an API key with this id or secret already exists: {key.id}") from exc
        raise


async def find(conn: Connection, key_hash: str) -> ApiKey | None:
    row = await conn.fetchrow(f"SELECT {_COLUMNS} FROM api_keys WHERE key_hash = $1", key_hash)
    return None if row is None else _key(row)


async def list_keys(conn: Connection, tenant_id: str | None) -> list[ApiKey]:
    if tenant_id is None:
        rows = await conn.fetch(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id")
    else:
        rows = await conn.fetch(
            f"SELECT {_COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id",
            tenant_id,
        )
    return [_key(r) for r in rows]


async def revoke(conn: Connection, key_id: str, at: datetime) -> ApiKey:
    # revoking twice keeps the first time
    row = await conn.fetchrow(
        f"UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1"
        f" RETURNING {_COLUMNS}",
        key_id,
        to_utc(at),
    )
    if row is None:
        raise NotFound("api_key", key_id)
    return _key(row)


class PostgresKeys(PostgresDatabase):
    """``KeyStore`` on PostgreSQL."""

    async def put_api_key(self, key: ApiKey) -> None:
        async with self._connection() as conn:
            await put(conn, key)

    async def find_api_key(self, key_hash: str) -> ApiKey | None:
        async with self._connection() as conn:
            return await find(conn, key_hash)

    async def api_key_changes(self) -> int:
        async with self._connection() as conn:
            changes = await conn.fetchval("SELECT changes FROM api_key_changes")
            return 0 if changes is None else int(changes)  # no row: nothing changed yet

    async def list_api_keys(self, tenant_id: str | None) -> list[ApiKey]:
        async with self._connection() as conn:
            return await list_keys(conn, tenant_id)

    async def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        async with self._connection() as conn:
            return await revoke(conn, key_id, at)
