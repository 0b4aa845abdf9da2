"""Error answers of the HTTP API: one JSON shape for every 4xx and 5xx, built here for
the exception handlers and for the ASGI middleware that answers before a route runs."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi.responses import JSONResponse

from cognimem.api.auth import auth_headers
from cognimem.api.schemas import error_body
from cognimem.errors import CognimemError, SchemaMismatch, StoreError, StoreUnavailable

log = logging.getLogger(__name__)

# A store error's own message names the database (user, host, port, database name, file
# path) and what the driver said: it goes to the server log, the caller gets these.
STORE_ANSWERS: tuple[tuple[type[StoreError], str], ...] = (
    (StoreUnavailable, "the store is unavailable; retry later"),
    (SchemaMismatch, "the database does not match this cognimem; the operator must migrate"),
    (StoreError, "the store failed"),
)


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
    if not isinstance(exc, StoreError):
        return exc.message, exc.details
    log.error("%s answered as %d: %s", exc.type, exc.status_code, exc.message)
    answer = next(text for kind, text in STORE_ANSWERS if isinstance(exc, kind))
    return f"{answer} (the server log has the cause; see the X-Request-ID header)", {}


def response_for(exc: CognimemError) -> JSONResponse:
    """The answer to a cognimem error, with the headers it calls for (``Retry-After``,
    ``WWW-Authenticate``)."""
    message, details = public_message(exc)
    return error_response(exc.status_code, exc.type, message, details, auth_headers(exc))
