"""cognimem behind the OpenAI Agents SDK (``pip install 'cognimem[openai-agents]'``):
``CognimemSession``, a ``Session`` (the SDK's conversation memory: ``get_items``,
``add_items``, ``pop_item``, ``clear_session``) whose items are a cognimem session's
messages, and ``memory_tools``, the ``remember`` and ``recall`` function tools.

A session is one user's cognimem session (``user_id``, ``session_id``, in
``namespace``), a ``Transcript``: every item the runner adds is written as a message
(a message's text with its role; a function call's output as a tool message; any other
item, such as a function call or reasoning, as its JSON, by the assistant) and kept
whole in its event's metadata, so ``get_items`` gives back exactly the items added, in
order. cognimem understands the messages like any other (facts and constraints
extracted), so what a user said in one session is recalled in the next. ``pop_item``
and ``clear_session`` delete the memories of the items they take away (their raw events
stay in L1, as after any forget)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from cognimem.integrations import tools
from cognimem.integrations.bridge import AnyFacade, Bridge
from cognimem.integrations.extras import needs
from cognimem.integrations.transcript import Transcript
from cognimem.models import Message, Role

with needs("openai-agents", "the OpenAI Agents SDK"):
    from agents import FunctionTool, SessionSettings, TResponseInputItem, function_tool
    from agents.memory.session_settings import resolve_session_limit

# the metadata key of an event under which the item it was written from is kept
META = "openai_agents"
_ROLES = {
    "user": Role.USER,
    "assistant": Role.ASSISTANT,
    "system": Role.SYSTEM,
    "developer": Role.SYSTEM,
}


def _said(item: Mapping[str, Any]) -> tuple[Role, str]:
    """The role and text an item is written with."""
    kind = item.get("type", "message")
    if kind == "message" and item.get("role") in _ROLES:
        content = item.get("content")
        if isinstance(content, str):
            text = content
        else:
            parts = content if isinstance(content, list) else []
            text = "\n".join(
                str(p["text"]) for p in parts if isinstance(p, Mapping) and p.get("text")
            )
        if text.strip():
            return _ROLES[item["role"]], text
    output = item.get("output")
    if kind == "function_call_output" and isinstance(output, str) and output.strip():
        return Role.TOOL, output
    return Role.ASSISTANT, json.dumps(item, ensure_ascii=False, default=str)


class CognimemSession:
    """The SDK's ``Session`` protocol over one user's cognimem session (see the module).
    ``session_settings.limit`` is how many of the newest items a run reads (all when
    None)."""

    def __init__(
        self,
        memory: AnyFacade,
        *,
        user_id: str,
        session_id: str,
        namespace: str = "default",
        session_settings: SessionSettings | None = None,
    ) -> None:
        self.session_id = session_id
        self.session_settings = session_settings
        self._bridge = Bridge(memory)
        self._transcript = Transcript(
            {"namespace": namespace, "user_id": user_id, "session_id": session_id}, key=META
        )

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The session's items, oldest first; with a limit (or the settings'), the
        newest ``limit``."""
        last = resolve_session_limit(limit, self.session_settings)
        kept = await self._bridge.arun(lambda mem: self._transcript.read(mem, last=last))
        return cast(list[TResponseInputItem], kept)

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        said = [self._message(item) for item in items]
        await self._bridge.arun(lambda mem: self._transcript.append(mem, said))

    async def pop_item(self) -> TResponseInputItem | None:
        """The newest item, taken out of the session (None when it is empty)."""
        kept = await self._bridge.arun(self._transcript.pop)
        return cast(TResponseInputItem | None, kept)

    async def clear_session(self) -> None:
        await self._bridge.arun(self._transcript.clear)

    def _message(self, item: TResponseInputItem) -> Message:
        kept = cast(Mapping[str, Any], item)
        role, text = _said(kept)
        return self._transcript.message(kept, role=role, text=text)


def memory_tools(
    memory: AnyFacade,
    *,
    user_id: str,
    namespace: str = "default",
    session_id: str | None = None,
    max_tokens: int | None = None,
) -> list[FunctionTool]:
    """``remember`` (write a note as the user's, in ``session_id`` when named) and
    ``recall`` (the packet for a query, across the user's sessions) as the SDK's function
    tools, for an agent's ``tools``."""
    bridge = Bridge(memory)
    whose = tools.Whose(user_id=user_id, namespace=namespace, session_id=session_id)

    async def remember(text: str) -> str:
        return await bridge.arun(lambda mem: tools.remember(mem, whose, text))

    async def recall(query: str) -> str:
        return await bridge.arun(lambda mem: tools.recall(mem, whose, query, max_tokens=max_tokens))

    return [
        function_tool(remember, description_override=tools.REMEMBER),
        function_tool(recall, description_override=tools.RECALL),
    ]


__all__ = ["CognimemSession", "memory_tools"]
