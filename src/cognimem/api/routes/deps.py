"""Dependencies shared by the route modules."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from cognimem.api.auth import Principal, authenticated
from cognimem.memory import Memory
from cognimem.models.admin import KeyLevel


async def memory_of(request: Request) -> Memory:
    memory: Memory = request.app.state.memory
    return memory


Mem = Annotated[Memory, Depends(memory_of)]
Caller = Annotated[Principal, Depends(authenticated)]


async def check_id_reach(mem: Memory, caller: Principal, target_id: str, verb: str) -> None:
    """Refuse (403) a call on one memory item or fact of the caller's tenant that the
    caller's key may not ``verb`` (``Principal.check_reach``): a user key reaches its
    user's memory only, never the organisation's or an agent's. An id the tenant does
    not hold is left to the call (a 404, whoever's it is elsewhere). An organisation
    key asks the store nothing."""
    if caller.level is KeyLevel.ORGANISATION:
        return
    tenant, ids = caller.tenant_id, [target_id]
    found = await mem.store.get_items(tenant, ids) or await mem.store.get_facts(tenant, ids)
    if found:
        caller.check_reach(found[0].scope, verb)
