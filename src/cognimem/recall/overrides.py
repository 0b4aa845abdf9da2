"""Changes to a preset's ranking, per deployment (``recall.ranking`` in the settings) and
per read (``Memory.read(..., ranking=...)``): ``RankingOverrides``, merged over the preset
by :func:`apply_ranking`.

What may be changed is how the candidates a preset's steps found are scored, ordered and
cut: fusion (``fusion``, ``lexical_weight``, ``vector_weight``, ``rrf_k``), the rerank
weights, the recency half-lives, MMR (``mmr_lambda``), the relevance floor
(``episode_floor``), the evidence floor (``min_similarity``) and the speaker focus
(``speaker_focus``). Each is a pure function
over candidates already fetched, bounded in cost whatever its value: a read with any of
them reads the same rows, in the same time, inside the same scope. Left to the presets
and the operator: which steps run (``lexical``, ``vector``, ``graph``, ``sections``,
``skip_if_found``, ``time_filter`` change what is read and the packet's shape: choose a
preset), how deep they search (``candidates``) and their time limits (``step_timeout_s``,
``budget_s``): a caller must not buy a slower read for everyone sharing the server.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cognimem.errors import InvalidInput
from cognimem.models.arguments import invalid_input
from cognimem.recall.presets import Cosine, Days, Fusion, RecallConfig, RrfK, Share, Weight


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
    reinforcement: Weight | None = None
    confidence: Weight | None = None
    utility: Weight | None = None
    answer: Weight | None = None


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


def apply_ranking(config: RecallConfig, *overrides: RankingOverrides | None) -> RecallConfig:
    """``config`` with each of ``overrides`` merged over it in turn (a later one wins);
    a nested group (``rerank``, ``half_lives``) changes only the fields it sets. The
    config keeps its preset's name."""
    changes = [o.changes() for o in overrides if o is not None]
    if not any(changes):
        return config
    data = config.model_dump()
    for change in changes:
        data = merged(data, change)
    return RecallConfig.model_validate(data)


def merged(base: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` laid over it, nested mappings merged key by key."""
    out = dict(base)
    for key, value in changes.items():
        old = out.get(key)
        if isinstance(value, Mapping) and isinstance(old, Mapping):
            out[key] = merged(old, value)
        else:
            out[key] = value
    return out


def assignments(pairs: Iterable[str], field: str = "ranking") -> dict[str, Any]:
    """``["rerank.graph=0.2", "fusion=rrf"]`` as ``{"rerank": {"graph": 0.2}, "fusion":
    "rrf"}`` (command-line overrides): dots nest, a value is JSON when it parses as JSON
    and text otherwise. A pair without ``=`` is ``InvalidInput`` naming ``field``."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        path = [p.strip() for p in key.split(".")]
        if not sep or not all(path):
            raise InvalidInput(f"{field}: {pair!r} is not FIELD=VALUE", field=field)
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        target = out
        for part in path[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise InvalidInput(f"{field}: {key!r} sets a field inside a number", field=field)
        target[path[-1]] = value
    return out


def make_ranking(
    value: RankingOverrides | Mapping[str, Any] | None,
) -> RankingOverrides | None:
    """A read's ranking overrides; a bad one is ``InvalidInput`` naming the field
    (``ranking.rerank.graph``)."""
    if value is None or isinstance(value, RankingOverrides):
        return value
    try:
        return RankingOverrides.model_validate(value)
    except ValidationError as exc:
        raise invalid_input(exc, "ranking") from exc
