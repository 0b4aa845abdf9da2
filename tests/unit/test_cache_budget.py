"""The byte cap over a store's in-process copies of scopes (store/cache_budget.py):
least recently used first across sections, an entry larger than the cap not kept, a
section's own count, and a total that stays within the cap under concurrent use."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from cognimem.config import Settings
from cognimem.providers.fakes import HashingEmbedder
from cognimem.services.components import open_parts
from cognimem.store.cache_budget import CacheBudget, array_bytes


def test_least_recently_used_goes_first_across_sections() -> None:
    budget = CacheBudget(300)
    vectors = budget.section("vectors", 10)
    terms = budget.section("terms", 10)
    vectors.put("a", "A", 100)
    terms.put("a", "a", 100)
    vectors.put("b", "B", 100)
    assert vectors.get("a") == "A"  # now the most recently used: terms' "a" is the oldest
    terms.put("b", "b", 100)
    assert "a" not in terms
    assert (vectors.get("a"), vectors.get("b"), terms.get("b")) == ("A", "B", "b")
    assert (budget.held_bytes, budget.evictions) == (300, 1)


def test_an_entry_larger_than_the_cap_is_not_kept_and_replacing_resizes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    budget = CacheBudget(100)
    section = budget.section("s", 10)
    assert section.put("small", 1, 60)
    assert not section.put("huge", 2, 101)
    assert not section.put("huge", 2, 101)
    warned = [r for r in caplog.records if "COGNIMEM_CACHE_MAX_MB" in r.getMessage()]
    assert len(warned) == 1  # once per scope, not once per read
    assert "'huge'" in warned[0].getMessage()
    assert "huge" not in section
    assert section.get("small") == 1
    section.put("small", 3, 90)  # a newer copy of the same scope replaces the old one
    assert (section.get("small"), budget.held_bytes) == (3, 90)
    section.pop("small")
    assert budget.held_bytes == 0


def test_a_section_keeps_its_own_count_and_drops_by_key() -> None:
    budget = CacheBudget(None)  # no byte cap
    section = budget.section("s", 2)
    for name in "abc":
        section.put(("t1", name), name, 10)
    assert sorted(section.keys()) == [("t1", "b"), ("t1", "c")]
    budget.section("other", 5).put(("t1", "x"), "x", 10)
    section.drop_where(lambda key: key[0] == "t1")  # type: ignore[index]
    assert list(section.keys()) == []
    assert budget.held_bytes == 10


def test_a_section_drops_one_tenant_s_entries() -> None:
    budget = CacheBudget(None)
    section = budget.section("s", 10)
    for key in [("t1", "a"), ("t2", "a"), ("t1", "b")]:
        section.put(key, key[1], 10)
    other = budget.section("other", 5)
    other.put(("t1", "x"), "x", 10)
    section.drop_tenant("t1")
    assert list(section.keys()) == [("t2", "a")]
    assert list(other.keys()) == [("t1", "x")]  # another section keeps its entries
    assert budget.held_bytes == 20


def test_object_arrays_count_the_strings_they_hold() -> None:
    ids = np.array([f"mem_{i:028x}" for i in range(1000)], dtype=object)
    assert array_bytes(ids) >= ids.nbytes + 1000 * 60
    assert array_bytes(np.zeros(10, dtype=np.float32)) == 40
    assert array_bytes(None) == 0


def test_concurrent_puts_and_gets_stay_within_the_cap() -> None:
    budget = CacheBudget(5_000)
    sections = [budget.section(f"s{i}", 32) for i in range(3)]
    over: list[int] = []

    def work(seed: int) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(2_000):
            section = sections[int(rng.integers(3))]
            key = int(rng.integers(50))
            if rng.random() < 0.5:
                section.put(key, key, int(rng.integers(1, 1_500)))
            else:
                value = section.get(key)
                assert value is None or value == key
            if budget.held_bytes > 5_000:
                over.append(budget.held_bytes)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert over == []
    held = sum(size for _, size in budget._entries.values())
    assert budget.held_bytes == held <= 5_000


def test_a_negative_cap_is_refused() -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        CacheBudget(-1)


def test_the_setting_caps_the_configured_store(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COGNIMEM_CACHE_MAX_MB", "8")
    url = f"sqlite:///{tmp_path / 'never_opened.db'}"
    store, _, _, _ = open_parts(url, Settings(), embedder=HashingEmbedder(), llm=None)
    assert store.cache_budget.max_bytes == 8 * 2**20  # type: ignore[attr-defined]


def test_an_entry_that_grows_is_weighed_again_when_taken_and_evicts_others() -> None:
    budget = CacheBudget(300)
    sizes = {"a": 100, "b": 100}
    grows = budget.section("grows", 10, weigh=lambda key: sizes[key])
    other = budget.section("other", 10)
    other.put("x", "x", 100)
    grows.put("a", "a", 100)
    grows.put("b", "b", 100)
    sizes["b"] = 190  # built its postings since it was kept
    assert grows.get("b") == "b"
    # 390 bytes now: the least recently used ("x", then "a") go
    assert budget.held_bytes == 290 <= 300
    assert [(name, key) for name, key, _ in budget.held()] == [("grows", "a"), ("grows", "b")]
    assert "x" not in other
    sizes["b"] = 400  # larger than the whole cap alone: dropped too, still returned
    assert grows.get("b") == "b"
    assert budget.held() == []
    assert budget.held_bytes == 0


def test_sampled_bytes_tracks_what_decoded_facts_allocate() -> None:
    import tracemalloc
    from datetime import UTC, datetime

    from cognimem.models import Scope
    from cognimem.models.knowledge import Fact, FactCategory
    from cognimem.store.cache_budget import deep_bytes, sampled_bytes

    at = datetime(2024, 1, 1, tzinfo=UTC)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        facts = [
            Fact(
                id=f"fact_{i:024x}",
                scope=Scope(user_id="u"),
                key=f"user:home_city:{i}",
                subject="user",
                predicate="home_city",
                category=FactCategory.LOCATION,
                value=f"a town by the river number {i}",
                text=f"The user lives in a town by the river number {i}.",
                scope_tags=["travel"],
                last_validated_at=at,
                recorded_at=at,
                evidence_item_ids=[f"mem_{i:024x}"],
                evidence_event_ids=[f"evt_{i:024x}"],
            )
            for i in range(2_000)
        ]
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    estimate = sampled_bytes(facts)
    assert 0.6 * grown <= estimate <= 1.6 * grown, (estimate, grown)
    assert deep_bytes(facts) >= estimate * 0.6  # the full walk agrees with the sample
    vectors = np.zeros((10, 4), dtype=np.float32)
    assert deep_bytes([vectors, vectors[2:]]) >= 160  # a view counts its base once
