"""The SDK's write calls (a mixin of ``AsyncMemoryClient``): ``write`` and
``write_batch``, as ``Memory.write`` and ``Memory.write_batch``. A message with neither
an ``idempotency_key`` nor an ``occurred_at`` is sent with the time of the call, which
makes the write safe to send again when its answer is lost (``client/_resend.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from cognimem.client._resend import call_time, stamped
from cognimem.client._wire import ClientCalls, message_body, options_body
from cognimem.models import Message, WriteResult
from cognimem.models.requests import WriteBatchKeywords, WriteKeywords


class WriteClientCalls(ClientCalls):
    async def write(
        self, content: str | Message | Mapping[str, Any], **options: Unpack[WriteKeywords]
    ) -> WriteResult:
        """Remember one message (see :meth:`Memory.write`). In async ingestion mode the
        result carries the ``job_id`` to poll with :meth:`get_job`. Pass an
        ``idempotency_key`` to make your own retry of it safe (the client's own, when
        the answer is lost, is safe either way)."""
        body = {**message_body(content), **options_body(options, WriteKeywords)}
        body = stamped(body, call_time())
        return await self._call_model(WriteResult, "POST", "/v1/memory/write", body)

    async def write_batch(
        self,
        messages: Sequence[Message | Mapping[str, Any] | str],
        **options: Unpack[WriteBatchKeywords],
    ) -> WriteResult:
        """Remember many messages in one request (see :meth:`Memory.write_batch`)."""
        now = call_time()
        body = {
            "messages": [stamped(message_body(m), now) for m in messages],
            **options_body(options, WriteBatchKeywords),
        }
        return await self._call_model(WriteResult, "POST", "/v1/memory/write_batch", body)
