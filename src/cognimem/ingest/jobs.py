"""Queuing ingest jobs (async ingestion): a write's job, the job of a retried write whose
events are not processed yet, and a worker's sweep for events whose job was never queued.

A write commits its raw events (each recording its job's id and ingest profile) and then
queues the job. On the embedded default both happen in one SQLite transaction; with
Redis they cannot, and a crash between the two would leave the events unprocessed with
no job. Every worker therefore sweeps at start and on an interval: events unprocessed
for longer than a grace period have their jobs queued again, built from the database
alone. Queuing is idempotent on the job id, so a job still queued, running, done or
dead-lettered is left as it is, and a job for events already processed does nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime

from cognimem.errors import NotFound
from cognimem.queue.base import Job, JobQueue
from cognimem.store.admin_protocols import JobStore
from cognimem.store.types import INGEST_JOB, PendingJob

log = logging.getLogger(__name__)


async def enqueue(queue: JobQueue, job: PendingJob) -> Job:
    """Queue ``job`` (the existing job when its id is queued already)."""
    return await queue.enqueue(INGEST_JOB, job.tenant_id, job.payload(), job_id=job.id)


async def requeue_stranded(
    store: JobStore, queue: JobQueue, *, recorded_before: datetime, limit: int
) -> list[str]:
    """Queue the jobs of events unprocessed since before ``recorded_before`` (looking at
    the ``limit`` oldest such events) that the queue does not know; returns their ids."""
    requeued: list[str] = []
    for job in await store.stranded_jobs(recorded_before, limit):
        try:
            await queue.get(job.tenant_id, job.id)
            continue  # queued, running, done or dead-lettered: the queue has it
        except NotFound:
            pass
        await enqueue(queue, job)
        requeued.append(job.id)
    if requeued:
        log.warning(
            "queued %d ingest job(s) again whose events were stored but never queued: %s",
            len(requeued),
            ", ".join(requeued),
        )
    return requeued
