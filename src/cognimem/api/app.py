"""FastAPI app factory: middleware, the error handler and the routers. Routes (in
``cognimem.api.routes``) parse, call ``Memory`` for the caller's tenant, and render."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cognimem.api.auth import Authenticator, admin_router
from cognimem.api.edge import storable_text
from cognimem.api.errors import error_response, response_for
from cognimem.api.mcp_mount import MOUNT_PATH, mcp_mount
from cognimem.api.metrics_port import check_metrics_port, metrics_port_running
from cognimem.api.middleware import HttpMiddleware
from cognimem.api.observability import RequestContext, metrics_router
from cognimem.api.read_path import ReadFastPath
from cognimem.api.responses import documented
from cognimem.api.routes import ROUTERS
from cognimem.api.routes.operations import probe_router
from cognimem.errors import CognimemError
from cognimem.memory import Memory
from cognimem.metrics import Metrics
from cognimem.ui import MOUNT_PATH as DASHBOARD_PATH
from cognimem.ui import dashboard_app

# what every authenticated route may answer; routes add their own (400, 404, 409, 502)
ERROR_RESPONSES = documented(401, 413, 422, 429, 500, 503)
# the admin key is not rate limited
ADMIN_ERROR_RESPONSES = documented(401, 413, 422, 500, 503)
# the dependencies every router gets; ReadFastPath runs them itself for a plain read
ROUTER_CHECKS = (storable_text,)


HTTP_ERRORS = {
    400: ("InvalidInput", "the request body could not be read: send UTF-8 encoded JSON"),
    404: ("NotFound", "no such route: see /openapi.json"),
    405: ("MethodNotAllowed", "this route does not take that method: see /openapi.json"),
}


def allowed_methods(request: Request) -> list[str]:
    """Every method some route takes at this path (Starlette's own 405 names only the
    first route that matched the path, e.g. POST of GET + POST /v1/admin/keys)."""
    return [
        method
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL
            for route in request.app.router.routes
        )
    ]


class BodyLimit(HttpMiddleware):
    """Refuses request bodies over ``limit`` bytes before anything parses them: at once
    when ``Content-Length`` says so, else as soon as the streamed body crosses it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        super().__init__(app)
        self.limit = limit

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or ())
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(scope, receive, send)
            return
        if length is not None and b"transfer-encoding" not in headers:
            # the server reads no more body than Content-Length says, and that is
            # within the limit: nothing to count as it streams in
            await self.app(scope, receive, send)
            return
        seen = 0
        refused = False

        async def counted() -> Message:
            # a body without a (truthful) length is counted as it streams in; past the
            # limit the caller gets the 413 at once and the app sees a disconnect
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    refused = True
                    await self._refuse(scope, receive, send)
            if refused:
                return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            if not refused:  # after a refusal, whatever the app answers is dropped
                await send(message)

        await self.app(scope, counted, guarded)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"request body over {self.limit} bytes"
        refusal = error_response(413, "InvalidInput", message, {"field": "body"})
        await refusal(scope, receive, send)


def add_error_handlers(app: FastAPI) -> None:
    """Answer cognimem's errors, the framework's own HTTP errors and invalid requests
    with one ``{"error": {"type", "message"}}`` body."""

    @app.exception_handler(CognimemError)
    async def on_cognimem_error(request: Request, exc: CognimemError) -> JSONResponse:
        return response_for(exc)

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # errors raised by the framework itself: unknown route, wrong method, a body
        # that cannot be read
        type_, message = HTTP_ERRORS.get(exc.status_code, ("HTTPError", str(exc.detail)))
        headers = exc.headers
        if exc.status_code == 405:
            headers = {"Allow": ", ".join(allowed_methods(request))}
        return error_response(exc.status_code, type_, message, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def on_validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        if first.get("type") == "json_invalid":
            # its loc is ("body", <offset of the character where parsing stopped>)
            at = first["loc"][-1]
            reason = first.get("ctx", {}).get("error", "")
            message = f"body: invalid JSON at character {at}" + (f": {reason}" if reason else "")
            return error_response(422, "InvalidInput", message, {"field": "body"})
        loc = [str(p) for p in first.get("loc", ()) if p != "body"]
        field = ".".join(loc) or "body"
        message = f"{field}: {first.get('msg')}"
        return error_response(422, "InvalidInput", message, {"field": field})


def create_app(memory: Memory | None = None, *, max_body_bytes: int | None = None) -> FastAPI:
    """The cognimem HTTP app. Without ``memory`` it opens one from the environment. A
    Memory not open yet is opened when the server starts and closed when it stops; an
    open one stays open (its owner closes it)."""
    owned = memory is None
    mem = memory if memory is not None else Memory.open()
    limit = max_body_bytes or mem.settings.server.max_body_bytes
    auth = Authenticator(mem.store, mem.settings)
    metrics = Metrics(mem)
    check_metrics_port(mem.settings)

    mcp_app, mcp_running = mcp_mount(mem)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # a Memory this server opens is closed by it: its connections (a PostgreSQL
        # pool, say) belong to this server's event loop, which ends with it
        opens = not mem.is_open
        await mem.start()
        try:
            # per process: uvicorn runs each worker's lifespan in that worker
            async with metrics_port_running(app.state, mem, metrics), mcp_running():
                yield
        finally:
            await auth.aclose()
            if owned or opens:
                await mem.aclose()
            elif mem.llm is not None:
                # the caller keeps the Memory; the LLM's connections belong to this
                # server's event loop, which ends here (the client reconnects if reused)
                await mem.llm.aclose()

    app = FastAPI(
        title="cognimem",
        version="0.1.0",
        lifespan=lifespan,
        description="Cognitive memory for LLM agents. Every /v1 route except health and "
        "ready needs `Authorization: Bearer <API key>`; the key decides the tenant.",
    )
    app.state.memory = mem
    app.state.auth = auth
    app.state.metrics = metrics
    app.state.metrics_port = None  # the MetricsServer while the app runs, if configured
    # innermost: a plain read skips FastAPI, running the same checks itself
    app.add_middleware(ReadFastPath, api=app, checks=ROUTER_CHECKS)
    app.add_middleware(BodyLimit, limit=limit)
    # outermost: request ids, latency and the access log cover every response
    app.add_middleware(RequestContext, metrics=metrics)

    add_error_handlers(app)
    _add_routes(app, mcp_app)
    return app


def _add_routes(app: FastAPI, mcp_app: ASGIApp) -> None:
    """The API's routers (each with ``ROUTER_CHECKS``), the probes, the metrics, the
    MCP app and the dashboard."""
    checked = [Depends(check) for check in ROUTER_CHECKS]
    for router in ROUTERS:
        app.include_router(router, responses=ERROR_RESPONSES, dependencies=checked)
    app.include_router(admin_router, responses=ADMIN_ERROR_RESPONSES, dependencies=checked)
    app.include_router(probe_router)
    app.include_router(metrics_router)
    app.mount(MOUNT_PATH, mcp_app)
    # the dashboard: static files that call the routes above with the user's API key
    app.mount(DASHBOARD_PATH, dashboard_app())
