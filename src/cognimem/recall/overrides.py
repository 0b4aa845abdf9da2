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

from pydantic import ValidationError

from cognimem.errors import InvalidInput
from cognimem.models.arguments import invalid_input
from cognimem.models.ranking import HalfLifeOverrides, RankingOverrides, RerankOverrides
from cognimem.recall.presets import RecallConfig

__all__ = [
    "HalfLifeOverrides",
    "RankingOverrides",
    "RerankOverrides",
    "apply_ranking",
    "assignments",
    "make_ranking",
    "merged",
]


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
