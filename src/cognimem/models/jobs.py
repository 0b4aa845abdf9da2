"""A durable job as the queue reports it (``queue/`` holds the queues; the model lives
here, below every layer, because lifecycle runs and the jobs API return it too)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel

JobSummary = dict[str, int | str]
"""What a done job did, as its kind summarises it (lifecycle jobs: counts)."""


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class Job(BaseModel):
    id: str
    kind: str
    tenant_id: str
    payload: dict[str, Any]
    state: JobState
    attempts: int
    # failed: why; done: what was degraded while doing it (e.g. the LLM failed), or None
    error: str | None
    created_at: datetime
    updated_at: datetime
    # what share of the work the worker reported done (0-1; None: none reported)
    progress: float | None = None
    # what a done job did, as the job's kind summarises it (lifecycle jobs: counts)
    result: JobSummary | None = None
