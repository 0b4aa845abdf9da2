"""A state fact's half-life fits what it says (``models/state_span.py``,
``models/fact_decay.py``): a lasting condition of the person decays as an attribute, a
passing state — said with a period, a present-moment marker, or as an episode — fast."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cognimem.models import Scope
from cognimem.models.fact_decay import (
    FACT_HALF_LIVES,
    LASTING_STATE_HALF_LIFE,
    half_life,
    is_aging,
)
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.models.state_span import is_lasting_state, lasting_in_text

T0 = datetime(2024, 1, 1, tzinfo=UTC)
SCOPE = Scope(tenant_id="t", user_id="u")
SET = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "state_spans.jsonl"


def state(
    text: str, valid_to: datetime | None = None, category: FactCategory = FactCategory.STATE
) -> Fact:
    return Fact(
        id="f", scope=SCOPE, key="k", subject="user", predicate="health", category=category,
        value="v", text=text, last_validated_at=T0, recorded_at=T0, valid_to=valid_to,
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "I'm red-green colorblind.",
        "I have glaucoma.",
        "My husband has Parkinson's.",
        "I've always hated crowds, they drain me.",
        "I'm gluten intolerant.",
        "I've had a weak ankle since I was twelve.",
        "I'm diabetic, so dessert is rare for me.",
        "I suffer from hay fever every spring.",
    ],
)
def test_a_condition_of_the_person_lasts(text: str) -> None:
    assert lasting_in_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "I have a headache.",
        "I've got the chills.",
        "I'm diabetic, and my sugar is low right now.",  # a passing marker wins
        "I'm gluten intolerant this month while the doctor tests me.",
        "My wrist is in a cast for three weeks.",
        "I'm waiting on test results.",
        "I just sprained my thumb.",
        "I'm worn out.",  # nothing says it lasts: the short half-life is the default
    ],
)
def test_a_passing_state_does_not(text: str) -> None:
    assert not lasting_in_text(text)


def test_a_period_that_ends_after_it_was_said_bounds_it() -> None:
    assert is_lasting_state("I have asthma.", T0, None)
    assert is_lasting_state("I have asthma.", T0, T0 - timedelta(days=1))  # an earlier event
    assert not is_lasting_state("I have asthma.", T0, T0 + timedelta(days=14))


def test_the_half_life_of_a_state_follows_what_it_says() -> None:
    lasting, passing = state("I have glaucoma."), state("I have a headache.")
    assert half_life(lasting) == LASTING_STATE_HALF_LIFE == FACT_HALF_LIVES[FactCategory.ATTRIBUTE]
    assert half_life(passing) == FACT_HALF_LIVES[FactCategory.STATE]
    half_year = T0 + timedelta(days=180)
    assert is_aging(passing, half_year)
    assert not is_aging(lasting, half_year)
    bounded = state("I have glaucoma.", valid_to=T0 + timedelta(days=7))
    assert is_aging(bounded, half_year)
    # only a state: another category keeps its own half-life whatever its text
    goal = state("I've always wanted to run a marathon.", category=FactCategory.GOAL)
    assert half_life(goal) == FACT_HALF_LIVES[FactCategory.GOAL]


def test_the_tune_half_of_the_state_set() -> None:
    rows = [json.loads(line) for line in SET.read_text().splitlines()]
    tune = [r for r in rows if r["split"] == "tune"]
    assert len(tune) == 30
    wrong = [r["text"] for r in tune if lasting_in_text(r["text"]) != (r["label"] == "lasting")]
    assert wrong == []
