"""The Python SDK: ``Memory``'s methods over the cognimem HTTP API.

``AsyncMemoryClient`` holds the logic; ``MemoryClient`` runs it on a private event loop,
as ``SyncMemory`` does for ``Memory``. Both return the same models and raise the same
exceptions as ``Memory``: an error body ``{"error": {"type", "message", "details"}}`` is
rebuilt into the class of :mod:`cognimem.errors` it names. Two errors are the client's
own::

    CognimemError
    └─ ClientError         the server's answer was not a cognimem answer (status, body)
       └─ TransportError   no answer: no server, a timeout, or the connection closed

Requests answered 429 or 503 are retried ``retries`` times, waiting what ``Retry-After``
says or else an exponential backoff with full jitter; no other status is retried. A
request whose answer is lost — its connection closed or reset after it went out (a
pooled connection closed under it, an API process stopping) or the wait for the
answer timed out — is sent again, at once, up to ``retries`` times, when asking twice
cannot change anything twice: a ``GET``, a read, a write (the SDK sends every message
with an ``idempotency_key`` or an ``occurred_at``, so a repeat is a duplicate) or a
lifecycle run (with its ``key``); see ``client/_resend.py``. Anything else raises
``TransportError`` (``sent`` true): the server may have acted on it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any, Self, Unpack
from urllib.parse import quote

import httpx
from pydantic import TypeAdapter
from pydantic_core import to_jsonable_python

from cognimem.blocking import BlockingFacade
from cognimem.client._directory import DirectoryClientCalls
from cognimem.client._knowledge import KnowledgeClientCalls
from cognimem.client._lifecycle import LifecycleClientCalls
from cognimem.client._resend import LOST, lost_answer, lost_reason, replayable
from cognimem.client._wire import (
    DEFAULT_TENANT,
    ClientError,
    M,
    TransportError,
    check_tenant,
    error_from,
    message_body,
    options_body,
    parse,
    parse_list,
    scope_body,
)
from cognimem.client._writes import WriteClientCalls
from cognimem.errors import (
    NotFound,
    UsageError,
)
from cognimem.models import (
    ContextPacket,
    MemoryItem,
    Turn,
)
from cognimem.models.admin import ErasureReport, ExportRecord, ForgetResult, ScopeStats, Session
from cognimem.models.arguments import ScopeLike
from cognimem.models.browse_requests import (
    ForgetKeywords,
    SessionKeywords,
    SessionListKeywords,
    UpdateArgs,
    UpdateKeywords,
)
from cognimem.models.knowledge import (
    HistoryEntry,
)
from cognimem.models.requests import (
    MessageLike,
    ReadKeywords,
    ReadScopeKeywords,
    TurnKeywords,
    UserScopeKeywords,
)
from cognimem.providers.http import retry_after_seconds
from cognimem.queue import Job

DEFAULT_BASE_URL = "http://127.0.0.1:8420"
RETRY_STATUSES = frozenset({429, 503})
# A pooled connection idle this long is closed by the client. Shorter than the server's
# keep-alive timeout (``COGNIMEM_SERVER__KEEP_ALIVE_S``, 75 s) with 45 s to spare, so a
# request is not sent on a connection the server is closing for its own timeout (its
# timer starts when it sends an answer, the client's once it has read it: a stall in
# between counts against the spare). Not much shorter: httpcore 1.0.9 hands an idle
# connection to a waiting request, and until that request's task runs the connection
# still looks idle, so another request's pass over the pool closes it if its keep-alive
# has expired (encode/httpcore#1110) — after a stall of the client longer than this,
# every pooled connection has. At 5 s a few-second stall of a busy machine did that;
# the request it hit then lost its answer (a ``ReadError``), which is sent again only
# when safe (``client/_resend.py``).
IDLE_CONNECTION_S = 30.0
# No cap on connections: httpcore also closes an idle-looking connection (one just
# handed to a waiting request too) whenever the pool holds more connections than
# ``max_keepalive_connections``, or one is needed to make room under ``max_connections``
log = logging.getLogger("cognimem.client")
NDJSON = "application/x-ndjson"
_COUNTS = TypeAdapter(dict[str, int])


class AsyncMemoryClient(
    WriteClientCalls, KnowledgeClientCalls, LifecycleClientCalls, DirectoryClientCalls
):
    """``Memory``'s operations over HTTP::

        async with AsyncMemoryClient("http://127.0.0.1:8420", api_key="...") as mem:
            await mem.write("I'm allergic to shellfish", user_id="u1")
            packet = await mem.read("what should I cook?", user_id="u1")

    ``transport`` replaces the network, e.g. ``httpx.ASGITransport(app=create_app(memory))``
    to run against the app in-process. ``retries`` counts the extra attempts after a 429
    or 503; a ``Retry-After`` longer than ``max_backoff`` seconds is not waited for (the
    error is raised at once). A request safe to repeat is also sent again, up to
    ``retries`` times, when its answer is lost (see the module's docstring); ``retries=0``
    turns every retry off. ``keepalive_expiry`` is how long an idle pooled connection is
    kept (30 s): set it below the idle timeout of a proxy in front of the server.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        *,
        api_key: str | None = None,
        timeout: float | None = 30.0,
        retries: int = 2,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        keepalive_expiry: float = IDLE_CONNECTION_S,
    ) -> None:
        if retries < 0:
            raise UsageError("retries must be 0 or more")
        if not keepalive_expiry > 0:
            raise UsageError("keepalive_expiry must be more than 0 seconds")
        headers = {"Accept": "application/json"}
        if api_key is not None:
            headers["Authorization"] = f"Bearer {api_key}"
        self.base_url = base_url
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers=headers,
            timeout=timeout,
            transport=transport,
            limits=httpx.Limits(
                max_connections=None,
                max_keepalive_connections=None,
                keepalive_expiry=keepalive_expiry,
            ),
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- reads -----------------------------------------------------------------------
    async def read(self, query: str, **options: Unpack[ReadKeywords]) -> ContextPacket:
        """The memories that matter for ``query`` as a ``ContextPacket`` (see
        :meth:`Memory.read`, also for ``as_of`` and ``as_of_recorded``); call
        ``.to_markdown()`` on it for the prompt text."""
        body = {"query": query, **options_body(options, ReadKeywords)}
        return await self._call_model(ContextPacket, "POST", "/v1/memory/read", body)

    # -- one memory --------------------------------------------------------------------
    async def get(
        self, item_id: str, *, tenant_id: str = DEFAULT_TENANT, scope: ScopeLike = None
    ) -> MemoryItem:
        """One memory item with its provenance; ``NotFound`` when there is none, or none
        inside ``scope`` (its namespace: ``default`` unless named; its user, agent and
        session when named)."""
        check_tenant(tenant_id)
        fields = scope_body(scope)
        query = f"?{httpx.QueryParams(fields)}" if fields else ""
        path = f"/v1/memory/get/{quote(item_id, safe='')}{query}"
        return await self._call_model(MemoryItem, "GET", path)

    async def history(
        self, target_id: str, *, tenant_id: str = DEFAULT_TENANT
    ) -> list[HistoryEntry]:
        """Every recorded change to an item or a fact, oldest first."""
        check_tenant(tenant_id)
        try:
            response = await self._call("GET", f"/v1/memory/history/{quote(target_id, safe='')}")
        except NotFound:
            return []  # as Memory.history answers for an id it does not know
        return parse_list(response, HistoryEntry)

    async def update(self, item_id: str, **options: Unpack[UpdateKeywords]) -> MemoryItem:
        """Edit a memory or give feedback on it (see :meth:`Memory.update`)."""
        check_tenant(UpdateArgs(**options).tenant_id)
        changes = {k: v for k, v in options.items() if k != "tenant_id" and v is not None}
        body = {"id": item_id, **changes}
        return await self._call_model(MemoryItem, "POST", "/v1/memory/update", body)

    async def delete(self, item_id: str, *, tenant_id: str = DEFAULT_TENANT) -> None:
        """Delete one memory item; ``NotFound`` when there is none."""
        check_tenant(tenant_id)
        await self.get(item_id)
        await self.forget(ids=[item_id], all_users=True)  # by id: whoever's it is

    async def forget(self, **options: Unpack[ForgetKeywords]) -> ForgetResult:
        """Forget memories by ids, query or time range (see :meth:`Memory.forget`)."""
        return await self._call_model(
            ForgetResult, "POST", "/v1/memory/forget", options_body(options, ForgetKeywords)
        )

    async def turn(
        self,
        user_message: MessageLike,
        assistant_message: MessageLike | None = None,
        **options: Unpack[TurnKeywords],
    ) -> Turn:
        """One conversational turn (see :meth:`Memory.turn`)."""
        body = {
            "user": {"role": "user", **message_body(user_message)},
            **options_body(options, TurnKeywords),
        }
        if assistant_message is not None:
            body["assistant"] = {"role": "assistant", **message_body(assistant_message)}
        return await self._call_model(Turn, "POST", "/v1/memory/turn", body)

    # -- sessions, statistics, erasure, export -------------------------------------------
    async def create_session(self, session_id: str, **options: Unpack[SessionKeywords]) -> Session:
        body = {"session_id": session_id, **options_body(options, SessionKeywords)}
        body.setdefault("metadata", {})
        return await self._call_model(Session, "POST", "/v1/sessions", body)

    async def list_sessions(self, **options: Unpack[SessionListKeywords]) -> list[Session]:
        response = await self._call(
            "POST", "/v1/sessions/query", options_body(options, SessionListKeywords)
        )
        return parse_list(response, Session)

    async def close_session(
        self, session_id: str, *, scope: ScopeLike = None, user_id: str | None = None
    ) -> Session:
        """Close a session: writes naming it are refused (``Conflict``) from now on."""
        path = f"/v1/sessions/{quote(session_id, safe='')}/close"
        body = {"scope": scope_body(scope, user_id=user_id)}
        return await self._call_model(Session, "POST", path, body)

    async def stats(self, **options: Unpack[ReadScopeKeywords]) -> ScopeStats:
        return await self._call_model(
            ScopeStats, "POST", "/v1/stats", options_body(options, ReadScopeKeywords)
        )

    async def erase_user(self, user_id: str, *, tenant_id: str = DEFAULT_TENANT) -> ErasureReport:
        """Erase everything derived from the user (see :meth:`Memory.erase_user`)."""
        check_tenant(tenant_id)
        path = f"/v1/users/{quote(user_id, safe='')}"
        return await self._call_model(ErasureReport, "DELETE", path)

    async def erase_level(
        self, *, scope: ScopeLike = None, agent_id: str | None = None
    ) -> ErasureReport:
        """Erase one shared level: an agent's (``agent_id`` alone), a namespace's
        (``scope={"level": "namespace", "namespace": ...}``) or the organisation's
        (``scope={"level": "organisation"}``); see
        :meth:`Memory.erase_level`."""
        body = {"scope": self._scope_body(scope, agent_id=agent_id)}
        return await self._call_model(ErasureReport, "POST", "/v1/levels/erase", body)

    async def export(self, **options: Unpack[UserScopeKeywords]) -> AsyncIterator[ExportRecord]:
        """Every stored row of the scope, streamed (a header record first)."""
        body = to_jsonable_python(options_body(options, UserScopeKeywords))
        async with self._http.stream("POST", "/v1/memory/export", json=body) as response:
            if not response.is_success:
                await response.aread()
                raise error_from(response)
            async for line in response.aiter_lines():
                if line.strip():
                    yield ExportRecord.model_validate_json(line)

    async def import_records(
        self,
        records: Iterable[ExportRecord | Mapping[str, Any]],
        *,
        tenant_id: str = DEFAULT_TENANT,
    ) -> dict[str, int]:
        """Import records written by :meth:`export` (idempotent)."""
        check_tenant(tenant_id)
        lines = [
            (r if isinstance(r, ExportRecord) else ExportRecord.model_validate(r)).model_dump_json()
            for r in records
        ]
        content = ("\n".join(lines) + "\n").encode()
        response = await self._call(
            "POST", "/v1/memory/import", content=content, content_type=NDJSON
        )
        return parse(response, _COUNTS.validate_python)

    # -- async ingestion -------------------------------------------------------------
    async def get_job(self, job_id: str, *, tenant_id: str = DEFAULT_TENANT) -> Job:
        """The state of an ingestion job (queued / running / done / failed)."""
        check_tenant(tenant_id)
        return await self._call_model(Job, "GET", f"/v1/jobs/{quote(job_id, safe='')}")

    # -- service ---------------------------------------------------------------------
    async def health(self) -> dict[str, str]:
        """The server's health check (``{"status": "ok"}``)."""
        response = await self._call("GET", "/v1/health")
        return parse(response, TypeAdapter(dict[str, str]).validate_python)

    # -- plumbing --------------------------------------------------------------------
    def _scope_body(self, scope: ScopeLike, **fields: str | None) -> dict[str, Any]:
        return scope_body(scope, all_users=False, **fields)

    async def _call_model(self, model: type[M], method: str, path: str, body: Any = None) -> M:
        response = await self._call(method, path, body)
        return parse(response, model.model_validate)

    async def _call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        content: bytes | None = None,
        content_type: str | None = None,
    ) -> httpx.Response:
        if self._http.is_closed:
            raise UsageError("this client is closed: open a new one")
        payload = None if body is None else to_jsonable_python(body)
        headers = None if content_type is None else {"Content-Type": content_type}
        attempt = lost = 0
        safe = replayable(method, path, payload)
        resends = self.retries if safe else 0
        while True:
            try:
                response = await self._http.request(
                    method, path, json=payload, content=content, headers=headers
                )
            except LOST as exc:
                if lost >= resends:
                    where = f"{method} {self.base_url}{path}"
                    raise lost_answer(where, exc, attempts=attempt + lost + 1, safe=safe) from exc
                lost += 1
                log.warning("%s %s: %s; asking again", method, route(path), lost_reason(exc))
                continue
            except httpx.TimeoutException as exc:  # connecting, or waiting for the pool
                raise TransportError(
                    f"{method} {self.base_url}{path} timed out ({type(exc).__name__})"
                ) from exc
            except httpx.TransportError as exc:
                raise TransportError(
                    f"cannot reach cognimem at {self.base_url}: {exc or type(exc).__name__}"
                ) from exc
            if response.is_success:
                return response
            delay = self._retry_delay(response, attempt)
            if delay is None:
                raise error_from(response)
            await asyncio.sleep(delay)
            attempt += 1

    def _retry_delay(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before the next attempt, or None to give up now."""
        if response.status_code not in RETRY_STATUSES or attempt >= self.retries:
            return None
        asked = retry_after_seconds(response.headers.get("Retry-After"))
        if asked is not None:
            # never sooner than the server asked; rather fail than block for long
            return asked if asked <= self.max_backoff else None
        return random.uniform(0, min(self.max_backoff, self.backoff * 2**attempt))


def route(path: str) -> str:
    return path.partition("?")[0]


class MemoryClient(BlockingFacade):
    """Blocking :class:`AsyncMemoryClient` for scripts and notebooks (same arguments).

    It runs the async client on a private event loop, so it cannot be called from
    inside a running event loop; use ``AsyncMemoryClient`` there."""

    def __init__(self, base_url: str = DEFAULT_BASE_URL, **kwargs: Any) -> None:
        self._client = AsyncMemoryClient(base_url, **kwargs)
        super().__init__(self._client)

    def health(self) -> dict[str, str]:
        return self._run(self._client.health())


__all__ = ["AsyncMemoryClient", "ClientError", "MemoryClient", "TransportError"]
