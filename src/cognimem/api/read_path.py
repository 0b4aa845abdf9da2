"""``POST /v1/memory/read`` without FastAPI's routing and dependency solving.

The read is the API's hottest route, and a profile of one read through the app shows
FastAPI's own work (matching the route twice, solving its four dependencies, checking
the body's content type with ``email``) costing about as much as the key check and the
rendering together. :class:`ReadFastPath` answers a read that FastAPI would answer with
the route's own code, in FastAPI's order: the JSON body parsed and validated as a
``ReadRequest``, then the checks every router gets (``storable_text``, passed in by ``app.py``
from the same list it gives the routers), then the key
(``authenticated``, which counts the rate limit), then the route function ``read``.

Anything else goes to FastAPI untouched, with the body it has already received played
back: another path or method, a ``Content-Type`` other than ``application/json``, a body
that is not valid JSON or not a valid ``ReadRequest`` (FastAPI's 422 names the field), a
disconnect while the body arrives, OpenTelemetry tracing the request (FastAPI names its
route), or an app with ``dependency_overrides``. Nothing has counted against the key's
rate limit by then. A cognimem error is answered as the app's handler answers it
(``response_for``); any other exception propagates as it would from the route.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cognimem.api.auth import authenticated
from cognimem.api.errors import response_for
from cognimem.api.middleware import HttpMiddleware
from cognimem.api.routes.deps import memory_of
from cognimem.api.routes.memory import read
from cognimem.api.routes.memory import router as memory_router
from cognimem.api.schemas import ReadRequest
from cognimem.errors import CognimemError

READ_PATH = "/v1/memory/read"
# a dependency every router gets (``storable_text``): it answers by raising
Check = Callable[[Request], Awaitable[None]]


# the read route's own dependencies: the fast path runs them (the memory is
# ``app.state.memory``, as ``memory_of`` returns it)
_ANSWERED = frozenset({memory_of, authenticated})


def _read_route() -> APIRoute:
    """The read route (its ``path`` labels the request's metrics), checked to depend on
    what :class:`ReadFastPath` runs and nothing else: a dependency added to the route
    stops the app at its first request rather than being skipped here."""
    for route in memory_router.routes:
        if isinstance(route, APIRoute) and route.endpoint is read:
            calls = set(_calls(route.dependant))
            if calls != _ANSWERED:
                names = sorted(getattr(c, "__name__", repr(c)) for c in calls ^ _ANSWERED)
                raise RuntimeError(
                    f"the read route's dependencies differ from api/read_path.py's: {names}"
                )
            return route
    raise LookupError("the memory router has no read route")  # pragma: no cover


def _calls(dependant: Dependant) -> list[Any]:
    """Every dependency ``dependant`` solves, nested ones too."""
    out: list[Any] = []
    for sub in dependant.dependencies:
        out += [sub.call, *_calls(sub)]
    return out


class ReadFastPath(HttpMiddleware):
    """The innermost of the app's middlewares: a plain read answered directly."""

    def __init__(self, app: ASGIApp, *, api: FastAPI, checks: Sequence[Check]) -> None:
        """``checks``: the dependencies the app gives every router (``app.py``'s
        ``ROUTER_CHECKS``), run in that order before the read route's own."""
        super().__init__(app)
        self.api = api
        self.checks = tuple(checks)
        self.route = _read_route()

    def _takes(self, scope: Scope) -> bool:
        if scope["path"] != READ_PATH or scope["method"] != "POST" or scope.get("root_path"):
            return False
        if scope.get("fastapi.telemetry") is not None or self.api.dependency_overrides:
            return False
        json_type = False
        for name, value in scope["headers"]:
            if name == b"content-type":
                if json_type or value != b"application/json":
                    return False  # another type, parameters, or the header twice
                json_type = True
        return json_type

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._takes(scope):
            await self.app(scope, receive, send)
            return
        received: list[Message] = []
        body = await _body(receive, received)
        parsed = None if body is None else _read_request(body)
        if body is None or parsed is None:
            await self.app(scope, _replay(received, receive), send)
            return
        data, request_body = parsed
        request = Request(scope, receive, send)
        request._body = body  # what FastAPI's Request would have read and parsed
        request._json = data
        response = await self._answer(request, request_body)
        await response(scope, receive, send)

    async def _answer(self, request: Request, body: ReadRequest) -> Response:
        request.scope["route"] = self.route
        try:
            for check in self.checks:
                await check(request)
            caller = await authenticated(request)
            return await read(body, request, request.app.state.memory, caller)
        except CognimemError as exc:
            return response_for(exc)


async def _body(receive: Receive, received: list[Message]) -> bytes | None:
    """The whole body, each message kept in ``received``; ``None`` on a disconnect."""
    chunks = []
    while True:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _read_request(body: bytes) -> tuple[Any, ReadRequest] | None:
    """The parsed JSON and the ``ReadRequest`` it validates as, or ``None`` when FastAPI
    would answer otherwise (an empty body, invalid JSON, an invalid request)."""
    if not body:
        return None
    try:
        data = json.loads(body)
        return data, ReadRequest.model_validate(data)
    except (ValueError, ValidationError):  # JSONDecodeError and UnicodeDecodeError too
        return None


def _replay(received: list[Message], receive: Receive) -> Receive:
    """``receive`` giving back ``received`` first, then the server's own."""
    pending = list(received)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


__all__ = ["READ_PATH", "ReadFastPath"]
