"""Lifecycle operations as admin calls, the mandate candidates promotion proposes, and
the job listing."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from cognimem.api.responses import documented
from cognimem.api.routes.deps import Caller, Mem
from cognimem.api.schemas import LifecycleRequest, UserScopeRequest
from cognimem.models import MemoryItem
from cognimem.models.arguments import make_level_scope
from cognimem.models.lifecycle import LifecycleRun, MandateCandidate
from cognimem.models.procedures import Procedure
from cognimem.models.scope import ID_PATTERN
from cognimem.queue import Job, JobState

router = APIRouter(prefix="/v1", tags=["lifecycle"])


@router.post(
    "/lifecycle/{op}",
    response_model=LifecycleRun,
    status_code=202,
    responses={200: {"description": "a dry run: what would change"}, **documented(400, 403, 404)},
)
async def run_lifecycle(
    op: Annotated[str, Path(pattern=ID_PATTERN)],
    body: LifecycleRequest,
    mem: Mem,
    caller: Caller,
    response: Response,
) -> LifecycleRun:
    """Queue lifecycle operation ``op`` (``consolidate``, ``revise``, ...) on one level's
    memories — a user's, an agent's (``scope.agent_id`` alone) or the organisation's
    (``scope.level: "organisation"``): 202 with the job (``Location: /v1/jobs/{id}``).
    With ``dry_run``: 200 with what it would change (``result``, ``summary``), changing
    nothing. A key runs it only on a level it may write (403). An unknown ``op`` is
    404."""
    scope = body.scope.for_tenant(caller.tenant_id)
    caller.check_write_of(lambda: make_level_scope(scope))
    run = await mem.run_lifecycle(op, scope=scope, dry_run=body.dry_run, key=body.key)
    if run.job is None:
        response.status_code = 200
    else:
        response.headers["Location"] = f"/v1/jobs/{run.job.id}"
    return run


@router.get("/jobs", response_model=list[Job], responses=documented(400))
async def list_jobs(
    mem: Mem,
    caller: Caller,
    kind: Annotated[str | None, Query(pattern=ID_PATTERN)] = None,
    state: JobState | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[Job]:
    """The tenant's jobs, newest first (``kind``: ``ingest`` or ``lifecycle``; ``state``:
    queued, running, done, failed), each with its attempts, error, progress and result
    summary. Empty when the server has no job queue."""
    return await mem.list_jobs(tenant_id=caller.tenant_id, kind=kind, state=state, limit=limit)


@router.get("/users/{user_id}/procedures", response_model=list[Procedure])
async def procedures(
    user_id: Annotated[str, Path(pattern=ID_PATTERN)],
    mem: Mem,
    caller: Caller,
    namespace: Annotated[str, Query(pattern=ID_PATTERN)] = "default",
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[Procedure]:
    """The user's learnt procedures, most confident first: trigger, action, observed
    count, confidence and the events each was learnt from (``POST
    /v1/lifecycle/procedures`` learns them). A user with none: an empty list."""
    scope = {"tenant_id": caller.tenant_id, "namespace": namespace, "user_id": user_id}
    return await mem.procedures(scope=scope, limit=limit)


@router.post(
    "/mandate-candidates/query",
    response_model=list[MandateCandidate],
    responses=documented(400),
)
async def mandate_candidates(
    body: UserScopeRequest, mem: Mem, caller: Caller
) -> list[MandateCandidate]:
    """The user's memories proposed as mandates (``scope.user_id`` required; no agent or
    session): tier high,
    used at least 10 times, never marked incorrect. Nothing is applied until accepted."""
    return await mem.mandate_candidates(body.scope.for_tenant(caller.tenant_id))


@router.post(
    "/mandate-candidates/{item_id}/accept",
    response_model=MemoryItem,
    responses=documented(400, 404, 409),
)
async def accept_mandate(
    item_id: Annotated[str, Path(min_length=1, max_length=128)], mem: Mem, caller: Caller
) -> MemoryItem:
    """Accept a mandate candidate: it becomes a mandate (kind ``mandate``, tier
    ``always``). 422 when it is not a current candidate, 404 when there is no such
    active memory."""
    return await mem.accept_mandate(item_id, tenant_id=caller.tenant_id)
