"""The standing constraint profile's rules (``recall/profile.py``), on plain facts:
which constraints are one stance, which supersede which, what decays out and what a
request carries, in which order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from cognimem.models import Scope
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.recall.profile import ProfileConfig, choose, consolidate

T0 = datetime(2024, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)
CONFIG = ProfileConfig()


def fact(
    n: int,
    value: str,
    *,
    category: FactCategory = FactCategory.POLICY,
    predicate: str = "food",
    polarity: bool = True,
    said: datetime = T0,
) -> Fact:
    return Fact(
        id=f"f{n}",
        scope=Scope(user_id="u"),
        key=f"user:{category.value}:{predicate}:{n}",
        subject="user",
        predicate=predicate,
        category=category,
        value=value,
        polarity=polarity,
        text=value,
        last_validated_at=said,
        recorded_at=said,
        evidence_event_ids=[f"e{n}"],
        evidence_item_ids=[f"i{n}"],
    )


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_one_stance_in_other_words_is_one_entry_shown_as_its_newest() -> None:
    newest = fact(1, "no pork at all", said=T0 + 5 * DAY)
    older = fact(2, "pork", polarity=False)  # the same stance: against pork
    other = fact(3, "spicy food", polarity=False)
    matrix = np.vstack([unit(1, 0, 0), unit(0.95, 0.3, 0), unit(0, 0, 1)])
    profile = consolidate([newest, older, other], [0, 1, 2], matrix, CONFIG)
    assert [s.fact.id for s in profile.entries] == ["f1", "f3"]
    merged = profile.entries[0]
    assert [f.id for f in merged.paraphrases] == ["f2"]
    assert merged.event_ids() == ["e1", "e2"]
    assert profile.by_fact()["f2"] is merged


def test_an_older_opposite_stance_on_the_same_subject_is_superseded() -> None:
    newer = fact(1, "saving money", polarity=False, predicate="finance", said=T0 + DAY)
    older = fact(2, "save money", category=FactCategory.GOAL, predicate="finance")
    unrelated = fact(3, "money for charity", predicate="values")  # another predicate
    matrix = np.vstack([unit(1, 0.2, 0), unit(1, 0, 0), unit(0.9, 0, 0.3)])
    profile = consolidate([newer, older, unrelated], [0, 1, 2], matrix, CONFIG)
    assert [s.fact.id for s in profile.entries] == ["f1", "f3"]
    assert [f.id for f in profile.entries[0].supersedes] == ["f2"]


def test_stale_states_decay_out_and_binding_ones_never() -> None:
    state = fact(1, "my knee hurts", category=FactCategory.STATE, predicate="health")
    rule = fact(2, "no running on concrete", predicate="fitness")
    profile = consolidate([state, rule], [0, 1], np.vstack([unit(1, 0), unit(0, 1)]), CONFIG)
    close = np.array([0.5, 0.5])
    none = np.zeros(2, dtype=bool)
    soon = choose(profile, close, none, none, T0 + 3 * DAY, CONFIG)
    assert {e.standing.fact.id for e in soon} == {"f1", "f2"}
    late = choose(profile, close, none, none, T0 + 400 * DAY, CONFIG)
    assert [e.standing.fact.id for e in late] == ["f2"]


def test_what_bears_on_a_request_and_its_order() -> None:
    facts = [fact(i, f"rule {i}", said=T0 - i * 30 * DAY) for i in range(4)]
    matrix = np.eye(4, dtype=np.float32)
    profile = consolidate(facts, [0, 1, 2, 3], matrix, CONFIG)
    semantic = np.array([0.3, 0.3, 0.16, 0.05])
    area = np.array([False, True, True, True])
    tagged = np.zeros(4, dtype=bool)
    chosen = choose(profile, semantic, area, tagged, T0, CONFIG)
    # f3 shares an area but is not 0.15 close; f2 is, with the area; f1 outranks f0 by it
    assert [e.standing.fact.id for e in chosen] == ["f1", "f0", "f2"]
    assert chosen[0].signals["area"] == 1.0
    assert chosen[0].reason().startswith("standing profile: shares a decision area")
