"""Coroutines run at once up to their first wait: a step answered in-process (an
SQLite store reads its rows on the calling thread) finishes there, with no task, timer
or turn of the event loop; only one that has to wait (for the query embedding on its
thread) becomes a task for the rest of it. Close to ``asyncio.eager_task_factory``
(Python 3.12), except that the first part runs as the calling task: so only for code
that binds nothing to the current task before its first wait (no ``asyncio.timeout``,
no anyio cancel scope — which a provider's HTTP client or asyncpg's timeouts hold)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from typing import Any, Generic, TypeVar

T = TypeVar("T")
Coro = Coroutine[Any, Any, T]  # what ``start`` runs: an ``async def``'s call


class Rest(Generic[T]):
    """The rest of a coroutine that was run until it waited on ``pending``: awaited, it
    waits for that first (as the coroutine's own ``await`` would have, with the task
    awaiting it), then resumes the coroutine; a cancellation or error thrown in goes to
    the coroutine."""

    def __init__(self, coro: Coro[T], pending: Any) -> None:
        self._coro = coro
        self._pending = pending

    def __await__(self) -> Generator[Any, Any, T]:
        coro, pending = self._coro, self._pending
        while True:
            try:
                sent = yield pending
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # passed in as ``yield from`` would
                try:
                    pending = coro.throw(exc)
                except StopIteration as done:
                    return done.value  # type: ignore[no-any-return]
            else:
                try:
                    pending = coro.send(sent)
                except StopIteration as done:
                    return done.value  # type: ignore[no-any-return]


async def _finish(rest: Rest[T]) -> T:
    return await rest


def start(coro: Coro[T], inline: bool = True) -> asyncio.Future[T]:
    """``coro`` run now up to its first wait: a future already done when it finished
    (or raised) without waiting, else a task for the rest of it. Only for code that
    holds no timeout or cancel scope of the calling task across its first wait (they
    would be the caller's, and the rest runs in another task): a read's steps on a store
    that ``reads_inline``, never a provider's client. Not ``inline``: a task, as
    ``asyncio.ensure_future`` makes."""
    if not inline:
        return asyncio.ensure_future(coro)
    loop = asyncio.get_running_loop()
    try:
        pending = coro.send(None)
    except StopIteration as done:
        finished: asyncio.Future[T] = loop.create_future()
        finished.set_result(done.value)
        return finished
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a failure (or a cancellation) for whoever awaits it
        failed: asyncio.Future[T] = loop.create_future()
        failed.set_exception(exc)
        return failed
    return loop.create_task(_finish(Rest(coro, pending)))
