"""One session's messages as a framework wrote them, given back exactly: the transcript
behind LangChain's chat message history and the OpenAI Agents SDK's session.

Each message is written as a cognimem message (its text, its role), so it is understood
like any other (facts and constraints extracted, embedded, recalled), and the
framework's own form of it is kept whole in its event's metadata under the
integration's key. Each write has its own idempotency key, so a message said twice is
two messages, and its own time (the messages of one append a microsecond apart), which
orders them. Reading lists the session's live memories (by pages) and gives back the
kept form of each event they came from, in order: a near-duplicate message (``yes``
again) joins the memory of the first, as every write does, and is still given back.
A message the ingest skipped (one that holds a secret, with ``skip_secrets``) has no
memory, and so is not given back."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from cognimem.integrations.bridge import AsyncFacade
from cognimem.models import Event, ItemStatus, MemoryItem, Message, Role

# the most items one listing returns (a longer session is read in pages)
PAGE = 1_000


@dataclass(frozen=True)
class Entry:
    """One message of a transcript: its event, the framework's form of it, and the
    memories it was read into (what deleting it deletes)."""

    event: Event
    kept: dict[str, Any]
    item_ids: tuple[str, ...]


class Transcript:
    """The messages of one session (``scope`` names its user and session), kept under
    ``key`` in their events' metadata."""

    def __init__(self, scope: Mapping[str, str], *, key: str, tenant_id: str = "default") -> None:
        self.scope = dict(scope)
        self._key = key
        self._tenant_id = tenant_id

    def message(
        self, kept: Mapping[str, Any], *, role: Role, text: str, name: str | None = None
    ) -> Message:
        """The cognimem message for one framework message ``kept`` whole."""
        return Message(
            role=role,
            content=text,
            name=name,
            idempotency_key=f"{self._key}:{uuid.uuid4().hex}",
            metadata={self._key: dict(kept)},
        )

    async def append(self, mem: AsyncFacade, messages: Sequence[Message]) -> None:
        if not messages:
            return
        now = datetime.now(UTC)
        timed = [
            m.model_copy(update={"occurred_at": now + timedelta(microseconds=i)})
            for i, m in enumerate(messages)
        ]
        await mem.write_batch(timed, scope=self.scope, profile="chat")

    async def entries(self, mem: AsyncFacade, *, last: int | None = None) -> list[Entry]:
        """The session's messages oldest first; with ``last``, only the newest ``last``."""
        if last is not None and last <= 0:
            return []
        items = await self._items(mem, enough=last)
        by_event: dict[str, list[str]] = {}
        for item in items:
            for event_id in item.source_event_ids:
                by_event.setdefault(event_id, []).append(item.id)
        if not by_event:
            return []
        events = await mem.get_events(list(by_event), tenant_id=self._tenant_id)
        found = [
            Entry(event=e, kept=e.metadata[self._key], item_ids=tuple(by_event[e.id]))
            for e in sorted(events, key=lambda e: (e.occurred_at, e.recorded_at, e.id))
            if isinstance(e.metadata.get(self._key), dict)
        ]
        return found if last is None else found[-last:]

    async def read(self, mem: AsyncFacade, *, last: int | None = None) -> list[dict[str, Any]]:
        """The framework's form of each message, oldest first (the newest ``last``)."""
        return [entry.kept for entry in await self.entries(mem, last=last)]

    async def pop(self, mem: AsyncFacade) -> dict[str, Any] | None:
        """Delete the newest message (its memories) and give it back; None when empty.
        A memory it shares with an earlier message (a near-duplicate joins the first)
        goes too, and that message is written again, with its own time and form."""
        entries = await self.entries(mem)
        if not entries:
            return None
        newest = entries[-1]
        shared = set(newest.item_ids)
        again = [e for e in entries[:-1] if shared & set(e.item_ids)]
        ids = list(shared)
        await mem.forget(ids=ids, scope=self.scope, mode="delete", limit=len(ids))
        if again:
            await mem.write_batch(
                [self._again(e.event) for e in again], scope=self.scope, profile="chat"
            )
        return newest.kept

    async def clear(self, mem: AsyncFacade) -> None:
        """Delete every message of the session (their raw events stay in L1, as after
        any forget)."""
        while ids := [i.id for i in await self._items(mem)][:PAGE]:
            await mem.forget(ids=ids, scope=self.scope, mode="delete", limit=len(ids))

    def _again(self, event: Event) -> Message:
        return Message(
            role=event.role,
            content=event.content,
            name=event.name,
            occurred_at=event.occurred_at,
            idempotency_key=f"{self._key}:{uuid.uuid4().hex}",
            metadata={self._key: event.metadata[self._key]},
        )

    async def _items(self, mem: AsyncFacade, *, enough: int | None = None) -> list[MemoryItem]:
        """The session's live memories, oldest first (listed newest first, by pages);
        with ``enough``, the listing stops once it holds more than ``enough`` events'
        memories (every memory of the newest ``enough`` events, as one event's memories
        share its time)."""
        found: list[MemoryItem] = []
        seen: set[str] = set()
        events: set[str] = set()
        until = None
        while True:
            page = await mem.list_items(
                scope=self.scope, statuses=[ItemStatus.ACTIVE], until=until, limit=PAGE
            )
            fresh = [i for i in page if i.id not in seen]
            found += fresh
            seen.update(i.id for i in fresh)
            events.update(e for i in fresh for e in i.source_event_ids)
            full = enough is not None and len(events) > enough
            if full or len(page) < PAGE or not fresh:
                return found[::-1]
            until = page[-1].occurred_at  # inclusive: the ids seen are skipped
