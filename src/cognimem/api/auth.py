"""Authentication, tenancy and rate limits for the HTTP API.

Every tenant route depends on :func:`authenticated`: the caller presents
``Authorization: Bearer <secret>``, the SHA-256 of the secret is looked up in the store,
and the key's tenant becomes the request's tenant. The tenant comes only from the key;
nothing in a request body or query can widen it. There are no bypass keys: the admin key
manages keys (:data:`admin_router`) and may read ``/metrics``, but it is refused on
tenant routes.

Keys are issued with :func:`issue_key` (the CLI ``cognimem keys create`` and
``POST /v1/admin/keys``); the secret is shown once and only its hash is stored. A key has
a level (:class:`~cognimem.models.admin.KeyLevel`) that decides which memory it may write
(:meth:`Principal.check_write`): an ``organisation`` key (the default, which every key
made before levels has) writes every level of its tenant; an ``agent`` key only its
agent's memory; a ``user`` key only its user's. A write beyond the key's level is
``PermissionDenied`` (403).

Every authenticated request counts against its key's rate limit
(``api/rate_limits.py``). Keys are looked up through a :class:`KeyCache`
(``api/key_cache.py``), which re-reads nothing while the store's key-change counter
stands still: a key revoked anywhere is refused on its next request.
"""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cognimem.api.key_cache import KeyCache
from cognimem.api.rate_limits import (
    LocalRateLimiter,
    RateLimiter,
    RedisRateLimiter,
    rate_limit_url,
)
from cognimem.api.responses import documented
from cognimem.api.schemas import CallBody
from cognimem.config import Settings
from cognimem.errors import (
    InvalidInput,
    PermissionDenied,
    RateLimited,
    StoreUnavailable,
    Unauthenticated,
    UsageError,
)
from cognimem.metrics_http import bearer_token, check_metrics_access, token_matches
from cognimem.models.admin import ApiKey, KeyLevel
from cognimem.models.clock import Clock, to_utc, utc_now
from cognimem.models.ids import new_id
from cognimem.models.scope import Scope
from cognimem.store.admin_protocols import KeyStore

log = logging.getLogger(__name__)

SECRET_PREFIX = "cm_"
_PREFIX_CHARS = 10  # "cm_" + 7 characters of the secret, shown in listings


@dataclass(frozen=True)
class Principal:
    """Who is calling: the tenant (from the key, nothing else), the key's id, and the
    level the key writes at with the user or agent it is bound to."""

    tenant_id: str
    key_id: str
    admin: bool = False
    level: KeyLevel = KeyLevel.ORGANISATION
    user_id: str | None = None
    agent_id: str | None = None

    def check_write(self, target: Scope) -> None:
        """Refuse (``PermissionDenied``) a write to ``target`` beyond this key's level:
        an ``agent`` key writes only memory of its agent, a ``user`` key only memory of
        its user; neither writes the namespace's or the organisation's."""
        self.check_reach(target, "write")

    def check_reach(self, target: Scope, verb: str) -> None:
        """Refuse (``PermissionDenied``) a call that would ``verb`` (read, edit, ...)
        memory stored in ``target`` beyond this key's level, as ``check_write``: a call
        on one id reaches only what the key may write (the id's tenant is checked
        before: another tenant's id is a 404)."""
        if self.level is KeyLevel.ORGANISATION:
            return
        bound, field = (
            (self.user_id, "user_id")
            if self.level is KeyLevel.USER
            else (self.agent_id, "agent_id")
        )
        if getattr(target, field) == bound:
            return
        raise PermissionDenied(
            f"this API key writes at the {self.level.value} level ({field} {bound!r}): it"
            f" cannot {verb} {_level_of(target)}; use a key of that level",
            details={
                "field": f"scope.{field}" if target.user_id or target.agent_id else "scope.level",
                "key_level": self.level.value,
                "level": _level_name(target),
            },
        )

    def check_write_of(self, build: Callable[[], Scope]) -> None:
        """``check_write`` of the scope ``build`` makes, built only for a key bound to a
        user or an agent: an organisation key may write every level, so a request whose
        scope or message is malformed is refused by the write's own checks, in their
        order (the message's first)."""
        if self.level is not KeyLevel.ORGANISATION:
            self.check_write(build())

    def check_tenant_wide(self, what: str) -> None:
        """Refuse (``PermissionDenied``) a call that writes every level of the tenant
        (``what`` it does) unless the key is an ``organisation`` key."""
        if self.level is not KeyLevel.ORGANISATION:
            raise PermissionDenied(
                f"this API key writes at the {self.level.value} level: it cannot {what};"
                " use an organisation key",
                details={"key_level": self.level.value, "level": KeyLevel.ORGANISATION.value},
            )


def _level_name(target: Scope) -> str:
    """The level a write scope names: user, agent, namespace or organisation."""
    return target.level


def _level_of(target: Scope) -> str:
    """Whose memory a write scope names, for a message."""
    if target.user_id is not None:
        return f"user {target.user_id!r}'s memory"
    if target.agent_id is not None:
        return f"agent {target.agent_id!r}'s memory"
    if target.level == "namespace":
        return f"namespace {target.namespace!r}'s memory"
    return "the organisation's memory"


def hash_secret(secret: str) -> str:
    """The stored form of a secret: SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


# -- the authenticator ---------------------------------------------------------------------
class Authenticator:
    """Checks bearer tokens against the store's keys and the configured admin and
    metrics tokens, and applies per-key rate limits. Lives on ``app.state.auth``."""

    def __init__(
        self,
        store: KeyStore,
        settings: Settings,
        *,
        limiter: RateLimiter | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self.store = store
        self.keys = KeyCache(store)
        self.settings = settings.auth
        if limiter is None:
            url = rate_limit_url(settings)
            limiter = LocalRateLimiter() if url is None else RedisRateLimiter(url)
        self.limiter = limiter
        self._clock = clock

    def _admin_key(self) -> str | None:
        key = self.settings.admin_key
        return (key.get_secret_value() or None) if key is not None else None  # "" is unset

    async def authenticate(self, authorization: str | None) -> Principal:
        """The tenant principal of an ``Authorization`` header value, rate limited."""
        token = bearer_token(authorization)
        if token is None:
            raise Unauthenticated("missing or malformed Authorization header: use 'Bearer <key>'")
        key = await self.keys.find(hash_secret(token))
        if key is None or not key.usable_at(self._clock()):
            # one message for unknown, revoked and expired keys: nothing to probe
            raise Unauthenticated("invalid, revoked or expired API key")
        limit = key.rate_limit_per_minute or self.settings.rate_limit_per_minute
        wait = await self.limiter.hit(key.id, limit)
        if wait is not None:
            raise RateLimited(
                f"rate limit of {limit} requests per minute exceeded; retry in {wait:.1f}s",
                retry_after=wait,
            )
        return Principal(
            tenant_id=key.tenant_id,
            key_id=key.id,
            level=key.level,
            user_id=key.user_id,
            agent_id=key.agent_id,
        )

    def check_admin(self, authorization: str | None) -> Principal:
        """The admin principal, or ``Unauthenticated``."""
        expected = self._admin_key()
        if expected is None:
            raise Unauthenticated(
                "admin endpoints are disabled until COGNIMEM_AUTH__ADMIN_KEY is set"
            )
        if not token_matches(bearer_token(authorization), expected):
            raise Unauthenticated("admin key required")
        return Principal(tenant_id="*", key_id="admin", admin=True)

    def check_metrics(self, authorization: str | None) -> None:
        """Allow the admin key or the metrics token, else ``Unauthenticated`` (the check a
        worker's metrics port makes too, ``metrics_http.py``)."""
        check_metrics_access(self.settings, authorization)

    async def aclose(self) -> None:
        await self.limiter.aclose()


def _authenticator(request: Request) -> Authenticator:
    auth = getattr(request.app.state, "auth", None)
    if not isinstance(auth, Authenticator):  # pragma: no cover - create_app sets it
        raise UsageError("the app has no Authenticator on app.state.auth")
    return auth


async def authenticated(request: Request) -> Principal:
    """FastAPI dependency of every tenant route: the caller's :class:`Principal`.

    No, malformed, unknown, revoked or expired key → ``Unauthenticated`` (401); over the
    key's rate limit → ``RateLimited`` (429 with ``Retry-After``)."""
    principal = await _authenticator(request).authenticate(request.headers.get("authorization"))
    request.state.principal = principal  # for the access log
    return principal


async def admin(request: Request) -> None:
    """FastAPI dependency of the admin routes: the configured admin key, else 401."""
    request.state.principal = _authenticator(request).check_admin(
        request.headers.get("authorization")
    )


async def metrics_access(request: Request) -> None:
    """FastAPI dependency of ``/metrics``: the admin key or the metrics token."""
    _authenticator(request).check_metrics(request.headers.get("authorization"))


# -- issuing and revoking ------------------------------------------------------------------
async def issue_key(
    store: KeyStore,
    tenant_id: str,
    *,
    name: str = "",
    expires_at: datetime | None = None,
    rate_limit_per_minute: int | None = None,
    level: KeyLevel | str = KeyLevel.ORGANISATION,
    user_id: str | None = None,
    agent_id: str | None = None,
    now: datetime | None = None,
) -> tuple[ApiKey, str]:
    """Create and store a key for ``tenant_id``; returns it and its secret. The secret
    is not stored anywhere: show it once. A ``user`` key is bound to ``user_id``, an
    ``agent`` key to ``agent_id``; an ``organisation`` key to neither."""
    for field, value in (("tenant_id", tenant_id), ("user_id", user_id), ("agent_id", agent_id)):
        try:
            Scope.model_validate({field: value})
        except ValidationError as exc:
            raise InvalidInput(
                f"invalid {field} {value!r}: letters, digits and _.:@- (at most 128)",
                field=field,
            ) from exc
    level = _key_level(level, user_id=user_id, agent_id=agent_id)
    if rate_limit_per_minute is not None and rate_limit_per_minute < 1:
        raise InvalidInput(
            "rate_limit_per_minute must be at least 1", field="rate_limit_per_minute"
        )
    created = now or utc_now()
    if expires_at is not None:
        expires_at = to_utc(expires_at)
        if expires_at <= created:
            raise InvalidInput("expires_at must be in the future", field="expires_at")
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    key = ApiKey(
        id=new_id("key"),
        tenant_id=tenant_id,
        name=name,
        key_hash=hash_secret(secret),
        prefix=secret[:_PREFIX_CHARS],
        created_at=created,
        expires_at=expires_at,
        rate_limit_per_minute=rate_limit_per_minute,
        level=level,
        user_id=user_id,
        agent_id=agent_id,
    )
    await store.put_api_key(key)
    return key, secret


def _key_level(level: KeyLevel | str, *, user_id: str | None, agent_id: str | None) -> KeyLevel:
    """``level`` checked against what the key is bound to: a ``user`` key names its
    user and no agent, an ``agent`` key its agent and no user, an ``organisation`` key
    neither (``InvalidInput`` naming the field)."""
    try:
        checked = KeyLevel(level)
    except ValueError as exc:
        names = ", ".join(v.value for v in KeyLevel)
        raise InvalidInput(f"level: {level!r} is not a key level ({names})", field="level") from exc
    needs = {KeyLevel.USER: "user_id", KeyLevel.AGENT: "agent_id"}.get(checked)
    for field, value in (("user_id", user_id), ("agent_id", agent_id)):
        if field == needs and value is None:
            raise InvalidInput(f"a {checked.value} key is bound to one: give {field}", field=field)
        if field != needs and value is not None:
            raise InvalidInput(
                f"a {checked.value} key is not bound to a {field.removesuffix('_id')}:"
                f" leave {field} out",
                field=field,
            )
    return checked


async def revoke_key(store: KeyStore, key_id: str, *, now: datetime | None = None) -> ApiKey:
    """Revoke a key at once (``NotFound`` if there is none); returns it."""
    return await store.revoke_api_key(key_id, now or utc_now())


# -- admin routes --------------------------------------------------------------------------
class KeyInfo(BaseModel):
    """A key's metadata as the API shows it: never the hash, never the secret."""

    id: str
    tenant_id: str
    name: str
    prefix: str
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    rate_limit_per_minute: int | None
    level: KeyLevel
    user_id: str | None
    agent_id: str | None

    @classmethod
    def of(cls, key: ApiKey) -> KeyInfo:
        return cls(**key.model_dump(exclude={"key_hash"}))


class IssuedKey(KeyInfo):
    secret: str = Field(description="the API key; shown once, never again")


class CreateKeyRequest(CallBody):
    model_config = ConfigDict(extra="forbid")

    tenant_id: str
    name: str = Field(default="", max_length=200)
    expires_at: datetime | None = None
    rate_limit_per_minute: int | None = Field(default=None, ge=1)
    level: KeyLevel = Field(
        default=KeyLevel.ORGANISATION,
        description="organisation: writes every level of the tenant; agent: only its"
        " agent's memory (agent_id); user: only its user's (user_id)",
    )
    user_id: str | None = Field(default=None, description="the user a user key is bound to")
    agent_id: str | None = Field(default=None, description="the agent an agent key is bound to")

    NOT_KEYWORDS = frozenset({"tenant_id"})  # issue_key's subject


admin_router = APIRouter(prefix="/v1/admin", tags=["admin"], dependencies=[Depends(admin)])


@admin_router.post("/keys", status_code=201, response_model=IssuedKey, responses=documented(400))
async def create_key(body: CreateKeyRequest, request: Request) -> IssuedKey:
    auth = _authenticator(request)
    key, secret = await issue_key(auth.store, body.tenant_id, **body.keywords())
    log.info("API key issued", extra={"key_id": key.id, "key_tenant_id": key.tenant_id})
    return IssuedKey(**KeyInfo.of(key).model_dump(), secret=secret)


@admin_router.get("/keys", response_model=list[KeyInfo])
async def list_keys(request: Request, tenant_id: str | None = None) -> list[KeyInfo]:
    keys = await _authenticator(request).store.list_api_keys(tenant_id)
    return [KeyInfo.of(k) for k in keys]


@admin_router.delete("/keys/{key_id}", response_model=KeyInfo, responses=documented(404))
async def delete_key(key_id: str, request: Request) -> KeyInfo:
    key = await revoke_key(_authenticator(request).store, key_id)
    log.info("API key revoked", extra={"key_id": key.id, "key_tenant_id": key.tenant_id})
    return KeyInfo.of(key)


def auth_headers(exc: Exception) -> dict[str, str]:
    """Headers an error response needs: ``WWW-Authenticate`` on 401, ``Retry-After``
    on 429 and 503."""
    if isinstance(exc, Unauthenticated):
        return {"WWW-Authenticate": 'Bearer realm="cognimem"'}
    retry_after: Any = getattr(exc, "retry_after", None)
    if isinstance(exc, RateLimited | StoreUnavailable) and retry_after is not None:
        return {"Retry-After": str(max(1, math.ceil(retry_after)))}
    return {}


__all__ = [
    "Authenticator",
    "Principal",
    "admin",
    "admin_router",
    "auth_headers",
    "authenticated",
    "hash_secret",
    "issue_key",
    "metrics_access",
    "revoke_key",
]
