"""A lifecycle operation defined for the tests (the framework's own tests run before the
real operations merge): ``archive_stale`` archives the level's active memories (a
user's, or a shared level's own rows) whose text says "(stale)", through
``Memory.forget``, reporting progress; its dry run lists them and changes nothing.
``memory_for`` opens a Memory on a test backend with it registered."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from cognimem import Memory, Settings
from cognimem.models import Scope
from cognimem.models.arguments import level_name
from cognimem.models.clock import Clock, utc_now
from cognimem.providers.fakes import HashingEmbedder
from cognimem.queue import JobQueue, SqliteJobQueue
from cognimem.services.lifecycle.operations import Progress
from cognimem.store import ItemFilter, open_store

OP = "archive_stale"
MARK = "(stale)"


class ArchiveResult(BaseModel):
    dry_run: bool
    item_ids: list[str]

    def summary(self) -> dict[str, int | str]:
        return {"archived": len(self.item_ids)}

    def touched(self) -> int:
        return len(self.item_ids)


def archive_stale(
    mem: Memory, before_change: Callable[[], Awaitable[None]] | None = None
) -> Callable[..., Awaitable[ArchiveResult]]:
    """The operation on ``mem``; ``before_change`` runs after it found the items and
    reported half done, before it changes anything (a test holds or kills it there)."""

    async def run(
        scope: Scope, *, dry_run: bool, progress: Progress | None = None
    ) -> ArchiveResult:
        shared = scope.user_id is None  # a shared level: its own rows alone
        ids = await mem.store.list_item_ids(ItemFilter(scope=scope, level_only=shared), 10_000)
        stale = sorted(
            i.id for i in await mem.store.get_items(scope.tenant_id, ids) if MARK in i.text
        )
        if progress is not None:
            progress(0.5)
        if before_change is not None and not dry_run:
            await before_change()
        if stale:
            await mem.forget(ids=stale, mode="archive", scope=said(scope), dry_run=dry_run)
        if progress is not None:
            progress(1.0)
        return ArchiveResult(dry_run=dry_run, item_ids=stale)

    return run


def said(scope: Scope) -> Scope | dict[str, Any]:
    """``scope`` as a call names it: the namespace's or the organisation's level is said
    out loud."""
    if scope.user_id is None and scope.agent_id is None:
        return level_name(scope)
    return scope


def queue_for(database: str, redis_url: str | None, name: str, **kwargs: Any) -> JobQueue:
    """The SQLite outbox in the database's file, or a Redis queue under ``name``."""
    if redis_url is None:
        return SqliteJobQueue(database.removeprefix("sqlite:///"), **kwargs)
    from cognimem.queue.redis import RedisJobQueue

    return RedisJobQueue(
        redis_url,
        stream=f"{name}:jobs",
        dead_letter_stream=f"{name}:dead",
        key_prefix=f"{name}:job:",
        **kwargs,
    )


def memory_for(
    database: str,
    redis_url: str | None,
    name: str,
    settings: dict[str, Any] | None = None,
    before_change: Callable[[], Awaitable[None]] | None = None,
    queue_clock: Clock = utc_now,
    **kwargs: Any,
) -> Memory:
    """A Memory on ``database`` whose job queue is the SQLite outbox (``redis_url`` None)
    or Redis under ``name`` (on ``queue_clock``), with ``archive_stale`` registered."""
    merged = Settings.model_validate(settings or {})
    queue = queue_for(
        database,
        redis_url,
        name,
        visibility_timeout_s=merged.ingest.visibility_timeout_s,
        max_attempts=merged.ingest.max_attempts,
        clock=queue_clock,
    )
    mem = Memory(open_store(database), HashingEmbedder(), merged, queue=queue, **kwargs)
    mem.register_lifecycle_operation(OP, archive_stale(mem, before_change))
    return mem


def new_name() -> str:
    return f"lc{uuid.uuid4().hex[:10]}"
