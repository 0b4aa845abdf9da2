"""Writing: messages into the write funnel (now, or as a queued job that a worker runs
through the same funnel)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from cognimem.ingest import WriteFunnel
from cognimem.ingest.extract.llm import LLMExtractor
from cognimem.ingest.funnel import Processed
from cognimem.models import Message, Role, WriteResult
from cognimem.models.arguments import ScopeLike, make_message, make_write_scope
from cognimem.models.profiles import IngestProfile
from cognimem.providers.tokens import count_tokens
from cognimem.services.components import Components
from cognimem.services.sessions import SessionService
from cognimem.text.validate import validate_messages


class WriteService:
    """``Memory.write`` and ``write_batch`` (documented there), and the ingestion of a
    queued write's job."""

    def __init__(self, parts: Components, sessions: SessionService) -> None:
        self._parts = parts
        self._sessions = sessions
        self._funnel = WriteFunnel(
            parts.store,
            parts.embedder,
            parts.settings.ingest,
            clock=parts.clock,
            count_tokens=count_tokens,
            queue=parts.queue,
            llm_extractor=None if parts.llm is None else LLMExtractor(parts.llm),
            domains=parts.domains,
        )

    async def write(
        self,
        content: str | Message | Mapping[str, Any],
        *,
        scope: ScopeLike,
        user_id: str | None,
        agent_id: str | None,
        session_id: str | None,
        role: Role | str | None,
        name: str | None,
        occurred_at: datetime | None,
        idempotency_key: str | None,
        external_id: str | None,
        metadata: Mapping[str, Any] | None,
        profile: str | IngestProfile,
    ) -> WriteResult:
        message = make_message(content)
        overrides = {
            "role": role,
            "name": name,
            "occurred_at": occurred_at,
            "idempotency_key": idempotency_key,
            "external_id": external_id,
            "metadata": dict(metadata) if metadata is not None else None,
        }
        updates = {k: v for k, v in overrides.items() if v is not None}
        if updates:
            message = make_message({**message.model_dump(), **updates})
        return await self.write_batch(
            [message],
            scope=scope,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            profile=profile,
        )

    async def write_batch(
        self,
        messages: Sequence[Message | Mapping[str, Any] | str],
        *,
        scope: ScopeLike,
        user_id: str | None,
        agent_id: str | None,
        session_id: str | None,
        profile: str | IngestProfile,
    ) -> WriteResult:
        self._parts.require_open()
        parsed = [make_message(m, f"messages[{i}]") for i, m in enumerate(messages)]
        # a message's own problem is named before a missing level
        validate_messages(parsed, self._parts.settings.ingest)
        target = make_write_scope(scope, user_id=user_id, agent_id=agent_id, session_id=session_id)
        await self._sessions.check_open(target)
        return await self._funnel.write(parsed, target, profile=profile)

    async def ingest_job(self, tenant_id: str, payload: Mapping[str, Any]) -> Processed:
        """Run a queued write's events through the funnel (idempotent: events already
        processed are skipped)."""
        return await self._funnel.process(tenant_id, payload)
