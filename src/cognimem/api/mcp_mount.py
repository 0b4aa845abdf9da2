"""The MCP server mounted on the HTTP app at ``/v1/mcp`` (streamable HTTP), behind the
same API keys as every other tenant route."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from starlette.types import ASGIApp, Receive, Scope, Send

from cognimem.api.errors import response_for
from cognimem.api.middleware import HttpMiddleware
from cognimem.errors import CognimemError
from cognimem.mcp import PRINCIPAL_KEY, WRITE_CHECK_KEY, build_http_server
from cognimem.memory import Memory

MOUNT_PATH = "/v1/mcp"


class RequireKey(HttpMiddleware):
    """Authenticates an ``/v1/mcp`` request with the app's ``Authenticator`` (key,
    revocation, expiry, rate limit) and leaves the key's tenant in the ASGI scope for
    the tools; a refused request gets the API's error body."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            principal = await scope["app"].state.auth.authenticate(headers.get("authorization"))
        except CognimemError as exc:
            await response_for(exc)(scope, receive, send)
            return
        scope[PRINCIPAL_KEY] = principal.tenant_id
        scope[WRITE_CHECK_KEY] = principal.check_write
        await self.app(scope, receive, send)


def mcp_mount(
    memory: Memory,
) -> tuple[ASGIApp, Callable[[], AbstractAsyncContextManager[None]]]:
    """The ASGI app to mount and the context manager the app's lifespan must enter
    (the MCP session manager's task group)."""
    server = build_http_server(memory)
    app = server.streamable_http_app()

    @asynccontextmanager
    async def running() -> AsyncIterator[None]:
        async with server.session_manager.run():
            yield

    return RequireKey(app), running
