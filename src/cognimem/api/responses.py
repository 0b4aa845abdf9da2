"""The error body of every 4xx and 5xx answer, the error statuses each route documents
in the OpenAPI schema, and when they occur (docs/api.md has the same table)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def error_body(type_: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every error the API returns: ``{"error": {"type", "message", "details"}}``."""
    return {"error": {"type": type_, "message": message, "details": details or {}}}


class ErrorDetail(BaseModel):
    type: str  # the error class: InvalidInput, NotFound, Unauthenticated, ...
    message: str
    details: dict[str, Any]  # e.g. {"field": "scope.user_id"} for InvalidInput


class ErrorResponse(BaseModel):
    """The body of every 4xx and 5xx response."""

    error: ErrorDetail


# when each error status occurs, for the OpenAPI schema (docs/api.md has the same table)
ERROR_WHEN: dict[int, str] = {
    400: "the body could not be read: send UTF-8 encoded JSON",
    401: "no key, or an unknown, revoked or expired one (`WWW-Authenticate: Bearer`)",
    403: "the API key's level does not reach the memory the call writes (a user key"
    " writing the organisation's memory or another user's)",
    404: "no such id in the caller's tenant (or no such lifecycle operation)",
    409: "an idempotency key reused with other content, a write to a closed session, or a"
    " conflict resolved another way before",
    413: "the body is over the server's limit (refused before it is parsed)",
    422: "bad input: `details.field` names the field",
    429: "the key's requests per minute are used up (`Retry-After`)",
    500: "cognimem failed",
    502: "the embedding or LLM provider failed",
    503: "the store, the queue or the rate-limit Redis is unavailable (`Retry-After`)",
}


def documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, each with the error body."""
    return {code: {"model": ErrorResponse, "description": ERROR_WHEN[code]} for code in codes}
