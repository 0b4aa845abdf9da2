"""The memories behind constraints the standing profile left out (recall/profile_items.py),
and the memories no constraint was drawn from: beside the profile's choice they keep a
place among the items only with evidence of their own."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.models import MemoryItem, Scope
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.recall.analyze import query_terms
from cognimem.recall.profile import ProfileChoice, ProfileEntry, Standing
from cognimem.recall.profile_items import (
    LEFT_OUT,
    UNWEIGHED,
    declined_items,
    unstated_items,
    without_declined,
)
from cognimem.recall.rerank import Ranked

T = datetime(2024, 5, 1, tzinfo=UTC)
REQUEST = "Compare these two inns for my weekend in Vermont."
TERMS = query_terms(REQUEST)


def fact(n: int, text: str) -> Fact:
    return Fact(
        id=f"f{n}",
        scope=Scope(user_id="u"),
        key=f"user:policy:general:{n}",
        subject="user",
        predicate="general",
        category=FactCategory.POLICY,
        value=text,
        text=text,
        last_validated_at=T,
        recorded_at=T,
        evidence_event_ids=[f"e{n}"],
        evidence_item_ids=[f"i{n}"],
    )


def ranked(n: int, text: str, cosine: float | None, **signals: float) -> Ranked:
    item = MemoryItem(id=f"i{n}", scope=Scope(user_id="u"), text=text, occurred_at=T, recorded_at=T)
    raw = {} if cosine is None else {"vector": cosine}
    return Ranked(item, 1.0, signals, raw, ("vector",), frozenset())


TEXTS = {
    1: "I'd rather not spend more than half an hour in the kitchen.",
    2: "Breakfast included is a must for me.",
    3: "We prefer short trips close to home.",
    4: "I won't fly with budget airlines anymore.",
    5: "I dislike bright neon colours.",
}


def choice(carried: tuple[int, ...], unstated_near: int | None = None) -> ProfileChoice:
    standings = {n: Standing(fact(n, text), row=n, rows=(n,)) for n, text in TEXTS.items()}
    entries = [ProfileEntry(standings[n], 1.0, {"profile": 1.0}) for n in carried]
    return ProfileChoice(entries, {s.fact.id: s for s in standings.values()}, unstated_near)


# the read's ranked memories: i1 (carried, 0.28) and i2 nearest, then i3, i4, i5
RANKED = [
    ranked(1, TEXTS[1], 0.28),
    ranked(2, TEXTS[2], 0.29),
    ranked(3, TEXTS[3], 0.24),
    ranked(4, TEXTS[4], 0.21),
    ranked(5, TEXTS[5], 0.22),
]


def kept_ids(kept: list[Ranked]) -> list[str]:
    return [r.item.id for r in kept]


def test_the_declined_are_the_memories_of_entries_not_carried_and_not_shown() -> None:
    assert declined_items(choice((1,)), behind=["i4"]) == {"i2", "i3", "i5"}
    assert declined_items(choice((1, 2, 3, 4, 5)), behind=[]) == frozenset()


def test_a_declined_memory_with_nothing_of_its_own_leaves_the_items() -> None:
    kept, dropped = without_declined(RANKED, RANKED, choice((1,)), ["i1"], TERMS, near=2)
    # i2 is among the two nearest; i3, i4, i5 are less close than the carried i1
    assert kept_ids(kept) == ["i1", "i2"]
    assert dropped == {"i3": LEFT_OUT, "i4": LEFT_OUT, "i5": LEFT_OUT}


def test_a_shared_word_a_fact_or_the_graph_keeps_a_declined_memory() -> None:
    weekend = ranked(3, "We prefer weekend trips close to home.", 0.24)
    looked_up = ranked(4, TEXTS[4], 0.21, fact=1.0)
    linked = ranked(5, TEXTS[5], 0.22, graph=0.5)
    rows = [RANKED[0], RANKED[1], weekend, looked_up, linked]
    kept, dropped = without_declined(rows, rows, choice((1,)), ["i1"], TERMS, near=2)
    assert kept_ids(kept) == ["i1", "i2", "i3", "i4", "i5"]
    assert dropped == {}


def test_as_close_as_what_the_profile_carried_keeps_a_declined_memory() -> None:
    # the carried entry's memory is the least close: the profile left the others out
    # for their crowding, not their closeness
    rows = [ranked(5, TEXTS[5], 0.2), *RANKED[1:4]]
    kept, dropped = without_declined(rows, rows, choice((5,)), ["i5"], TERMS, near=1)
    assert kept_ids(kept) == ["i5", "i2", "i3", "i4"]
    assert dropped == {}


def test_nothing_is_judged_without_a_carried_entry_a_vector_list_or_the_rule() -> None:
    assert without_declined(RANKED, RANKED, choice(()), [], TERMS, near=2) == (RANKED, {})
    assert without_declined(RANKED, RANKED, choice((1,)), ["i1"], TERMS, near=None) == (
        RANKED,
        {},
    )
    unjudged = [ranked(n, TEXTS[n], None) for n in TEXTS]
    assert without_declined(unjudged, unjudged, choice((1,)), ["i1"], TERMS, near=2) == (
        unjudged,
        {},
    )
    # a memory the vector search did not return is not judged either
    beyond = [RANKED[0], RANKED[1], ranked(3, TEXTS[3], None)]
    kept, dropped = without_declined(beyond, beyond, choice((1,)), ["i1"], TERMS, near=1)
    assert kept_ids(kept) == ["i1", "i2", "i3"]
    assert dropped == {}


# memories no constraint was drawn from (the write path recorded none for them)
CHAT = {
    6: "Calm sunset cruises are my idea of a perfect evening.",
    7: "Haha, that was a long day.",
    8: "My sister finally sent the photos.",
}


def test_the_unstated_are_the_memories_no_constraint_was_drawn_from() -> None:
    among = {"i1", "i2", "i6", "i7", "i8"}
    assert unstated_items(choice((1,)), behind=["i7"], among=among) == {"i6", "i8"}


def test_an_unstated_memory_with_nothing_of_its_own_leaves_the_items() -> None:
    # nearest first: i6 (0.30), i2 (0.29), i1 (0.28, carried), i7 (0.26), i8 (0.23)
    rows = [RANKED[0], RANKED[1], ranked(6, CHAT[6], 0.30)]
    rows += [ranked(7, CHAT[7], 0.26), ranked(8, CHAT[8], 0.23)]
    kept, dropped = without_declined(rows, rows, choice((1,), unstated_near=4), ["i1"], TERMS, 2)
    # i6 is the nearest memory and i7 the fourth nearest; i8 is neither, and less close
    # than the carried i1
    assert kept_ids(kept) == ["i1", "i2", "i6", "i7"]
    assert dropped == {"i8": UNWEIGHED}
    # with fewer nearest kept, i7 goes too; the declined memories' own rule is unchanged
    kept, dropped = without_declined(rows, rows, choice((1,), unstated_near=1), ["i1"], TERMS, 2)
    assert kept_ids(kept) == ["i1", "i2", "i6"]
    assert dropped == {"i7": UNWEIGHED, "i8": UNWEIGHED}


def test_an_unstated_memory_keeps_its_place_with_a_word_a_fact_or_the_graph() -> None:
    rows = [RANKED[0], ranked(6, "Any inn near the lake would do for our weekend.", 0.21)]
    rows += [ranked(7, CHAT[7], 0.22, fact=1.0), ranked(8, CHAT[8], 0.2, graph=0.4)]
    kept, dropped = without_declined(rows, rows, choice((1,), unstated_near=1), ["i1"], TERMS, 2)
    assert kept_ids(kept) == ["i1", "i6", "i7", "i8"]
    assert dropped == {}


def test_unstated_memories_are_not_judged_with_the_rule_off_or_nothing_carried() -> None:
    rows = [RANKED[0], ranked(8, CHAT[8], 0.2)]
    assert without_declined(rows, rows, choice((1,)), ["i1"], TERMS, 2) == (rows, {})
    assert without_declined(rows, rows, choice((), unstated_near=1), [], TERMS, 2) == (rows, {})
    # the rule on, the declined memories' rule off: only the unstated are judged
    rows = [*RANKED, ranked(8, CHAT[8], 0.2)]
    kept, dropped = without_declined(rows, rows, choice((1,), unstated_near=1), ["i1"], TERMS, None)
    assert kept_ids(kept) == ["i1", "i2", "i3", "i4", "i5"]
    assert dropped == {"i8": UNWEIGHED}
