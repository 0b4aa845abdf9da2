"""Client for any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama, vLLM, ...).

The vector dimension is read from the endpoint's answers, never assumed. Transient
failures (HTTP 408, 429 and 5xx, timeouts, connection errors) are retried with exponential
backoff; then :class:`~cognimem.errors.ProviderUnavailable` (the rules are in
:mod:`cognimem.providers.http`). Answers cognimem cannot use raise
:class:`~cognimem.errors.ProviderOutputError`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Unpack

import numpy as np

from cognimem.errors import UsageError
from cognimem.providers.embeddings import EmbedKind, FloatMatrix, check_texts, l2_normalize
from cognimem.providers.http import Connection, RetryingJsonClient, snippet

_PROVIDER = "openai"
_PROBE_TEXT = "dimension probe"


class OpenAICompatibleEmbedder(RetryingJsonClient):
    """Embeds through ``POST {base_url}/embeddings`` with ``{"model", "input"}``.

    ``base_url`` includes the API prefix, e.g. ``http://127.0.0.1:11434/v1``. ``transport``
    replaces the network (tests pass an ``httpx.MockTransport``). ``kind`` is ignored.
    """

    provider = _PROVIDER
    service = "embedding"
    endpoint = "embedding endpoint"
    settings_prefix = "COGNIMEM_EMBEDDING"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        batch_size: int = 64,
        **connection: Unpack[Connection],
    ) -> None:
        super().__init__(model, base_url, **connection)
        if batch_size < 1:
            raise UsageError(f"OpenAICompatibleEmbedder needs batch_size >= 1, got {batch_size}")
        self.batch_size = batch_size
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
        check_texts(texts)
        if not texts:
            return np.zeros((0, await self.dimension()), dtype=np.float32)
        parts = [
            await self._embed_batch(list(texts[start : start + self.batch_size]))
            for start in range(0, len(texts), self.batch_size)
        ]
        return l2_normalize(np.concatenate(parts, axis=0))

    async def _embed_batch(self, batch: list[str]) -> FloatMatrix:
        payload = await self._post_json("/embeddings", {"model": self.model, "input": batch})
        return self._parse(payload, len(batch))

    def _parse(self, payload: Any, expected: int) -> FloatMatrix:
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list):
            raise self._output_error(f"response has no 'data' list: {snippet(repr(payload))!r}")
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


__all__ = ["OpenAICompatibleEmbedder"]
