"""What every local ONNX provider holds, whatever it computes from its model's output
(:class:`~cognimem.providers.onnx.OnnxEmbedder`,
:class:`~cognimem.providers.cross_encoder.OnnxCrossEncoder`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from cognimem.errors import UsageError
from cognimem.providers.onnx_batches import length_batches
from cognimem.providers.onnx_models import LazySession, OnnxModel, Pinned

R = TypeVar("R")


class OnnxRunner:
    """A local model on the CPU, loaded on first use (thread-safe) and dropped by
    :meth:`aclose`. Its encoded texts run in batches of similar length (at most
    ``batch_size`` rows; one a run for a model whose products run as int8, see
    :meth:`~cognimem.providers.onnx_models.OnnxModel.rows_per_run`), up to ``threads``
    batches at once, one core each (see
    :meth:`~cognimem.providers.onnx_models.LazySession.run_batches`).

    ``model_path`` points at another copy of the model; it is still checked against the
    pinned sha256 unless ``expected_sha256=None`` is passed explicitly.
    """

    def __init__(
        self,
        model: OnnxModel,
        model_path: str | os.PathLike[str] | None,
        expected_sha256: str | Pinned | None,
        batch_size: int,
        threads: int | None,
    ) -> None:
        if batch_size < 1:
            raise UsageError(f"batch_size must be >= 1, got {batch_size}")
        self.model = model
        self.batch_size = batch_size
        self._loader = LazySession(model, model_path, expected_sha256, threads)

    @property
    def model_id(self) -> str:
        return self.model.model_id

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory: from its first use until ``aclose``."""
        return self._loader.loaded

    async def aclose(self) -> None:
        """Drops the model; its next use loads it again."""
        self._loader.drop()

    def _run_batches(
        self, encodings: Sequence[Any], run: Callable[[list[Any]], R]
    ) -> list[tuple[list[int], R]]:
        """``run`` of each batch of ``encodings``, with the positions the batch holds."""
        return self._loader.run_batches(
            length_batches(
                [len(e.ids) for e in encodings], self.model.rows_per_run(self.batch_size)
            ),
            lambda chunk: run([encodings[i] for i in chunk]),
        )
