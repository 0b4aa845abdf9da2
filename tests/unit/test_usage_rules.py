"""The pure rules of passive decay (``models/fact_decay.py``), citation by an answer
(``recall/citations.py``) and promotion by utility (``lifecycle/promote.py``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem.lifecycle.promote import is_mandate_candidate, tier_move
from cognimem.models import ContextPacket, ItemKind, MemoryItem, PacketItem, Scope, Tier
from cognimem.models.fact_decay import FACT_HALF_LIVES, effective_confidence, is_aging
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.models.packets import FactEntry, PacketSections
from cognimem.recall.citations import cited_items

T0 = datetime(2024, 1, 1, tzinfo=UTC)
SCOPE = Scope(tenant_id="t", user_id="u")


def fact(category: FactCategory, confidence: float = 0.7) -> Fact:
    return Fact(
        id="f", scope=SCOPE, key="k", subject="user", predicate="p", category=category,
        value="v", text="t", confidence=confidence, last_validated_at=T0, recorded_at=T0,
    )  # fmt: skip


@pytest.mark.parametrize("category", list(FactCategory))
def test_confidence_halves_per_half_life_of_its_category(category: FactCategory) -> None:
    f = fact(category)
    days = FACT_HALF_LIVES[category]
    assert effective_confidence(f, T0) == pytest.approx(0.7)
    assert effective_confidence(f, T0 - timedelta(days=5)) == pytest.approx(0.7)  # before it
    assert effective_confidence(f, T0 + timedelta(days=days)) == pytest.approx(0.35)
    assert not is_aging(f, T0 + timedelta(days=days * 0.99))
    assert is_aging(f, T0 + timedelta(days=days * 1.01))


def test_identity_barely_decays_and_states_fast() -> None:
    year = T0 + timedelta(days=365)
    assert effective_confidence(fact(FactCategory.IDENTITY), year) > 0.67
    assert effective_confidence(fact(FactCategory.STATE), year) < 0.001


def item(text: str, item_id: str) -> PacketItem:
    return PacketItem(id=item_id, text=text, kind="episode", score=1.0, occurred_at=T0)


def packet(*items: PacketItem, facts: list[FactEntry] | None = None) -> ContextPacket:
    return ContextPacket(
        query="q", items=list(items), sections=PacketSections(facts=facts or []),
        token_count=0, max_tokens=100, reference_time=T0, preset="balanced",
    )  # fmt: skip


def test_an_answer_cites_the_memories_whose_words_it_repeats() -> None:
    p = packet(
        item("I adopted a cat named Miso in May.", "cat"),
        item("The garden shed needs a new roof.", "shed"),
        item("Biscuits", "one_word"),
    )
    assert cited_items("Your cat Miso, adopted in May!", p) == ["cat"]
    assert cited_items("Miso is lovely.", p) == []  # one shared word of four
    assert cited_items("There were biscuits.", p) == ["one_word"]  # "biscu" stem
    assert cited_items("OK.", p) == []
    assert cited_items("your kitty from spring", p) == []  # other words: not counted


def test_a_cited_fact_cites_the_memories_it_came_from() -> None:
    entry = FactEntry(
        id="f", key="k", text="I live in Lisbon near the river.", category="location",
        value="Lisbon", confidence=0.8, score=1.0, recorded_at=T0, item_ids=["a", "b"],
    )  # fmt: skip
    assert cited_items("You live in Lisbon, by the river.", packet(facts=[entry])) == ["a", "b"]


def stored(**kw: object) -> MemoryItem:
    base: dict[str, object] = {
        "id": "m", "scope": SCOPE, "text": "x", "occurred_at": T0, "recorded_at": T0,
    }  # fmt: skip
    return MemoryItem.model_validate({**base, **kw})


def test_tier_moves() -> None:
    assert tier_move(stored(cited_count=3, loaded_count=3), T0) == (
        Tier.HIGH,
        "used 3 times, utility 0.80",
    )
    assert tier_move(stored(tier=Tier.LOW, success_count=3), T0) is not None
    # a failure blocks promotion; a person's tiers are left alone
    assert tier_move(stored(cited_count=3, failure_count=1), T0) is None
    assert tier_move(stored(tier=Tier.ALWAYS, loaded_count=50), T0) is None
    assert tier_move(stored(tier=Tier.NEVER, cited_count=9), T0) is None
    # loaded often, never used: down; but never a constraint, mandate or guardrail
    assert tier_move(stored(loaded_count=10), T0) is not None
    for kind in (ItemKind.CONSTRAINT, ItemKind.MANDATE, ItemKind.GUARDRAIL):
        assert tier_move(stored(kind=kind, loaded_count=10), T0) is None
    assert tier_move(stored(tier=Tier.LOW, loaded_count=10), T0) is None  # the bottom


def test_mandate_candidates() -> None:
    assert is_mandate_candidate(stored(tier=Tier.HIGH, cited_count=4, success_count=6))
    assert not is_mandate_candidate(stored(tier=Tier.MEDIUM, cited_count=10))
    assert not is_mandate_candidate(stored(tier=Tier.HIGH, cited_count=10, failure_count=1))
    assert not is_mandate_candidate(stored(tier=Tier.HIGH, kind="guardrail", cited_count=10))
