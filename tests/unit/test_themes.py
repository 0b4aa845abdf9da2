"""Themes, pure (lifecycle/themes.py): one speaker's statements on one topic across
sessions, one short dated claim per turn, each claim exactly its turn's provenance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from cognimem.lifecycle import themes
from cognimem.lifecycle.consolidate import ConsolidationPolicy, GroupKind
from cognimem.models import MemoryItem, Scope

T0 = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
POLICY = ConsolidationPolicy()
HOBBY = np.array([1.0, 0.0, 0.0], dtype=np.float32)
WORK = np.array([0.0, 1.0, 0.0], dtype=np.float32)


def turn(n: int, at: datetime, text: str, author: str = "Ann") -> MemoryItem:
    return MemoryItem(
        id=f"mem_{n:03d}",
        scope=Scope(user_id="u"),
        text=text,
        author=author,
        source_event_ids=[f"evt_{n:03d}"],
        external_ids=[f"D{n}"],
        occurred_at=at,
        recorded_at=at,
    )


def said(
    n: int, day: int, vector: np.ndarray, author: str = "Ann"
) -> tuple[MemoryItem, np.ndarray]:
    text = f"I painted another landscape with watercolours, number {n}."
    return turn(n, T0 + timedelta(days=day, minutes=n), text, author), vector


def grouped(pairs: list[tuple[MemoryItem, np.ndarray]]) -> list:
    return themes.themes([p[0] for p in pairs], {p[0].id: p[1] for p in pairs}, POLICY)


def test_a_speakers_turns_on_one_topic_across_sessions_become_one_theme() -> None:
    pairs = [said(1, 0, HOBBY), said(2, 0, WORK), said(3, 9, HOBBY), said(4, 20, HOBBY)]
    [theme] = grouped(pairs)
    assert theme.kind is GroupKind.THEME
    assert theme.member_ids == ("mem_001", "mem_003", "mem_004")
    assert theme.key == "theme:Ann:mem_001"
    gist = themes.theme_gist(theme, POLICY)
    # one claim per turn, each stating exactly its turn
    assert [c.item_ids for c in gist.claims] == [("mem_001",), ("mem_003",), ("mem_004",)]
    assert [c.external_ids for c in gist.claims] == [("D1",), ("D3",), ("D4",)]
    assert gist.event_ids() == ["evt_001", "evt_003", "evt_004"]
    assert all(len(c.text) <= POLICY.max_claim_chars + len("17 May 2023: ") for c in gist.claims)
    assert gist.text().startswith("Ann: 8 May 2023: I painted another landscape")
    # dated once per day, the year only where it changes
    assert gist.claims[1].text.startswith("17 May: ")


def test_one_session_window_questions_and_greetings_make_no_theme() -> None:
    same_window = [said(1, 0, HOBBY), said(2, 0, HOBBY), said(3, 0, HOBBY)]
    assert grouped(same_window) == []
    asks = [
        (turn(n, T0 + timedelta(days=10 * n), "Did you paint again? What was it?"), HOBBY)
        for n in range(1, 4)
    ]
    hellos = [
        (turn(n, T0 + timedelta(days=10 * n), "Hey Mel! Good to see you!"), HOBBY)
        for n in range(4, 7)
    ]
    assert grouped(asks) == []
    assert grouped(hellos) == []


def test_each_speaker_has_their_own_themes() -> None:
    pairs = [said(n, 7 * n, HOBBY, "Ann") for n in range(1, 4)]
    pairs += [said(n, 7 * n, HOBBY, "Bob") for n in range(4, 7)]
    found = grouped(pairs)
    assert sorted(g.key for g in found) == ["theme:Ann:mem_001", "theme:Bob:mem_004"]


def test_a_long_theme_is_written_in_runs_a_later_turn_only_extends_the_last() -> None:
    size = POLICY.max_theme_claims
    pairs = [said(n, 7 * n, HOBBY) for n in range(1, size + 3)]
    first = grouped(pairs)
    assert [len(g.members) for g in first] == [size, 2]
    later = grouped([*pairs, said(size + 3, 7 * (size + 3), HOBBY)])
    # greedy in time order: the runs keep their keys, the last one grows
    assert [g.key for g in later] == [g.key for g in first]
    assert later[0].member_ids == first[0].member_ids
    assert len(later[1].members) == 3


def test_a_claim_is_the_turns_sentence_that_carries_content_cut_at_a_word() -> None:
    text = "Wow, thanks! I started volunteering at the animal shelter every Saturday. Fun?"
    assert (
        themes.clause_of(text, 80) == "I started volunteering at the animal shelter every Saturday."
    )
    cut = themes.clause_of(text, 30)
    assert cut == "I started volunteering at the…"
    assert len(cut) <= 30
