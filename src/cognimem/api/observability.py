"""Request ids, the access log, request latency and ``GET /metrics``.

:class:`RequestContext` is the outermost middleware: it takes the request id from a sane
``X-Request-ID`` (or makes one), echoes it in the response, makes it visible to every log
record of the request (``cognimem.logs``), and when the response is sent records the
latency under the route *template* (``/v1/jobs/{job_id}``, never the raw path) and
writes one access log line. Nothing here reads or logs the ``Authorization`` header.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cognimem.api.auth import Principal, metrics_access
from cognimem.api.middleware import HttpMiddleware
from cognimem.logs import request_id_from, request_id_var
from cognimem.metrics import UNMATCHED_ROUTE, Metrics

access_log = logging.getLogger("cognimem.access")

REQUEST_ID_HEADER = "X-Request-ID"


class RequestContext(HttpMiddleware):
    """ASGI middleware: request id, latency histogram and access log per request."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics) -> None:
        super().__init__(app)
        self.metrics = metrics

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        incoming = None
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                incoming = value.decode("latin-1")
                break
        request_id = request_id_from(incoming)
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        status = 500  # unless a response starts: an exception escaped every handler

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                MutableHeaders(scope=message)[REQUEST_ID_HEADER] = request_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", None) or UNMATCHED_ROUTE
            method = str(scope.get("method", ""))
            self.metrics.observe_http(method, route, status, seconds)
            if access_log.isEnabledFor(logging.INFO):
                self._log(scope, method, route, status, seconds)
            request_id_var.reset(token)

    @staticmethod
    def _log(scope: Scope, method: str, route: str, status: int, seconds: float) -> None:
        """The request's access log line (built only when INFO is logged)."""
        fields: dict[str, Any] = {
            "method": method,
            "path": scope.get("path", ""),
            "route": route,
            "status": status,
            "duration_ms": round(seconds * 1000, 3),
        }
        principal = scope.get("state", {}).get("principal")
        if isinstance(principal, Principal) and not principal.admin:
            fields["tenant_id"] = principal.tenant_id
            fields["key_id"] = principal.key_id
        access_log.info("%s %s %d", method, fields["path"], status, extra=fields)


metrics_router = APIRouter(include_in_schema=False)


@metrics_router.get("/metrics", dependencies=[Depends(metrics_access)])
async def metrics(request: Request) -> Response:
    """The Prometheus exposition; needs the metrics token or the admin key.

    Rendered on the API's loop: rendering elsewhere (as a worker's ``MetricsServer``
    does) would not answer a scrape while that loop is held, since uvicorn reads the
    request on it too (``docs/metrics.md``)."""
    registry: Metrics = request.app.state.metrics
    body, content_type = await registry.render()
    return Response(content=body, media_type=content_type)


__all__ = ["REQUEST_ID_HEADER", "RequestContext", "metrics_router"]
