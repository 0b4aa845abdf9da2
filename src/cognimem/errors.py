"""The cognimem error tree.

Every error cognimem raises on purpose is a :class:`CognimemError`; foreign errors
(sqlite3, httpx, onnxruntime, ...) are translated at the boundary with ``raise ... from``.

::

    CognimemError
    ├─ UsageError              misconfiguration; the message names the fix
    │  └─ DomainMappingError   a domain mapping file that does not fit itself or the database
    ├─ InvalidInput            bad request data (HTTP 422); ``field`` names the culprit
    ├─ NotFound(kind, id)      (HTTP 404)
    ├─ PermissionDenied        wrong tenant or key (HTTP 403)
    │  └─ Unauthenticated      no or bad credentials (HTTP 401)
    ├─ Conflict                idempotency or version clash (HTTP 409)
    ├─ RateLimited             too many requests for this key (HTTP 429, retry later)
    ├─ StoreError              (HTTP 500)
    │  ├─ StoreUnavailable     the database cannot be reached (HTTP 503, retry later)
    │  └─ SchemaMismatch       the database was built by another version or model
    └─ ProviderError(provider, model)   (HTTP 502)
       ├─ ProviderUnavailable  timeout, connection or HTTP error from an LLM / embedder
       │  └─ DomainUnavailable the user's domain database failed a lookup
       │     └─ DomainTimeout  ... because a statement ran past its timeout
       └─ ProviderOutputError  the provider answered with something unusable
"""

from __future__ import annotations

import logging
from typing import Any


class CognimemError(Exception):
    """Base of every error cognimem raises on purpose."""

    status_code = 500

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details or {}

    @property
    def type(self) -> str:
        return type(self).__name__


class UsageError(CognimemError):
    """cognimem is configured or called wrongly; the message says how to fix it."""

    status_code = 500


class DomainMappingError(UsageError):
    """A domain mapping file that cannot be used: bad TOML, an unknown key, or a table or
    column the domain database does not have. ``details`` names the file and the entry
    (``entities.customer.facts``), and the table and column when the database lacks one."""

    def __init__(self, message: str, *, file: object, **details: str) -> None:
        super().__init__(message, details={"file": str(file), **details})


class InvalidInput(CognimemError):
    """Request data that cognimem refuses; nothing was written."""

    status_code = 422

    def __init__(
        self, message: str, *, field: str | None = None, details: dict[str, Any] | None = None
    ) -> None:
        merged = dict(details or {})
        if field is not None:
            merged.setdefault("field", field)
        super().__init__(message, details=merged)
        self.field = field


class NotFound(CognimemError):
    status_code = 404

    def __init__(self, kind: str, id: str, *, hint: str | None = None) -> None:
        # hint: what exists instead ("registered: consolidate, revise")
        message = f"{kind} {id!r} not found" + (f" ({hint})" if hint else "")
        super().__init__(message, details={"kind": kind, "id": id})
        self.kind = kind
        self.id = id


class PermissionDenied(CognimemError):
    status_code = 403


class Unauthenticated(PermissionDenied):
    status_code = 401


class Conflict(CognimemError):
    status_code = 409


class StaleKnowledge(Conflict):
    """What a write was made from changed before it committed: the facts it reconciled
    against (a concurrent write under the same fact key), or the memory it edited (a
    concurrent ``update``). The funnel reconciles again and ``update`` edits the new
    state; seen by callers only when that keeps failing."""


class _RetryLater(CognimemError):
    """An error worth retrying after ``retry_after`` seconds (the HTTP answer's
    ``Retry-After``, and the SDK's error built back from it)."""

    def __init__(
        self, message: str, *, retry_after: float = 1.0, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message, details=details)
        self.retry_after = retry_after


class RateLimited(_RetryLater):
    """The caller's key used up its request allowance; retry after ``retry_after`` s."""

    status_code = 429


class StoreError(CognimemError):
    status_code = 500


class StoreUnavailable(StoreError, _RetryLater):
    """The database cannot be reached right now; retrying later may succeed."""

    status_code = 503


class SchemaMismatch(StoreError):
    """The database was written by another schema version or embedding model."""


class ProviderError(CognimemError):
    """An embedding or LLM provider failed."""

    status_code = 502

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        model: str,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, details={"provider": provider, "model": model, **(details or {})})
        self.provider = provider
        self.model = model


class ProviderUnavailable(ProviderError):
    """Timeout, connection failure or HTTP error status from a provider."""


class DomainUnavailable(ProviderUnavailable):
    """The user's domain database could not answer a lookup (unreachable, SQL error)."""

    def __init__(self, message: str, *, backend: str, details: dict[str, Any] | None = None):
        super().__init__(message, provider="domain", model=backend, details=details)


class DomainTimeout(DomainUnavailable):
    """A domain lookup ran past the mapping's ``statement_timeout_ms`` and was stopped."""


class ProviderOutputError(ProviderError):
    """The provider answered, but with something cognimem cannot use."""


log = logging.getLogger(__name__)

# A store error's own message names the database (user, host, port, database name, file
# path) and what the driver said: it goes to the log, a caller (HTTP, MCP) gets these.
STORE_ANSWERS: tuple[tuple[type[StoreError], str], ...] = (
    (StoreUnavailable, "the store is unavailable; retry later"),
    (SchemaMismatch, "the database does not match this cognimem; the operator must migrate"),
    (StoreError, "the store failed"),
)


def public_message(exc: CognimemError, *, trace: str = "") -> tuple[str, dict[str, Any]]:
    """What a remote caller is told of ``exc`` (message, details): a store error's detail
    is logged here and replaced by a fixed answer that names no database; ``trace`` says
    how to find the log line (``"; see the X-Request-ID header"``)."""
    if not isinstance(exc, StoreError):
        return exc.message, exc.details
    log.error("%s answered as %d: %s", exc.type, exc.status_code, exc.message)
    answer = next(text for kind, text in STORE_ANSWERS if isinstance(exc, kind))
    return f"{answer} (the server log has the cause{trace})", {}


__all__ = [
    "CognimemError",
    "Conflict",
    "DomainMappingError",
    "DomainTimeout",
    "DomainUnavailable",
    "InvalidInput",
    "NotFound",
    "PermissionDenied",
    "ProviderError",
    "ProviderOutputError",
    "ProviderUnavailable",
    "RateLimited",
    "SchemaMismatch",
    "StaleKnowledge",
    "StoreError",
    "StoreUnavailable",
    "Unauthenticated",
    "UsageError",
]
