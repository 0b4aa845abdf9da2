"""The HTTP half of the OpenAI-compatible clients, written once: POST JSON, retry, classify.

Failures, by whose fault they are:

- HTTP 408, 429 and 5xx, timeouts and connection errors are transient: retried with
  exponential backoff (``backoff_s``, doubled each time; a ``Retry-After`` header, in
  seconds or as an HTTP date, capped at 30 s, is honoured when longer), then
  :class:`~cognimem.errors.ProviderUnavailable`.
- Any other HTTP 4xx (bad key, unknown model, unsupported request) would fail the same
  way again: :class:`~cognimem.errors.ProviderUnavailable` at once, without retrying,
  with the status in ``details["status"]`` and, for 401, 403 and 404, the setting to check.
- A success whose body is not JSON: :class:`~cognimem.errors.ProviderOutputError`.
"""

from __future__ import annotations

import asyncio
import math
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, ClassVar, TypedDict

import httpx

from cognimem.errors import ProviderOutputError, ProviderUnavailable, UsageError

_MAX_RETRY_AFTER_S = 30.0


class Connection(TypedDict, total=False):
    """How a ``RetryingJsonClient`` reaches its endpoint (its keywords, which each
    client passes on whole): the key, the timeout, the retries and their backoff, and a
    transport that replaces the network (tests pass an ``httpx.MockTransport``)."""

    api_key: str | None
    timeout_s: float
    max_retries: int
    backoff_s: float
    transport: httpx.AsyncBaseTransport | None


class RetryingJsonClient:
    """Base for a client of one OpenAI-compatible endpoint family at ``base_url``.

    Subclasses name themselves with the class attributes below, check their own arguments
    after ``super().__init__`` (which checks the model, URL, retries, timeout and backoff
    every client shares) and call :meth:`_post_json`. The ``httpx.AsyncClient`` is
    opened lazily and reopened in a new event loop, so a sync wrapper that runs each call
    in a fresh loop works; ``transport`` replaces the network (tests pass an
    ``httpx.MockTransport``).
    """

    provider: ClassVar[str]
    """``provider`` of the errors raised, e.g. ``"openai"``."""
    service: ClassVar[str]
    """What the endpoint serves, in messages about the base URL, e.g. ``"embedding"``."""
    endpoint: ClassVar[str]
    """How output errors name the endpoint, e.g. ``"embedding endpoint"``."""
    settings_prefix: ClassVar[str]
    """Where the user configures this client, e.g. ``"COGNIMEM_EMBEDDING"``."""

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        backoff_s: float = 0.5,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not model:
            raise UsageError(f"{type(self).__name__} needs a model name, e.g. 'openai:<model>'")
        if not base_url.startswith(("http://", "https://")):
            raise UsageError(
                f"{self.service} base URL {base_url!r} must start with http:// or https:// "
                f"(set {self.settings_prefix}__BASE_URL, e.g. http://127.0.0.1:11434/v1)"
            )
        if max_retries < 0 or timeout_s <= 0 or backoff_s < 0:
            raise UsageError(
                f"{type(self).__name__} needs max_retries >= 0, timeout_s > 0 and backoff_s >= 0"
            )
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._transport = transport
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    async def aclose(self) -> None:
        """Closes the connections; the next call opens new ones."""
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

    async def _post_json(self, path: str, body: Any) -> Any:
        """The decoded JSON answer to ``POST {base_url}{path}`` (see the module docstring)."""
        url = f"{self.base_url}{path}"
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
                retry_after = retry_after_seconds(response.headers.get("Retry-After"))
                continue
            if status >= 400:
                raise self._unavailable(
                    f"{url} answered {_describe(response)}{self._hint(status)}", status=status
                )
            try:
                return response.json()
            except ValueError as exc:
                raise self._output_error(
                    f"{url} answered with invalid JSON: {snippet(response.text)!r}"
                ) from exc
        raise self._unavailable(
            f"{url} failed after {self.max_retries + 1} attempt(s); last: {failure}"
        )

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        delay = self.backoff_s * 2.0 ** (attempt - 1)
        if retry_after is not None:
            delay = max(delay, min(retry_after, _MAX_RETRY_AFTER_S))
        return delay

    def _hint(self, status: int) -> str:
        if status in (401, 403):
            return f" (check the API key, {self.settings_prefix}__API_KEY)"
        if status == 404:
            return (
                f" (check {self.settings_prefix}__BASE_URL includes the API prefix such as /v1, "
                "and the model name)"
            )
        return ""

    def _unavailable(self, message: str, *, status: int | None = None) -> ProviderUnavailable:
        details = {"status": status} if status is not None else None
        return ProviderUnavailable(
            message, provider=self.provider, model=self.model, details=details
        )

    def _output_error(self, message: str, **details: Any) -> ProviderOutputError:
        return ProviderOutputError(
            f"{self.endpoint} {self.base_url}: {message}",
            provider=self.provider,
            model=self.model,
            details=details,
        )


def snippet(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters, for error messages."""
    return text if len(text) <= limit else text[:limit] + "..."


def _describe(response: httpx.Response) -> str:
    return f"HTTP {response.status_code}: {snippet(response.text)!r}"


def retry_after_seconds(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: a number, or an HTTP date (None when absent
    or unreadable)."""
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


__all__ = ["RetryingJsonClient", "retry_after_seconds", "snippet"]
