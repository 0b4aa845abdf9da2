"""Rate limits of the HTTP API: a token bucket per key (GCRA), ``rate_limit_per_minute``
requests in a burst, refilled evenly over a minute. The bucket lives in-process on the
embedded default, and in Redis (one atomic Lua script per request, shared by every API
process) when ``COGNIMEM_AUTH__REDIS_URL`` is set or ``COGNIMEM_QUEUE_URL`` is a Redis
URL. A configured Redis that cannot be reached fails the request (``StoreUnavailable``,
503): limits are never silently relaxed to per-process ones. The ``Authenticator``
(``api/auth.py``) applies them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from cognimem.config import Settings, redact_url
from cognimem.errors import StoreError, StoreUnavailable, UsageError

log = logging.getLogger(__name__)

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


class RateLimiter(Protocol):
    """A per-key request allowance of ``limit`` requests per minute."""

    async def hit(self, key_id: str, limit: int) -> float | None:
        """Count one request; ``None`` when allowed, else the seconds until the next
        request would be."""
        ...

    async def aclose(self) -> None: ...


class LocalRateLimiter:
    """A GCRA token bucket per key kept in this process (the embedded default)."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._tat: dict[str, float] = {}  # key id -> theoretical arrival time (s)

    async def hit(self, key_id: str, limit: int) -> float | None:
        now = self._clock()
        interval = 60.0 / limit
        tat = max(self._tat.get(key_id, now), now)
        new_tat = tat + interval
        wait = new_tat - 60.0 - now
        if wait > 0:
            return wait
        self._tat[key_id] = new_tat
        if len(self._tat) > 100_000:  # forget buckets that are full again
            self._tat = {k: t for k, t in self._tat.items() if t > now}
        return None

    async def aclose(self) -> None:
        return None


# KEYS[1]: the bucket; ARGV[1]: requests per minute. Redis's own clock, so every API
# process agrees on time. Returns {allowed, milliseconds to wait}.
_GCRA = """
local limit = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = 60000 / limit
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local new_tat = tat + interval
local wait = new_tat - 60000 - now
if wait > 0 then
  return {0, math.ceil(wait)}
end
redis.call('SET', KEYS[1], string.format('%.3f', new_tat), 'PX', math.ceil(new_tat - now) + 1)
return {1, 0}
"""


class RedisRateLimiter:
    """The same bucket kept in Redis, shared by every API process; one atomic script per
    request. Redis down raises ``StoreUnavailable`` (and logs it)."""

    def __init__(
        self, url: str, *, prefix: str = "cognimem:ratelimit:", timeout_s: float = 2.0
    ) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise UsageError(
                "Redis rate limits need the redis package: pip install 'cognimem[redis]'"
            ) from exc
        self.url = url
        self.prefix = prefix
        self._redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s
        )
        self._script = self._redis.register_script(_GCRA)

    async def hit(self, key_id: str, limit: int) -> float | None:
        from redis import exceptions as redis_errors

        try:
            allowed, wait_ms = await self._script(keys=[self.prefix + key_id], args=[limit])
        except (redis_errors.ConnectionError, redis_errors.TimeoutError) as exc:
            message = f"rate limit store (Redis at {redact_url(self.url)}) is unavailable: {exc}"
            log.error(message)
            raise StoreUnavailable(message, retry_after=1.0) from exc
        except redis_errors.RedisError as exc:
            message = f"rate limit store (Redis at {redact_url(self.url)}) failed: {exc}"
            log.error(message)
            raise StoreError(message) from exc
        return None if int(allowed) else max(int(wait_ms), 1) / 1000

    async def aclose(self) -> None:
        await self._redis.aclose()


def rate_limit_url(settings: Settings) -> str | None:
    """The Redis that holds rate limits: the auth setting, else a Redis queue URL."""
    if settings.auth.redis_url:
        return settings.auth.redis_url
    if settings.queue_url and settings.queue_url.startswith(_REDIS_SCHEMES):
        return settings.queue_url
    return None


__all__ = [
    "LocalRateLimiter",
    "RateLimiter",
    "RedisRateLimiter",
    "rate_limit_url",
]
