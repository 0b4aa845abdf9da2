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
    if not candidates:
        return {}
    low = min(c.score for c in candidates)
    high = max(c.score for c in candidates)
    if high <= low:
        return {c.item_id: 1.0 for c in candidates}
    return {c.item_id: (c.score - low) / (high - low) for c in candidates}


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
    scores: dict[str, float] = {}
    raw: list[dict[str, float]] = []
    for method, candidates in lists.items():
        weight = weights.get(method, 1.0)
        if config.fusion == "rrf":
            parts = {c.item_id: 1.0 / (config.rrf_k + rank) for rank, c in enumerate(candidates, 1)}
        else:
            parts = {i: weight * s for i, s in _normalised(candidates).items()}
        raw.append({c.item_id: c.score for c in candidates})
        for item_id, part in parts.items():
            scores[item_id] = scores.get(item_id, 0.0) + part
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
