"""Jobs: looking one up, a worker claiming, running and acknowledging them, the loop a
worker runs, and the sweep that queues the jobs of events a crash left without one."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import timedelta

from cognimem.errors import InvalidInput, NotFound, StoreUnavailable
from cognimem.ingest.funnel import Processed
from cognimem.ingest.jobs import requeue_stranded
from cognimem.models import WriteStepReport
from cognimem.models.arguments import check_ids
from cognimem.queue import Job, JobQueue
from cognimem.services.components import Components
from cognimem.services.lifecycle.operations import LIFECYCLE_JOB, LifecycleJobService
from cognimem.services.writing import WriteService
from cognimem.store.types import INGEST_JOB

log = logging.getLogger(__name__)

# how many stranded jobs one sweep queues at most
SWEEP_LIMIT = 500

# told ``(job kind, degraded entries, step latencies)`` after each ingest job this
# process ran and acknowledged
JobObserver = Callable[[str, list[str], list[WriteStepReport]], None]


class JobService:
    """``Memory.get_job``, ``process_next_job``, ``requeue_stranded`` and ``run_worker``
    (documented there)."""

    def __init__(
        self, parts: Components, writing: WriteService, lifecycle: LifecycleJobService
    ) -> None:
        self._parts = parts
        self._writing = writing
        self._lifecycle = lifecycle
        self._observers: list[JobObserver] = []

    def observe(self, observer: JobObserver) -> None:
        """Report every ingest job this process runs and acknowledges to ``observer``."""
        self._observers.append(observer)

    def _require_queue(self) -> JobQueue:
        return self._parts.require_queue(
            "no job queue is configured: set COGNIMEM_INGEST__MODE=async "
            "(and COGNIMEM_QUEUE_URL for Redis)"
        )

    async def get_job(self, job_id: str, *, tenant_id: str) -> Job:
        parts = self._parts
        parts.require_open()
        check_ids(job_id=job_id)
        if parts.queue is None:
            raise NotFound("job", job_id)
        return await parts.queue.get(tenant_id, job_id)

    async def process_next_job(self, worker: str, *, block_s: float) -> Job | None:
        queue = self._require_queue()
        delivery = await queue.claim(worker, block_s=block_s)
        if delivery is None:
            return None
        job = delivery.job
        done: Processed | None = None  # None: the job acknowledged itself
        try:
            if job.kind == LIFECYCLE_JOB:
                # acknowledges, or sends back with a backoff, itself
                await self._lifecycle.run_job(delivery, worker)
            elif job.kind == INGEST_JOB:
                done = await self._writing.ingest_job(job.tenant_id, job.payload)
            else:
                raise InvalidInput(f"unknown job kind {job.kind!r}", field="kind")
        except InvalidInput as exc:
            log.error("job %s is malformed and will not be retried: %s", job.id, exc.message)
            await queue.fail(delivery, f"{exc.type}: {exc.message}", retry=False)
        except Exception as exc:
            log.exception("job %s failed (attempt %d)", job.id, job.attempts)
            await queue.fail(delivery, f"{type(exc).__name__}: {exc}", retry=True)
        else:
            if done is not None:
                await queue.ack(delivery, "; ".join(done.degraded) or None)
                for observer in self._observers:
                    observer(job.kind, done.degraded, done.steps)
        try:
            return await queue.get(job.tenant_id, job.id)
        except NotFound:
            # its user was erased while it ran (the erasure purged it): it stored nothing
            log.info("job %s was purged by an erasure while it ran", job.id)
            return job

    async def requeue_stranded(self, *, limit: int) -> list[str]:
        queue = self._require_queue()
        parts = self._parts
        grace = timedelta(seconds=parts.settings.ingest.sweep_grace_s)
        return await requeue_stranded(
            parts.store, queue, recorded_before=parts.clock() - grace, limit=limit
        )

    async def run_worker(self, worker: str, *, stop: asyncio.Event, poll_s: float) -> int:
        handled = 0
        next_sweep = next_tick = time.monotonic()
        lifecycle = self._parts.settings.lifecycle
        while not stop.is_set():
            if lifecycle.schedule and time.monotonic() >= next_tick:
                try:
                    await self._lifecycle.schedule()
                except StoreUnavailable as exc:
                    log.warning("lifecycle scheduling failed, retried later: %s", exc.message)
                next_tick = time.monotonic() + lifecycle.tick_s
            if time.monotonic() >= next_sweep:
                try:
                    await self.requeue_stranded(limit=SWEEP_LIMIT)
                except StoreUnavailable as exc:
                    log.warning("sweep for stranded jobs failed, retried later: %s", exc.message)
                next_sweep = time.monotonic() + self._parts.settings.ingest.sweep_interval_s
            if await self.process_next_job(worker, block_s=poll_s) is not None:
                handled += 1
        return handled
