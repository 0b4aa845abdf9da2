"""FastAPI app factory. Routes parse, call ``Memory``, and render; nothing more."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse

from cognimem.api.schemas import FactsQuery, ReadRequest, WriteBatchRequest, WriteRequest
from cognimem.errors import CognimemError, StoreUnavailable
from cognimem.memory import Memory
from cognimem.models import ContextPacket, WriteResult
from cognimem.models.knowledge import Fact
from cognimem.queue import Job

DEFAULT_TENANT = "default"


def _error(
    status: int, type_: str, message: str, details: dict[str, Any] | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"type": type_, "message": message}
    if details:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status)


def create_app(memory: Memory | None = None, *, max_body_bytes: int | None = None) -> FastAPI:
    """The cognimem HTTP app. Without ``memory`` it opens one from the environment."""
    owned = memory is None
    mem = memory if memory is not None else Memory.open()
    limit = max_body_bytes or mem.settings.server.max_body_bytes

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await mem.start()
        try:
            yield
        finally:
            if owned:
                await mem.aclose()

    app = FastAPI(title="cognimem", version="0.1.0", lifespan=lifespan)
    app.state.memory = mem

    @app.middleware("http")
    async def body_limit(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            return _error(413, "InvalidInput", f"request body over {limit} bytes")
        return await call_next(request)

    @app.exception_handler(CognimemError)
    async def on_cognimem_error(request: Request, exc: CognimemError) -> JSONResponse:
        response = _error(exc.status_code, exc.type, exc.message, exc.details)
        if isinstance(exc, StoreUnavailable):
            response.headers["Retry-After"] = str(max(1, round(exc.retry_after)))
        return response

    @app.exception_handler(RequestValidationError)
    async def on_validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        loc = [str(p) for p in first.get("loc", ()) if p != "body"]
        field = ".".join(loc) or "body"
        return _error(422, "InvalidInput", f"{field}: {first.get('msg')}", {"field": field})

    @app.get("/v1/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    def written(result: WriteResult, response: Response) -> WriteResult:
        # async mode: the raw events are stored and a job will derive the memories
        if result.job_id is not None:
            response.status_code = 202
            response.headers["Location"] = f"/v1/jobs/{result.job_id}"
        return result

    @app.post("/v1/memory/write", response_model=WriteResult)
    async def write(body: WriteRequest, response: Response) -> WriteResult:
        message = body.model_dump(exclude={"scope", "profile"})
        scope = body.scope.to_scope(DEFAULT_TENANT)
        return written(
            await mem.write_batch([message], scope=scope, profile=body.profile), response
        )

    @app.post("/v1/memory/write_batch", response_model=WriteResult)
    async def write_batch(body: WriteBatchRequest, response: Response) -> WriteResult:
        scope = body.scope.to_scope(DEFAULT_TENANT)
        return written(
            await mem.write_batch(body.messages, scope=scope, profile=body.profile), response
        )

    @app.post("/v1/facts/query", response_model=list[Fact])
    async def facts(body: FactsQuery) -> list[Fact]:
        return await mem.facts(
            key=body.key,
            categories=body.categories,
            include_history=body.include_history,
            scope=body.scope.to_scope(DEFAULT_TENANT),
            limit=body.limit,
        )

    @app.get("/v1/jobs/{job_id}", response_model=Job)
    async def job(job_id: str) -> Job:
        return await mem.get_job(job_id, tenant_id=DEFAULT_TENANT)

    @app.post("/v1/memory/read", response_model=ContextPacket)
    async def read(body: ReadRequest) -> Response | ContextPacket:
        packet = await mem.read(
            body.query,
            scope=body.scope.to_scope(DEFAULT_TENANT),
            limit=body.limit,
            max_tokens=body.max_tokens,
            preset=body.preset,
            kinds=body.kinds,
            since=body.since,
            until=body.until,
            reference_time=body.reference_time,
            timezone=body.timezone,
            explain=body.explain,
        )
        if body.format == "markdown":
            return PlainTextResponse(packet.to_markdown(), media_type="text/markdown")
        return packet

    return app
