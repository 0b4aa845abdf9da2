"""The rerank works out its candidates' word sets only when the read uses them
(``recall/rerank.py``: ``words_needed``): MMR still diversifies, and the ``entity``
signal still counts the names a memory mentions."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.models import MemoryItem, Scope
from cognimem.recall.presets import RecallConfig, RerankWeights
from cognimem.recall.rerank import RankInput, mmr, rerank

T = datetime(2024, 5, 1, tzinfo=UTC)


def candidate(item_id: str, text: str, relevance: float) -> RankInput:
    item = MemoryItem(id=item_id, scope=Scope(), text=text, occurred_at=T, recorded_at=T)
    return RankInput(item=item, relevance=relevance)


def candidates() -> list[RankInput]:
    return [
        candidate("a", "We hiked the ridge trail above the lake at dawn", 1.0),
        candidate("b", "We hiked the ridge trail above the lake at dusk", 0.99),
        candidate("c", "Mira adopted a grey kitten from the shelter", 0.9),
    ]


def test_mmr_still_sets_a_near_duplicate_below_something_new() -> None:
    config = RecallConfig(name="diverse", mmr_lambda=0.5)
    ranked = rerank(candidates(), config, T)
    assert [r.item.id for r in ranked] == ["a", "b", "c"]
    assert [r.item.id for r in mmr(ranked, config.mmr_lambda, 3)] == ["a", "c", "b"]


def test_a_named_entity_still_counts_without_mmr() -> None:
    config = RecallConfig(name="entities", rerank=RerankWeights(entity=1.0))
    ranked = rerank(candidates(), config, T, entity_names=["Mira"])
    assert ranked[0].item.id == "c"
    assert ranked[0].signals["entity"] == 1.0
