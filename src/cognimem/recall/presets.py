"""Retrieval behaviour as data: a typed config with named presets."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cognimem.errors import InvalidInput

Fusion = Literal["weighted", "rrf"]


class RerankWeights(BaseModel):
    """How much each signal adds to an item's final score (``recall/rerank.py``).

    ``relevance`` is the fused lexical + vector score (scaled to [0, 1]); the others are
    each in [0, 1] too. Chosen on the LoCoMo dev set (``benchmarks/tune_rerank.py``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    relevance: float = Field(default=1.0, ge=0)
    graph: float = Field(default=0.1, ge=0)
    fact: float = Field(default=0.3, ge=0)
    entity: float = Field(default=0.0, ge=0)
    recency: float = Field(default=0.0, ge=0)
    importance: float = Field(default=0.0, ge=0)
    reinforcement: float = Field(default=0.0, ge=0)
    confidence: float = Field(default=0.0, ge=0)
    utility: float = Field(default=0.0, ge=0)


class HalfLives(BaseModel):
    """Days for a memory's recency signal to halve, by kind: stable constraints and
    identity barely decay, episodes do."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episode: float = Field(default=30.0, gt=0)
    summary: float = Field(default=90.0, gt=0)
    preference: float = Field(default=365.0, gt=0)
    fact: float = Field(default=730.0, gt=0)
    procedure: float = Field(default=365.0, gt=0)
    stable: float = Field(default=3650.0, gt=0)  # constraints, mandates, guardrails
    confidence: float = Field(default=180.0, gt=0)  # passive decay since last validation


class RecallConfig(BaseModel):
    """How a read finds, ranks and packs candidates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    lexical: bool = True
    vector: bool = True
    graph: bool = True  # personalized PageRank from the entities the query names
    fusion: Fusion = "weighted"
    # weights and depth chosen on the LoCoMo dev set (benchmarks/tune_fusion.py)
    lexical_weight: float = Field(default=0.6, ge=0)
    vector_weight: float = Field(default=0.4, ge=0)
    rrf_k: int = Field(default=60, ge=1)
    candidates: int = Field(default=100, ge=1, le=1000)
    step_timeout_s: float = Field(default=2.0, gt=0)
    budget_s: float = Field(default=4.0, gt=0)  # the whole plan, every group together
    # the sections: constraints, facts, mandates, summaries, procedures, conflicts (the
    # plain single-method presets leave them out, as baselines)
    sections: bool = True
    # "fast": ask the exact-key fact lookup and lexical search first and skip the
    # vector search when they found something
    skip_if_found: bool = False
    # a query that names a period ("last week", "in May") reads only that period
    time_filter: bool = True
    rerank: RerankWeights = Field(default_factory=RerankWeights)
    half_lives: HalfLives = Field(default_factory=HalfLives)
    # MMR: 1.0 ranks by score alone; lower trades score for novelty (token-set overlap)
    mmr_lambda: float = Field(default=1.0, ge=0, le=1)
    # a memory said by the person the query asks about scores this much more, and a
    # query about two people ("X and Y") ranks each one's memories in turn
    # (recall/focus.py); 0 turns it off
    speaker_focus: float = Field(default=0.2, ge=0)
    # ranked memories scoring below this share of the best one are dropped, not padded in
    episode_floor: float = Field(default=0.0, ge=0, le=1)
    # a ranked memory that shares no content word or domain with the query, is not the
    # evidence of a fact or graph hit, and whose embedding is below this cosine of the
    # query's has no evidence for it and is dropped (recall/evidence.py); -1 keeps every
    # memory. Cosine of the default local embedder (MiniLM): LoCoMo dev conversations 26
    # and 30 are flat from 0.2 to 0.3 (checked on 41-43, benchmarks/results/
    # locomo_dev.md); the lowest of those keeps the most cues on benchmarks/cue_trigger.py
    # (0.3 / 0.25 / 0.2 / 0.15: 0.33 / 0.44 / 0.53 / 0.66 of cues) while unrelated
    # questions still find nothing; re-check it for another model
    min_similarity: float = Field(default=0.2, ge=-1, le=1)


PRESETS: dict[str, RecallConfig] = {
    "balanced": RecallConfig(name="balanced"),
    # fewer, surer memories: a relevance floor and diversity
    "precise": RecallConfig(name="precise", episode_floor=0.35, mmr_lambda=0.7),
    # the cheapest steps first; the vector search only when they found nothing
    "fast": RecallConfig(name="fast", graph=False, skip_if_found=True, candidates=50),
    "lexical": RecallConfig(
        name="lexical", vector=False, graph=False, sections=False, speaker_focus=0.0
    ),
    "vector": RecallConfig(
        name="vector", lexical=False, graph=False, sections=False, speaker_focus=0.0
    ),
    "rrf": RecallConfig(name="rrf", fusion="rrf"),
}


def get_preset(
    name: str, *, step_timeout_s: float | None = None, budget_s: float | None = None
) -> RecallConfig:
    """The preset called ``name``. ``step_timeout_s`` and ``budget_s``, when given,
    replace its time limits (the operator's ``COGNIMEM_RECALL__STEP_TIMEOUT_S`` and
    ``__BUDGET_S``: a slow embedder or a busy machine needs longer than the presets')."""
    try:
        config = PRESETS[name]
    except KeyError:
        raise InvalidInput(
            f"unknown recall preset {name!r}; choose one of {', '.join(sorted(PRESETS))}",
            field="preset",
        ) from None
    limits = {"step_timeout_s": step_timeout_s, "budget_s": budget_s}
    given = {k: v for k, v in limits.items() if v is not None}
    return config.model_validate({**config.model_dump(), **given}) if given else config
