"""The SDK's write calls (a mixin of ``AsyncMemoryClient``): ``write`` and
``write_batch``, as ``Memory.write`` and ``Memory.write_batch``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from cognimem.client._wire import ClientCalls, message_body, options_body
from cognimem.models import Message, WriteResult
from cognimem.models.requests import WriteBatchKeywords, WriteKeywords


class WriteClientCalls(ClientCalls):
    async def write(
        self, content: str | Message | Mapping[str, Any], **options: Unpack[WriteKeywords]
    ) -> WriteResult:
        """Remember one message (see :meth:`Memory.write`). In async ingestion mode the
        result carries the ``job_id`` to poll with :meth:`get_job`. Pass an
        ``idempotency_key`` to make a retried write safe."""
        body = {**message_body(content), **options_body(options, WriteKeywords)}
        return await self._call_model(WriteResult, "POST", "/v1/memory/write", body)

    async def write_batch(
        self,
        messages: Sequence[Message | Mapping[str, Any] | str],
        **options: Unpack[WriteBatchKeywords],
    ) -> WriteResult:
        """Remember many messages in one request (see :meth:`Memory.write_batch`)."""
        body = {
            "messages": [message_body(m) for m in messages],
            **options_body(options, WriteBatchKeywords),
        }
        return await self._call_model(WriteResult, "POST", "/v1/memory/write_batch", body)
