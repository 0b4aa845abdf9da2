"""Lifecycle operations' results and runs.

Each operation (``consolidate``, ``revise``, ...) returns its own result model here, with
``dry_run`` and a ``summary()`` of counts for job listings; :class:`LifecycleRun` is what
an admin call answers: the queued job, or a dry run's result inline.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel

from cognimem.models.scope import Scope
from cognimem.queue.base import Job


class OperationResult(Protocol):
    """What every lifecycle operation returns (a pydantic model of its own)."""

    dry_run: bool

    def summary(self) -> dict[str, int | str]:
        """A few counts (and words) for job listings: what changed, or would."""
        ...

    def model_dump(self, *, mode: str = ...) -> dict[str, Any]: ...


class LifecycleRun(BaseModel):
    """An admin call of a lifecycle operation on one user's memories: the job it queued
    (``job``), or for a dry run, which changes nothing, what the operation would do
    (``result``, the operation's own result model as JSON, and its ``summary``)."""

    op: str
    scope: Scope
    dry_run: bool
    job: Job | None = None
    result: dict[str, Any] | None = None
    summary: dict[str, int | str] | None = None
