"""The stance reader over richer inputs of the shipped MiniLM (branch ``stance23``).

The same two logistic heads, gates and fact as ``stance_reader.StanceReader``, over
the blocks of ``stance_features`` its weights name (token states pooled other ways,
cosines of the object-masked sentence to a bank of canonical stances, hashed words)
instead of the pooled vector and words alone. The vector :meth:`read` takes is the
row of inputs itself (:meth:`inputs_for` computes it for texts), so a reader that
uses the masked block needs one more MiniLM run a message.

Weights: ``benchmarks/results/stance_reader_rich.npz``, written by
``benchmarks/train_stance_reader_rich.py`` from the tune halves only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from stance_features import TokenEmbedder, assemble, sentence_blocks
from stance_reader import StanceReader

from cognimem.errors import UsageError

__all__ = ["RICH_WEIGHTS", "RichStanceReader", "rich_reader"]

RICH_WEIGHTS = Path(__file__).resolve().parent / "results" / "stance_reader_rich.npz"


@dataclass(frozen=True)
class RichStanceReader(StanceReader):
    """Heads over the ``blocks`` of ``stance_features``; ``general`` are the words the
    object mask keeps."""

    blocks: tuple[str, ...] = ()
    general: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def load(cls, path: Path = RICH_WEIGHTS) -> RichStanceReader:
        try:
            with np.load(path) as data:
                stance, polarity = data["stance"], data["polarity"]
                threshold = float(data["threshold"])
                blocks = tuple(str(b) for b in data["blocks"])
                general = frozenset(str(w) for w in data["general"])
        except (OSError, KeyError, ValueError) as exc:
            raise UsageError(f"cannot read the stance reader's weights at {path}: {exc}") from exc
        if stance.shape != polarity.shape:
            raise UsageError(f"the stance reader's heads at {path} differ in width")
        return cls(
            stance.astype(np.float32), polarity.astype(np.float32), threshold, blocks, general
        )

    def inputs(self, vector: np.ndarray, text: str) -> np.ndarray:
        return vector

    @property
    def vector_shape(self) -> tuple[int, ...]:
        return (self.stance.shape[0] - 1,)

    def inputs_for(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Each distinct text's row of inputs."""
        distinct = list(dict.fromkeys(texts))
        rows = assemble(sentence_blocks(TokenEmbedder(), distinct, self.general), self.blocks)
        return dict(zip(distinct, rows, strict=True))


@cache
def rich_reader() -> RichStanceReader:
    """The reader of the committed rich weights (read once)."""
    return RichStanceReader.load()
