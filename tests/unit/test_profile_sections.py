"""How many of the standing profile's entries a decision's constraint sections show
(``recall/assemble.py``): ``ProfileConfig.max_entries``, and one more when the next
entry ties with the last one shown."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.models import Scope
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.recall.assemble import SectionInputs, assemble_sections
from cognimem.recall.constraints import SectionConfig
from cognimem.recall.profile import ProfileChoice, ProfileEntry, Standing

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
