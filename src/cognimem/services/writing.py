"""Writing: messages into the write funnel (now, or as a queued job that a worker runs
through the same funnel)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cognimem.ingest import WriteFunnel
from cognimem.ingest.extract.llm import LLMExtractor
from cognimem.ingest.funnel import Processed
from cognimem.models import Message, Scope, WriteResult
from cognimem.models.arguments import ScopeLike, make_message, make_write_scope
from cognimem.models.requests import MessageLike, WriteArgs
from cognimem.providers.tokens import count_tokens
from cognimem.services.components import Components
from cognimem.services.sessions import SessionService
from cognimem.text.validate import validate_messages


class WriteService:
    """``Memory.write`` and ``write_batch`` (documented there; they build the
    ``WriteArgs`` with ``prepare``), and the ingestion of a queued write's job."""

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

    def prepare(
        self, messages: Sequence[MessageLike], scope: ScopeLike = None, **fields: str | None
    ) -> tuple[tuple[Message, ...], Scope]:
        """A write's messages, made and checked, and its scope (``make_write_scope``),
        for its ``WriteArgs``: a message's own problem is named before a missing level."""
        self._parts.require_open()
        parsed = tuple(make_message(m, f"messages[{i}]") for i, m in enumerate(messages))
        validate_messages(list(parsed), self._parts.settings.ingest)
        return parsed, make_write_scope(scope, **fields)

    async def write(self, args: WriteArgs) -> WriteResult:
        await self._sessions.check_open(args.scope)
        return await self._funnel.write(args)

    async def ingest_job(self, tenant_id: str, payload: Mapping[str, Any]) -> Processed:
        """Run a queued write's events through the funnel (idempotent: events already
        processed are skipped)."""
        return await self._funnel.process(tenant_id, payload)
