"""The SDK's write calls (a mixin of ``AsyncMemoryClient``): ``write`` and
``write_batch``, as ``Memory.write`` and ``Memory.write_batch``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from cognimem.client._wire import ClientCalls, message_body, scope_body
from cognimem.models import Message, Role, WriteResult
from cognimem.models.arguments import ScopeLike
from cognimem.models.profiles import DEFAULT_PROFILE


class WriteClientCalls(ClientCalls):
    async def write(
        self,
        content: str | Message | Mapping[str, Any],
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        role: Role | str | None = None,
        name: str | None = None,
        occurred_at: datetime | None = None,
        idempotency_key: str | None = None,
        external_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        profile: str = DEFAULT_PROFILE,
    ) -> WriteResult:
        """Remember one message (see :meth:`Memory.write`). In async ingestion mode the
        result carries the ``job_id`` to poll with :meth:`get_job`. Pass an
        ``idempotency_key`` to make a retried write safe."""
        overrides = {
            "role": role,
            "name": name,
            "occurred_at": occurred_at,
            "idempotency_key": idempotency_key,
            "external_id": external_id,
            "metadata": dict(metadata) if metadata is not None else None,
        }
        body = message_body(content)
        body.update({k: v for k, v in overrides.items() if v is not None})
        body["scope"] = scope_body(scope, user_id=user_id, agent_id=agent_id, session_id=session_id)
        body["profile"] = profile
        return await self._call_model(WriteResult, "POST", "/v1/memory/write", body)

    async def write_batch(
        self,
        messages: Sequence[Message | Mapping[str, Any] | str],
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        profile: str = DEFAULT_PROFILE,
    ) -> WriteResult:
        """Remember many messages in one request (see :meth:`Memory.write_batch`)."""
        body = {
            "messages": [message_body(m) for m in messages],
            "scope": scope_body(scope, user_id=user_id, agent_id=agent_id, session_id=session_id),
            "profile": profile,
        }
        return await self._call_model(WriteResult, "POST", "/v1/memory/write_batch", body)
