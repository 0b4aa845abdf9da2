"""``/v1/memory``: write, read (JSON, markdown, server-sent events), turn, update,
forget, get, history, export and import."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import PlainTextResponse, StreamingResponse
from pydantic import TypeAdapter, ValidationError

from cognimem.api.responses import documented
from cognimem.api.routes.deps import Caller, Mem, check_id_reach
from cognimem.api.schemas import (
    ForgetRequest,
    LevelScopeRequest,
    ReadRequest,
    ScopeFields,
    TurnRequest,
    UpdateRequest,
    WriteBatchRequest,
    WriteRequest,
)
from cognimem.errors import CognimemError, InvalidInput, NotFound
from cognimem.memory import Memory
from cognimem.models import ContextPacket, MemoryItem, Message, Turn, WriteResult
from cognimem.models.admin import ExportRecord, ForgetResult
from cognimem.models.arguments import make_reach_scope, make_read_scope, make_write_scope
from cognimem.models.knowledge import HistoryEntry
from cognimem.models.scope import ID_PATTERN
from cognimem.recall.packing import SectionSink

log = logging.getLogger(__name__)

router = APIRouter(prefix="/v1/memory", tags=["memory"])

NDJSON = "application/x-ndjson"
QueryId = Annotated[str | None, Query(pattern=ID_PATTERN)]
IMPORT_BATCH = 500
# a read's JSON answer, rendered to bytes once: ``model_dump_json`` would decode the
# serializer's bytes to a str for ``Response`` to encode back (the same bytes)
PACKET_JSON = TypeAdapter(ContextPacket)


def _observe(
    request: Request, result: WriteResult | ContextPacket, cpu_seconds: float | None = None
) -> None:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is None:
        return
    if isinstance(result, WriteResult):
        metrics.observe_write(result)
    else:
        metrics.observe_read(result, cpu_seconds)


def _queued_answer(result: WriteResult, response: Response) -> None:
    # async mode: the raw events are stored and a job will derive the memories
    if result.job_id is not None:
        response.status_code = 202
        response.headers["Location"] = f"/v1/jobs/{result.job_id}"


def _queued(model: type[WriteResult | Turn]) -> dict[int | str, dict[str, Any]]:
    return {
        202: {
            "model": model,
            "description": "async ingestion mode: the raw events are stored and a job (its id"
            " in `job_id` and the `Location` header) derives the memories",
        }
    }


# both write routes answer alike: the result, or 202 and a job in async ingestion mode
_WRITTEN: dict[str, Any] = {
    "response_model": WriteResult,
    "responses": _queued(WriteResult) | documented(400, 403, 409, 502),
}


@router.post("/write", **_WRITTEN)
async def write(
    body: WriteRequest, request: Request, response: Response, mem: Mem, caller: Caller
) -> WriteResult:
    """Remember one message (202 with a job in async ingestion mode)."""
    message = body.model_dump(exclude={"scope", "profile"})
    return await _write(body, [message], request, response, mem, caller)


@router.post("/write_batch", **_WRITTEN)
async def write_batch(
    body: WriteBatchRequest, request: Request, response: Response, mem: Mem, caller: Caller
) -> WriteResult:
    """Remember many messages in one transaction."""
    return await _write(body, body.messages, request, response, mem, caller)


async def _write(
    body: WriteRequest | WriteBatchRequest,
    messages: Sequence[Message | Mapping[str, Any]],
    request: Request,
    response: Response,
    mem: Memory,
    caller: Caller,
) -> WriteResult:
    """Both write routes' work: ``messages`` written in the caller's scope, in one
    transaction, once the caller may write there."""
    scope = body.scope.for_tenant(caller.tenant_id)
    caller.check_write_of(lambda: make_write_scope(scope))
    result = await mem.write_batch(messages, scope=scope, profile=body.profile)
    _observe(request, result)
    _queued_answer(result, response)
    return result


async def _read(
    mem: Memory, body: ReadRequest, tenant_id: str, on_section: SectionSink | None = None
) -> tuple[ContextPacket, float]:
    """The read's packet and the process CPU time spent while it ran (every thread's:
    the embedder's and the database readers' too, and any other request's that ran
    at the same time)."""
    started = time.process_time()
    packet = await mem.read(
        body.query, on_section=on_section, **body.keywords(scope=body.scope.for_tenant(tenant_id))
    )
    return packet, time.process_time() - started


@router.post(
    "/read",
    response_model=ContextPacket,
    responses={
        200: {"content": {"text/markdown": {"schema": {"type": "string"}}}},
        **documented(400, 502),
    },
)
async def read(body: ReadRequest, request: Request, mem: Mem, caller: Caller) -> Response:
    """The context packet for a query: JSON, or the prompt-ready markdown with
    ``format: "markdown"``."""
    packet, cpu_seconds = await _read(mem, body, caller.tenant_id)
    _observe(request, packet, cpu_seconds)
    if body.format == "markdown":
        return PlainTextResponse(packet.to_markdown(), media_type="text/markdown")
    return Response(PACKET_JSON.dump_json(packet), media_type="application/json")


def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, default=str)}\n\n"


@router.post(
    "/read/stream",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "server-sent events: section (each as soon as it is final:"
            " mandates first), item, done (the whole packet)",
            "content": {"text/event-stream": {}},
        },
        **documented(400, 502),
    },
)
async def read_stream(
    body: ReadRequest, request: Request, mem: Mem, caller: Caller
) -> StreamingResponse:
    """The read as server-sent events, each section sent as soon as it is final: one
    ``section`` event per section (``{"name", "entries"}``; the mandates before any
    search runs, then the constraints, facts and the rest), one ``item`` event per
    ranked memory (best first), then ``done`` with the whole packet. Errors before the
    first event are ordinary JSON error responses; a failure after it is an ``error``
    event."""
    events: asyncio.Queue[str] = asyncio.Queue()

    async def on_section(name: str, entries: list[Any]) -> None:
        dumped = [e.model_dump(mode="json") for e in entries]
        events.put_nowait(_sse("section", {"name": name, "entries": dumped}))

    reading = asyncio.ensure_future(_read(mem, body, caller.tenant_id, on_section))
    first = asyncio.ensure_future(events.get())
    await asyncio.wait({reading, first}, return_when=asyncio.FIRST_COMPLETED)
    if not first.done():  # the read ended before its first section: it failed
        first.cancel()
        await reading  # raises: an ordinary JSON error answer

    async def stream() -> AsyncIterator[str]:
        yield first.result()
        while not (reading.done() and events.empty()):
            waiting = asyncio.ensure_future(events.get())
            await asyncio.wait({reading, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if waiting.done():
                yield waiting.result()
            else:
                waiting.cancel()
        try:
            packet, cpu_seconds = reading.result()
        except CognimemError as exc:
            yield _sse("error", {"type": exc.type, "message": exc.message})
            return
        _observe(request, packet, cpu_seconds)
        for item in packet.items:
            yield _sse("item", item.model_dump(mode="json"))
        yield _sse("done", packet.model_dump(mode="json"))

    return StreamingResponse(stream(), media_type="text/event-stream")


@router.post("/turn", response_model=Turn, responses=_queued(Turn) | documented(400, 403, 409, 502))
async def turn(
    body: TurnRequest, request: Request, response: Response, mem: Mem, caller: Caller
) -> Turn:
    """Read for the user's message, then remember the user's and the assistant's
    messages; returns the packet (read before anything of this turn was stored) and
    what was stored."""
    scope = body.scope.for_tenant(caller.tenant_id)
    # the turn's messages are stored there
    caller.check_write_of(lambda: make_read_scope(scope))
    done = await mem.turn(body.user, body.assistant, **body.keywords(scope=scope))
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.observe_turn(done, answered=body.assistant is not None)
    _queued_answer(done.stored, response)
    return done


@router.get("/get/{item_id}", response_model=MemoryItem, responses=documented(403, 404))
async def get(
    item_id: str,
    mem: Mem,
    caller: Caller,
    user_id: QueryId = None,
    agent_id: QueryId = None,
    session_id: QueryId = None,
    namespace: Annotated[str, Query(pattern=ID_PATTERN)] = "default",
) -> MemoryItem:
    """One memory item with its provenance. The scope parameters, when given, must
    match the item's (else 404)."""
    fields = ScopeFields(
        user_id=user_id, agent_id=agent_id, session_id=session_id, namespace=namespace
    )
    # a malformed or empty id is a 422, as in a body's scope
    item = await mem.get(
        item_id, tenant_id=caller.tenant_id, scope=fields.for_tenant(caller.tenant_id)
    )
    caller.check_reach(item.scope, "read")
    return item


@router.get(
    "/history/{target_id}", response_model=list[HistoryEntry], responses=documented(403, 404)
)
async def history(target_id: str, mem: Mem, caller: Caller) -> list[HistoryEntry]:
    """Every recorded change to a memory item or a fact, oldest first (an empty list for
    one never changed; 404 when the caller's tenant has no such item or fact)."""
    await check_id_reach(mem, caller, target_id, "read")
    found = await mem.history(target_id, tenant_id=caller.tenant_id)
    if not found:
        tenant, ids = caller.tenant_id, [target_id]
        if not (await mem.store.get_items(tenant, ids) or await mem.store.get_facts(tenant, ids)):
            raise NotFound("memory or fact", target_id)
    return found


@router.post("/update", response_model=MemoryItem, responses=documented(400, 403, 404, 502))
async def update(body: UpdateRequest, mem: Mem, caller: Caller) -> MemoryItem:
    """Edit a memory's text (re-embedded, re-indexed), importance or tier, or give
    feedback: ``correct`` reinforces it, ``incorrect`` silences it, ``outdated``
    archives it. Every change is in its history."""
    await check_id_reach(mem, caller, body.id, "edit")
    return await mem.update(body.id, **body.keywords(tenant_id=caller.tenant_id))


@router.post("/forget", response_model=ForgetResult, responses=documented(400, 403, 502))
async def forget(body: ForgetRequest, mem: Mem, caller: Caller) -> ForgetResult:
    """Forget memories by ids, by query or by time range: ``delete`` removes them,
    ``archive`` keeps them out of reads, ``silence`` keeps them but never recalls
    them. ``dry_run`` says what would be forgotten."""
    scope = body.scope.for_tenant(caller.tenant_id)
    caller.check_write_of(lambda: make_reach_scope(scope)[0])
    return await mem.forget(**body.keywords(scope=scope))


@router.post(
    "/export",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "JSON lines: a header, one record per row, `error` records for"
            " rows that could not be written out",
            "content": {NDJSON: {"schema": {"type": "string"}}},
        },
        **documented(400, 403),
    },
)
async def export(body: LevelScopeRequest, mem: Mem, caller: Caller) -> StreamingResponse:
    """Everything stored in the scope as JSON lines (a header line first), streamed;
    ``POST /v1/memory/import`` takes the same lines back. One shared level alone with
    ``scope.agent_id`` and no user, or ``scope.level: "organisation"``. A key exports
    only a level it may write (403)."""
    scope = body.scope.for_tenant(caller.tenant_id)
    caller.check_write_of(lambda: make_reach_scope(scope)[0])
    records = mem.export(scope=scope)

    async def lines() -> AsyncIterator[str]:
        last: ExportRecord | None = None
        try:
            async for record in records:
                last = record
                yield record.json_line()
        except CognimemError as exc:
            # the 200 is sent: the stream ends with an error record instead of a cut
            log.error("export stopped after %s: %s", last and last.type, exc.message)
            message = f"the export stopped here: {exc.type}; the server log has the cause"
            data = {"record_type": None, "id": None, "message": message}
            yield ExportRecord(type="error", data=data).json_line()

    return StreamingResponse(lines(), media_type=NDJSON)


@router.post(
    "/import",
    response_model=dict[str, int],
    responses=documented(403, 502),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {NDJSON: {"schema": {"type": "string"}}},
        }
    },
)
async def import_(request: Request, mem: Mem, caller: Caller) -> dict[str, int]:
    """Import JSON lines written by export into the caller's tenant, with ids made the
    tenant's; rows already stored are skipped, so importing twice changes nothing.
    Returns how many rows of each type were inserted."""
    records: list[ExportRecord] = []
    line_no = 0
    async for line in _lines(request):
        line_no += 1
        if not line.strip():
            continue
        try:
            records.append(ExportRecord.model_validate_json(line))
        except ValidationError as exc:
            raise InvalidInput(
                f"line {line_no} is not an export record: {exc.errors()[0]['msg']}",
                field=f"line {line_no}",
            ) from exc
    if not records:
        raise InvalidInput("the body holds no export records", field="body")
    caller.check_tenant_wide("import records of every level")
    return await mem.import_records(records, tenant_id=caller.tenant_id)


async def _lines(request: Request) -> AsyncIterator[str]:
    pending = b""
    async for chunk in request.stream():
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for raw in complete:
            yield _decode(raw)
    if pending:
        yield _decode(pending)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput("the body is not valid UTF-8", field="body") from exc
