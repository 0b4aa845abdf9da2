"""Durable jobs for async ingestion: a SQLite outbox embedded, Redis Streams at scale.

Both implement :class:`JobQueue`: at-least-once delivery with a visibility timeout,
attempts counted per delivery, a dead letter after ``max_attempts``, and lease tokens
so a stale worker can never finish a job that was redelivered to another.
"""

from __future__ import annotations

from cognimem.queue.base import Delivery, Job, JobQueue, JobState
from cognimem.queue.sqlite import SqliteJobQueue

__all__ = ["Delivery", "Job", "JobQueue", "JobState", "RedisJobQueue", "SqliteJobQueue"]


def __getattr__(name: str) -> object:
    # redis is an optional extra: import it only when asked for
    if name == "RedisJobQueue":
        from cognimem.queue.redis import RedisJobQueue

        return RedisJobQueue
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
