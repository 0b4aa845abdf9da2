"""``Memory``'s write calls (a mixin, so ``memory/_facade.py`` keeps to its wiring and
the read and record surface): ``write`` and ``write_batch`` each build one
``WriteArgs`` (``models/requests.py``), their scope made once, and pass it whole to
``services.writing``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from cognimem.models import Message, Role, WriteResult
from cognimem.models.arguments import ScopeLike
from cognimem.models.profiles import DEFAULT_PROFILE, IngestProfile
from cognimem.models.requests import MessageOptions, WriteArgs
from cognimem.services.writing import WriteService


class WriteCalls:
    _writing: WriteService

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
        profile: str | IngestProfile = DEFAULT_PROFILE,
    ) -> WriteResult:
        """Remember one message. Returns its event and item ids (the originals on a retry)
        and what it changed in the knowledge layers (facts, entities, conflicts)."""
        options = MessageOptions(
            role=role,
            name=name,
            occurred_at=occurred_at,
            idempotency_key=idempotency_key,
            external_id=external_id,
            metadata=metadata,
        )
        return await self.write_batch(
            [options.apply(content)],
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
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        profile: str | IngestProfile = DEFAULT_PROFILE,
    ) -> WriteResult:
        """Remember many messages with one extraction call, one embedding batch and one
        transaction. ``profile`` (chat, document, mandate, guardrail, tool_discovery,
        tool_gotcha, learning) sets the item kind, tier, dedupe window and extraction."""
        made, target = self._writing.prepare(
            messages, scope, user_id=user_id, agent_id=agent_id, session_id=session_id
        )
        return await self._writing.write(WriteArgs(messages=made, scope=target, profile=profile))
