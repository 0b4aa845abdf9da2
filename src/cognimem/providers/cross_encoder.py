"""Cross-encoders: score how well each passage answers a query, reading both together.

:class:`OnnxCrossEncoder` runs a local model of :mod:`cognimem.providers.onnx_models`
(``ms-marco-l12``: ms-marco-MiniLM-L-12-v2, int8 products) on the CPU. The read path uses one,
when ``RecallConfig.cross_encoder`` names it, to reorder the best ranked candidates.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from cognimem.errors import UsageError
from cognimem.providers.onnx_batches import batch_feeds
from cognimem.providers.onnx_models import (
    CROSS_ENCODERS,
    MS_MARCO_L12,
    OnnxModel,
    Pinned,
    build_tokenizer,
    run_session,
)
from cognimem.providers.onnx_runner import OnnxRunner

MIN_PAIR_TOKENS = 8
"""The fewest word pieces a pair may be cut to: [CLS], [SEP] twice and a few of each text."""


@runtime_checkable
class CrossEncoder(Protocol):
    """Scores (query, passage) pairs: higher means more relevant."""

    @property
    def model_id(self) -> str: ...

    async def score(
        self, query: str, passages: Sequence[str], *, max_tokens: int | None = None
    ) -> npt.NDArray[np.float32]:
        """One relevance probability in [0, 1] per passage, in the passages' order.
        ``max_tokens`` caps each pair's word pieces (None: the model's limit)."""
        ...

    async def aclose(self) -> None: ...


class OnnxCrossEncoder(OnnxRunner):
    """A local cross-encoder: each pair is tokenized together (truncated from its longer
    side, a word piece at a time, to ``max_tokens`` or the model's limit) and the
    model's logit goes through a sigmoid. The longer side is nearly always the passage,
    so a cap keeps the query whole and the passage's beginning; a pair's CPU grows with
    its word pieces, so the cap bounds what one long memory costs a read.

    Loads on first use; inference runs in worker threads, up to ``threads`` runs at
    once. An int8 model runs each pair alone, so a pair's score never depends on the
    pairs scored beside it (one run quantizes its activations with one scale); a model
    run as shipped takes batches of pairs of similar length (at most ``batch_size``).
    ``model_path`` and ``expected_sha256`` work as for
    :class:`~cognimem.providers.onnx.OnnxEmbedder`.
    """

    def __init__(
        self,
        model: OnnxModel = MS_MARCO_L12,
        model_path: str | os.PathLike[str] | None = None,
        *,
        expected_sha256: str | Pinned | None = Pinned.MODEL,
        batch_size: int = 32,
        threads: int | None = None,
    ) -> None:
        if model.output != "logits":
            raise UsageError(f"{model.name} is not a cross-encoder")
        super().__init__(model, model_path, expected_sha256, batch_size, threads)
        self._capped: dict[int, Any] = {}  # a tokenizer per cap below the model's limit
        self._capped_lock = threading.Lock()

    async def score(
        self, query: str, passages: Sequence[str], *, max_tokens: int | None = None
    ) -> npt.NDArray[np.float32]:
        if isinstance(passages, str):
            raise TypeError("score() takes a sequence of passages, not a single string")
        self._check_cap(max_tokens)
        if not passages:
            return np.zeros(0, dtype=np.float32)
        return await asyncio.to_thread(self.score_sync, query, list(passages), max_tokens)

    def score_sync(
        self, query: str, passages: Sequence[str], max_tokens: int | None = None
    ) -> npt.NDArray[np.float32]:
        """Blocking version of :meth:`score`."""
        self._check_cap(max_tokens)
        tokenizer, session, inputs = self._loader.get()
        if max_tokens is not None and max_tokens < self.model.max_tokens:
            tokenizer = self._tokenizer(max_tokens)
        encodings = tokenizer.encode_batch([(query, p) for p in passages])
        logits = np.zeros(len(encodings), dtype=np.float32)
        for chunk, found in self._run_batches(
            encodings, lambda batch: run_session(self.model, session, batch_feeds(batch, inputs))
        ):
            logits[chunk] = found[:, 0]
        probabilities: npt.NDArray[np.float32] = (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)
        return probabilities

    def _check_cap(self, max_tokens: int | None) -> None:
        if max_tokens is not None and max_tokens < MIN_PAIR_TOKENS:
            raise UsageError(
                f"max_tokens must be >= {MIN_PAIR_TOKENS} word pieces a pair, got {max_tokens}"
            )

    def _tokenizer(self, max_tokens: int) -> Any:
        """The model's tokenizer truncating pairs to ``max_tokens`` (built once per cap:
        a tokenizer's truncation is its own state, shared by the threads using it)."""
        with self._capped_lock:
            if max_tokens not in self._capped:
                self._capped[max_tokens] = build_tokenizer(max_tokens)
            return self._capped[max_tokens]


def build_cross_encoder(name: str) -> CrossEncoder:
    """The local cross-encoder called ``name`` (a key of ``CROSS_ENCODERS``); nothing
    loads until its first use."""
    model = CROSS_ENCODERS.get(name)
    if model is None:
        raise UsageError(
            f"unknown cross-encoder {name!r}; choose one of {', '.join(sorted(CROSS_ENCODERS))}"
        )
    return OnnxCrossEncoder(model)


__all__ = ["MIN_PAIR_TOKENS", "CrossEncoder", "OnnxCrossEncoder", "build_cross_encoder"]
