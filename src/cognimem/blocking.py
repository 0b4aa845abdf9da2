"""The blocking face shared by :class:`~cognimem.memory.SyncMemory` (over ``Memory``)
and :class:`~cognimem.client.MemoryClient` (over ``AsyncMemoryClient``): the async
object's calls run on a private event loop, so they cannot be made from inside one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from typing import Any, Self, TypeVar, Unpack, cast

from cognimem.models import ContextPacket, Event, MemoryItem, Message, Turn, WriteResult
from cognimem.models.admin import ErasureReport, ExportRecord, ForgetResult, ScopeStats, Session
from cognimem.models.browse_requests import (
    ForgetKeywords,
    ItemListKeywords,
    SessionKeywords,
    SessionListKeywords,
    UpdateKeywords,
)
from cognimem.models.directory import TenantOverview
from cognimem.models.knowledge import (
    Alias,
    AliasAddition,
    AliasRemoval,
    Entity,
    Fact,
    FactConflict,
    HistoryEntry,
)
from cognimem.models.knowledge_requests import (
    AliasAdditionKeywords,
    AliasRemovalKeywords,
    ConflictsKeywords,
    FactsKeywords,
)
from cognimem.models.lifecycle import LifecycleRun
from cognimem.models.lifecycle_requests import JobListKeywords
from cognimem.models.requests import (
    MessageLike,
    ReadKeywords,
    ReadScopeKeywords,
    TurnKeywords,
    UserScopeKeywords,
    WriteBatchKeywords,
    WriteKeywords,
)
from cognimem.queue import Job

T = TypeVar("T")


class BlockingFacade:
    """Every method the async facade shares with ``Memory`` (same arguments, same
    results; ``export`` a lazy iterator), plus ``close`` and the context-manager
    protocol. A call's keywords are the ``TypedDict`` both async faces unpack
    (``models/requests.py`` and its kin), so a blocking call type-checks as theirs."""

    def __init__(self, target: Any) -> None:
        # a loop of its own that is not the thread's current loop: a framework that runs
        # its coroutines on the current loop (the OpenAI Agents SDK's run_sync, which also
        # shuts down its async generators after each run) would otherwise take this one
        self._runner = asyncio.Runner(loop_factory=asyncio.new_event_loop)
        self._target = target

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self._runner.run(coro)

    def call(self, fn: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
        """``fn(async_facade)`` run to completion on this object's event loop, for code
        written once against the async facade (``Memory`` or ``AsyncMemoryClient``) that
        also serves a blocking caller (``cognimem.integrations``)."""
        return self._run(fn(self._target))

    def write(
        self, content: str | Message | Mapping[str, Any], **kwargs: Unpack[WriteKeywords]
    ) -> WriteResult:
        return cast(WriteResult, self._run(self._target.write(content, **kwargs)))

    def write_batch(
        self,
        messages: Sequence[Message | Mapping[str, Any] | str],
        **kwargs: Unpack[WriteBatchKeywords],
    ) -> WriteResult:
        return cast(WriteResult, self._run(self._target.write_batch(messages, **kwargs)))

    def read(self, query: str, **kwargs: Unpack[ReadKeywords]) -> ContextPacket:
        return cast(ContextPacket, self._run(self._target.read(query, **kwargs)))

    def list_items(self, **kwargs: Unpack[ItemListKeywords]) -> list[MemoryItem]:
        return cast(list[MemoryItem], self._run(self._target.list_items(**kwargs)))

    def users(self, **kwargs: Any) -> TenantOverview:
        return cast(TenantOverview, self._run(self._target.users(**kwargs)))

    def get_events(self, event_ids: Sequence[str], **kwargs: Any) -> list[Event]:
        return cast(list[Event], self._run(self._target.get_events(event_ids, **kwargs)))

    def facts(self, **kwargs: Unpack[FactsKeywords]) -> list[Fact]:
        return cast(list[Fact], self._run(self._target.facts(**kwargs)))

    def get_fact(self, key: str, **kwargs: Unpack[UserScopeKeywords]) -> Fact:
        return cast(Fact, self._run(self._target.get_fact(key, **kwargs)))

    def turn(
        self,
        user_message: MessageLike,
        assistant_message: MessageLike | None = None,
        **kwargs: Unpack[TurnKeywords],
    ) -> Turn:
        return cast(Turn, self._run(self._target.turn(user_message, assistant_message, **kwargs)))

    def get(self, item_id: str, **kwargs: Any) -> MemoryItem:
        return cast(MemoryItem, self._run(self._target.get(item_id, **kwargs)))

    def history(self, target_id: str, **kwargs: Any) -> list[HistoryEntry]:
        return cast(list[HistoryEntry], self._run(self._target.history(target_id, **kwargs)))

    def delete(self, item_id: str, **kwargs: Any) -> None:
        self._run(self._target.delete(item_id, **kwargs))

    def update(self, item_id: str, **kwargs: Unpack[UpdateKeywords]) -> MemoryItem:
        return cast(MemoryItem, self._run(self._target.update(item_id, **kwargs)))

    def forget(self, **kwargs: Unpack[ForgetKeywords]) -> ForgetResult:
        return cast(ForgetResult, self._run(self._target.forget(**kwargs)))

    def entities(self, **kwargs: Unpack[UserScopeKeywords]) -> list[tuple[Entity, list[Alias]]]:
        return cast(list[tuple[Entity, list[Alias]]], self._run(self._target.entities(**kwargs)))

    def remove_alias(
        self, entity_id: str, alias: str, **kwargs: Unpack[AliasRemovalKeywords]
    ) -> AliasRemoval:
        return cast(AliasRemoval, self._run(self._target.remove_alias(entity_id, alias, **kwargs)))

    def add_alias(
        self, entity_id: str, alias: str, **kwargs: Unpack[AliasAdditionKeywords]
    ) -> AliasAddition:
        return cast(AliasAddition, self._run(self._target.add_alias(entity_id, alias, **kwargs)))

    def conflicts(self, **kwargs: Unpack[ConflictsKeywords]) -> list[FactConflict]:
        return cast(list[FactConflict], self._run(self._target.conflicts(**kwargs)))

    def resolve_conflict(self, conflict_id: str, **kwargs: Any) -> FactConflict:
        return cast(FactConflict, self._run(self._target.resolve_conflict(conflict_id, **kwargs)))

    def create_session(self, session_id: str, **kwargs: Unpack[SessionKeywords]) -> Session:
        return cast(Session, self._run(self._target.create_session(session_id, **kwargs)))

    def list_sessions(self, **kwargs: Unpack[SessionListKeywords]) -> list[Session]:
        return cast(list[Session], self._run(self._target.list_sessions(**kwargs)))

    def close_session(self, session_id: str, **kwargs: Any) -> Session:
        return cast(Session, self._run(self._target.close_session(session_id, **kwargs)))

    def stats(self, **kwargs: Unpack[ReadScopeKeywords]) -> ScopeStats:
        return cast(ScopeStats, self._run(self._target.stats(**kwargs)))

    def erase_user(self, user_id: str, **kwargs: Any) -> ErasureReport:
        return cast(ErasureReport, self._run(self._target.erase_user(user_id, **kwargs)))

    def erase_level(self, **kwargs: Any) -> ErasureReport:
        return cast(ErasureReport, self._run(self._target.erase_level(**kwargs)))

    def get_job(self, job_id: str, **kwargs: Any) -> Job:
        return cast(Job, self._run(self._target.get_job(job_id, **kwargs)))

    def run_lifecycle(self, op: str, **kwargs: Any) -> LifecycleRun:
        return cast(LifecycleRun, self._run(self._target.run_lifecycle(op, **kwargs)))

    def list_jobs(self, **kwargs: Unpack[JobListKeywords]) -> list[Job]:
        return cast(list[Job], self._run(self._target.list_jobs(**kwargs)))

    def export(self, **kwargs: Any) -> Iterator[ExportRecord]:
        """The export records, read lazily on this object's event loop."""
        records = self._target.export(**kwargs)

        async def following() -> ExportRecord | None:
            return cast(ExportRecord | None, await anext(records, None))

        while (record := self._run(following())) is not None:
            yield record

    def import_records(
        self, records: Iterable[ExportRecord | Mapping[str, Any]], **kwargs: Any
    ) -> dict[str, int]:
        return cast(dict[str, int], self._run(self._target.import_records(records, **kwargs)))

    def close(self) -> None:
        try:
            self._run(self._target.aclose())
        finally:
            self._runner.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
