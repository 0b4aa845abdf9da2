"""Lifecycle operations as durable jobs: the table of operations by name, admin calls
(a dry run inline, else a queued job), running a job under a lease on its scope, and the
scheduler a worker runs on every tick.

A lifecycle job is a queue job of kind ``lifecycle`` whose payload names the operation,
the level (a user, or ``level`` and ``agent_id`` for a shared one) and what triggered
it; its id is derived from the operation, the level and a trigger key, so queuing the
same trigger twice gives one job. A run first takes the
scope's lease for that operation in the store (``LifecycleStore``): at most one run of an
operation holds a scope at a time, whichever job it came from. While it runs, a heartbeat
extends both the queue's delivery lease and the scope lease and records progress; a
worker that dies stops beating, both leases run out, and the job is delivered again to
another worker, which takes the scope over (the lease names its job). A job that finds
the scope held by another job is done at once, skipped: the run in progress covers the
scope as of its start. A run that fails goes back to the queue with an exponential
backoff (``lifecycle.retry_base_s`` doubling up to ``retry_max_s``) until the queue's
attempts run out.

Every run of an operation in this process (a dry run, or a job this process runs) is
reported to the observers added with :meth:`LifecycleJobService.observe`: the operation,
its wall-clock seconds and the records it went through (``None``: it failed). The HTTP
app's ``Metrics`` is one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, Protocol, TypeVar

from cognimem.config import OperationSchedule
from cognimem.errors import InvalidInput, NotFound, StoreUnavailable, UsageError
from cognimem.models.arguments import ScopeLike, check_ids, make_level_scope, require_level
from cognimem.models.ids import new_id
from cognimem.models.lifecycle import LifecycleRun, OperationResult
from cognimem.models.lifecycle_requests import JobListArgs, RunLifecycleKeywords
from cognimem.models.requests import check_keywords
from cognimem.models.scope import ORGANISATION_NAMESPACE, Scope
from cognimem.queue.base import Delivery, Job, JobListing, JobQueue, JobState
from cognimem.services.components import Components
from cognimem.store.types import DueScope, ScopeLease

log = logging.getLogger(__name__)

LIFECYCLE_JOB = "lifecycle"

Progress = Callable[[float], None]
# (operation, seconds, records touched; None when the run failed)
LifecycleObserver = Callable[[str, float, int | None], None]


class Operation(Protocol):
    """A lifecycle operation: a service method run on one level's memories."""

    def __call__(
        self, scope: Scope, *, dry_run: bool, progress: Progress | None = None
    ) -> Awaitable[OperationResult]: ...


R = TypeVar("R", bound=OperationResult)


class OperationService(ABC, Generic[R]):
    """A service whose ``run`` is an :class:`Operation`, written once for every
    operation: the components checked open, the service's own ``_operate`` on the
    scope, and the progress reported done (1.0) once it returns."""

    def __init__(self, parts: Components) -> None:
        self._parts = parts

    async def run(self, scope: Scope, *, dry_run: bool, progress: Progress | None = None) -> R:
        self._parts.require_open()
        result = await self._operate(scope, dry_run, progress)
        if progress is not None:
            progress(1.0)
        return result

    @abstractmethod
    async def _operate(self, scope: Scope, dry_run: bool, progress: Progress | None) -> R:
        """The operation on ``scope``; ``progress``, when given, takes the fractions
        done below 1.0."""


class LeaseLost(RuntimeError):
    """The run's lease ran out (it stalled longer than the lease): another worker may run
    the job now, so this one stops."""


def level_key(scope: Scope) -> str:
    """Whose memories a lifecycle run holds, as its lease and job name them: the user's
    id, or (characters no id has) ``#agent/<id>`` or ``#organisation`` for a shared
    level (the namespace's and the organisation's, told apart by their namespace), so
    no user's run and a level's ever share a lease."""
    if scope.user_id is not None:
        return scope.user_id
    return "#organisation" if scope.agent_id is None else f"#agent/{scope.agent_id}"


def lifecycle_job_id(op: str, scope: Scope, key: str) -> str:
    """The job of ``op`` on ``scope`` for trigger ``key``: the same inputs, the same id."""
    parts = (scope.tenant_id, scope.namespace, level_key(scope), op, key)
    digest = hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]
    return f"job_lc_{digest}"


def backoff_s(attempts: int, base_s: float, max_s: float) -> float:
    """How long a run that failed on its ``attempts``-th delivery waits before the next."""
    return float(min(base_s * 2 ** max(attempts - 1, 0), max_s))


@dataclass(frozen=True)
class Trigger:
    """Why the scheduler queues a run, and the key its job id is derived from."""

    name: str  # "episodes", "session_closed" or "interval"
    key: str


def due_trigger(due: DueScope, schedule: OperationSchedule, now: datetime) -> Trigger | None:
    """Whether ``due`` is due by ``schedule`` at ``now``, and why. One key per completed
    run (``done_from``) and, with an interval, per interval period: a scope gets at most
    one scheduled job until its run completes, and a job that failed for good is tried
    again the next period."""
    key = "due:" + ("never" if due.done_from is None else due.done_from.isoformat())
    if schedule.interval_s is not None:
        key += f"/{int(now.timestamp() // schedule.interval_s)}"
    if schedule.after_episodes is not None and due.new_episodes >= schedule.after_episodes:
        return Trigger("episodes", key)
    if schedule.on_session_close and due.closed_sessions > 0:
        return Trigger("session_closed", key)
    # a scope never run counts its interval from its first new episode
    since = due.done_from or due.first_new
    if (
        schedule.interval_s is not None
        and due.new_episodes > 0
        and since is not None
        and (now - since).total_seconds() >= schedule.interval_s
    ):
        return Trigger("interval", key)
    return None


class LifecycleJobService:
    """``Memory.run_lifecycle``, ``list_jobs``, ``schedule_lifecycle`` and the running of
    lifecycle jobs for ``JobService`` (see the module docstring)."""

    def __init__(self, parts: Components, operations: Mapping[str, Operation]) -> None:
        self._parts = parts
        self._operations: dict[str, Operation] = dict(operations)
        self._observers: list[LifecycleObserver] = []

    def observe(self, observer: LifecycleObserver) -> None:
        """Report every run of an operation in this process to ``observer``."""
        self._observers.append(observer)

    def _observed(self, op: str, began: float, touched: int | None) -> None:
        seconds = time.perf_counter() - began
        for observer in self._observers:
            observer(op, seconds, touched)

    @property
    def operations(self) -> list[str]:
        return sorted(self._operations)

    def register(self, name: str, operation: Operation) -> None:
        """Add an operation to the table (an extension, or a test's)."""
        check_ids(op=name)
        if name in self._operations:
            raise UsageError(f"a lifecycle operation named {name!r} is registered already")
        self._operations[name] = operation

    def _operation(self, name: str) -> Operation:
        try:
            return self._operations[name]
        except KeyError:
            known = ", ".join(self.operations) or "none"
            # NotFound: over HTTP the operation is the route's path (404, as any unknown
            # resource), and a schema-valid name must never be a 422
            raise NotFound("lifecycle operation", name, hint=f"registered: {known}") from None

    def _queue(self) -> JobQueue:
        return self._parts.require_queue(
            "lifecycle jobs need a job queue: on PostgreSQL set "
            "COGNIMEM_QUEUE_URL=redis://host:6379/0 (or run a dry run)"
        )

    @staticmethod
    def _scope(
        scope: ScopeLike, user_id: str | None, agent_id: str | None, namespace: str | None
    ) -> Scope:
        """A lifecycle operation's scope: one level's memories in one namespace — a
        user's, an agent's (no user), or the organisation's (said as ``level``)."""
        target = make_level_scope(scope, user_id=user_id, agent_id=agent_id, namespace=namespace)
        require_level(target, "a lifecycle operation")
        return target

    async def run_lifecycle(self, op: str, options: RunLifecycleKeywords) -> LifecycleRun:
        self._parts.require_open()
        check_keywords(options, RunLifecycleKeywords)
        operation = self._operation(op)
        target = self._scope(
            options.get("scope"),
            options.get("user_id"),
            options.get("agent_id"),
            options.get("namespace"),
        )
        dry_run, key = options.get("dry_run", False), options.get("key")
        progress = options.get("progress")
        if dry_run:
            began = time.perf_counter()
            try:
                result = await operation(target, dry_run=True, progress=progress)
                touched = result.touched()
            except Exception:
                self._observed(op, began, None)
                raise
            self._observed(op, began, touched)
            return LifecycleRun(
                op=op,
                scope=target,
                dry_run=True,
                result=result.model_dump(mode="json"),
                summary=result.summary(),
            )
        if key is not None:
            check_ids(key=key)
            if not key:
                raise InvalidInput("key must not be empty", field="key")
        job = await self.enqueue(op, target, trigger="manual", key=f"manual:{key or new_id('run')}")
        return LifecycleRun(op=op, scope=target, dry_run=False, job=job)

    async def enqueue(self, op: str, scope: Scope, *, trigger: str, key: str) -> Job:
        """Queue ``op`` on ``scope`` (the existing job when this key queued it before)."""
        payload = {
            "op": op,
            "user_id": scope.user_id,
            "namespace": scope.namespace,
            "trigger": trigger,
        }
        if scope.user_id is None:  # a shared level: the agent's, namespace's, organisation's
            payload["agent_id"] = scope.agent_id
            payload["level"] = scope.level
        return await self._queue().enqueue(
            LIFECYCLE_JOB, scope.tenant_id, payload, job_id=lifecycle_job_id(op, scope, key)
        )

    async def list_jobs(self, args: JobListArgs) -> list[Job]:
        self._parts.require_open()
        tenant_id, kind, state, limit = args.tenant_id, args.kind, args.state, args.limit
        check_ids(kind=kind)
        try:
            wanted = None if state is None else JobState(state)
        except ValueError:
            choices = ", ".join(s.value for s in JobState)
            raise InvalidInput(f"state must be one of {choices}", field="state") from None
        if self._parts.queue is None:
            return []
        return await self._parts.queue.list_jobs(JobListing(tenant_id, kind, wanted, limit))

    # -- running a job ---------------------------------------------------------------
    async def run_job(self, delivery: Delivery, worker: str) -> None:
        """Run a lifecycle job under its scope's lease and acknowledge it (or send it
        back with a backoff). A malformed job is ``InvalidInput`` (never retried)."""
        queue = self._queue()
        parts = self._parts
        settings = parts.settings.lifecycle
        job = delivery.job
        op, scope = self._parse(job)
        operation = self._operation(op)
        lease = ScopeLease(
            scope.tenant_id, scope.namespace, level_key(scope), op, worker,
            delivery.delivery_id, job.id,
        )  # fmt: skip
        started = parts.clock()
        delay = backoff_s(job.attempts, settings.retry_base_s, settings.retry_max_s)
        if not await self._hold(delivery, lease, scope, started):
            return
        reported: list[float] = []  # the latest share done the operation reported

        def report(done: float) -> None:
            reported[:] = [min(max(float(done), 0.0), 1.0)]

        began = time.perf_counter()
        work = asyncio.ensure_future(operation(scope, dry_run=False, progress=report))
        beats = asyncio.ensure_future(self._beat(delivery, lease, reported, work))
        why: str | None = None
        try:
            result = await work
            touched = result.touched()
        except asyncio.CancelledError:
            if not beats.done():  # this worker is being stopped, not the lease lost
                await parts.store.release_lease(lease, done_from=None, job_id=None)
                raise
            why = "the run stalled past its lease and stopped"
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}"
        finally:
            beats.cancel()
            with contextlib.suppress(asyncio.CancelledError, LeaseLost):
                await beats
        if await self._purged(job):
            # its level was erased while it ran: what it read is gone (and what it would
            # store of it refused: a summary of erased episodes), its result is discarded
            # and its lease goes, so no row of the level is left behind
            log.info("lifecycle job %s was purged by an erasure while it ran", job.id)
            self._observed(op, began, None if why is not None else touched)
            await parts.store.drop_lease(lease)
            return
        if why is not None:
            log.warning("lifecycle job %s (%s on %s) failed: %s", job.id, op, scope.label(), why)
            self._observed(op, began, None)
            await parts.store.release_lease(lease, done_from=None, job_id=None)
            await queue.fail(delivery, why, retry=True, delay_s=delay)
            return
        self._observed(op, began, touched)
        await parts.store.release_lease(lease, done_from=started, job_id=job.id)
        await queue.ack(delivery, result=result.summary())

    async def _hold(
        self, delivery: Delivery, lease: ScopeLease, scope: Scope, now: datetime
    ) -> bool:
        """Take the scope's lease for the job; False when it must not run: another job
        holds the scope (this one is acknowledged, skipped), or an erasure purged it."""
        parts, job = self._parts, delivery.job
        until = now + timedelta(seconds=parts.settings.lifecycle.lease_s)
        running = await parts.store.take_lease(lease, now=now, until=until)
        if running is not None:
            # the run in progress covers the scope as of its start; what comes later is
            # new to the next run, which the scheduler queues
            log.info("%s on %s is running as job %s: job %s skipped", lease.op, scope.label(),
                     running, job.id)  # fmt: skip
            result: dict[str, int | str] = {"skipped": "running", "running_job": running}
            await self._queue().ack(delivery, result=result)
            return False
        if await self._purged(job):
            # an erasure purged the job after it was claimed: it does not run, and the
            # lease it just took (the erasure may have removed the level's already) goes
            log.info("lifecycle job %s was purged by an erasure: not run", job.id)
            await parts.store.drop_lease(lease)
            return False
        return True

    async def _purged(self, job: Job) -> bool:
        """Whether an erasure removed ``job`` from the queue (``JobQueue.purge_user``,
        ``purge_level``): its level's memories are gone."""
        try:
            await self._queue().get(job.tenant_id, job.id)
        except NotFound:
            return True
        return False

    async def _beat(
        self,
        delivery: Delivery,
        lease: ScopeLease,
        reported: list[float],
        work: asyncio.Future[Any],
    ) -> None:
        """Every third of the shorter lease: extend the delivery and the scope lease and
        record the latest progress; cancel ``work`` when either lease was lost."""
        parts = self._parts
        queue = self._queue()
        # the queue's own lease (a queue built by hand may differ from the settings)
        visibility = float(
            getattr(queue, "visibility_timeout_s", parts.settings.ingest.visibility_timeout_s)
        )
        every = min(parts.settings.lifecycle.lease_s, visibility) / 3
        while True:
            await asyncio.sleep(every)
            until = parts.clock() + timedelta(seconds=parts.settings.lifecycle.lease_s)
            progress = reported[-1] if reported else None
            try:
                held = await queue.heartbeat(delivery, progress) and await parts.store.renew_lease(
                    lease, until=until
                )
            except StoreUnavailable as exc:
                # beat again next time; if it stays down the leases run out and the next
                # beat that gets through finds them lost
                log.warning("lifecycle job %s heartbeat failed: %s", delivery.job.id, exc.message)
                continue
            if not held:
                work.cancel()
                raise LeaseLost(f"job {delivery.job.id} lost its lease")

    @staticmethod
    def _parse(job: Job) -> tuple[str, Scope]:
        payload = job.payload
        op = payload.get("op")
        if not isinstance(op, str) or not op:
            raise InvalidInput("a lifecycle job names its operation", field="payload.op")
        where: dict[str, Any] = {
            "tenant_id": job.tenant_id,
            "namespace": payload.get("namespace") or "default",
        }
        level = payload.get("level")
        if level in ("namespace", "organisation") and payload.get("user_id") is None:
            # one queued before the organisation's level spanned every namespace says
            # "organisation" with the namespace it ran in: that namespace's level now
            organisation = where["namespace"] == ORGANISATION_NAMESPACE
            where["level"] = "organisation" if organisation else "namespace"
        scope = make_level_scope(
            where, user_id=payload.get("user_id"), agent_id=payload.get("agent_id")
        )
        return op, scope

    # -- the scheduler ---------------------------------------------------------------
    async def schedule(self) -> list[Job]:
        """One scheduler tick: queue every registered operation with a schedule on the
        levels due by it — users, and (``shared_levels``) each agent's own level and the
        organisation's, per tenant and namespace; returns the jobs queued (or found
        queued already)."""
        parts = self._parts
        settings = parts.settings.lifecycle
        queued: list[Job] = []
        for op, schedule in sorted(settings.operations.by_name().items()):
            if op not in self._operations:
                continue
            now = parts.clock()
            found = await parts.store.lifecycle_due(
                op, limit=settings.scan_limit, levels=schedule.shared_levels
            )
            for due in found:
                trigger = due_trigger(due, schedule, now)
                if trigger is None:
                    continue
                queued.append(
                    await self.enqueue(op, due.scope(), trigger=trigger.name, key=trigger.key)
                )
        return queued
