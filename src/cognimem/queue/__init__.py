"""Durable jobs for async ingestion: a SQLite outbox embedded, Redis Streams at scale.

Both implement :class:`JobQueue`: at-least-once delivery with a visibility timeout,
attempts counted per delivery, a dead letter after ``max_attempts``, and lease tokens
so a stale worker can never finish a job that was redelivered to another.
"""

from __future__ import annotations

from pathlib import Path

from cognimem.errors import UsageError
from cognimem.queue.base import Delivery, Job, JobListing, JobQueue, JobState
from cognimem.queue.sqlite import SqliteJobQueue

__all__ = [
    "Delivery",
    "Job",
    "JobListing",
    "JobQueue",
    "JobState",
    "RedisJobQueue",
    "SqliteJobQueue",
    "open_queue",
]


def open_queue(
    url: str | None,
    *,
    sqlite_path: Path | None,
    visibility_timeout_s: float = 30.0,
    max_attempts: int = 5,
) -> JobQueue:
    """Pick a queue: ``redis://...`` → Redis Streams; unset → a SQLite outbox table in
    the embedded database (``sqlite_path``)."""
    if url is None:
        if sqlite_path is None:
            raise UsageError(
                "async ingestion on PostgreSQL needs a Redis queue: set "
                "COGNIMEM_QUEUE_URL=redis://host:6379/0"
            )
        return SqliteJobQueue(
            sqlite_path, visibility_timeout_s=visibility_timeout_s, max_attempts=max_attempts
        )
    if url.startswith(("redis://", "rediss://", "unix://")):
        from cognimem.queue.redis import RedisJobQueue

        return RedisJobQueue(
            url, visibility_timeout_s=visibility_timeout_s, max_attempts=max_attempts
        )
    raise UsageError(f"unsupported queue URL {url.split('://', 1)[0]!r}: use redis://host:port/db")


def __getattr__(name: str) -> object:
    # redis is an optional extra: import it only when asked for
    if name == "RedisJobQueue":
        from cognimem.queue.redis import RedisJobQueue

        return RedisJobQueue
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
