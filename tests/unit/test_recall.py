"""Pure read-path logic: query terms, fusion, budgeting, presets."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from cognimem.errors import InvalidInput
from cognimem.models import MemoryItem, Scope
from cognimem.recall.analyze import query_terms
from cognimem.recall.assemble import Signals, assemble
from cognimem.recall.fuse import fuse
from cognimem.recall.presets import RecallConfig, get_preset
from cognimem.store.types import Candidate

T = datetime(2024, 5, 1, tzinfo=UTC)


def test_query_terms_drop_function_words_and_possessives() -> None:
    assert query_terms("When did Claire's sister go to the chess club meetup?") == [
        "claire",
        "sister",
        "go",
        "chess",
        "club",
        "meetup",
    ]
    assert query_terms("What is it?") == []
    # duplicates collapse, numbers stay, "again" is a function word
    assert query_terms("In 2022 she ran 5 km, ran again") == ["2022", "ran", "5", "km"]


def test_weighted_fusion_min_max_scales_each_list() -> None:
    config = RecallConfig(name="t", lexical_weight=0.6, vector_weight=0.4)
    lexical = [Candidate("a", 12.0), Candidate("b", 6.0), Candidate("c", 2.0)]
    vector = [Candidate("c", 0.9), Candidate("d", 0.5), Candidate("a", 0.1)]
    ranked = fuse({"lexical": lexical, "vector": vector}, config)
    scores = {i: s for i, s, _ in ranked}
    assert scores["a"] == pytest.approx(0.6)  # top lexical, bottom vector
    assert scores["c"] == pytest.approx(0.4)  # bottom lexical, top vector
    assert scores["b"] == pytest.approx(0.6 * 0.4)
    assert scores["d"] == pytest.approx(0.4 * 0.5)
    assert [i for i, _, _ in ranked] == ["a", "c", "b", "d"]
    signals = {i: sig for i, _, sig in ranked}
    assert signals["a"] == {"lexical": 12.0, "vector": 0.1}


def test_rrf_fusion_and_single_lists() -> None:
    config = RecallConfig(name="t", fusion="rrf", rrf_k=60)
    ranked = fuse(
        {"lexical": [Candidate("a", 5), Candidate("b", 1)], "vector": [Candidate("b", 0.9)]}, config
    )
    assert [i for i, _, _ in ranked] == ["b", "a"]
    only = fuse({"lexical": [Candidate("x", 3.0)]}, RecallConfig(name="t"))
    assert [(i, s) for i, s, _ in only] == [("x", pytest.approx(0.6))]
    assert fuse({"lexical": [], "vector": []}, RecallConfig(name="t")) == []


def _item(i: int, n_words: int) -> MemoryItem:
    return MemoryItem(
        id=f"m{i}",
        scope=Scope(),
        text=" ".join(["w"] * n_words),
        occurred_at=T,
        recorded_at=T,
        token_count=n_words,
    )


def words(text: str) -> int:
    return len(text.split())


def test_assemble_counts_rendered_lines_and_keeps_rank_order() -> None:
    # a rendered line costs the item's words + 3 ("-", date, time), the header 2
    # ("##", "Memory")
    ranked = [
        (_item(1, 50), 0.9, {}),
        (_item(2, 80), 0.8, {}),
        (_item(3, 30), 0.7, {}),
        (_item(4, 10), 0.6, {}),
    ]
    chosen, used, truncated, dropped = assemble(
        ranked, limit=10, max_tokens=104, count_tokens=words
    )
    assert [c.id for c in chosen] == ["m1", "m3", "m4"]  # m2 does not fit, smaller ones do
    assert used == 2 + 53 + 33 + 13
    assert truncated
    assert dropped == {"m2": "dropped: over the token budget"}
    chosen, used, truncated, dropped = assemble(
        ranked, limit=2, max_tokens=1000, count_tokens=words
    )
    assert [c.id for c in chosen] == ["m1", "m2"]
    assert not truncated
    assert set(dropped) == {"m3", "m4"}


def test_presets_are_named_and_unknown_ones_fail_clearly() -> None:
    assert get_preset("balanced").lexical
    assert get_preset("balanced").vector
    assert not get_preset("lexical").vector
    assert not get_preset("vector").lexical
    with pytest.raises(InvalidInput, match="balanced"):
        get_preset("nope")


def test_assemble_makes_signals_only_for_the_items_it_packs() -> None:
    made: list[str] = []

    def signals_of(item_id: str, value: float) -> Callable[[], dict[str, float]]:
        def make() -> dict[str, float]:
            made.append(item_id)
            return {"semantic": value}

        return make

    ranked: list[tuple[MemoryItem, float, Signals]] = [
        (_item(1, 50), 0.9, signals_of("m1", 0.91234567)),
        (_item(2, 80), 0.8, signals_of("m2", 0.8)),  # over the budget
        (_item(3, 30), 0.7, {"semantic": 0.7}),  # a dict as before
        (_item(4, 10), 0.6, signals_of("m4", 0.6)),  # below the limit
    ]
    chosen, _, truncated, dropped = assemble(ranked, limit=2, max_tokens=104, count_tokens=words)
    assert [c.id for c in chosen] == ["m1", "m3"]
    assert [c.signals for c in chosen] == [{"semantic": 0.912346}, {"semantic": 0.7}]
    assert truncated
    assert dropped == {
        "m2": "dropped: over the token budget",
        "m4": "dropped: below the limit",
    }
    # m2 was built to be measured (its line's cost), m4 never was
    assert made == ["m1", "m2"]
