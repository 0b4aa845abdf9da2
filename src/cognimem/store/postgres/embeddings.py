"""The embedding cache in PostgreSQL: the ``EmbeddingStore`` role."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

import numpy as np

from cognimem.store.postgres.database import PostgresDatabase


class PostgresEmbeddings(PostgresDatabase):
    """``EmbeddingStore`` on PostgreSQL."""

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        if not hashes:
            return {}
        async with self._connection() as conn:
            found = await conn.fetch(
                "SELECT text_hash, vector FROM embedding_cache"
                " WHERE model = $1 AND text_hash = ANY($2::text[])",
                model,
                list(hashes),
            )
        return {
            r["text_hash"]: np.frombuffer(r["vector"], dtype="<f4").astype(np.float32)
            for r in found
        }

    async def put_embeddings(self, model: str, vectors: Mapping[str, np.ndarray]) -> None:
        if not vectors:
            return
        arrays = [np.asarray(v, dtype="<f4").ravel() for v in vectors.values()]
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO embedding_cache (model, text_hash, dim, vector, created_at)"
                " SELECT $1, h, d, v, $5 FROM unnest($2::text[], $3::int4[], $4::bytea[])"
                " AS t(h, d, v) ON CONFLICT (model, text_hash) DO UPDATE SET"
                " dim = excluded.dim, vector = excluded.vector, created_at = excluded.created_at",
                model,
                list(vectors),
                [int(a.shape[0]) for a in arrays],
                [a.tobytes() for a in arrays],
                datetime.now(UTC),
            )

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        if not hashes:
            return 0
        async with self._connection() as conn:
            count = await conn.fetchval(
                "WITH gone AS (DELETE FROM embedding_cache WHERE text_hash = ANY($1::text[])"
                " RETURNING 1) SELECT count(*) FROM gone",
                list(hashes),
            )
        return int(count)
