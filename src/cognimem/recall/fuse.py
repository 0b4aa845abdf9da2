"""Fusion of candidate lists from several retrieval methods (pure functions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cognimem.recall.presets import RecallConfig
from cognimem.store.types import Candidate


def _normalised(candidates: Sequence[Candidate]) -> dict[str, float]:
    """Min-max scale a list's scores to [0, 1] (a single candidate gets 1).

    Measured on the LoCoMo dev set against scaling by the best score and against raw
    cosine: min-max of both lists fuses best (benchmarks/tune_fusion.py).
    """
    ids = [c.item_id for c in candidates]
    return _weighted(ids, [c.score for c in candidates], 1.0)


def _weighted(ids: list[str], scores: list[float], weight: float) -> dict[str, float]:
    """``weight`` times each min-max scaled score (``_normalised``) by id, in the
    list's order (an id named twice: the later score)."""
    if not ids:
        return {}
    low = min(scores)
    high = max(scores)
    if high <= low:
        return dict.fromkeys(ids, weight * 1.0)
    span = high - low
    return dict(zip(ids, [weight * ((s - low) / span) for s in scores], strict=True))


def for_request(config: RecallConfig, personal_decision: bool) -> RecallConfig:
    """``config`` with its fusion weights shifted to ``request_vector_share`` for a
    decision-like request in the first or second person (their sum kept)."""
    share = config.request_vector_share
    if not personal_decision or share is None or config.fusion != "weighted":
        return config
    total = config.lexical_weight + config.vector_weight
    return config.model_copy(
        update={"lexical_weight": total * (1 - share), "vector_weight": total * share}
    )


def fused_scores(
    lists: Mapping[str, Sequence[Candidate]], config: RecallConfig
) -> tuple[dict[str, float], list[dict[str, float]]]:
    """The fused score of every item the lists found (in the order they first found
    them), and each list's raw scores by item id (a list naming an item twice: the
    later score), in the lists' order: what :func:`fuse` ranks, without the ranking."""
    weights = {"lexical": config.lexical_weight, "vector": config.vector_weight}
    rrf = config.fusion == "rrf"
    scores: dict[str, float] = {}
    raw: list[dict[str, float]] = []
    for method, candidates in lists.items():
        ids = [c.item_id for c in candidates]
        found = [c.score for c in candidates]
        if rrf:
            k = config.rrf_k
            ranks = range(1, len(ids) + 1)
            parts = dict(zip(ids, [1.0 / (k + rank) for rank in ranks], strict=True))
        else:
            parts = _weighted(ids, found, weights.get(method, 1.0))
        raw.append(dict(zip(ids, found, strict=True)))
        get = scores.get
        for item_id, part in parts.items():
            scores[item_id] = get(item_id, 0.0) + part
    return scores, raw


def fuse(
    lists: Mapping[str, Sequence[Candidate]], config: RecallConfig
) -> list[tuple[str, float, dict[str, float]]]:
    """Combine per-method lists into one ranking: ``(item_id, score, signals)``, best first.

    ``weighted``: each method's scores are min-max scaled and summed with the
    preset's weights. ``rrf``: reciprocal-rank fusion, ``sum 1 / (k + rank)``.
    """
    scores, raw = fused_scores(lists, config)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(item_id, score, signals_of(item_id, lists, raw)) for item_id, score in ranked]


def signals_of(
    item_id: str, lists: Mapping[str, Sequence[Candidate]], raw: list[dict[str, float]]
) -> dict[str, float]:
    """The raw score each list gave ``item_id``, keyed by the lists that found it."""
    return {method: r[item_id] for method, r in zip(lists, raw, strict=True) if item_id in r}
