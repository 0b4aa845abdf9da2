"""Error answers of the HTTP API: one JSON shape for every 4xx and 5xx, built here for
the exception handlers and for the ASGI middleware that answers before a route runs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi.responses import JSONResponse

from cognimem.api.auth import auth_headers
from cognimem.api.responses import error_body
from cognimem.errors import CognimemError, public_message


def error_response(
    status: int,
    type_: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(error_body(type_, message, details), status_code=status, headers=headers)


def response_for(exc: CognimemError) -> JSONResponse:
    """The answer to a cognimem error, with the headers it calls for (``Retry-After``,
    ``WWW-Authenticate``)."""
    message, details = public_message(exc, trace="; see the X-Request-ID header")
    return error_response(exc.status_code, exc.type, message, details, auth_headers(exc))
