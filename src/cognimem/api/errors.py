"""Error answers of the HTTP API: one JSON shape for every 4xx and 5xx, built here for
the exception handlers and for the ASGI middleware that answers before a route runs."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi.responses import JSONResponse

from cognimem import errors
from cognimem.api.auth import auth_headers
from cognimem.api.schemas import error_body
from cognimem.errors import CognimemError, StoreError

log = logging.getLogger(__name__)


def error_response(
    status: int,
    type_: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(error_body(type_, message, details), status_code=status, headers=headers)


def public_message(exc: CognimemError) -> tuple[str, dict[str, Any]]:
    """What the caller is told of ``exc``: a store error's detail stays in the log."""
    message, details = errors.public_message(exc)
    if isinstance(exc, StoreError):
        message = message.removesuffix(")") + "; see the X-Request-ID header)"
    return message, details


def response_for(exc: CognimemError) -> JSONResponse:
    """The answer to a cognimem error, with the headers it calls for (``Retry-After``,
    ``WWW-Authenticate``)."""
    message, details = public_message(exc)
    return error_response(exc.status_code, exc.type, message, details, auth_headers(exc))
