"""Themes, pure (lifecycle/themes.py): one speaker's statements on one topic across
sessions, one dated whole sentence per turn, each claim exactly its turn's provenance."""

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
    text = f"I painted another landscape, number {n}."
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
        (turn(n, T0 + timedelta(days=10 * n), "Hi Pri! Nice to see you again!"), HOBBY)
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


# a turn that opens with a reaction to the other speaker, then says its own news
REACTS = (
    "That sounds lovely, Bob! It's nice to keep little things that bring back happy"
    " days. Anyway, I finally drove my parents up to the lakes last weekend - we had"
    " a wonderful few days there!"
)


def test_a_claim_is_a_whole_sentence_of_its_turn_the_speakers_own_news() -> None:
    texts = [
        REACTS,
        "Thanks! I swam a lake race for the food bank last Sunday. Have you swum?",
        "Wow, lovely. A poem I learned at school still tells me to keep going.",
    ]
    pairs = [(turn(n, T0 + timedelta(days=9 * n), t), HOBBY) for n, t in enumerate(texts, 1)]
    roomy = ConsolidationPolicy(max_theme_chars=300)  # the three claims in one run
    [theme] = themes.themes([p[0] for p in pairs], {p[0].id: p[1] for p in pairs}, roomy)
    gist = themes.theme_gist(theme, roomy)
    stated = [c.text.split(": ", 1)[1] for c in gist.claims]
    # each claim is one whole sentence of the turn it states: never cut, no ellipsis
    for claim, (member, _) in zip(stated, pairs, strict=True):
        assert claim in themes.sentences(member.text)
    assert stated == [
        "Anyway, I finally drove my parents up to the lakes last weekend - we had a"
        " wonderful few days there!",
        "I swam a lake race for the food bank last Sunday.",
        "A poem I learned at school still tells me to keep going.",
    ]


def test_a_turn_whose_statement_is_too_long_for_a_claim_joins_no_theme() -> None:
    assert themes.claim_of(REACTS, 60) is None  # not cut, and no lesser sentence instead
    assert themes.claim_of("It costs 3.5 dollars a week, I think.", 60) == (
        "It costs 3.5 dollars a week, I think."
    )
    short = [said(n, 9 * n, HOBBY) for n in range(1, 4)]
    long = (turn(4, T0 + timedelta(days=40), REACTS), HOBBY)
    policy = ConsolidationPolicy(max_claim_chars=80)
    [theme] = themes.themes(
        [p[0] for p in [*short, long]], {p[0].id: p[1] for p in [*short, long]}, policy
    )
    assert theme.member_ids == ("mem_001", "mem_002", "mem_003")


def test_a_run_ends_before_the_claim_that_would_take_it_over_its_characters() -> None:
    pairs = [said(n, 7 * n, HOBBY) for n in range(1, 6)]
    claim = len(themes.claim_of(pairs[0][0].text, POLICY.max_claim_chars) or "")
    policy = ConsolidationPolicy(max_theme_chars=2 * claim + 1)
    found = themes.themes([p[0] for p in pairs], {p[0].id: p[1] for p in pairs}, policy)
    # two claims fit in a run, a third would not: the runs keep their keys as it grows
    assert [len(g.members) for g in found] == [2, 2, 1]
    assert found[1].key == "theme:Ann:mem_003"
    assert all(
        sum(len(c.text.split(": ", 1)[-1]) for c in themes.theme_gist(g, policy).claims)
        <= policy.max_theme_chars
        for g in found
    )
