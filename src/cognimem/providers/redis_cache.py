"""A shared Redis tier for the embedding cache, in front of a persistent backend.

Several processes (API servers, workers) embedding the same texts share one Redis: a
vector embedded by one process is found by the next without calling the embedder. Keys
are ``<prefix><model>:<sha256 of the text>``, values the vector as little-endian float32
bytes, every key expires after ``ttl_s`` seconds. Per batch there is one ``MGET``, one
``get_embeddings`` call to ``behind`` for the misses, and one pipelined ``SET ... EX``
round trip writing those back.

A Redis that cannot be reached raises :class:`~cognimem.errors.StoreUnavailable` (the
URL in the message has no password): a cache tier that is down must be visible. With
``fail_open=True`` it is bypassed instead: lookups and writes go straight to ``behind``,
``errors`` counts the failed Redis calls and one WARNING is logged per outage.

Wire it in as the backend of :class:`~cognimem.providers.embeddings.CachedEmbedder`::

    cache = RedisEmbeddingCache("redis://127.0.0.1:6379/0", behind=store)
    embedder = CachedEmbedder(inner, cache)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TypeVar

import numpy as np

from cognimem.config import redact_url
from cognimem.errors import StoreError, StoreUnavailable, UsageError
from cognimem.providers.embeddings import EmbeddingCacheBackend, ErasableCache, FloatMatrix

try:
    import redis.asyncio as aioredis
    from redis import exceptions as redis_errors
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
except ImportError:  # pragma: no cover - depends on the installed extras
    aioredis = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

T = TypeVar("T")

_FLOAT32 = np.dtype("<f4")


class RedisEmbeddingCache:
    """An :class:`EmbeddingCacheBackend` kept in Redis, falling back to ``behind``.

    ``behind`` is the persistent cache (e.g. the store) or ``None`` for Redis only.
    ``timeout_s`` bounds connecting and every command, so a hung Redis cannot stall
    embedding; a failed command is retried once at once (a pooled connection may have been
    closed by a Redis restart), then reported.
    """

    def __init__(
        self,
        url: str,
        *,
        behind: EmbeddingCacheBackend | None,
        ttl_s: int = 7 * 86400,
        prefix: str = "cognimem:emb:",
        fail_open: bool = False,
        timeout_s: float = 2.0,
    ) -> None:
        if aioredis is None:  # pragma: no cover
            raise UsageError(
                "RedisEmbeddingCache needs the redis package: pip install 'cognimem[redis]'"
            )
        if ttl_s <= 0:
            raise UsageError(f"ttl_s must be a positive number of seconds, got {ttl_s}")
        if timeout_s <= 0:
            raise UsageError(f"timeout_s must be positive, got {timeout_s}")
        self.url = url
        self.behind = behind
        self.ttl_s = ttl_s
        self.prefix = prefix
        self.fail_open = fail_open
        self.timeout_s = timeout_s
        self.errors = 0
        """Redis calls that failed and were bypassed (only counted with ``fail_open``)."""
        self._down = False
        self._client: aioredis.Redis | None = None

    @property
    def _redis(self) -> aioredis.Redis:
        if self._client is None:
            self._client = aioredis.Redis.from_url(
                self.url,
                decode_responses=False,
                socket_connect_timeout=self.timeout_s,
                socket_timeout=self.timeout_s,
                retry=Retry(NoBackoff(), 1),
            )
        return self._client

    async def aclose(self) -> None:
        """Close the Redis connections (``behind`` is not closed: it is not ours)."""
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()

    def key(self, model: str, text_hash: str) -> str:
        """The Redis key of one vector."""
        return f"{self.prefix}{model}:{text_hash}"

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, FloatMatrix]:
        wanted = list(dict.fromkeys(hashes))
        if not wanted:
            return {}
        keys = [self.key(model, h) for h in wanted]
        values = await self._call(lambda: self._redis.mget(keys))
        found: dict[str, FloatMatrix] = {}
        if values is not None:
            for h, raw in zip(wanted, values, strict=True):
                vec = _decode(raw)
                if vec is not None:
                    found[h] = vec
        missing = [h for h in wanted if h not in found]
        if missing and self.behind is not None:
            stored = await self.behind.get_embeddings(model, missing)
            fetched = {h: stored[h] for h in missing if h in stored}
            found.update(fetched)
            # write back so the next process finds them in Redis; not while Redis is down
            if fetched and values is not None:
                await self._write(model, fetched)
        return found

    async def put_embeddings(self, model: str, vectors: Mapping[str, FloatMatrix]) -> None:
        if not vectors:
            return
        # the persistent backend first: it is the record that survives a Redis flush
        if self.behind is not None:
            await self.behind.put_embeddings(model, vectors)
        await self._write(model, vectors)

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        """Drop these hashes' vectors for every model: from ``behind`` (when it can) and
        from Redis, found by one ``SCAN`` over the prefix (an erasure is rare; keys
        expire anyway). Returns how many Redis keys went."""
        wanted = {h.encode() for h in hashes}
        if not wanted:
            return 0
        if isinstance(self.behind, ErasableCache):
            await self.behind.delete_embeddings(list(hashes))

        async def delete() -> int:
            found = [
                key
                async for key in self._redis.scan_iter(match=f"{self.prefix}*", count=1000)
                if key.rsplit(b":", 1)[-1] in wanted
            ]
            return int(await self._redis.delete(*found)) if found else 0

        return await self._call(delete) or 0

    async def _write(self, model: str, vectors: Mapping[str, FloatMatrix]) -> None:
        """All ``vectors`` in one pipelined round trip of ``SET key value EX ttl``."""

        async def write() -> None:
            async with self._redis.pipeline(transaction=False) as pipe:
                for h, vec in vectors.items():
                    data = np.asarray(vec, dtype=_FLOAT32).reshape(-1).tobytes()
                    pipe.set(self.key(model, h), data, ex=self.ttl_s)
                await pipe.execute()

        await self._call(write)

    async def _call(self, make: Callable[[], Awaitable[T]]) -> T | None:
        """Run one Redis call; ``None`` when Redis is down and ``fail_open`` bypasses it."""
        try:
            result = await make()
        except (redis_errors.ConnectionError, redis_errors.TimeoutError) as exc:
            reason = f"Redis embedding cache at {redact_url(self.url)} is unavailable: {exc}"
            if not self.fail_open:
                raise StoreUnavailable(reason, retry_after=1) from exc
            self.errors += 1
            if not self._down:
                self._down = True
                log.warning("%s; bypassing it until it answers again (fail_open=True)", reason)
            return None
        except redis_errors.RedisError as exc:
            raise StoreError(
                f"Redis embedding cache error at {redact_url(self.url)}: {exc}"
            ) from exc
        if self._down:
            self._down = False
            log.info("Redis embedding cache at %s answers again", redact_url(self.url))
        return result


def _decode(raw: object) -> FloatMatrix | None:
    """A stored vector, or ``None`` for a miss or a value that is not float32 bytes."""
    if not isinstance(raw, bytes) or not raw or len(raw) % _FLOAT32.itemsize:
        return None
    return np.frombuffer(raw, dtype=_FLOAT32).astype(np.float32)


__all__ = ["RedisEmbeddingCache"]
