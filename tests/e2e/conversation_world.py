"""What the who-is-who tests share: one user's lines written one by one into one
session, and the scope's entities with their aliases."""

from __future__ import annotations

from cognimem import Memory
from cognimem.models.knowledge import Entity

USER = "u1"
SESSION = "s1"


async def say(memory: Memory, *lines: str, session: str = SESSION) -> None:
    """Write each line as its own message of ``USER``, in order."""
    for line in lines:
        await memory.write(line, user_id=USER, session_id=session)


async def entities(memory: Memory) -> dict[str, tuple[Entity, set[tuple[str, str]]]]:
    """``USER``'s entities by name, each with its (alias, source) pairs."""
    return {
        e.name: (e, {(a.alias, a.source.value) for a in aliases})
        for e, aliases in await memory.entities(user_id=USER)
    }
