"""The blocking face shared by :class:`~cognimem.memory.SyncMemory` (over ``Memory``)
and :class:`~cognimem.client.MemoryClient` (over ``AsyncMemoryClient``): the async
object's calls run on a private event loop, so they cannot be made from inside one."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Self, TypeVar, cast

from cognimem.models import ContextPacket, Message, WriteResult
from cognimem.models.knowledge import Fact

T = TypeVar("T")


class BlockingFacade:
    """``write``, ``write_batch``, ``read``, ``facts`` and ``get_fact`` of an async
    facade (same arguments), plus ``close`` and the context-manager protocol."""

    def __init__(self, target: Any) -> None:
        self._runner = asyncio.Runner()
        self._target = target

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self._runner.run(coro)

    def write(self, content: str | Message | Mapping[str, Any], **kwargs: Any) -> WriteResult:
        return cast(WriteResult, self._run(self._target.write(content, **kwargs)))

    def write_batch(
        self, messages: Sequence[Message | Mapping[str, Any] | str], **kwargs: Any
    ) -> WriteResult:
        return cast(WriteResult, self._run(self._target.write_batch(messages, **kwargs)))

    def read(self, query: str, **kwargs: Any) -> ContextPacket:
        return cast(ContextPacket, self._run(self._target.read(query, **kwargs)))

    def facts(self, **kwargs: Any) -> list[Fact]:
        return cast(list[Fact], self._run(self._target.facts(**kwargs)))

    def get_fact(self, key: str, **kwargs: Any) -> Fact:
        return cast(Fact, self._run(self._target.get_fact(key, **kwargs)))

    def close(self) -> None:
        try:
            self._run(self._target.aclose())
        finally:
            self._runner.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
