"""The ranking fields a deployment or a read may change, as data: the bounds shared with
``RecallConfig`` (``recall/presets.py``) and ``RankingOverrides``. Here, below both the
settings (``config.py``) and the read path, so the settings need not import the read
path; ``recall/overrides.py`` merges them over a preset and says why these fields."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Fusion = Literal["weighted", "rrf"]
# the bounds, once for the config (recall/presets.py) and its overrides. Signals are
# in [0, 1], so a weight past 100 buys nothing but a score that overflows
Weight = Annotated[float, Field(ge=0, le=100)]
Share = Annotated[float, Field(ge=0, le=1)]
Days = Annotated[float, Field(gt=0, le=1_000_000)]
Cosine = Annotated[float, Field(ge=-1, le=1)]
RrfK = Annotated[int, Field(ge=1, le=10_000)]


class _Partial(BaseModel):
    # strict: a weight is a number, never the text "0.2" or true (the HTTP schema says so)
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class RerankOverrides(_Partial):
    """Any of ``RerankWeights``; the ones left out keep the preset's."""

    relevance: Weight | None = None
    graph: Weight | None = None
    fact: Weight | None = None
    entity: Weight | None = None
    dated: Weight | None = None
    recency: Weight | None = None
    importance: Weight | None = None
    novelty: Weight | None = None
    reinforcement: Weight | None = None
    confidence: Weight | None = None
    utility: Weight | None = None
    answer: Weight | None = None
    session: Weight | None = None


class HalfLifeOverrides(_Partial):
    """Any of ``HalfLives`` (days); the ones left out keep the preset's."""

    episode: Days | None = None
    summary: Days | None = None
    preference: Days | None = None
    fact: Days | None = None
    procedure: Days | None = None
    stable: Days | None = None
    confidence: Days | None = None


class RankingOverrides(_Partial):
    """The ranking fields of a ``RecallConfig`` a deployment or a read may change (see the
    module's docstring for why these and no others). Unset fields keep the preset's."""

    fusion: Fusion | None = None
    lexical_weight: Weight | None = None
    vector_weight: Weight | None = None
    rrf_k: RrfK | None = None
    request_vector_share: Share | None = None
    rerank: RerankOverrides = Field(default_factory=RerankOverrides)
    half_lives: HalfLifeOverrides = Field(default_factory=HalfLifeOverrides)
    mmr_lambda: Share | None = None
    episode_floor: Share | None = None
    min_similarity: Cosine | None = None
    speaker_focus: Weight | None = None

    @field_validator("rrf_k", mode="before")
    @classmethod
    def _integral(cls, value: object) -> object:
        """JSON has one number type: ``60.0`` is the integer 60 (as JSON Schema's
        ``integer`` says); ``60.5`` stays an error."""
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    def changes(self) -> dict[str, Any]:
        """The fields set, nested groups only with their set fields."""
        return {k: v for k, v in self.model_dump(exclude_none=True).items() if v != {}}
