"""How many of the standing profile's entries a decision's constraint sections show
(``recall/assemble.py``): ``ProfileConfig.max_entries``, and one more when the next
entry ties with the last one shown."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem.models import Scope
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.recall.assemble import DEFERRED_OUT, SectionInputs, assemble_sections
from cognimem.recall.constraints import Scored, SectionConfig
from cognimem.recall.profile import ProfileChoice, ProfileConfig, ProfileEntry, Standing

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def entry(n: int, score: float) -> ProfileEntry:
    fact = Fact(
        id=f"f{n}",
        scope=Scope(user_id="u"),
        key=f"user:policy:food:{n}",
        subject="user",
        predicate="food",
        category=FactCategory.POLICY,
        value=f"rule {n}",
        text=f"Rule number {n}.",
        last_validated_at=T0,
        recorded_at=T0,
        evidence_event_ids=[f"e{n}"],
    )
    return ProfileEntry(Standing(fact=fact, row=n, rows=(n,)), score, {"profile": 1.0})


def shown(*scores: float) -> tuple[list[str], dict[str, str]]:
    choice = ProfileChoice([entry(i, s) for i, s in enumerate(scores)])
    sections, _, dropped = assemble_sections(
        SectionInputs(profile=choice), 4000, SectionConfig(), lambda text: len(text.split()), T0
    )
    return [e.id for e in sections.must_follow], dropped


def test_the_sections_hold_four_entries_when_the_fifth_is_clearly_below() -> None:
    ids, dropped = shown(0.5, 0.4, 0.3, 0.2, 0.15)
    assert ids == ["f0", "f1", "f2", "f3"]
    assert dropped["f4"] == "dropped: the constraint sections hold 4 entries"


def test_an_entry_tied_with_the_fourth_comes_in_too_and_only_one() -> None:
    # the ranking cannot tell the fourth and fifth apart: the cap does not choose
    ids, dropped = shown(0.5, 0.4, 0.3, -0.2101, -0.2104, -0.2105)
    assert ids == ["f0", "f1", "f2", "f3", "f4"]
    assert dropped["f5"] == "dropped: the constraint sections hold 4 entries"


def picked(standing: Standing) -> Scored:
    return Scored(standing.fact, 0.9, {"semantic": 0.9})


def with_pick(
    pick: int, carried: list[tuple[int, float]], profile_tokens: int = 120
) -> tuple[list[str], dict[str, str]]:
    """The sections when the constraint step's best pick is ``pick``'s entry and the
    profile carries ``carried`` (entry number, score), every entry in ``by_fact``."""
    every = {n: entry(n, 0.0).standing for n in range(10)}
    choice = ProfileChoice(
        [ProfileEntry(every[n], s, {"profile": 1.0}) for n, s in carried],
        {s.fact.id: s for s in every.values()},
    )
    sections, _, dropped = assemble_sections(
        SectionInputs(constraints=[picked(every[pick])], profile=choice),
        4000,
        SectionConfig(profile=ProfileConfig(max_tokens=profile_tokens)),
        lambda text: len(text.split()),
        T0,
    )
    return [e.id for e in sections.must_follow], dropped


def test_a_pick_the_profile_carries_goes_first() -> None:
    ids, _ = with_pick(2, [(0, 0.5), (1, 0.4), (2, 0.3), (3, 0.2), (4, 0.1)])
    assert ids == ["f2", "f0", "f1", "f3"]


def test_a_pick_the_profile_does_not_carry_yields_its_place() -> None:
    # the profile ranked every live constraint against the request and left this one
    # out: the four places go to what it carries
    ids, dropped = with_pick(9, [(0, 0.5), (1, 0.4), (2, 0.3), (3, 0.2)])
    assert ids == ["f0", "f1", "f2", "f3"]
    assert dropped["f9"] == DEFERRED_OUT.format(n=4)


def test_a_pick_the_profile_does_not_carry_goes_in_after_its_entries_if_room() -> None:
    ids, _ = with_pick(9, [(0, 0.5), (1, 0.4)])
    assert ids == ["f0", "f1", "f9"]


def test_a_deferred_pick_takes_a_place_inside_the_profiles_token_cap() -> None:
    # each entry's line is 4 words (the test's tokens) and the Must follow title 3: a
    # cap of 13 holds the profile's two entries (11) and not a third
    ids, dropped = with_pick(9, [(0, 0.5), (1, 0.4)], profile_tokens=13)
    assert ids == ["f0", "f1"]
    assert dropped["f9"] == "dropped: over the must_follow budget"


def test_without_a_profile_the_pick_goes_in() -> None:
    every = entry(7, 0.0).standing
    sections, _, _ = assemble_sections(
        SectionInputs(constraints=[picked(every)]),
        4000,
        SectionConfig(),
        lambda text: len(text.split()),
        T0,
    )
    assert [e.id for e in sections.must_follow] == ["f7"]


def test_an_aging_pick_the_profile_does_not_carry_still_goes_first() -> None:
    # the profile leaves a stale state out of its ranking, not below its entries: the
    # pick goes first, to Needs validation, as it did
    state = entry(9, 0.0).standing
    aging = Standing(
        fact=state.fact.model_copy(update={"category": FactCategory.STATE}), row=9, rows=(9,)
    )
    carried = [entry(n, 0.5 - n / 10) for n in range(4)]
    choice = ProfileChoice(
        carried, {"f9": aging, **{e.standing.fact.id: e.standing for e in carried}}
    )
    sections, _, _ = assemble_sections(
        SectionInputs(constraints=[picked(aging)], profile=choice),
        4000,
        SectionConfig(),
        lambda text: len(text.split()),
        T0 + timedelta(days=400),
    )
    assert [e.id for e in sections.needs_validation] == ["f9"]
    assert [e.id for e in sections.must_follow] == ["f0", "f1", "f2"]
