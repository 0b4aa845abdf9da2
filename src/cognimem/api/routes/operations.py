"""Sessions, statistics, erasure of a user or a shared level, liveness and readiness."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, ConfigDict
from starlette.datastructures import State

from cognimem.api.responses import documented
from cognimem.api.routes.deps import Caller, Mem
from cognimem.api.schemas import (
    AGENT_LEVEL,
    ORGANISATION_LEVEL,
    ReadScopeRequest,
    ScopeRequest,
    SessionCreate,
    SessionsQuery,
    WriteScope,
)
from cognimem.models.admin import ErasureReport, ScopeStats, Session
from cognimem.models.arguments import make_level_scope
from cognimem.models.scope import ID_PATTERN, Scope
from cognimem.providers.llm import ChatLLM, ChatMessage
from cognimem.recall import PRESETS
from cognimem.recall.conversation.cross import missing_install

router = APIRouter(prefix="/v1", tags=["operations"])
# liveness and readiness: no key, no error answers of their own
probe_router = APIRouter(prefix="/v1", tags=["operations"])

PathId = Annotated[str, Path(pattern=ID_PATTERN)]

READY_TIMEOUT_S = 5.0
# an LLM that answered a readiness completion counts as ready this long, so probes every
# few seconds do not each pay for a completion; one that failed is asked again next time
LLM_READY_TTL_S = 60.0


@router.post("/sessions", response_model=Session, status_code=201, responses=documented(400, 409))
async def create_session(body: SessionCreate, mem: Mem, caller: Caller) -> Session:
    """Open a session (returns the existing one when it is already open)."""
    return await mem.create_session(
        body.session_id, scope=body.scope.for_tenant(caller.tenant_id), metadata=body.metadata
    )


@router.post("/sessions/query", response_model=list[Session], responses=documented(400))
async def list_sessions(body: SessionsQuery, mem: Mem, caller: Caller) -> list[Session]:
    """Sessions of the scope, newest first."""
    return await mem.list_sessions(scope=body.scope.for_tenant(caller.tenant_id), limit=body.limit)


@router.post("/sessions/{session_id}/close", response_model=Session, responses=documented(400, 404))
async def close_session(
    session_id: PathId, body: ScopeRequest, mem: Mem, caller: Caller
) -> Session:
    """Close a session: writes naming it are refused from now on (409)."""
    return await mem.close_session(session_id, scope=body.scope.for_tenant(caller.tenant_id))


@router.post("/stats", response_model=ScopeStats, responses=documented(400))
async def stats(body: ReadScopeRequest, mem: Mem, caller: Caller) -> ScopeStats:
    """What the scope holds: events, items by status and kind, facts, entities,
    relations, open conflicts, sessions."""
    return await mem.stats(scope=body.scope.for_tenant(caller.tenant_id))


@router.delete("/users/{user_id}", response_model=ErasureReport, responses=documented(403))
async def erase_user(user_id: PathId, mem: Mem, caller: Caller) -> ErasureReport:
    """Erase everything derived from a user of the caller's tenant, in every
    namespace: events, items, facts, the user's entities and aliases, relations,
    conflicts, history, sessions, cached embeddings and queued jobs."""
    caller.check_write(Scope(tenant_id=caller.tenant_id, user_id=user_id))
    return await mem.erase_user(user_id, tenant_id=caller.tenant_id)


class ErasedLevel(WriteScope):
    """A shared level alone: ``agent_id`` with no user or session, or ``level:
    "organisation"`` with none of them."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [AGENT_LEVEL, ORGANISATION_LEVEL]},
    )


class LevelEraseRequest(BaseModel):
    """The shared level to erase: ``scope.agent_id`` with no user (the agent's), or
    ``scope.level: "organisation"``."""

    model_config = ConfigDict(extra="forbid")

    scope: ErasedLevel


@router.post("/levels/erase", response_model=ErasureReport, responses=documented(400, 403))
async def erase_level(body: LevelEraseRequest, mem: Mem, caller: Caller) -> ErasureReport:
    """Erase one shared level of the caller's tenant, in every namespace: an agent's
    (``scope.agent_id`` and no user) or the organisation's (``scope.level:
    "organisation"``) — its events, items, facts, relations, conflicts, history,
    sessions, procedures, the entities only it named and their cached embeddings. No
    user's memory changes. A key erases only a level it may write (403); a scope with
    a user or a session is a 422."""
    scope = body.scope.for_tenant(caller.tenant_id)
    caller.check_write_of(lambda: make_level_scope(scope))
    return await mem.erase_level(scope=scope)


class Health(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    # degraded: every component answers, but a preset's stage is not installed (the
    # presets that need it are refused with a 422; the others read as usual)
    status: Literal["ok", "degraded", "unavailable"]
    # per component (store, embedder, queue, llm, domain): "ok", "timeout after 5s" or
    # "error: <exception type>"; cross_encoder: "ok" or "not installed: <command>
    # (preset <name>)"
    checks: dict[str, str]


@probe_router.get("/health", response_model=Health)
async def health() -> Health:
    """Liveness: the process answers. No key needed."""
    return Health(status="ok")


async def _check(name: str, probe: Any) -> tuple[str, str]:
    try:
        await asyncio.wait_for(probe, READY_TIMEOUT_S)
    except TimeoutError:
        return name, f"timeout after {READY_TIMEOUT_S:g}s"
    except Exception as exc:  # every failure is the answer here, reported by type
        return name, f"error: {type(exc).__name__}"
    return name, "ok"


def _cross_encoder(default_preset: str) -> tuple[str, bool]:
    """The cross-encoder stage's check (``ok``, or ``not installed: <command> (preset
    <names>)``), and whether the configured default preset is one it leaves unable to
    run (then no read without a preset can)."""
    lacking = {
        name: install for name, config in PRESETS.items() if (install := missing_install(config))
    }
    if not lacking:
        return "ok", False
    installs = ", ".join(sorted(set(lacking.values())))
    return f"not installed: {installs} (preset {', '.join(lacking)})", default_preset in lacking


async def _llm_answers(llm: ChatLLM, state: State) -> None:
    """The LLM answers a one-word completion (the app's LLM: its last answer's time is
    kept in the app's state)."""
    if time.monotonic() < getattr(state, "llm_ready_until", 0.0):
        return
    await llm.complete([ChatMessage(role="user", content="Reply with: ok")])
    state.llm_ready_until = time.monotonic() + LLM_READY_TTL_S


@probe_router.get(
    "/ready",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "a component does not answer"}},
)
async def ready(mem: Mem, request: Request, response: Response) -> Readiness:
    """Readiness: the store, the job queue, the embedder, the LLM and the domain
    database (each only when configured) answer. 503 with each component's state when
    one does not. No key needed; failures are reported by error type only. The
    cross-encoder of the ``reranked`` preset is looked for, not loaded: when it is not
    installed the status is ``degraded`` (200), or ``unavailable`` (503) when it is
    the configured default preset's."""
    probes: list[Any] = [
        _check("store", mem.store.get_meta("schema_version")),
        _check("embedder", mem.embedder.embed(["ready"], kind="query")),
    ]
    if mem.queue is not None:
        probes.append(_check("queue", mem.queue.depth()))
    if mem.llm is not None:
        probes.append(_check("llm", _llm_answers(mem.llm, request.app.state)))
    if mem.domains is not None and mem.domains.has_source:
        probes.append(_check("domain", mem.domains.ping()))
    checks = dict(await asyncio.gather(*probes))
    answering = all(state == "ok" for state in checks.values())
    checks["cross_encoder"], default_lacks = _cross_encoder(mem.settings.recall.preset)
    status: Literal["ok", "degraded", "unavailable"] = "unavailable"
    if answering and not default_lacks:
        status = "ok" if checks["cross_encoder"] == "ok" else "degraded"
    response.status_code = 503 if status == "unavailable" else 200
    return Readiness(status=status, checks=checks)
