"""Which constraints a request is routed to: a decision gets the constraints nearest to
it in meaning even when they share no word, tag or 0.25 of cosine with it; other
requests keep the floors."""

from __future__ import annotations

import numpy as np
import pytest

from cognimem.models.knowledge import FactCategory
from cognimem.recall.analyze import classify
from cognimem.recall.constraints import QueryView, SectionConfig, pick_constraints
from cognimem.store.types import FactRows

CONFIG = SectionConfig()


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def rows(*cosines: float) -> FactRows:
    """One constraint per cosine, its vector that close to the query (1, 0, 0)."""
    matrix = np.stack([unit(c, float(np.sqrt(1 - c * c)), 0.0) for c in cosines])
    n = len(cosines)
    return FactRows(
        ids=[f"f{i}" for i in range(n)],
        categories=[FactCategory.STATE.value] * n,
        scope_tags=[[] for _ in range(n)],
        words=[frozenset({f"word{i}"}) for i in range(n)],
        matrix=matrix,
    )


def view(decision: bool) -> QueryView:
    return QueryView(
        terms=frozenset({"plan"}), domains=frozenset(), decision=decision, vector=unit(1, 0, 0)
    )


def picked(decision: bool, *cosines: float, light: bool = False) -> list[str]:
    found = pick_constraints(view(decision), rows(*cosines), CONFIG, light=light)
    return sorted(p.fact_id for p in found)


def test_a_decision_gets_the_nearest_constraint_below_the_floor() -> None:
    # 0.2 is under the 0.25 floor but stands out from the user's other constraints
    assert picked(True, 0.2, 0.05, 0.02, 0.0, 0.03, 0.04, 0.01) == ["f0"]


def test_a_nearest_that_does_not_stand_out_stays_out() -> None:
    # the least unrelated of five alike is not relevant
    assert picked(True, 0.2, 0.19, 0.18, 0.2, 0.19) == []


def test_a_constraint_far_in_meaning_stays_out_even_for_a_decision() -> None:
    assert picked(True, 0.12, 0.0, -0.05, 0.01, 0.02) == []


def test_a_request_that_is_no_decision_keeps_the_floor() -> None:
    assert picked(False, 0.2, 0.05, 0.02, 0.0, 0.3) == ["f4"]
    assert picked(True, 0.2, 0.05, 0.02, 0.0, light=True) == []


def test_a_request_to_act_for_the_user_is_decision_like() -> None:
    for request in (
        "Find me a hotel near the station.",
        "Set up a call with the team for tomorrow.",
        "How should I handle the review?",
        "Could you draft a note to my landlord?",
    ):
        assert classify(request).decision, request
    assert not classify("When did Vivian find her new hobby?").decision


def test_asking_how_to_do_something_oneself_is_decision_like() -> None:
    for request in (
        "How can I get rid of the slugs in my lettuce?",
        "How do we get to the stadium from the hotel?",
        "What could I cook for ten people?",
    ):
        assert classify(request).decision, request
    for question in ("How did Vivian get to the lake?", "How does Rosa feel about it?"):
        assert not classify(question).decision, question


def test_a_recommendation_in_other_words_is_decision_like() -> None:
    for request in (
        "What's a good place for brunch near the river?",
        "Is the new camera worth buying?",
        "Is a standing desk right for me?",
        "What wine goes with grilled salmon?",
        "My shoulder aches after swimming, what would help?",
        "What's the fastest way to the harbour?",
        "Which winter coat should my daughter get?",
        "How can my partner get better sleep?",
        "Could you list a few bakeries open on Sunday?",
        "Set a reminder to water the plants on Friday.",
        "Fill in this visa form for me.",
        "Any podcasts to try on the drive?",
    ):
        assert classify(request).decision, request
    for question in (
        "Which song did Rosa play at the party?",
        "Which film inspires Omar to keep dancing?",
        "What was worthwhile about the trip for Omar?",
        "What did Felix cook for the family dinner?",
        "Any news from the garage?",
    ):
        assert not classify(question).decision, question


def test_a_category_mask_is_computed_once_and_cannot_be_changed() -> None:
    facts = rows(0.9, 0.2)
    facts.categories[1] = FactCategory.PREFERENCE.value
    wanted = frozenset({FactCategory.STATE.value})
    first = facts.in_categories(wanted)
    assert first.tolist() == [True, False]
    assert facts.in_categories(wanted) is first  # the cached FactRows serves many reads
    assert facts.in_categories(frozenset({FactCategory.PREFERENCE.value})).tolist() == [
        False,
        True,
    ]
    with pytest.raises(ValueError, match="read-only"):
        first[0] = False


def test_a_tie_goes_to_the_rule_then_to_the_older_never_to_the_id() -> None:
    # one sentence gives a rule and its cause with one vector: their scores tie, and the
    # ids' random tails ("fct_<time><random>") once chose between them, run to run
    matrix = np.stack([unit(0.3, 0.95, 0.0)] * 3)
    tied = FactRows(
        ids=["fct_b", "fct_a", "fct_c"],
        categories=[
            FactCategory.STATE.value,
            FactCategory.CAUSAL.value,
            FactCategory.POLICY.value,
        ],
        scope_tags=[[] for _ in range(3)],
        words=[frozenset({"word"}) for _ in range(3)],
        matrix=matrix,
    )
    found = pick_constraints(view(True), tied, CONFIG)  # the rows are newest first
    assert [p.fact_id for p in found] == ["fct_c", "fct_a", "fct_b"]
    swapped = FactRows(
        ids=["fct_y", "fct_z", "fct_x"],
        categories=tied.categories,
        scope_tags=tied.scope_tags,
        words=tied.words,
        matrix=matrix,
    )
    assert [p.fact_id for p in pick_constraints(view(True), swapped, CONFIG)] == [
        "fct_x",
        "fct_z",
        "fct_y",
    ]  # by id: x, y, z
