"""One piece of code for both kinds of caller: the integrations write each operation once,
as a coroutine over the async facade (``Memory`` or ``AsyncMemoryClient``), and the
bridge runs it for a blocking caller or an async one, whichever facade it was given.

- Given an async facade: an async caller awaits the operation on its own loop; a
  blocking caller (a framework running a sync method in a worker thread) hands it to that
  loop and waits. A blocking call from the loop's own thread would wait on itself
  forever, so it is a ``UsageError`` naming the async method to call instead.
- Given a blocking facade (``SyncMemory``, ``MemoryClient``): a blocking caller runs the
  operation on the facade's private loop; an async caller runs that in a worker thread.
  One call at a time: the facade's loop serves one thread at once."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from cognimem.blocking import BlockingFacade
from cognimem.client import AsyncMemoryClient, MemoryClient
from cognimem.errors import UsageError
from cognimem.memory import Memory, SyncMemory

T = TypeVar("T")
AsyncFacade = Memory | AsyncMemoryClient
AnyFacade = Memory | AsyncMemoryClient | SyncMemory | MemoryClient
Operation = Callable[[AsyncFacade], Coroutine[Any, Any, T]]


class Bridge:
    """Runs operations written against the async facade for either kind of caller."""

    def __init__(self, memory: AnyFacade) -> None:
        if not isinstance(memory, Memory | AsyncMemoryClient | BlockingFacade):
            raise UsageError(
                "give Memory or AsyncMemoryClient (async), or SyncMemory or MemoryClient"
                f" (blocking), not {type(memory).__name__}"
            )
        self._memory = memory
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        if not isinstance(memory, BlockingFacade):
            try:
                self._loop = asyncio.get_running_loop()
            except RuntimeError:
                self._loop = None  # the first async call names it

    def run(self, operation: Operation[T], *, instead: str) -> T:
        """``operation`` for a blocking caller; ``instead`` names the async method to
        call from inside the event loop."""
        memory = self._memory
        if isinstance(memory, BlockingFacade):
            with self._lock:
                return memory.call(operation)
        loop = self._loop
        if loop is None or loop.is_closed():
            raise UsageError(
                f"{type(memory).__name__} is async: call {instead} from its event loop, or"
                " give SyncMemory or MemoryClient for blocking calls"
            )
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            raise UsageError(
                f"a blocking call inside the event loop of {type(memory).__name__} would wait"
                f" on itself: call {instead} instead"
            )
        return asyncio.run_coroutine_threadsafe(operation(memory), loop).result()

    async def arun(self, operation: Operation[T]) -> T:
        """``operation`` for an async caller."""
        memory = self._memory
        if isinstance(memory, BlockingFacade):
            return await asyncio.to_thread(self.run, operation, instead="")
        self._loop = asyncio.get_running_loop()
        return await operation(memory)
