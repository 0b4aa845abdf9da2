"""Dependencies shared by the route modules."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from cognimem.api.auth import Principal, authenticated
from cognimem.memory import Memory


async def memory_of(request: Request) -> Memory:
    memory: Memory = request.app.state.memory
    return memory


Mem = Annotated[Memory, Depends(memory_of)]
Caller = Annotated[Principal, Depends(authenticated)]
