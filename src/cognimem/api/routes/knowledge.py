"""Facts, entities, conflicts and ingestion jobs."""

from __future__ import annotations

from fastapi import APIRouter

from cognimem.api.responses import documented
from cognimem.api.routes.deps import Caller, Mem, check_id_reach
from cognimem.api.schemas import (
    AliasAddRequest,
    AliasRemoveRequest,
    ConflictsQuery,
    FactsQuery,
    LevelScopeRequest,
    ResolveRequest,
)
from cognimem.models.admin import KeyLevel
from cognimem.models.arguments import make_read_scope
from cognimem.models.knowledge import (
    AliasAddition,
    AliasRemoval,
    EntityWithAliases,
    Fact,
    FactConflict,
)
from cognimem.queue import Job

router = APIRouter(prefix="/v1", tags=["knowledge"])


@router.post("/facts/query", response_model=list[Fact], responses=documented(400))
async def facts(body: FactsQuery, mem: Mem, caller: Caller) -> list[Fact]:
    """The user's facts, newest first (live ones, or every version with
    ``include_history``); ``key`` matches exactly or as a prefix of multi-valued keys.
    With one shared level alone (``scope.agent_id`` and no user, or ``scope.level:
    "organisation"``), that level's facts alone."""
    return await mem.facts(**body.keywords(scope=body.scope.for_tenant(caller.tenant_id)))


@router.post("/entities/query", response_model=list[EntityWithAliases], responses=documented(400))
async def entities(body: LevelScopeRequest, mem: Mem, caller: Caller) -> list[EntityWithAliases]:
    """The entities the user's memories mention, each with its aliases (with one shared
    level alone, the entities of no user)."""
    found = await mem.entities(scope=body.scope.for_tenant(caller.tenant_id))
    return [EntityWithAliases(entity=e, aliases=a) for e, a in found]


@router.post(
    "/entities/{entity_id}/aliases/remove",
    response_model=AliasRemoval,
    responses=documented(400, 403, 404),
)
async def remove_alias(
    entity_id: str, body: AliasRemoveRequest, mem: Mem, caller: Caller
) -> AliasRemoval:
    """Undo a name merge: take ``alias`` off the entity, with an ``alias_removed``
    history entry keeping what it was; the items linked through the name lose that link
    (with ``split`` the name becomes an entity of its own, and the links and the facts
    said through the name move to it; the two entities' profiles are archived and built
    again right after the edit: ``rebuilt_profiles``, and ``degraded`` for an LLM gist
    or a rebuild that failed). 404 for an entity or alias the scope
    does not hold; 400 for the entity's own name; 403 for a scope beyond the key's
    level."""
    scope = body.scope.for_tenant(caller.tenant_id)
    caller.check_write_of(lambda: make_read_scope(scope))
    return await mem.remove_alias(entity_id, body.alias, split=body.split, scope=scope)


@router.post(
    "/entities/{entity_id}/aliases/add",
    response_model=AliasAddition,
    responses=documented(400, 403, 404, 409),
)
async def add_alias(
    entity_id: str, body: AliasAddRequest, mem: Mem, caller: Caller
) -> AliasAddition:
    """Give ``alias`` to the entity as the user's word, with an ``alias_added`` history
    entry; a name split off it merges the split-off entity back (the links, summaries'
    entities and facts the split moved come back, the two entities' profiles are archived
    and built again, and the split-off entity is deleted once nothing names it); a name
    removed without a split links again the items its removal unlinked, and the
    summaries covering them. 404 for an entity the scope does not hold; 409 for a name
    another entity has; 403 for a scope beyond the key's level."""
    scope = body.scope.for_tenant(caller.tenant_id)
    caller.check_write_of(lambda: make_read_scope(scope))
    return await mem.add_alias(entity_id, body.alias, scope=scope)


@router.post("/conflicts/query", response_model=list[FactConflict], responses=documented(400))
async def conflicts(body: ConflictsQuery, mem: Mem, caller: Caller) -> list[FactConflict]:
    """Contradictions between the user's facts (open ones unless ``open_only`` is
    false)."""
    return await mem.conflicts(
        open_only=body.open_only, scope=body.scope.for_tenant(caller.tenant_id)
    )


@router.post(
    "/conflicts/{conflict_id}/resolve",
    response_model=FactConflict,
    responses=documented(400, 403, 404, 409),
)
async def resolve(conflict_id: str, body: ResolveRequest, mem: Mem, caller: Caller) -> FactConflict:
    """Close a conflict: with ``winner_fact_id`` the other facts are superseded by it;
    without, every fact of the conflict stays live."""
    if caller.level is not KeyLevel.ORGANISATION:  # its facts' level decides
        found = await mem.store.get_conflict(caller.tenant_id, conflict_id)
        for fact_id in [] if found is None else found.fact_ids:
            await check_id_reach(mem, caller, fact_id, "resolve")
    return await mem.resolve_conflict(
        conflict_id,
        winner_fact_id=body.winner_fact_id,
        note=body.note,
        tenant_id=caller.tenant_id,
    )


@router.get("/jobs/{job_id}", response_model=Job, responses=documented(404))
async def job(job_id: str, mem: Mem, caller: Caller) -> Job:
    """The state of a job (ingestion or lifecycle: queued, running, done, failed), with
    its progress and result summary. 404 when there is no such job, also when the server
    has no job queue (PostgreSQL without a queue URL)."""
    return await mem.get_job(job_id, tenant_id=caller.tenant_id)
