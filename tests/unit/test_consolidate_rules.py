"""Consolidation's pure decisions: windows, topics, gists, profiles and the LLM
answer's validation (lifecycle/consolidate.py, lifecycle/gist_llm.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from cognimem.lifecycle import consolidate as rules
from cognimem.lifecycle.consolidate import ConsolidationPolicy, ConstraintTag, GroupKind
from cognimem.lifecycle.gist_llm import parse_gist
from cognimem.models import MemoryItem, Scope
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.providers.llm.structured import InvalidAnswer

T0 = datetime(2024, 5, 8, 13, 0, tzinfo=UTC)
POLICY = ConsolidationPolicy()


def episode(n: int, at: datetime, text: str = "", session: str | None = None) -> MemoryItem:
    return MemoryItem(
        id=f"mem_{n:03d}",
        scope=Scope(user_id="u", session_id=session),
        text=text or f"episode number {n}.",
        author="Ann",
        source_event_ids=[f"evt_{n:03d}"],
        external_ids=[f"D{n}"],
        occurred_at=at,
        recorded_at=at,
    )


def fact(n: int, subject: str, category: FactCategory, item: str = "mem_000") -> Fact:
    return Fact(
        id=f"fact_{n}",
        scope=Scope(user_id="u"),
        key=f"{subject}:{category.value}:{n}",
        subject=subject,
        predicate="p",
        category=category,
        value=f"v{n}",
        text=f"{subject} fact {n}.",
        scope_tags=["food"] if category is FactCategory.POLICY else [],
        last_validated_at=T0,
        recorded_at=T0 + timedelta(minutes=n),
        evidence_item_ids=[item],
        evidence_event_ids=[item.replace("mem", "evt")],
    )


def test_windows_split_at_gaps_sessions_and_size() -> None:
    items = [episode(i, T0 + timedelta(minutes=i)) for i in range(5)]
    items += [episode(10 + i, T0 + timedelta(days=1, minutes=i)) for i in range(3)]
    items += [episode(20, T0, session="s1")]
    groups = rules.windows(list(reversed(items)), POLICY)
    sizes = sorted(len(g.members) for g in groups)
    assert sizes == [1, 3, 5]
    assert {g.key for g in groups} == {"window:-:mem_000", "window:-:mem_010", "window:s1:mem_020"}
    small = rules.windows(items[:5], ConsolidationPolicy(max_window=2))
    assert [len(g.members) for g in small] == [2, 2, 1]


def test_topics_span_windows_and_have_stable_keys() -> None:
    items = [episode(i, T0 + timedelta(days=i)) for i in range(4)]
    same = np.array([1.0, 0.0], dtype=np.float32)
    other = np.array([0.0, 1.0], dtype=np.float32)
    vectors = {"mem_000": same, "mem_001": same, "mem_002": same, "mem_003": other}
    spread = {m.id: f"w{i}" for i, m in enumerate(items)}
    [topic] = rules.topics(items, vectors, spread, POLICY)
    assert topic.member_ids == ("mem_000", "mem_001", "mem_002")
    assert topic.key == rules.topics(items, vectors, spread, POLICY)[0].key
    # all in one window: that window's summary already says it
    assert rules.topics(items, vectors, dict.fromkeys(spread, "w"), POLICY) == []


def test_extractive_gist_states_dated_speakers_and_every_constraint() -> None:
    members = [episode(i, T0 + timedelta(minutes=i)) for i in range(12)]
    members[7] = episode(7, T0 + timedelta(minutes=7), "I'm allergic to shellfish. Never serve it.")
    group = rules.windows(members, POLICY)[0]
    vectors = {m.id: np.array([1.0, 0.1 * i], dtype=np.float32) for i, m in enumerate(members)}
    tag = ConstraintTag("policy", ("food",))
    gist = rules.extractive_gist(group, vectors, {"mem_007": tag}, POLICY)
    assert gist.heading == "Conversation of 8 May 2024 (Ann):"
    assert 2 <= len(gist.claims) <= POLICY.max_sentences + 1
    [stated] = [c for c in gist.claims if c.constraint is not None]
    assert stated.text == ("On 8 May 2024, Ann said: I'm allergic to shellfish. Never serve it.")
    assert stated.constraint == tag
    assert stated.event_ids == ("evt_007",)
    assert gist.event_ids() == [e for c in gist.claims for e in c.event_ids]
    times = [c.occurred_at for c in gist.claims]
    assert times == sorted(times)


def test_representatives_prefer_the_centre_and_avoid_repeats() -> None:
    members = [episode(i, T0) for i in range(4)]
    vectors = {
        "mem_000": np.array([1.0, 0.0]),
        "mem_001": np.array([1.0, 0.0]),
        "mem_002": np.array([0.7, 0.7]),
        "mem_003": np.array([0.0, 1.0]),
    }
    picked = rules.representatives(members, vectors, 2, redundancy=0.9)
    assert picked[0].id in {"mem_000", "mem_001", "mem_002"}
    assert len({p.id for p in picked}) == 2
    assert {p.id for p in picked} != {"mem_000", "mem_001"}


def test_sentence_of_keeps_whole_sentences_within_the_limit() -> None:
    text = "First one here. Second sentence is longer. Third."
    assert rules.sentence_of(text, 20) == "First one here."
    assert rules.sentence_of(text, 200) == text
    assert rules.sentence_of("word " * 100, 20).endswith("…")


def test_profiles_need_enough_facts_and_keep_constraint_tags() -> None:
    facts = [
        fact(1, "sam", FactCategory.POLICY),
        fact(2, "sam", FactCategory.LOCATION),
        fact(3, "ann", FactCategory.LOCATION),
    ]
    [profile] = rules.profiles(facts, POLICY)
    assert (profile.kind, profile.key) == (GroupKind.PROFILE, "profile:sam")
    gist = rules.extractive_gist(profile, {}, {}, POLICY)
    assert [c.text for c in gist.claims] == [
        "sam fact 2 (as of 8 May 2024).",
        "sam fact 1 (as of 8 May 2024).",
    ]
    assert gist.claims[1].constraint == ConstraintTag("policy", ("food",))
    assert rules.constraint_tags(facts) == {"mem_000": ConstraintTag("policy", ("food",))}


def test_an_llm_gist_citing_an_unlisted_episode_is_invalid() -> None:
    ok = parse_gist('{"sentences": [{"text": "Ann paints.", "sources": [0, 1]}]}', 2)
    assert ok.sentences[0].sources == [0, 1]
    with pytest.raises(InvalidAnswer, match=r"sentences.0.sources: \[2\]"):
        parse_gist('{"sentences": [{"text": "Ann paints.", "sources": [2]}]}', 2)
    with pytest.raises(InvalidAnswer):
        parse_gist('{"sentences": [{"text": "Ann paints.", "sources": []}]}', 2)


def test_an_entity_mentioned_often_enough_gets_a_profile_of_its_facts_and_episodes() -> None:
    mentions = {"ent_ann": [episode(i, T0 + timedelta(days=3 - i)) for i in range(4)]}
    facts = [fact(1, "ann", FactCategory.LOCATION, item="mem_001")]
    facts[0] = facts[0].model_copy(update={"subject_entity_id": "ent_ann"})
    [profile] = rules.profiles(facts, POLICY, mentions, {"ent_ann": "Ann"})
    assert (profile.key, profile.entity_id, profile.title) == (
        "profile:ent_ann",
        "ent_ann",
        "What is known about Ann:",
    )
    gist = rules.extractive_gist(profile, {}, {}, POLICY)
    # the fact, then at most two episodes, none the fact's evidence, in time order
    assert gist.claims[0].text == "ann fact 1 (as of 8 May 2024)."
    stated = [c.item_ids[0] for c in gist.claims[1:]]
    assert len(stated) == POLICY.max_profile_episodes
    assert "mem_001" not in stated
    assert [c.occurred_at for c in gist.claims[1:]] == sorted(
        c.occurred_at for c in gist.claims[1:]
    )
    assert all(" Ann said: " in c.text for c in gist.claims[1:])
    # too few mentions and facts: no profile
    assert rules.profiles(facts, POLICY, {"ent_ann": mentions["ent_ann"][:2]}) == []
