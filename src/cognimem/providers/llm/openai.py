"""Client for any OpenAI-compatible ``/chat/completions`` endpoint (OpenAI, Ollama, vLLM ...).

Failures, by whose fault they are:

- HTTP 408, 429 and 5xx, timeouts and connection errors are transient: retried with
  exponential backoff (``backoff_s``, doubled each time; a ``Retry-After`` header, capped
  at 30 s, is honoured when longer), then :class:`~cognimem.errors.ProviderUnavailable`.
- Any other HTTP 4xx (bad key, unknown model, unsupported request) would fail the same
  way again: :class:`~cognimem.errors.ProviderUnavailable` at once, without retrying,
  with the status in ``details["status"]``.
- A 200 whose body is not JSON, has no ``choices[0].message.content`` string, or (when a
  schema was asked for) was cut off at ``max_output_tokens``:
  :class:`~cognimem.errors.ProviderOutputError`.
"""

from __future__ import annotations

import asyncio
import math
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from cognimem.errors import ProviderOutputError, ProviderUnavailable, UsageError
from cognimem.providers.llm.base import ChatMessage

PROVIDER = "openai-chat"
_MAX_RETRY_AFTER_S = 30.0
_SCHEMA_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_HINTS = {
    401: " (check the API key, COGNIMEM_LLM__API_KEY)",
    403: " (check the API key, COGNIMEM_LLM__API_KEY)",
    404: " (check COGNIMEM_LLM__BASE_URL includes the API prefix such as /v1, and the model name)",
}


class OpenAICompatibleChat:
    """Chats through ``POST {base_url}/chat/completions``.

    ``base_url`` includes the API prefix, e.g. ``http://127.0.0.1:11434/v1``. A
    ``json_schema`` given to :meth:`complete` is sent as ``response_format`` of type
    ``json_schema`` with ``strict: false`` (the caller validates the answer).
    ``transport`` replaces the network (tests pass an ``httpx.MockTransport``).
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        temperature: float = 0.0,
        max_output_tokens: int = 2_000,
        backoff_s: float = 0.5,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not model:
            raise UsageError("OpenAICompatibleChat needs a model name, e.g. 'openai:<model>'")
        if not base_url.startswith(("http://", "https://")):
            raise UsageError(
                f"LLM base URL {base_url!r} must start with http:// or https:// "
                "(set COGNIMEM_LLM__BASE_URL, e.g. http://127.0.0.1:11434/v1)"
            )
        if max_retries < 0 or timeout_s <= 0 or backoff_s < 0 or max_output_tokens < 1:
            raise UsageError(
                "OpenAICompatibleChat needs max_retries >= 0, timeout_s > 0, backoff_s >= 0 "
                "and max_output_tokens >= 1"
            )
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.temperature = temperature
        self.max_output_tokens = max_output_tokens
        self.backoff_s = backoff_s
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._transport = transport
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

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
        payload = await self._post(body)
        return self._content(payload, structured=json_schema is not None)

    async def aclose(self) -> None:
        client, self._client, self._client_loop = self._client, None, None
        if client is not None:
            await client.aclose()

    def _get_client(self) -> httpx.AsyncClient:
        # An AsyncClient's connections belong to the loop that opened them; a sync wrapper
        # running each call in a fresh loop must not reuse them.
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout_s),
                headers=self._headers,
                transport=self._transport,
            )
            self._client_loop = loop
        return self._client

    async def _post(self, body: dict[str, Any]) -> Any:
        url = f"{self.base_url}/chat/completions"
        failure, retry_after = "", None
        for attempt in range(self.max_retries + 1):
            if attempt:
                await asyncio.sleep(self._backoff(attempt, retry_after))
            retry_after = None
            try:
                response = await self._get_client().post(url, json=body)
            except httpx.TimeoutException as exc:
                failure = f"timed out after {self.timeout_s:g}s ({type(exc).__name__})"
                continue
            except httpx.TransportError as exc:
                failure = f"connection failed: {type(exc).__name__}: {exc}"
                continue
            status = response.status_code
            if status in (408, 429) or status >= 500:
                failure = _describe(response)
                retry_after = _retry_after(response)
                continue
            if status >= 400:
                raise self._unavailable(
                    f"{url} answered {_describe(response)}{_HINTS.get(status, '')}",
                    status=status,
                )
            try:
                return response.json()
            except ValueError as exc:
                raise self._output_error(
                    f"{url} answered with invalid JSON: {_snippet(response.text)!r}"
                ) from exc
        raise self._unavailable(
            f"{url} failed after {self.max_retries + 1} attempt(s); last: {failure}"
        )

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        delay = self.backoff_s * 2.0 ** (attempt - 1)
        if retry_after is not None:
            delay = max(delay, min(retry_after, _MAX_RETRY_AFTER_S))
        return delay

    def _content(self, payload: Any, *, structured: bool) -> str:
        choices = payload.get("choices") if isinstance(payload, dict) else None
        first = choices[0] if isinstance(choices, list) and choices else None
        message = first.get("message") if isinstance(first, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            refusal = message.get("refusal") if isinstance(message, dict) else None
            if isinstance(refusal, str) and refusal:
                raise self._output_error(f"the model refused: {_snippet(refusal)!r}")
            raise self._output_error(
                f"response has no choices[0].message.content string: {_snippet(repr(payload))}"
            )
        assert isinstance(first, dict)
        if structured and first.get("finish_reason") == "length":
            raise self._output_error(
                f"the answer was cut off at max_output_tokens={self.max_output_tokens} "
                "(raise COGNIMEM_LLM__MAX_OUTPUT_TOKENS)",
                finish_reason="length",
            )
        return content

    def _unavailable(self, message: str, *, status: int | None = None) -> ProviderUnavailable:
        details = {"status": status} if status is not None else None
        return ProviderUnavailable(message, provider=PROVIDER, model=self.model, details=details)

    def _output_error(self, message: str, **details: Any) -> ProviderOutputError:
        return ProviderOutputError(
            f"chat endpoint {self.base_url}: {message}",
            provider=PROVIDER,
            model=self.model,
            details=details,
        )


def _snippet(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _describe(response: httpx.Response) -> str:
    return f"HTTP {response.status_code}: {_snippet(response.text)!r}"


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds from a ``Retry-After`` header: a number, or an HTTP date."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    return max(seconds, 0.0) if math.isfinite(seconds) else None


__all__ = ["PROVIDER", "OpenAICompatibleChat"]
