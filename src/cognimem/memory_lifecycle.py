"""``Memory``'s lifecycle calls (a mixin, so ``memory.py`` keeps to the write and read
surface): an operation run as a job or as a dry run, the job listing, the operation
table and one scheduler tick. The work is ``services.lifecycle_jobs``'s."""

from __future__ import annotations

from cognimem.models.arguments import ScopeLike
from cognimem.models.lifecycle import LifecycleRun
from cognimem.queue import Job, JobState
from cognimem.services.lifecycle_jobs import LifecycleJobService, Operation, Progress


class LifecycleCalls:
    _lifecycle: LifecycleJobService

    @property
    def lifecycle_operations(self) -> list[str]:
        """The names of the registered lifecycle operations."""
        return self._lifecycle.operations

    def register_lifecycle_operation(self, name: str, operation: Operation) -> None:
        """Add a lifecycle operation: ``async def op(scope, *, dry_run, progress=None)``
        returning a model with ``dry_run`` and ``summary()``. A name taken already is a
        ``UsageError``."""
        self._lifecycle.register(name, operation)

    async def run_lifecycle(
        self,
        op: str,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        namespace: str | None = None,
        dry_run: bool = False,
        key: str | None = None,
        progress: Progress | None = None,
    ) -> LifecycleRun:
        """Run lifecycle operation ``op`` (``consolidate``, ``revise``, ...) on one user's
        memories. A dry run runs it here and now, changes nothing and returns what it
        would change (``result``, ``summary``; ``progress`` gets the share done). Else a
        durable job is queued and returned (``job``) for a worker (``cognimem worker``)
        to run; ``key`` makes the call idempotent: the same op, scope and key give the
        same job. An unknown op is ``InvalidInput(field="op")``; a scope with an agent or
        a session, or without a user, is ``InvalidInput``."""
        return await self._lifecycle.run_lifecycle(
            op,
            scope=scope,
            user_id=user_id,
            namespace=namespace,
            dry_run=dry_run,
            key=key,
            progress=progress,
        )

    async def list_jobs(
        self,
        *,
        tenant_id: str = "default",
        kind: str | None = None,
        state: JobState | str | None = None,
        limit: int = 100,
    ) -> list[Job]:
        """The tenant's jobs, newest first (ingest and lifecycle; one ``kind`` and
        ``state`` when given), each with its state, attempts, progress and result
        summary. Empty when no job queue is configured."""
        return await self._lifecycle.list_jobs(
            tenant_id=tenant_id, kind=kind, state=state, limit=limit
        )

    async def schedule_lifecycle(self) -> list[Job]:
        """One scheduler tick (a worker runs one every ``lifecycle.tick_s``): queue each
        scheduled operation on the user scopes due by ``settings.lifecycle``; returns
        the jobs queued (or found queued already)."""
        return await self._lifecycle.schedule()
