"""The embedding cache in SQLite: the ``EmbeddingStore`` role."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

import numpy as np

from cognimem.models.clock import to_micros
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.in_lists import in_chunks

_MAX_PARAMS = 30_000  # SQLite >= 3.32 allows 32766 bound parameters


class SQLiteEmbeddings(SQLiteDatabase):
    """``EmbeddingStore`` on SQLite."""

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        if not hashes:
            return {}

        def q(conn: sqlite3.Connection) -> dict[str, np.ndarray]:
            out: dict[str, np.ndarray] = {}
            # one query per batch, split only past SQLite's bound-parameter limit
            for start in range(0, len(hashes), _MAX_PARAMS):
                part = hashes[start : start + _MAX_PARAMS]
                for text_hash, blob in conn.execute(
                    "SELECT text_hash, vector FROM embedding_cache"
                    f" WHERE model = ? AND text_hash IN ({', '.join('?' * len(part))})",
                    (model, *part),
                ):
                    out[text_hash] = np.frombuffer(blob, dtype=np.float32).copy()
            return out

        return await self._db.read(q)

    async def put_embeddings(self, model: str, vectors: Mapping[str, np.ndarray]) -> None:
        if not vectors:
            return
        now = to_micros(datetime.now(UTC))

        def tx(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT OR REPLACE INTO embedding_cache (model, text_hash, dim, vector, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (model, h, int(v.shape[0]), np.asarray(v, np.float32).tobytes(), now)
                    for h, v in vectors.items()
                ],
            )

        await self._db.write(tx)

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        if not hashes:
            return 0

        def tx(conn: sqlite3.Connection) -> int:
            removed = 0
            for part, marks in in_chunks(hashes):
                removed += conn.execute(
                    f"DELETE FROM embedding_cache WHERE text_hash IN ({marks})", tuple(part)
                ).rowcount
            return removed

        return await self._db.write(tx)
