"""What a person browses across records (the dashboard at ``/ui`` calls these like any
client): the tenant's users with what each holds, items listed by every field one
filters on, raw events by id, and the graph edges around entities."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from cognimem.api.responses import documented
from cognimem.api.routes.deps import Caller, Mem
from cognimem.api.schemas import LevelScopeRequest, ReadScopeRequest
from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, Tier
from cognimem.models.directory import TenantOverview
from cognimem.models.events import NOT_BLANK
from cognimem.models.knowledge import Relation
from cognimem.models.wire import JSON_NUMBER, IsoTime
from cognimem.services.directory import MAX_ITEMS, MAX_USERS

router = APIRouter(prefix="/v1", tags=["browse"])

# the most ids one call may name
MAX_IDS = 1_000


class UsersQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    limit: Annotated[int, Field(ge=1, le=MAX_USERS), JSON_NUMBER] = 100


class ItemsQuery(ReadScopeRequest):
    """Items by scope (a user, or ``all_users``), kind, tier, status, time and text."""

    kinds: list[ItemKind] | None = Field(default=None, min_length=1)
    tiers: list[Tier] | None = Field(default=None, min_length=1)
    # any status unless named
    statuses: list[ItemStatus] | None = Field(default=None, min_length=1)
    # on occurred_at, inclusive, with a UTC offset
    since: IsoTime | None = None
    until: IsoTime | None = None
    # a piece of the text (ASCII letters without regard to case)
    contains: (
        Annotated[str, Field(max_length=500, json_schema_extra={"pattern": NOT_BLANK})] | None
    ) = None
    # the caller-supplied id of the message an item came from (``write``'s ``external_id``)
    external_id: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    limit: Annotated[int, Field(ge=1, le=MAX_ITEMS), JSON_NUMBER] = 100
    # instead of the scope's own, the shared levels' items its reads reach (the
    # organisation's, and with ``scope.agent_id`` that agent's)
    shared: StrictBool = False


class EventsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ids: list[Annotated[str, Field(min_length=1, max_length=128)]] = Field(
        min_length=1, max_length=MAX_IDS
    )


class RelationsQuery(LevelScopeRequest):
    entity_ids: list[Annotated[str, Field(min_length=1, max_length=128)]] = Field(
        min_length=1, max_length=MAX_IDS
    )


@router.post("/users/query", response_model=TenantOverview, responses=documented(400))
async def users(body: UsersQuery, mem: Mem, caller: Caller) -> TenantOverview:
    """The caller's tenant and its users (each namespace and user its raw events name),
    most recently active first, each with what it holds: the counts of ``stats``."""
    return await mem.users(tenant_id=caller.tenant_id, limit=body.limit)


@router.post("/memory/query", response_model=list[MemoryItem], responses=documented(400))
async def list_items(body: ItemsQuery, mem: Mem, caller: Caller) -> list[MemoryItem]:
    """The user's items (every user's with ``all_users``), newest first, of any status
    unless ``statuses`` names some, filtered by kind, tier, time, a piece of text and
    the ``external_id`` its message was written with.
    Nothing is ranked and nothing is recorded as used (``read`` does both)."""
    return await mem.list_items(**body.keywords(scope=body.scope.for_tenant(caller.tenant_id)))


@router.post("/events/query", response_model=list[Event], responses=documented(400))
async def events(body: EventsQuery, mem: Mem, caller: Caller) -> list[Event]:
    """The caller's raw events of these ids, in the order asked (ids the tenant does not
    hold are left out): what a memory's ``source_event_ids`` point to."""
    return await mem.get_events(body.ids, tenant_id=caller.tenant_id)


@router.post("/relations/query", response_model=list[Relation], responses=documented(400))
async def relations(body: RelationsQuery, mem: Mem, caller: Caller) -> list[Relation]:
    """The active graph edges touching any of ``entity_ids``: the user's and those of no
    user (every user's with ``all_users``)."""
    return await mem.relations(body.entity_ids, scope=body.scope.for_tenant(caller.tenant_id))
