"""The durable job queue seam: models, the ``JobQueue`` protocol and shared checks.

Delivery is at least once. Each claim hands the worker a :class:`Delivery` whose
``delivery_id`` is a lease token: ``ack``/``fail`` with a token the queue has since
given to another worker (after the visibility timeout) change nothing, so a stale
worker can never mark DONE a job it no longer owns. Consumers must be idempotent.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Protocol, Self, runtime_checkable

from pydantic import BaseModel

from cognimem.errors import Conflict, InvalidInput
from cognimem.models.clock import Clock, to_micros
from cognimem.models.ids import new_id
from cognimem.models.jobs import Job, JobState, JobSummary

__all__ = ["Delivery", "Job", "JobListing", "JobQueue", "JobState"]

MAX_ATTEMPTS_PREFIX = "max attempts exceeded: "


class Delivery(BaseModel):
    """What a worker holds between ``claim`` and ``ack``/``fail``."""

    job: Job
    delivery_id: str


@dataclass(frozen=True)
class JobListing:
    """The tenant's jobs ``JobQueue.list_jobs`` lists, newest first: of one ``kind`` and
    ``state`` when given, at most ``limit`` (1 to 1000)."""

    tenant_id: str
    kind: str | None = None
    state: JobState | None = None
    limit: int = 100


class QueueLifetime(ABC):
    """What each queue shares around its connection: ``async with`` opens it and closes
    it."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class QueueBase(QueueLifetime):
    """What both queues share around their storage: their clock (``_clock``, set by
    each) and an enqueue's checks before the backend stores the job (``_put``)."""

    _clock: Clock

    def _now(self) -> int:
        """The clock's time in microseconds, as the queues store times."""
        return to_micros(self._clock())

    async def enqueue(
        self, kind: str, tenant_id: str, payload: dict[str, Any], *, job_id: str | None = None
    ) -> Job:
        body = check_enqueue(kind, tenant_id, payload, job_id)
        return await self._put(kind, tenant_id, body, job_id or new_job_id())

    @abstractmethod
    async def _put(self, kind: str, tenant_id: str, body: str, job_id: str) -> Job:
        """Queue a job of ``body`` (its payload as JSON) under ``job_id``, or find the
        tenant's job stored under it already; the id held by another tenant's job
        raises ``taken(job_id)``."""


def taken(job_id: str) -> Conflict:
    """What an enqueue under an id another tenant's job holds raises."""
    return Conflict(f"job id {job_id!r} is already taken")


@runtime_checkable
class JobQueue(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    def clone(self) -> JobQueue:
        """A new, unopened queue on the same backend, names and limits, with
        connections of its own: for another thread's event loop (a worker's metrics
        port reads the depth with one while the worker's loop runs a job)."""
        ...

    async def enqueue(
        self, kind: str, tenant_id: str, payload: dict[str, Any], *, job_id: str | None = None
    ) -> Job:
        """Queue a job; idempotent on ``job_id`` (an existing id returns the existing job)."""
        ...

    async def claim(self, worker: str, *, block_s: float = 0.0) -> Delivery | None:
        """The next job for ``worker`` (or one whose lease expired), or None."""
        ...

    async def ack(
        self, delivery: Delivery, note: str | None = None, *, result: JobSummary | None = None
    ) -> None:
        """Mark the job DONE (``note``: what was degraded, kept in ``error``; ``result``:
        its summary, and its progress is then 1); ignored if the delivery is no longer
        the current one."""
        ...

    async def fail(
        self, delivery: Delivery, error: str, *, retry: bool = True, delay_s: float = 0.0
    ) -> None:
        """Requeue the job (``retry``; claimable again after ``delay_s``) or mark it
        FAILED now."""
        ...

    async def heartbeat(self, delivery: Delivery, progress: float | None = None) -> bool:
        """The worker is still at it: extend the delivery's lease by the visibility
        timeout from now and record ``progress`` (0-1). False when the delivery is no
        longer the current one (its lease ran out and the job moved on)."""
        ...

    async def list_jobs(self, listing: JobListing) -> list[Job]:
        """The jobs ``listing`` names, newest first."""
        ...

    async def get(self, tenant_id: str, job_id: str) -> Job: ...

    async def depth(self) -> int:
        """Jobs queued or running."""
        ...

    async def dead_letters(self, limit: int = 100) -> list[Job]:
        """FAILED jobs, most recently failed first."""
        ...

    async def purge_user(self, tenant_id: str, user_id: str) -> int:
        """Remove every job (queued, running, done or failed) whose payload belongs to
        this user (erasure); returns how many were removed."""
        ...

    async def purge_level(self, tenant_id: str, agent_id: str | None, namespace: str | None) -> int:
        """Remove every job (queued, running, done or failed) whose payload belongs to
        this shared level — an agent's own (``agent_id``, any namespace) or, for
        ``None``, the namespace's level of ``namespace`` (the organisation's:
        ``ORGANISATION_NAMESPACE``): its ingest and lifecycle jobs, which say ``level``
        (and ``agent_id``) with no user (erasure); returns how many were removed. A
        user's job is never one of them, whatever its agent."""
        ...


def of_level(payload: object, agent_id: str | None, namespace: str | None) -> bool:
    """Whether a job's payload belongs to the shared level of ``agent_id`` (any
    namespace) or, for ``None``, the no-agent level of ``namespace`` (the namespace's,
    or the organisation's in ``ORGANISATION_NAMESPACE``): no user, and the level said
    out loud (``level``), never inferred from an id left out. A job queued before the
    organisation's level spanned every namespace says ``organisation`` with the
    namespace it ran in: the namespace's level now."""
    if not isinstance(payload, dict) or payload.get("user_id") is not None:
        return False
    level = payload.get("level")
    if agent_id is not None:
        return level == "agent" and payload.get("agent_id") == agent_id
    return level in ("namespace", "organisation") and payload.get("namespace") == namespace


def new_job_id() -> str:
    return new_id("job")


def check_enqueue(kind: str, tenant_id: str, payload: dict[str, Any], job_id: str | None) -> str:
    """Validate enqueue arguments; returns the payload as JSON."""
    if not kind:
        raise InvalidInput("a job needs a kind", field="kind")
    if not tenant_id:
        raise InvalidInput("a job needs a tenant_id", field="tenant_id")
    if job_id is not None and not job_id:
        raise InvalidInput("job_id must not be empty", field="job_id")
    if not isinstance(payload, dict):
        raise InvalidInput("a job payload must be a JSON object", field="payload")
    try:
        return json.dumps(payload, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"the job payload is not JSON: {exc}", field="payload") from exc


def check_progress(progress: float | None) -> None:
    if progress is not None and not 0.0 <= progress <= 1.0:
        raise InvalidInput("progress must lie in [0, 1]", field="progress")


def check_listing(limit: int) -> None:
    if not 1 <= limit <= 1000:
        raise InvalidInput("limit must lie in [1, 1000]", field="limit")


def result_json(result: JobSummary | None) -> str | None:
    return None if result is None else json.dumps(result, separators=(",", ":"))


def check_limits(visibility_timeout_s: float, max_attempts: int) -> None:
    if visibility_timeout_s <= 0:
        raise InvalidInput("visibility_timeout_s must be positive", field="visibility_timeout_s")
    if max_attempts < 1:
        raise InvalidInput("max_attempts must be at least 1", field="max_attempts")


def expired_lease_error(worker: str | None, visibility_timeout_s: float) -> str:
    return f"worker {worker or '?'} did not ack within {visibility_timeout_s:g} s"
