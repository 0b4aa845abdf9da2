"""What the app's own ASGI middlewares share (``RequestContext``, ``BodyLimit``,
``RequireKey``): they act on HTTP requests alone."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpMiddleware:
    """An ASGI middleware whose :meth:`http` handles each HTTP request; anything else
    (the lifespan, a websocket) passes straight through to ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError  # pragma: no cover - each middleware's
