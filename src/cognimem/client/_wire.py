"""What the SDK (``client/_client.py``) puts on and takes off the wire: request bodies (messages,
ranking overrides, scopes), responses parsed into models, and error responses rebuilt
into the exceptions ``Memory`` raises."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from cognimem import errors
from cognimem.errors import (
    CognimemError,
    InvalidInput,
    NotFound,
    ProviderError,
    RateLimited,
    StoreUnavailable,
    UsageError,
)
from cognimem.models import Message, Scope
from cognimem.models.arguments import ScopeLike
from cognimem.models.requests import check_keywords, split_scope
from cognimem.providers.http import retry_after_seconds
from cognimem.recall.overrides import RankingOverrides

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
DEFAULT_TENANT = "default"
_ERROR_TYPES: dict[str, type[CognimemError]] = {
    name: cls
    for name in ("CognimemError", *errors.__all__)
    if isinstance(cls := getattr(errors, name), type) and issubclass(cls, CognimemError)
}


class ClientError(CognimemError):
    """The server answered with something that is not a cognimem answer: an error
    without the cognimem error body, an unknown error type, or a body that does not
    parse as the expected model. ``status`` and ``body`` hold what came back."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        body: str = "",
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, details=details)
        self.status = status
        self.body = body


class TransportError(ClientError):
    """The request did not get an answer: connection refused, DNS, a timeout, or the
    connection closed before the whole answer came back.

    ``sent`` says whether the request went out (the connection broke or timed out
    after it was sent): the server may then have acted on it. ``attempts`` counts the
    times the client sent it (a request safe to repeat is sent again when its answer
    is lost: see ``client/_resend.py``)."""

    def __init__(self, message: str, *, sent: bool = False, attempts: int = 1) -> None:
        super().__init__(message)
        self.sent = sent
        self.attempts = attempts


# -- request bodies ------------------------------------------------------------------
def message_body(value: Message | Mapping[str, Any] | str) -> dict[str, Any]:
    # not validated here: the server checks it and names the field, as Memory does
    if isinstance(value, Message):
        return value.model_dump(exclude_unset=True)
    if isinstance(value, str):
        return {"content": value}
    return dict(value)


def ranking_body(value: RankingOverrides | Mapping[str, Any] | None) -> dict[str, Any] | None:
    # not validated here: the server checks it and names the field, as Memory does
    if isinstance(value, RankingOverrides):
        return value.changes()
    return None if value is None else dict(value)


def scope_body(
    scope: ScopeLike = None, *, all_users: bool = False, **fields: str | None
) -> dict[str, Any]:
    """The scope fields of a request body. The tenant is the server's to pick (from the
    API key): a scope naming another tenant than the default is a ``UsageError``.
    ``all_users`` goes in the scope (``{"all_users": true}``), as the API takes it."""
    if isinstance(scope, Scope):
        data = scope.model_dump(exclude_defaults=True)
    else:
        data = dict(scope or {})
    data.update({k: v for k, v in fields.items() if v is not None})
    if all_users:
        data["all_users"] = True
    check_tenant(str(data.pop("tenant_id", DEFAULT_TENANT)))
    return data


def options_body(options: Mapping[str, Any], typed: Any) -> dict[str, Any]:
    """A request body from a call's keywords (one of ``models/requests.py``'s
    ``TypedDict``s, whose names are the body's): the scope keywords as its ``scope``, every
    other keyword given as a field of its own (None left out, for the server's default;
    a ``RankingOverrides`` as the changes it makes). A keyword ``typed`` does not name
    is a ``TypeError``, as Python raises for a signature's."""
    check_keywords(options, typed)
    where, rest = split_scope(options)
    body: dict[str, Any] = {"scope": scope_body(**where)}
    for name, value in rest.items():
        if name == "ranking":
            value = ranking_body(value)
        elif isinstance(value, Mapping):
            value = dict(value)
        if value is not None:
            body[name] = value
    return body


def check_tenant(tenant_id: str) -> None:
    if tenant_id != DEFAULT_TENANT:
        raise UsageError(
            "over HTTP the server picks the tenant (from the API key): leave tenant_id unset"
        )


# -- responses -----------------------------------------------------------------------
def parse(response: httpx.Response, validate: Callable[[Any], T]) -> T:
    try:
        return validate(response.json())
    except (ValueError, ValidationError) as exc:  # JSONDecodeError is a ValueError
        raise ClientError(
            f"unexpected answer to {response.request.method} {response.request.url.path} "
            f"(HTTP {response.status_code}): {snippet(response)}",
            status=response.status_code,
            body=response.text,
        ) from exc


def parse_list(response: httpx.Response, model: type[T]) -> list[T]:
    """``response``'s JSON list of ``model`` records (a validator per model, built once)."""
    adapter = _LISTS.get(model)
    if adapter is None:
        adapter = _LISTS[model] = TypeAdapter(list[model])  # type: ignore[valid-type]
    found: list[T] = parse(response, adapter.validate_python)
    return found


_LISTS: dict[type[Any], TypeAdapter[Any]] = {}


def snippet(response: httpx.Response, size: int = 200) -> str:
    text = response.text.strip() or "<empty body>"
    return text if len(text) <= size else text[:size] + "..."


def error_from(response: httpx.Response) -> CognimemError:
    """The exception ``Memory`` would have raised, rebuilt from an error response."""
    status = response.status_code
    try:
        error = response.json()["error"]
        type_, message = error["type"], error["message"]
        details = error.get("details") or {}
        if not (isinstance(type_, str) and isinstance(message, str) and isinstance(details, dict)):
            raise TypeError("malformed error body")
    except (ValueError, KeyError, TypeError):
        return ClientError(
            f"HTTP {status} from {response.request.method} {response.request.url.path}: "
            f"{snippet(response)}",
            status=status,
            body=response.text,
        )
    cls = _ERROR_TYPES.get(type_)
    if cls is None:
        return ClientError(
            f"{type_}: {message}", status=status, body=response.text, details=details
        )
    if issubclass(cls, InvalidInput):
        field = details.get("field")
        return cls(message, field=field if isinstance(field, str) else None, details=details)
    if issubclass(cls, NotFound):
        found = cls(str(details.get("kind", "")), str(details.get("id", "")))
        found.message, found.args = message, (message,)
        return found
    if issubclass(cls, StoreUnavailable | RateLimited):
        retry_after = retry_after_seconds(response.headers.get("Retry-After"))
        return cls(
            message, retry_after=1.0 if retry_after is None else retry_after, details=details
        )
    if issubclass(cls, ProviderError):
        rest = {k: v for k, v in details.items() if k not in ("provider", "model")}
        return cls(
            message,
            provider=str(details.get("provider", "")),
            model=str(details.get("model", "")),
            details=rest,
        )
    return cls(message, details=details)


class ClientCalls:
    """The base of the SDK's call groups (mixins of ``AsyncMemoryClient``): what each
    group needs of the client, which the client class gives."""

    async def _call_model(
        self, model: type[M], method: str, path: str, body: Any = None
    ) -> M:  # pragma: no cover - the client's
        raise NotImplementedError

    async def _call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        raise NotImplementedError  # pragma: no cover - the client's

    def _scope_body(self, scope: ScopeLike, **fields: str | None) -> dict[str, Any]:
        raise NotImplementedError  # pragma: no cover - the client's
