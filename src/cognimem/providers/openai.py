"""Client for any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama, vLLM, ...).

The vector dimension is read from the endpoint's answers, never assumed. Transient
failures (HTTP 429 and 5xx, timeouts, connection errors) are retried with exponential
backoff; then :class:`~cognimem.errors.ProviderUnavailable`. Answers cognimem cannot use
raise :class:`~cognimem.errors.ProviderOutputError`.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np

from cognimem.errors import ProviderOutputError, ProviderUnavailable, UsageError
from cognimem.providers.embeddings import EmbedKind, FloatMatrix, l2_normalize

_PROVIDER = "openai"
_PROBE_TEXT = "dimension probe"
_MAX_RETRY_AFTER_S = 30.0


class OpenAICompatibleEmbedder:
    """Embeds through ``POST {base_url}/embeddings`` with ``{"model", "input"}``.

    ``base_url`` includes the API prefix, e.g. ``http://127.0.0.1:11434/v1``. ``transport``
    replaces the network (tests pass an ``httpx.MockTransport``). ``kind`` is ignored.
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        batch_size: int = 64,
        backoff_s: float = 0.5,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not model:
            raise UsageError("OpenAICompatibleEmbedder needs a model name, e.g. 'openai:<model>'")
        if not base_url.startswith(("http://", "https://")):
            raise UsageError(
                f"embedding base URL {base_url!r} must start with http:// or https:// "
                "(set COGNIMEM_EMBEDDING__BASE_URL, e.g. http://127.0.0.1:11434/v1)"
            )
        if batch_size < 1 or max_retries < 0 or timeout_s <= 0 or backoff_s < 0:
            raise UsageError(
                "OpenAICompatibleEmbedder needs batch_size >= 1, max_retries >= 0, "
                "timeout_s > 0 and backoff_s >= 0"
            )
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.batch_size = batch_size
        self.backoff_s = backoff_s
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._transport = transport
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._dim: int | None = None

    @property
    def model_id(self) -> str:
        return f"{_PROVIDER}:{self.model}"

    async def dimension(self) -> int:
        """The endpoint's vector length; probes it once with a short text if still unknown."""
        if self._dim is None:
            await self.embed([_PROBE_TEXT])
        assert self._dim is not None
        return self._dim

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not a single string")
        if not texts:
            return np.zeros((0, await self.dimension()), dtype=np.float32)
        parts = [
            await self._embed_batch(list(texts[start : start + self.batch_size]))
            for start in range(0, len(texts), self.batch_size)
        ]
        return l2_normalize(np.concatenate(parts, axis=0))

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

    async def _embed_batch(self, batch: list[str]) -> FloatMatrix:
        payload = await self._post({"model": self.model, "input": batch})
        return self._parse(payload, len(batch))

    async def _post(self, body: dict[str, Any]) -> Any:
        url = f"{self.base_url}/embeddings"
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
            if response.status_code == 429 or response.status_code >= 500:
                failure = _describe(response)
                retry_after = _retry_after(response)
                continue
            if response.status_code >= 400:
                raise self._unavailable(f"{url} answered {_describe(response)}")
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

    def _parse(self, payload: Any, expected: int) -> FloatMatrix:
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list):
            raise self._output_error(f"response has no 'data' list: {_snippet(repr(payload))!r}")
        if len(data) != expected:
            raise self._output_error(f"sent {expected} texts but got {len(data)} embeddings")
        rows: list[list[float] | None] = [None] * expected
        for position, item in enumerate(data):
            if not isinstance(item, dict):
                raise self._output_error(f"data[{position}] is not an object")
            index = item.get("index", position)
            vector = item.get("embedding")
            if not isinstance(index, int) or not 0 <= index < expected or rows[index] is not None:
                raise self._output_error(f"data[{position}] has a bad or repeated index {index!r}")
            if (
                not isinstance(vector, list)
                or not vector
                or not all(
                    isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                    for x in vector
                )
            ):
                raise self._output_error(
                    f"data[{position}].embedding is not a non-empty list of finite numbers"
                )
            rows[index] = vector
        dims = {len(row) for row in rows if row is not None}
        if len(dims) != 1:
            raise self._output_error(f"embeddings have inconsistent dimensions {sorted(dims)}")
        dim = dims.pop()
        if self._dim is not None and dim != self._dim:
            raise self._output_error(
                f"embedding dimension changed from {self._dim} to {dim}; the endpoint now serves "
                "a different model"
            )
        self._dim = dim
        return np.asarray(rows, dtype=np.float32)

    def _unavailable(self, message: str) -> ProviderUnavailable:
        return ProviderUnavailable(message, provider=_PROVIDER, model=self.model)

    def _output_error(self, message: str) -> ProviderOutputError:
        return ProviderOutputError(
            f"embedding endpoint {self.base_url}: {message}", provider=_PROVIDER, model=self.model
        )


def _snippet(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _describe(response: httpx.Response) -> str:
    return f"HTTP {response.status_code}: {_snippet(response.text)!r}"


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After")
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and seconds >= 0 else None


__all__ = ["OpenAICompatibleEmbedder"]
