"""The scale-out job queue: Redis Streams with a consumer group.

Each job is a hash ``cognimem:job:<id>`` (the record of truth: state, attempts, error,
payload, tenant, timestamps, and the current delivery token); the stream only carries
job ids. Every state change is one Lua script, so the hash, the stream and the pending
entries list never disagree. A delivery token is ``<stream entry id>/<attempt>``: a
worker whose entry was reclaimed after the visibility timeout holds a token that no
longer matches, and its ``ack``/``fail`` does nothing. Finished entries are XDEL'd, so
the stream length is the queue depth. Not cluster-safe (keys in several hash slots).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import astuple
from typing import Any, TypeVar

from cognimem.config import redact_url
from cognimem.errors import NotFound, StoreError, StoreUnavailable, UsageError
from cognimem.models.clock import Clock, from_micros, utc_now
from cognimem.models.jobs import JobSummary
from cognimem.queue import redis_scripts as scripts
from cognimem.queue.base import (
    Delivery,
    Job,
    JobListing,
    JobState,
    QueueBase,
    check_limits,
    check_listing,
    check_progress,
    expired_lease_error,
    of_level,
    result_json,
    taken,
)

try:
    import redis.asyncio as aioredis
    from redis import exceptions as redis_errors
except ImportError:  # pragma: no cover - depends on the installed extras
    aioredis = None  # type: ignore[assignment]

T = TypeVar("T")


def _job(record: Any) -> Job:
    fields = _text(record)
    return Job(
        id=fields["id"],
        kind=fields["kind"],
        tenant_id=fields["tenant_id"],
        payload=json.loads(fields["payload"]),
        state=JobState(fields["state"]),
        attempts=int(fields["attempts"]),
        error=fields.get("error"),
        created_at=from_micros(int(fields["created_at"])),
        updated_at=from_micros(int(fields["updated_at"])),
        progress=float(fields["progress"]) if "progress" in fields else None,
        result=json.loads(fields["result"]) if "result" in fields else None,
    )


class RedisJobQueue(QueueBase):
    """A durable job queue on Redis Streams (see the module docstring)."""

    def __init__(
        self,
        url: str,
        *,
        stream: str = "cognimem:jobs",
        group: str = "workers",
        visibility_timeout_s: float = 30.0,
        max_attempts: int = 5,
        dead_letter_stream: str = "cognimem:jobs:dead",
        job_ttl_s: int = 7 * 86400,
        key_prefix: str = "cognimem:job:",
        clock: Clock = utc_now,
    ) -> None:
        check_limits(visibility_timeout_s, max_attempts)
        if aioredis is None:  # pragma: no cover
            raise UsageError("RedisJobQueue needs the redis package: pip install 'cognimem[redis]'")
        self.url = url
        self.stream = stream
        self.group = group
        self.visibility_timeout_s = visibility_timeout_s
        self.max_attempts = max_attempts
        self.dead_letter_stream = dead_letter_stream
        self.job_ttl_s = job_ttl_s
        self.key_prefix = key_prefix
        self._clock = clock
        self._client: aioredis.Redis | None = None

    @property
    def _redis(self) -> aioredis.Redis:
        if self._client is None:
            raise UsageError("the Redis job queue is not open; call open() first")
        return self._client

    def _key(self, job_id: str) -> str:
        return self.key_prefix + job_id

    @property
    def _delayed(self) -> str:
        """Retries waiting for their backoff, by when they are due."""
        return f"{self.stream}:delayed"

    def _tenant_index(self, tenant_id: str) -> str:
        """The tenant's job ids by creation time (listing)."""
        return f"{self.stream}:tenant:{tenant_id}"

    async def _call(self, make: Callable[[], Awaitable[T]]) -> T:
        try:
            return await make()
        except (redis_errors.ConnectionError, redis_errors.TimeoutError) as exc:
            raise StoreUnavailable(
                f"Redis at {redact_url(self.url)} is unavailable: {exc}", retry_after=1
            ) from exc
        except redis_errors.RedisError as exc:
            raise StoreError(f"Redis error at {redact_url(self.url)}: {exc}") from exc

    async def _ensure_group(self) -> None:
        try:
            await self._redis.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except redis_errors.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def open(self) -> None:
        if self._client is None:
            self._client = aioredis.Redis.from_url(
                self.url, decode_responses=True, socket_connect_timeout=5
            )
            self._enqueue_script = self._client.register_script(scripts.ENQUEUE)
            self._start_script = self._client.register_script(scripts.START)
            self._finish_script = self._client.register_script(scripts.FINISH)
            self._purge_script = self._client.register_script(scripts.PURGE)
            self._heartbeat_script = self._client.register_script(scripts.HEARTBEAT)
            self._promote_script = self._client.register_script(scripts.PROMOTE)
        await self._call(self._ensure_group)

    async def close(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()

    def clone(self) -> RedisJobQueue:
        return RedisJobQueue(
            self.url,
            stream=self.stream,
            group=self.group,
            visibility_timeout_s=self.visibility_timeout_s,
            max_attempts=self.max_attempts,
            dead_letter_stream=self.dead_letter_stream,
            job_ttl_s=self.job_ttl_s,
            key_prefix=self.key_prefix,
            clock=self._clock,
        )

    async def _put(self, kind: str, tenant_id: str, body: str, jid: str) -> Job:
        now = self._now()
        # a job's record expires job_ttl_s after it finishes: twice that after its
        # creation, its id leaves the listing index (which would otherwise only grow)
        oldest = now - 2 * self.job_ttl_s * 1_000_000
        args: list[str | int | float] = [jid, kind, tenant_id, body, now, oldest]
        keys = [self._key(jid), self.stream, self._tenant_index(tenant_id)]
        _, owner = await self._call(lambda: self._enqueue_script(keys=keys, args=args))
        if owner != tenant_id:
            raise taken(jid)
        return await self.get(tenant_id, jid)

    async def claim(self, worker: str, *, block_s: float = 0.0) -> Delivery | None:
        return await self._call(lambda: self._claim(worker, block_s))

    async def _claim(self, worker: str, block_s: float) -> Delivery | None:
        try:
            return await self._claim_once(worker, block_s)
        except redis_errors.ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
            # the server lost the group (restart without persistence, FLUSHALL)
            await self._ensure_group()
            return await self._claim_once(worker, block_s)

    async def _claim_once(self, worker: str, block_s: float) -> Delivery | None:
        deadline = time.monotonic() + max(block_s, 0.0)
        idle_ms = max(1, int(self.visibility_timeout_s * 1000))
        while True:
            await self._promote_script(
                keys=[self._delayed, self.stream], args=[self._now(), self.key_prefix]
            )
            cursor = "0-0"
            while True:  # XAUTOCLAIM looks at a bounded window of the pending list per call
                cursor, entries, *_ = await self._redis.xautoclaim(
                    self.stream, self.group, worker, idle_ms, start_id=cursor, count=1
                )
                for entry_id, fields in entries:
                    if fields and (delivery := await self._start(entry_id, fields, worker)):
                        return delivery
                if cursor == "0-0":
                    break
            left = deadline - time.monotonic()
            # Block in slices so that a lease running out meanwhile is reclaimed in time;
            # BLOCK 0 would wait forever: with no wait left, read without BLOCK.
            wait = min(left, max(0.05, min(1.0, self.visibility_timeout_s / 4)))
            block_ms = max(1, int(wait * 1000)) if left > 0 else None
            found = await self._redis.xreadgroup(
                self.group, worker, {self.stream: ">"}, count=1, block=block_ms
            )
            for entry_id, fields in _entries(found):
                if fields and (delivery := await self._start(entry_id, fields, worker)):
                    return delivery
            if deadline - time.monotonic() <= 0:
                return None

    async def _start(self, entry_id: str, fields: dict[str, str], worker: str) -> Delivery | None:
        jid = fields.get("job_id", "")
        keys = [self._key(jid), self.stream, self.dead_letter_stream]
        args: list[str | int | float] = [
            entry_id,
            worker,
            self.max_attempts,
            self._now(),
            self.group,
            self.job_ttl_s,
            expired_lease_error("", self.visibility_timeout_s).removeprefix("worker ?"),
        ]
        if not await self._start_script(keys=keys, args=args):
            return None
        job = _job(await self._redis.hgetall(self._key(jid)))
        return Delivery(job=job, delivery_id=f"{entry_id}/{job.attempts}")

    async def _finish(
        self,
        delivery: Delivery,
        mode: str,
        error: str = "",
        *,
        result: JobSummary | None = None,
        delay_s: float = 0.0,
    ) -> None:
        entry_id = delivery.delivery_id.rsplit("/", 1)[0]
        keys = [self._key(delivery.job.id), self.stream, self.dead_letter_stream, self._delayed]
        now = self._now()
        args: list[str | int | float] = [
            delivery.delivery_id,
            entry_id,
            self.group,
            now,
            self.job_ttl_s,
            mode,
            error,
            self.max_attempts,
            result_json(result) or "",
            now + int(max(delay_s, 0.0) * 1_000_000) if delay_s > 0 else 0,
        ]
        await self._call(lambda: self._finish_script(keys=keys, args=args))

    async def ack(
        self, delivery: Delivery, note: str | None = None, *, result: JobSummary | None = None
    ) -> None:
        await self._finish(delivery, "ack", note or "", result=result)

    async def fail(
        self, delivery: Delivery, error: str, *, retry: bool = True, delay_s: float = 0.0
    ) -> None:
        await self._finish(delivery, "retry" if retry else "fail", error, delay_s=delay_s)

    async def heartbeat(self, delivery: Delivery, progress: float | None = None) -> bool:
        check_progress(progress)
        keys = [self._key(delivery.job.id), self.stream]
        args: list[str | int | float] = [
            delivery.delivery_id,
            self.group,
            self._now(),
            "" if progress is None else progress,
        ]
        return bool(await self._call(lambda: self._heartbeat_script(keys=keys, args=args)))

    async def list_jobs(self, listing: JobListing) -> list[Job]:
        """Walks the tenant's index newest first; ids whose job expired are dropped from
        it on the way."""
        tenant_id, kind, state, limit = astuple(listing)
        check_listing(limit)
        index = self._tenant_index(tenant_id)

        async def read() -> list[Job]:
            jobs: list[Job] = []
            start = 0
            while len(jobs) < limit:
                ids = await self._redis.zrevrange(index, start, start + 2 * limit - 1)
                if not ids:
                    break
                start += len(ids)
                for jid in map(str, ids):
                    record = await self._redis.hgetall(self._key(jid))
                    if not record:
                        await self._redis.zrem(index, jid)
                        start -= 1
                        continue
                    job = _job(record)
                    if (kind is None or job.kind == kind) and (state is None or job.state == state):
                        jobs.append(job)
            return jobs[:limit]

        return await self._call(read)

    async def get(self, tenant_id: str, job_id: str) -> Job:
        fields = await self._call(lambda: self._redis.hgetall(self._key(job_id)))
        if not fields or _text(fields).get("tenant_id") != tenant_id:
            raise NotFound("job", job_id)
        return _job(fields)

    async def depth(self) -> int:
        return int(await self._call(lambda: self._redis.xlen(self.stream)))

    async def purge_user(self, tenant_id: str, user_id: str) -> int:
        """Scans the job hashes (an erasure is rare; jobs expire after ``job_ttl_s``) and
        deletes those whose payload names the user. A job's id stays in the dead-letter
        stream, where ``dead_letters`` skips ids whose job is gone."""
        return await self._purge(tenant_id, lambda p: p.get("user_id") == user_id)

    async def purge_level(self, tenant_id: str, agent_id: str | None, namespace: str | None) -> int:
        """As ``purge_user``, for the jobs of one shared level."""
        return await self._purge(tenant_id, lambda p: of_level(p, agent_id, namespace))

    async def _purge(self, tenant_id: str, owned: Callable[[dict[str, Any]], bool]) -> int:
        async def purge() -> int:
            removed = 0
            async for key in self._redis.scan_iter(match=f"{self.key_prefix}*", count=500):
                tenant, payload = await self._redis.hmget(key, ["tenant_id", "payload"])
                if tenant != tenant_id or payload is None:
                    continue
                try:
                    body = json.loads(payload)
                except ValueError:
                    continue
                if isinstance(body, dict) and owned(body):
                    keys = [key, self.stream, self._delayed, self._tenant_index(tenant)]
                    removed += int(await self._purge_script(keys=keys, args=[self.group, tenant]))
            return removed

        return await self._call(purge)

    async def dead_letters(self, limit: int = 100) -> list[Job]:
        async def read() -> list[Job]:
            jobs: list[Job] = []
            seen: set[str] = set()
            cursor = "+"
            while len(jobs) < limit:
                batch: list[Any] = (
                    await self._redis.xrevrange(self.dead_letter_stream, max=cursor, count=limit)
                    or []
                )
                for entry_id, fields in batch:
                    cursor = f"({entry_id!s}"
                    jid = _text(fields).get("job_id", "")
                    if jid in seen:
                        continue
                    seen.add(jid)
                    record = await self._redis.hgetall(self._key(jid))
                    if record and record.get("state") == JobState.FAILED:
                        jobs.append(_job(record))
                if len(batch) < limit:
                    break
            return jobs[:limit]

        return await self._call(read)


def _text(record: Any) -> dict[str, str]:
    """A hash or stream entry as str -> str (the client decodes responses)."""
    return {str(k): str(v) for k, v in (record or {}).items()}


def _entries(found: Any) -> list[tuple[str, dict[str, str]]]:
    """XREADGROUP's answer (a RESP2 list or a RESP3 map) as (entry id, fields) pairs."""
    if not found:
        return []
    if isinstance(found, dict):
        return [(eid, fields) for batches in found.values() for eid, fields in batches[0]]
    return [(eid, fields) for _stream, batch in found for eid, fields in batch]
