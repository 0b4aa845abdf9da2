"""Retrieval behaviour as data: a typed config with named presets."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cognimem.errors import UsageError

Fusion = Literal["weighted", "rrf"]


class RecallConfig(BaseModel):
    """How a read finds and ranks candidates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    lexical: bool = True
    vector: bool = True
    fusion: Fusion = "weighted"
    # weights and depth chosen on the LoCoMo dev set (benchmarks/tune_fusion.py)
    lexical_weight: float = Field(default=0.6, ge=0)
    vector_weight: float = Field(default=0.4, ge=0)
    rrf_k: int = Field(default=60, ge=1)
    candidates: int = Field(default=100, ge=1, le=1000)
    step_timeout_s: float = Field(default=2.0, gt=0)
    # put the relevant constraints and facts in the packet's sections (the plain
    # single-method presets leave them out, as baselines)
    sections: bool = True
    # a query that names a period ("last week", "in May") reads only that period
    time_filter: bool = True


PRESETS: dict[str, RecallConfig] = {
    "balanced": RecallConfig(name="balanced"),
    "lexical": RecallConfig(name="lexical", vector=False, sections=False),
    "vector": RecallConfig(name="vector", lexical=False, sections=False),
    "rrf": RecallConfig(name="rrf", fusion="rrf"),
}


def get_preset(name: str) -> RecallConfig:
    try:
        return PRESETS[name]
    except KeyError:
        raise UsageError(
            f"unknown recall preset {name!r}; choose one of {', '.join(sorted(PRESETS))}"
        ) from None
