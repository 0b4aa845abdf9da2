"""Deterministic stand-ins for real providers, shipped so tests use real objects.

- :class:`HashingEmbedder`: a bag-of-words embedder; texts that share words get similar
  vectors, so ranking tests mean something. Identical output in every process.
- :class:`FakeEmbeddingServer`: a tiny OpenAI-compatible ``/v1/embeddings`` HTTP server on
  127.0.0.1 serving :class:`HashingEmbedder` vectors, with scriptable failures.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from cognimem.errors import UsageError
from cognimem.providers.embeddings import EmbedKind, FloatMatrix, check_texts, l2_normalize
from cognimem.providers.fake_http import Reply, ScriptedHTTPServer, Step

_WORD = re.compile(r"\w+")


class HashingEmbedder:
    """Feature-hashing embedder: each lowercase ``\\w+`` word adds ±1 at a hashed dimension.

    Uses blake2b (never Python's salted ``hash()``), so vectors are identical across
    processes and machines. ``kind`` is ignored. A ``salt`` makes another model of the
    same dimension (``hashing:<dim>:<salt>``): words land on other dimensions, as a
    second real model's vectors disagree with the first's.
    """

    def __init__(self, dim: int = 256, *, salt: str = "") -> None:
        if dim <= 0:
            raise UsageError(f"HashingEmbedder dimension must be positive, got {dim}")
        self._dim = dim
        self._salt = salt
        self._slots: dict[str, tuple[int, float]] = {}

    @property
    def model_id(self) -> str:
        return f"hashing:{self._dim}:{self._salt}" if self._salt else f"hashing:{self._dim}"

    async def dimension(self) -> int:
        return self._dim

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        return self.embed_sync(texts)

    def embed_sync(self, texts: Sequence[str]) -> FloatMatrix:
        """The same vectors as :meth:`embed`, without an event loop."""
        check_texts(texts)
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                index, sign = self._slot(word)
                out[row, index] += sign
        return l2_normalize(out)

    async def aclose(self) -> None:
        return None

    def _slot(self, word: str) -> tuple[int, float]:
        slot = self._slots.get(word)
        if slot is None:
            digest = hashlib.blake2b((self._salt + word).encode("utf-8"), digest_size=16).digest()
            index = int.from_bytes(digest[:8], "little") % self._dim
            sign = 1.0 if digest[8] & 1 else -1.0
            slot = (index, sign)
            if len(self._slots) < 100_000:
                self._slots[word] = slot
        return slot


class FakeEmbeddingServer(ScriptedHTTPServer[Step]):
    """OpenAI-compatible embeddings server for tests, on 127.0.0.1 with an ephemeral port.

    ::

        with FakeEmbeddingServer(dim=32) as server:
            server.fail_next(status=500)          # next request answers 500
            embedder = OpenAICompatibleEmbedder("fake", server.base_url)

    Scripted responses are consumed one per request, in order; unscripted requests get
    :class:`HashingEmbedder` vectors. ``request_count`` counts every ``/embeddings``
    request; ``requests`` keeps their headers and JSON bodies.
    """

    paths = ("/v1/embeddings", "/embeddings")
    malformed_body = b'{"data": [{"embedding": [0.1, '

    def __init__(self, dim: int = 64, *, reverse_order: bool = False) -> None:
        super().__init__(Step())
        self.dim = dim
        self.reverse_order = reverse_order
        self._embedder = HashingEmbedder(dim)

    def fail_next(
        self,
        status: int = 500,
        *,
        body: str | None = None,
        malformed: bool = False,
        payload: Any = None,
        times: int = 1,
    ) -> None:
        """Script the next ``times`` responses: an error ``status`` (with ``body``), a
        non-JSON 200 (``malformed=True``) or an arbitrary JSON 200 ``payload``."""
        if malformed or payload is not None:
            status = 200
        self._push(Step(status=status, body=body, payload=payload, malformed=malformed), times)

    def delay_next(self, seconds: float, *, times: int = 1) -> None:
        """Answer the next ``times`` requests normally, but only after ``seconds``."""
        self._push(Step(delay_s=seconds), times)

    def _answer(self, step: Step, request: Any, number: int) -> Reply:
        inputs = request.get("input") if isinstance(request, dict) else None
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not all(isinstance(t, str) for t in inputs):
            return Reply(
                400, b'{"error": {"message": "input must be a string or a list of strings"}}'
            )
        vectors = self._embedder.embed_sync(inputs)
        data = [
            {"object": "embedding", "index": i, "embedding": [float(x) for x in vec]}
            for i, vec in enumerate(vectors)
        ]
        if self.reverse_order:
            data.reverse()
        response = {
            "object": "list",
            "model": request.get("model", "fake") if isinstance(request, dict) else "fake",
            "data": data,
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }
        return Reply(200, json.dumps(response).encode())


__all__ = ["FakeEmbeddingServer", "HashingEmbedder"]
