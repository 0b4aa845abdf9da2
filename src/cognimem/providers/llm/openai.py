"""Client for any OpenAI-compatible ``/chat/completions`` endpoint (OpenAI, Ollama, vLLM ...).

Transport failures are retried and classified by :mod:`cognimem.providers.http`
(transient ones retried with backoff, then :class:`~cognimem.errors.ProviderUnavailable`;
other HTTP 4xx at once, with the status in ``details["status"]``). A 200 whose body is
not JSON, has no ``choices[0].message.content`` string, or (when a schema was asked for)
was cut off at ``max_output_tokens``: :class:`~cognimem.errors.ProviderOutputError`.
"""

from __future__ import annotations

import re
from typing import Any, Unpack

from cognimem.errors import UsageError
from cognimem.providers.http import Connection, RetryingJsonClient, snippet
from cognimem.providers.llm.base import ChatMessage

PROVIDER = "openai-chat"
_SCHEMA_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class OpenAICompatibleChat(RetryingJsonClient):
    """Chats through ``POST {base_url}/chat/completions``.

    ``base_url`` includes the API prefix, e.g. ``http://127.0.0.1:11434/v1``. A
    ``json_schema`` given to :meth:`complete` is sent as ``response_format`` of type
    ``json_schema`` with ``strict: false`` (the caller validates the answer).
    ``transport`` replaces the network (tests pass an ``httpx.MockTransport``).
    """

    provider = PROVIDER
    service = "LLM"
    endpoint = "chat endpoint"
    settings_prefix = "COGNIMEM_LLM"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        temperature: float = 0.0,
        max_output_tokens: int = 2_000,
        **connection: Unpack[Connection],
    ) -> None:
        super().__init__(model, base_url, **connection)
        if max_output_tokens < 1:
            raise UsageError(
                f"OpenAICompatibleChat needs max_output_tokens >= 1, got {max_output_tokens}"
            )
        self.temperature = temperature
        self.max_output_tokens = max_output_tokens

    @property
    def model_id(self) -> str:
        return f"openai:{self.model}"

    async def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        schema_name: str = "output",
    ) -> str:
        """The assistant's answer to ``messages`` (see the module docstring for errors)."""
        if not messages:
            raise UsageError("complete() needs at least one message")
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [message.model_dump() for message in messages],
            "temperature": self.temperature,
            "max_tokens": self.max_output_tokens,
        }
        if json_schema is not None:
            if not _SCHEMA_NAME.match(schema_name):
                raise UsageError(
                    f"schema_name {schema_name!r} must be 1-64 letters, digits, '_' or '-'"
                )
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": json_schema, "strict": False},
            }
        payload = await self._post_json("/chat/completions", body)
        return self._content(payload, structured=json_schema is not None)

    def _content(self, payload: Any, *, structured: bool) -> str:
        choices = payload.get("choices") if isinstance(payload, dict) else None
        first = choices[0] if isinstance(choices, list) and choices else None
        message = first.get("message") if isinstance(first, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            refusal = message.get("refusal") if isinstance(message, dict) else None
            if isinstance(refusal, str) and refusal:
                raise self._output_error(f"the model refused: {snippet(refusal)!r}")
            raise self._output_error(
                f"response has no choices[0].message.content string: {snippet(repr(payload))}"
            )
        assert isinstance(first, dict)
        if structured and first.get("finish_reason") == "length":
            raise self._output_error(
                f"the answer was cut off at max_output_tokens={self.max_output_tokens} "
                "(raise COGNIMEM_LLM__MAX_OUTPUT_TOKENS)",
                finish_reason="length",
            )
        return content


__all__ = ["PROVIDER", "OpenAICompatibleChat"]
