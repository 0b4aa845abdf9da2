"""cognimem behind LangChain's memory interfaces (``pip install 'cognimem[langchain]'``):
``CognimemChatMessageHistory``, a ``BaseChatMessageHistory`` that writes every message
of a session, and ``CognimemRetriever``, a ``BaseRetriever`` whose documents are a read's
constraints and facts (first) and memories, each with its provenance in its metadata.

A history is one user's session (``user_id``, ``session_id``, in ``namespace``), a
``Transcript``: each message is written as it is added, with its role, and kept whole in
its event's metadata (LangChain's own ``message_to_dict``), so ``messages`` gives back
exactly what was added, in order, even a message said twice. ``clear`` deletes the
session's memories; what they were read into (facts) goes with them as
``Memory.forget`` says."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage, message_to_dict, messages_from_dict
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, PrivateAttr

from cognimem.integrations.bridge import AnyFacade, AsyncFacade, Bridge
from cognimem.integrations.transcript import Transcript
from cognimem.models import ContextPacket, Message, Role
from cognimem.models.packets import FactEntry, PacketItem

# the metadata key of an event under which the message it was written from is kept
META = "langchain"
_ROLES = {"human": Role.USER, "ai": Role.ASSISTANT, "system": Role.SYSTEM, "tool": Role.TOOL}


def _message(transcript: Transcript, message: BaseMessage) -> Message:
    """The cognimem message for a LangChain one: its text (or, for one with none, such
    as a tool call, the message as JSON), its role, the message itself in metadata."""
    kept = message_to_dict(message)
    text = message.text if message.text.strip() else json.dumps(kept, ensure_ascii=False)
    role = _ROLES.get(message.type, Role.USER)
    return transcript.message(kept, role=role, text=text, name=message.name)


class CognimemChatMessageHistory(BaseChatMessageHistory):
    """One user's session of a LangChain chat, kept in cognimem (see the module)."""

    def __init__(
        self,
        memory: AnyFacade,
        *,
        user_id: str,
        session_id: str,
        namespace: str = "default",
    ) -> None:
        self._bridge = Bridge(memory)
        self._transcript = Transcript(
            {"namespace": namespace, "user_id": user_id, "session_id": session_id}, key=META
        )
        self.scope = self._transcript.scope

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The session's messages, oldest first."""
        return self._bridge.run(self._read, instead="aget_messages")

    async def aget_messages(self) -> list[BaseMessage]:
        return await self._bridge.arun(self._read)

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        said = [_message(self._transcript, m) for m in messages]
        self._bridge.run(lambda mem: self._transcript.append(mem, said), instead="aadd_messages")

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        said = [_message(self._transcript, m) for m in messages]
        await self._bridge.arun(lambda mem: self._transcript.append(mem, said))

    def clear(self) -> None:
        self._bridge.run(self._transcript.clear, instead="aclear")

    async def aclear(self) -> None:
        await self._bridge.arun(self._transcript.clear)

    async def _read(self, mem: AsyncFacade) -> list[BaseMessage]:
        return messages_from_dict(await self._transcript.read(mem))


class CognimemRetriever(BaseRetriever):
    """The documents of a cognimem read for the query: its constraints and facts first
    (``section``: ``must_follow``, ``consider``, ``facts``, ...; ``kind``: ``fact``), then
    its memories best first (``section``: ``memories``), each document's metadata
    holding its provenance (``id``, ``source_event_ids``, ``item_ids`` or
    ``external_ids``), its ``score`` and ``occurred_at`` or ``recorded_at``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any
    user_id: str
    namespace: str = "default"
    limit: int | None = None
    max_tokens: int | None = None
    _bridge: Bridge = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        self._bridge = Bridge(self.memory)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        packet = self._bridge.run(lambda mem: self._read(mem, query), instead="ainvoke")
        return documents(packet)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        return documents(await self._bridge.arun(lambda mem: self._read(mem, query)))

    async def _read(self, mem: AsyncFacade, query: str) -> ContextPacket:
        return await mem.read(
            query,
            scope={"namespace": self.namespace, "user_id": self.user_id},
            limit=self.limit,
            max_tokens=self.max_tokens,
        )


def documents(packet: ContextPacket) -> list[Document]:
    """A packet as LangChain documents: the sections' facts and constraints in the
    packet's order, then the ranked memories."""
    sections = packet.sections
    found = [
        _fact_document(entry, name)
        for name in ("must_follow", "consider", "facts", "preferences", "needs_validation")
        for entry in getattr(sections, name)
    ]
    return found + [_item_document(item) for item in packet.items]


def _fact_document(entry: FactEntry, section: str) -> Document:
    return Document(
        page_content=entry.text,
        id=entry.id,
        metadata={
            "id": entry.id,
            "section": section,
            "kind": "fact",
            "key": entry.key,
            "category": entry.category,
            "value": entry.value,
            "score": entry.score,
            "recorded_at": entry.recorded_at.isoformat(),
            "source_event_ids": list(entry.source_event_ids),
            "item_ids": list(entry.item_ids),
        },
    )


def _item_document(item: PacketItem) -> Document:
    return Document(
        page_content=item.text,
        id=item.id,
        metadata={
            "id": item.id,
            "section": "memories",
            "kind": item.kind.value,
            "score": item.score,
            "occurred_at": item.occurred_at.isoformat(),
            "author": item.author,
            "source_event_ids": list(item.source_event_ids),
            "external_ids": list(item.external_ids),
        },
    )


__all__ = ["CognimemChatMessageHistory", "CognimemRetriever", "documents"]
