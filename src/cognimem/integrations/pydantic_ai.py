"""cognimem behind Pydantic AI (``pip install 'cognimem[pydantic-ai]'``): the run's
dependency ``MemoryDeps`` (the memory and whose it is; subclass it to add your own),
``CognimemToolset``, a ``FunctionToolset`` of the tools ``remember``, ``recall`` and
``forget``, and ``memory_instructions``, the instructions function that puts the packet
for the run's prompt (constraints first) into the system prompt. The toolset carries
those instructions too, so ``Agent(model, deps_type=MemoryDeps,
toolsets=[CognimemToolset()])`` is an agent with a memory.

What the model remembers (``remember``) is written as the user's, in the deps' session
when one is named; a read spans every session of the user, so a constraint said in one
run reaches the system prompt of the next."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cognimem.integrations import tools
from cognimem.integrations.bridge import AnyFacade, Bridge
from cognimem.integrations.extras import needs

with needs("pydantic-ai", "Pydantic AI"):
    from pydantic_ai import FunctionToolset, RunContext, Tool


@dataclass
class MemoryDeps:
    """What the toolset and the instructions take from a run's ``deps``: cognimem (any
    of its four faces), the user, and optionally the namespace, the session notes go to
    and the packet's token budget."""

    memory: AnyFacade
    user_id: str
    namespace: str = "default"
    session_id: str | None = None
    max_tokens: int | None = None
    bridge: Bridge = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.bridge = Bridge(self.memory)

    @property
    def whose(self) -> tools.Whose:
        return tools.Whose(self.user_id, self.namespace, self.session_id)


def _query(prompt: str | Sequence[object] | None) -> str:
    """The text of a run's prompt (its text parts, for a multimodal one)."""
    if isinstance(prompt, str):
        return prompt
    return "\n".join(part for part in prompt or () if isinstance(part, str))


async def memory_instructions(ctx: RunContext[MemoryDeps]) -> str:
    """The packet for the run's prompt as instructions (none for a run without text)."""
    deps = ctx.deps
    query = _query(ctx.prompt)
    if not query.strip():
        return ""
    return await deps.bridge.arun(
        lambda mem: tools.recall(mem, deps.whose, query, max_tokens=deps.max_tokens)
    )


async def remember(ctx: RunContext[MemoryDeps], text: str) -> str:
    deps = ctx.deps
    return await deps.bridge.arun(lambda mem: tools.remember(mem, deps.whose, text))


async def recall(ctx: RunContext[MemoryDeps], query: str) -> str:
    deps = ctx.deps
    return await deps.bridge.arun(
        lambda mem: tools.recall(mem, deps.whose, query, max_tokens=deps.max_tokens)
    )


async def forget(ctx: RunContext[MemoryDeps], query: str) -> str:
    deps = ctx.deps
    return await deps.bridge.arun(lambda mem: tools.forget(mem, deps.whose, query))


class CognimemToolset(FunctionToolset[MemoryDeps]):
    """``remember``, ``recall`` and ``forget`` over the run's ``MemoryDeps``, with
    ``memory_instructions`` (``instructions=False`` leaves the packet out, for an agent
    that recalls only when its model asks)."""

    def __init__(self, *, instructions: bool = True) -> None:
        super().__init__(
            [
                Tool(remember, takes_ctx=True, description=tools.REMEMBER),
                Tool(recall, takes_ctx=True, description=tools.RECALL),
                Tool(forget, takes_ctx=True, description=tools.FORGET),
            ],
            instructions=memory_instructions if instructions else None,
        )


__all__ = ["CognimemToolset", "MemoryDeps", "memory_instructions"]
