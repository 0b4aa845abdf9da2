"""The write gate's importance and novelty (``ingest/scoring.py``), pure."""

from __future__ import annotations

import pytest

from cognimem.ingest.scoring import CONSTRAINT_FLOOR, content_score, novelty, write_importance
from cognimem.models.knowledge import FactCategory


def test_small_talk_scores_below_questions_below_statements() -> None:
    assert content_score("haha yeah") == content_score("ok cool, thanks!") == 0.1
    question = content_score("What should we cook tonight?")
    statement = content_score("We cooked a Thai curry for 6 friends tonight")
    assert 0.1 < question < statement <= 0.85
    assert content_score("") == 0.1


def test_importance_blends_the_profile_and_the_text() -> None:
    chatter = write_importance("haha yeah", 0.5)
    plans = write_importance("I'm flying to Lisbon on 3 May with my sister Ana", 0.5)
    assert chatter == pytest.approx((0.5 + 0.1) / 2)
    assert chatter < plans < 0.7
    # a mandate's profile is the caller's word, whatever the text
    assert write_importance("ok", 1.0) == 1.0


def test_facts_raise_it_and_a_constraint_never_falls_below_the_floor() -> None:
    assert write_importance("haha yeah", 0.5, fact_importance=0.75) == 0.75
    allergy = write_importance("peanuts, no", 0.5, categories=[FactCategory.POLICY])
    assert allergy == CONSTRAINT_FLOOR
    # even when an LLM judges it trivial
    judged = write_importance("peanuts", 0.5, judged=0.05, categories=[FactCategory.GOAL])
    assert judged == CONSTRAINT_FLOOR


def test_an_llms_judgement_replaces_the_texts_look() -> None:
    assert write_importance("the meeting moved", 0.5, judged=0.95) == 0.95
    long_but_trivial = "The board approved the merger with Initech for 4 million dollars today"
    assert write_importance(long_but_trivial, 0.5, judged=0.05) == pytest.approx(0.275)
    assert write_importance(long_but_trivial, 0.5) > 0.5


def test_novelty_is_one_minus_the_nearest_similarity() -> None:
    assert novelty(None) == 1.0
    assert novelty(0.97) == pytest.approx(0.03)
    assert novelty(-0.2) == 1.0
    assert novelty(1.2) == 0.0
