"""Ranking overrides: which fields they cover, how they merge over a preset, how the
command line and the environment spell them."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from cognimem.config import Settings
from cognimem.errors import InvalidInput
from cognimem.recall.overrides import (
    HalfLifeOverrides,
    RankingOverrides,
    RerankOverrides,
    apply_ranking,
    assignments,
)
from cognimem.recall.presets import HalfLives, RecallConfig, RerankWeights, get_preset


@pytest.mark.parametrize(
    ("partial", "whole"),
    [(RerankOverrides, RerankWeights), (HalfLifeOverrides, HalfLives)],
)
def test_a_group_override_covers_every_field_of_its_group(
    partial: type[BaseModel], whole: type[BaseModel]
) -> None:
    assert list(partial.model_fields) == list(whole.model_fields)


def test_the_ranking_overrides_are_ranking_fields_of_the_config_and_nothing_else() -> None:
    exposed = set(RankingOverrides.model_fields)
    assert exposed <= set(RecallConfig.model_fields)
    # which steps run, how deep and how long: the preset's and the operator's
    assert not exposed & {
        "name", "lexical", "vector", "graph", "sections", "skip_if_found", "time_filter",
        "candidates", "step_timeout_s", "budget_s",
    }  # fmt: skip


def test_overrides_merge_in_order_over_the_preset_group_by_group() -> None:
    base = get_preset("precise")
    settings = RankingOverrides(mmr_lambda=0.9, rerank=RerankOverrides(graph=0.5, fact=0.0))
    read = RankingOverrides(rerank=RerankOverrides(fact=0.2), half_lives={"episode": 7.0})
    config = apply_ranking(base, settings, None, read)
    assert config.mmr_lambda == 0.9  # the settings' over precise's 0.7
    assert config.episode_floor == base.episode_floor  # nobody set it
    assert (config.rerank.graph, config.rerank.fact) == (0.5, 0.2)  # the read's wins
    assert config.rerank.relevance == base.rerank.relevance
    assert config.half_lives.episode == 7.0
    assert config.half_lives.fact == base.half_lives.fact
    assert config.name == "precise"
    assert apply_ranking(base, RankingOverrides(), None) is base


@pytest.mark.parametrize(
    "data",
    [
        {"mmr_lambda": "0.8"},  # text, even when it reads as a number
        {"rerank": {"graph": True}},
        {"rerank": {"graph": 101}},  # past any use: signals are in [0, 1]
        {"rrf_k": 0},
        {"rrf_k": 60.5},  # not an integer
        {"rrf_k": True},
        {"min_similarity": -1.5},
        {"candidates": 10},
    ],
)
def test_overrides_take_numbers_within_the_configs_bounds(data: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        RankingOverrides.model_validate(data)


def test_an_integral_json_number_is_an_integer() -> None:
    # JSON Schema's "integer" takes 1412.0; the API's schema says integer
    assert RankingOverrides.model_validate({"rrf_k": 1412.0}).rrf_k == 1412


def test_command_line_assignments_nest_on_dots_and_parse_json_values() -> None:
    pairs = ["rerank.graph=0.2", "rerank.fact=0", "fusion=rrf", "mmr_lambda = 0.8"]
    parsed = assignments(pairs)
    assert parsed == {"rerank": {"graph": 0.2, "fact": 0}, "fusion": "rrf", "mmr_lambda": 0.8}
    assert RankingOverrides.model_validate(parsed).rerank.graph == 0.2
    for bad in ("mmr_lambda", "=0.2", "rerank..graph=1"):
        with pytest.raises(InvalidInput) as refused:
            assignments([bad], "rank")
        assert refused.value.field == "rank"
    with pytest.raises(InvalidInput):
        assignments(["rerank=1", "rerank.graph=0.2"])


def test_the_environment_sets_the_deployments_ranking_as_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COGNIMEM_RECALL__RANKING__MMR_LAMBDA", "0.8")
    monkeypatch.setenv("COGNIMEM_RECALL__RANKING__RERANK__GRAPH", "0")
    monkeypatch.setenv("COGNIMEM_RECALL__RANKING__RRF_K", "30")
    monkeypatch.setenv("COGNIMEM_RECALL__RANKING__FUSION", "rrf")
    ranking = Settings().recall.ranking
    assert ranking.changes() == {
        "mmr_lambda": 0.8,
        "rerank": {"graph": 0.0},
        "rrf_k": 30,
        "fusion": "rrf",
    }
    monkeypatch.setenv("COGNIMEM_RECALL__RANKING__MMR_LAMBDA", "most")
    with pytest.raises(ValidationError, match=r"recall\.ranking\.mmr_lambda"):
        Settings()
