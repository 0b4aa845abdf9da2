"""``SyncMemory``: :class:`~cognimem.memory.Memory` for scripts and notebooks, blocking."""

from __future__ import annotations

from typing import Any

from cognimem.blocking import BlockingFacade
from cognimem.memory._facade import Memory
from cognimem.models.admin import Session


class SyncMemory(BlockingFacade):
    """Blocking wrapper around :class:`Memory` for scripts and notebooks."""

    def __init__(self, memory: Memory) -> None:
        super().__init__(memory)
        self._memory = memory
        self._run(memory.start())

    @classmethod
    def open(cls, url: str | None = None, **kwargs: Any) -> SyncMemory:
        return cls(Memory.open(url, **kwargs))

    def get_session(self, session_id: str, **kwargs: Any) -> Session:
        return self._run(self._memory.get_session(session_id, **kwargs))
