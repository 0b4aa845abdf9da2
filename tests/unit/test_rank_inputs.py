"""The fused candidates with their graph and key-lookup evidence (``RankInputs``): each
evidence list scaled by its best score, the steps that found an item in the order they
ran, blank inputs for the ids only evidence found, and the shortlist's order."""

from __future__ import annotations

import pytest

from cognimem.recall.collect import rank_inputs, shortlist
from cognimem.recall.plan import StepKind
from cognimem.recall.presets import RecallConfig
from cognimem.recall.steps import StepOutput
from cognimem.store.types import Candidate


def _outputs() -> dict[StepKind, StepOutput]:
    def out(*pairs: tuple[str, float]) -> StepOutput:
        return StepOutput([Candidate(i, s) for i, s in pairs])

    return {
        StepKind.LEXICAL: out(("a", 4.0), ("b", 2.0), ("c", 0.0)),
        StepKind.VECTOR: out(("b", 0.9), ("d", 0.5)),
        # "e" and "f" only the evidence found; "e" by both lists, "a" by the graph too
        StepKind.GRAPH: out(("e", 0.2), ("a", 0.1)),
        StepKind.FACT_LOOKUP: out(("f", 0.8), ("e", 0.4)),
    }


def test_evidence_is_scaled_by_its_lists_best_and_names_its_steps() -> None:
    config = RecallConfig(name="t", lexical_weight=0.6, vector_weight=0.4)
    inputs = rank_inputs(_outputs(), config)
    top = 0.6 * 0.5 + 0.4  # "b": half the lexical list's range, the vector list's best
    a, e, f = inputs.get("a"), inputs.get("e"), inputs.get("f")
    assert a.relevance == pytest.approx(0.6 / top)
    assert (a.graph, a.fact, a.raw, a.steps) == (0.5, 0.0, {"lexical": 4.0}, ("lexical", "graph"))
    assert (e.relevance, e.graph, e.fact, e.raw) == (0.0, 1.0, 0.5, {})
    assert e.steps == ("graph", "fact_lookup")
    assert (f.relevance, f.graph, f.fact, f.steps) == (0.0, 0.0, 1.0, ("fact_lookup",))
    b = inputs.get("b")
    assert (b.relevance, b.steps) == (1.0, ("lexical", "vector"))
    assert b.raw == {"lexical": 2.0, "vector": 0.9}
    # an id no step found: a blank input, kept (the same object when asked again)
    assert inputs.get("zz") is inputs.get("zz")
    assert (inputs.get("zz").relevance, inputs.get("zz").steps) == (0.0, ())


def test_an_item_an_evidence_list_names_twice_keeps_its_best_share() -> None:
    outputs = {StepKind.GRAPH: StepOutput([Candidate("x", 0.1), Candidate("x", 0.4)])}
    x = rank_inputs(outputs, RecallConfig(name="t")).get("x")
    assert (x.graph, x.steps) == (1.0, ("graph", "graph"))


def test_the_shortlist_ranks_by_relevance_and_evidence_ties_in_fused_order() -> None:
    config = RecallConfig(name="t", lexical_weight=0.6, vector_weight=0.4)
    w = config.rerank
    inputs = rank_inputs(_outputs(), config)
    top = 0.6 * 0.5 + 0.4
    value = {
        "b": w.relevance,
        "a": w.relevance * 0.6 / top + w.graph * 0.5,
        "e": w.graph + w.fact * 0.5,
        "f": w.fact,
        "c": 0.0,  # both at the bottom of their lists: fused 0, tied; "c" before "d"
        "d": 0.0,
    }
    expected = sorted(value, key=lambda i: -value[i])
    assert shortlist(inputs, config, limit=10) == expected
    assert expected.index("c") + 1 == expected.index("d")
    # a few times the limit: the shortlist is cut at max(3 x limit, limit + 20)
    many = {StepKind.VECTOR: StepOutput([Candidate(f"v{n:02d}", n / 40) for n in range(40)])}
    cut = shortlist(rank_inputs(many, config), config, limit=5)
    assert cut == [f"v{n:02d}" for n in range(39, 14, -1)]


def test_the_shortlist_keeps_each_lists_best_few_whatever_their_fused_score() -> None:
    # a lexical list of near-equal noise (a floored-idf word alone) scaled to the full
    # lexical weight puts its items above the vector list's best three
    config = RecallConfig(name="t", lexical_weight=0.6, vector_weight=0.4)
    noise = [Candidate(f"n{n:02d}", 1e-6 * (1 + n / 100)) for n in range(40, 0, -1)]
    close = [Candidate(f"n{n:02d}", 0.86) for n in range(40, 0, -1)]
    best = [Candidate(f"v{n}", 0.9 - n / 100) for n in range(4)]
    outputs = {
        StepKind.LEXICAL: StepOutput(noise),
        StepKind.VECTOR: StepOutput([*best, *close, Candidate("far", 0.1)]),
    }
    inputs = rank_inputs(outputs, config)
    fused_order = sorted(inputs._scores, key=lambda i: -inputs._scores[i])
    assert fused_order.index("v0") >= 25  # below the cut by fused score alone
    cut = shortlist(inputs, config, limit=5)
    assert len(cut) == 25
    # the vector list's best three kept (its fourth is not), the lexical list's too
    assert {"v0", "v1", "v2"} <= set(cut)
    assert "v3" not in cut
    assert {"n40", "n39", "n38"} <= set(cut)
    # still in the shortlist's order: the kept ones where their score puts them
    assert cut[-3:] == ["v0", "v1", "v2"]
    assert cut[:22] == [i for i in fused_order if i.startswith("n")][:22]
