"""cognimem as a memory block of LlamaIndex's ``Memory`` (``pip install
'cognimem[llamaindex]'``): ``CognimemMemoryBlock``, a ``BaseMemoryBlock[str]`` whose
content is the packet for the current input (constraints first), which the ``Memory``
puts into the system message (or the latest user message, by its ``insert_method``).

Asked for its content, the block reads the user's memory (every session of theirs) for
the last user message, then writes that message into the ``Memory``'s session: a
constraint the user states now is remembered even if the session ends before LlamaIndex
flushes it. The ``Memory`` hands a block the messages it flushes from its short-term
queue (``accept_short_term_memory``): the block writes those too, with their roles, so
the assistant's side of a conversation reaches cognimem as the queue fills. Each message
is written once a session: its idempotency key is its session, role and text, so the
user message written when it was asked about is not written again when flushed, and a
message said again by the same user in the same session is kept once."""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import PrivateAttr

from cognimem.integrations import tools
from cognimem.integrations.bridge import AsyncFacade, Bridge
from cognimem.integrations.extras import needs
from cognimem.models import Message, Role

with needs("llamaindex", "LlamaIndex (llama-index-core)"):
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.memory.memory import BaseMemoryBlock

_ROLES = {
    MessageRole.USER: Role.USER,
    MessageRole.ASSISTANT: Role.ASSISTANT,
    MessageRole.MODEL: Role.ASSISTANT,
    MessageRole.CHATBOT: Role.ASSISTANT,
    MessageRole.SYSTEM: Role.SYSTEM,
    MessageRole.DEVELOPER: Role.SYSTEM,
    MessageRole.TOOL: Role.TOOL,
    MessageRole.FUNCTION: Role.TOOL,
}


class CognimemMemoryBlock(BaseMemoryBlock[str]):
    """The packet for the current input, from one user's cognimem memory (see the
    module). ``memory`` is any of cognimem's four faces."""

    name: str = "cognimem"
    description: str | None = "What is remembered of the user that bears on the input."
    memory: Any
    user_id: str
    namespace: str = "default"
    max_tokens: int | None = None
    _bridge: Bridge = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        self._bridge = Bridge(self.memory)

    @property
    def whose(self) -> tools.Whose:
        return tools.Whose(self.user_id, self.namespace)

    async def _aget(
        self,
        messages: list[ChatMessage] | None = None,
        session_id: str | None = None,
        **block_kwargs: Any,
    ) -> str:
        asked = next((m for m in reversed(messages or []) if m.role == MessageRole.USER), None)
        if asked is None or not (asked.content or "").strip():
            return ""
        return await self._bridge.arun(lambda mem: self._turn(mem, asked, session_id))

    async def _aput(self, messages: list[ChatMessage]) -> None:
        said = [(m, m.additional_kwargs.get("session_id")) for m in messages]
        if any((m.content or "").strip() for m, _ in said):
            await self._bridge.arun(lambda mem: self._write(mem, said))

    async def _turn(self, mem: AsyncFacade, asked: ChatMessage, session_id: str | None) -> str:
        """The packet for ``asked``, read before ``asked`` is written (it is the input,
        not a memory of it)."""
        packet = await tools.recall(
            mem, self.whose, asked.content or "", max_tokens=self.max_tokens
        )
        await self._write(mem, [(asked, session_id)])
        return packet

    async def _write(self, mem: AsyncFacade, said: list[tuple[ChatMessage, Any]]) -> None:
        by_session: dict[str | None, list[Message]] = {}
        for message, session_id in said:
            text = (message.content or "").strip()
            if text:
                session = str(session_id) if session_id is not None else None
                by_session.setdefault(session, []).append(self._message(message, text, session))
        for session, written in by_session.items():
            scope = tools.Whose(self.user_id, self.namespace, session).writing
            await mem.write_batch(written, scope=scope, profile="chat")

    def _message(self, message: ChatMessage, text: str, session_id: str | None) -> Message:
        """The message, keyed by whose it is, its session, role and text (a key is the
        tenant's: another user's or session's same words are another message)."""
        role = _ROLES.get(message.role, Role.USER)
        said = (self.namespace, self.user_id, session_id or "", role.value, text)
        digest = hashlib.sha256("\n".join(said).encode()).hexdigest()
        return Message(role=role, content=text, idempotency_key=f"llamaindex:{digest}")


__all__ = ["CognimemMemoryBlock"]
