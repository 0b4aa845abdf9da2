"""``Memory``'s write calls (a mixin, so ``memory/_facade.py`` keeps to its wiring and
the read and record surface): ``write`` and ``write_batch`` each build one
``WriteArgs`` (``models/requests.py``), their scope made once, and pass it whole to
``services.writing``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from cognimem.models import Message, WriteResult
from cognimem.models.requests import (
    MessageOptions,
    WriteArgs,
    WriteBatchKeywords,
    WriteKeywords,
    split_scope,
)
from cognimem.services.writing import WriteService


class WriteCalls:
    _writing: WriteService

    async def write(
        self, content: str | Message | Mapping[str, Any], **options: Unpack[WriteKeywords]
    ) -> WriteResult:
        """Remember one message. Returns its event and item ids (the originals on a retry)
        and what it changed in the knowledge layers (facts, entities, conflicts). Its
        keywords: the message's own options (``role``, ``name``, ``occurred_at``,
        ``idempotency_key``, ``external_id``, ``metadata``, over the content's) and
        :meth:`write_batch`'s."""
        message, batch = MessageOptions.split(options)
        return await self.write_batch([message.apply(content)], **batch)

    async def write_batch(
        self,
        messages: Sequence[Message | Mapping[str, Any] | str],
        **options: Unpack[WriteBatchKeywords],
    ) -> WriteResult:
        """Remember many messages with one extraction call, one embedding batch and one
        transaction, as the memory of ``user_id`` (or ``agent_id``; ``scope``, and
        ``session_id``). ``profile`` (chat, document, mandate, guardrail,
        tool_discovery, tool_gotcha, learning) sets the item kind, tier, dedupe window
        and extraction."""
        where, rest = split_scope(options)
        made, target = self._writing.prepare(messages, **where)
        return await self._writing.write(WriteArgs(messages=made, scope=target, **rest))
