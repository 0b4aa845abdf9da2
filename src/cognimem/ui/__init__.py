"""The dashboard: a small web UI that ``cognimem serve`` serves at ``/ui``.

Static files only (``static/``: one HTML page, a stylesheet and vanilla JavaScript
modules), shipped in the package, so it works offline and needs no build step. The page
signs in with an API key and calls the public HTTP API (``/v1``) like any client, with
the key in the ``Authorization`` header; the server holds no dashboard state. Every
answer carries a Content-Security-Policy that lets the page load and call nothing but
this server. Why this stack: ``docs/dashboard.md``."""

from __future__ import annotations

from pathlib import Path

from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MOUNT_PATH = "/ui"
STATIC_DIR = Path(__file__).resolve().parent / "static"

# nothing from another origin: no CDN, no fonts, no analytics; no inline script
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none';"
    " form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    # a new version of the package serves its new files at once
    (b"cache-control", b"no-cache"),
]


class _WithHeaders:
    """Adds the dashboard's security and caching headers to every answer of ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def dashboard_app() -> ASGIApp:
    """The dashboard's static files (``index.html`` at the mount's root)."""
    return _WithHeaders(StaticFiles(directory=STATIC_DIR, html=True))


__all__ = ["CONTENT_SECURITY_POLICY", "MOUNT_PATH", "STATIC_DIR", "dashboard_app"]
