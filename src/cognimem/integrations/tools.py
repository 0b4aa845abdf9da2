"""What the memory tools of an agent framework do, written once: ``remember`` a note,
``recall`` the packet for a query, ``forget`` what a query finds, in one user's memory.
Each integration wraps these in its framework's own tool type (the OpenAI Agents SDK's
function tools, a Pydantic AI toolset) and gives the packet for the user's input to the
model the framework's way.

A read spans every session of the user (what was said in one conversation reaches the
next); a note is written in the session, when one is named."""

from __future__ import annotations

from dataclasses import dataclass

from cognimem.integrations.bridge import AsyncFacade
from cognimem.models import ContextPacket, Message, Role

REMEMBER = (
    "Remember something worth keeping about the user or the task (a preference, a"
    " constraint, a fact, a decision), in one self-contained sentence."
)
RECALL = "Recall what is remembered that bears on a question: constraints first, then memories."
FORGET = "Forget the memories that match a description, when the user asks you to."


@dataclass(frozen=True)
class Whose:
    """Whose memory: the user's, in ``namespace``; ``session_id`` is where notes go."""

    user_id: str
    namespace: str = "default"
    session_id: str | None = None

    @property
    def reading(self) -> dict[str, str]:
        return {"namespace": self.namespace, "user_id": self.user_id}

    @property
    def writing(self) -> dict[str, str]:
        if self.session_id is None:
            return self.reading
        return {**self.reading, "session_id": self.session_id}


async def packet(
    mem: AsyncFacade, whose: Whose, query: str, *, max_tokens: int | None = None
) -> ContextPacket:
    """The read of the user's memory for ``query``."""
    return await mem.read(query, scope=whose.reading, max_tokens=max_tokens)


async def remember(mem: AsyncFacade, whose: Whose, text: str) -> str:
    """Write ``text`` as the user's (so a constraint in it is the user's constraint)."""
    result = await mem.write(Message(role=Role.USER, content=text), scope=whose.writing)
    return f"Remembered ({len(result.item_ids)} memories): {text}"


async def recall(
    mem: AsyncFacade, whose: Whose, query: str, *, max_tokens: int | None = None
) -> str:
    """The packet for ``query`` as prompt text."""
    return (await packet(mem, whose, query, max_tokens=max_tokens)).to_markdown()


async def forget(mem: AsyncFacade, whose: Whose, query: str) -> str:
    """Forget (delete) what a read of ``query`` finds, as ``Memory.forget`` chooses."""
    result = await mem.forget(query=query, scope=whose.reading)
    return f"Forgot {len(result.item_ids)} memories."
