"""The optional cross-encoder stage: reread the query with each of the best ranked
memories and blend the cross-encoder's relevance probability into their scores. Its
model ships in an extra (``bge``): :func:`missing_install` says whether a config's
stage can run here, so a read that needs it is refused before it starts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cognimem.models.items import index_text
from cognimem.providers.cross_encoder import CrossEncoder, build_cross_encoder
from cognimem.providers.onnx_models import CROSS_ENCODERS
from cognimem.recall.presets import RecallConfig
from cognimem.recall.rerank import Ranked


async def cross_rerank(
    ranked: Sequence[Ranked],
    query: str,
    encoder: CrossEncoder,
    top: int,
    weight: float,
    max_tokens: int | None = None,
) -> list[Ranked]:
    """``ranked`` (best first) with the first ``top`` rescored as
    ``best * ((1 - weight) * score / best + weight * p)``, where ``best`` is the first
    score and ``p`` the cross-encoder's probability, and everything sorted again (ties
    by id). Each memory is read as it is indexed (``"<author>: <text>"``: questions
    name the speaker), each pair cut to ``max_tokens`` word pieces. ``p`` is added to
    the rescored memories' signals as ``cross_encoder``."""
    head = list(ranked[:top])
    if not head:
        return []
    passages = [index_text(r.item.author, r.item.text) for r in head]
    probabilities = await encoder.score(query, passages, max_tokens=max_tokens)
    best = head[0].score if head[0].score > 0 else 1.0
    rescored = [
        replace(
            r,
            score=best * ((1 - weight) * r.score / best + weight * float(p)),
            signals={**r.signals, "cross_encoder": round(float(p), 4)},
        )
        for r, p in zip(head, probabilities, strict=True)
    ]
    out = [*rescored, *ranked[top:]]
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out


def missing_install(config: RecallConfig) -> str | None:
    """The command that installs the cross-encoder ``config`` names when this machine
    lacks it (``pip install 'cognimem[bge]'``), else None (none named, or installed)."""
    if config.cross_encoder is None:
        return None
    model = CROSS_ENCODERS[config.cross_encoder]
    return None if model.installed() else model.install


class CrossEncoders:
    """The cross-encoders a reader's configs name, each built on first use and kept."""

    def __init__(self) -> None:
        self._built: dict[str, CrossEncoder] = {}

    def get(self, name: str) -> CrossEncoder:
        if name not in self._built:
            self._built[name] = build_cross_encoder(name)
        return self._built[name]

    async def rerank(
        self, ranked: Sequence[Ranked], query: str, config: RecallConfig
    ) -> list[Ranked]:
        """:func:`cross_rerank` with the cross-encoder and settings ``config`` names."""
        assert config.cross_encoder is not None
        encoder = self.get(config.cross_encoder)
        return await cross_rerank(
            ranked,
            query,
            encoder,
            config.cross_encoder_top,
            config.cross_encoder_weight,
            config.cross_encoder_max_tokens,
        )

    async def aclose(self) -> None:
        for encoder in self._built.values():
            await encoder.aclose()


__all__ = ["CrossEncoders", "cross_rerank", "missing_install"]
