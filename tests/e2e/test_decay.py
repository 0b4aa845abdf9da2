"""Passive decay and the fact lifecycle through ``Memory`` on a real database (SQLite
and PostgreSQL): facts aging after their category's half-life at the read's reference
time and at the decay pass's clock, reinforcement resetting it, facts contradicted by
feedback invalidated, the Needs validation section, and dry runs that change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Settings
from cognimem.models.fact_decay import AGING_BELOW
from cognimem.models.knowledge import Fact, FactStatus
from cognimem.providers.fakes import HashingEmbedder

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


class Clock:
    """A clock a test moves."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
async def mem(memory_url: str, clock: Clock) -> AsyncIterator[Memory]:
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), clock=clock
    ) as m:
        yield m


async def fact_of(mem: Memory, word: str, **kw: bool) -> Fact:
    [found] = [f for f in await mem.facts(user_id="u", **kw) if word in f.text]
    return found


async def test_a_lasting_condition_does_not_age_as_a_passing_state(
    mem: Memory, clock: Clock
) -> None:
    await mem.write("I'm colorblind, so charts need labels.", user_id="u", occurred_at=T0)
    await mem.write("I'm swamped at work this week.", user_id="u", occurred_at=T0)
    clock.at = T0 + 90 * DAY  # three half-lives of a passing state
    dry = await mem.decay(user_id="u", dry_run=True)
    swamped = await fact_of(mem, "swamped")
    colorblind = await fact_of(mem, "colorblind")
    assert (swamped.category.value, colorblind.category.value) == ("state", "state")
    assert [c.fact_id for c in dry.changes] == [swamped.id]  # the condition is not aging


async def test_a_state_ages_after_its_half_life_and_identity_does_not(
    mem: Memory, clock: Clock
) -> None:
    await mem.write("My knee hurts.", user_id="u", occurred_at=T0)
    await mem.write("My name is Ada Lovelace.", user_id="u", occurred_at=T0)
    clock.at = T0 + 20 * DAY  # a state's half-life is 30 days: 0.8 decays to ~0.63
    assert (await mem.decay(user_id="u")).changes == []

    clock.at = T0 + 60 * DAY  # two half-lives: 0.2
    knee = await fact_of(mem, "knee")
    dry = await mem.decay(user_id="u", dry_run=True)
    [change] = dry.changes
    assert (change.fact_id, change.before, change.after) == (knee.id, "active", "aging")
    assert change.effective_confidence == pytest.approx(0.8 * 0.25, abs=1e-3)
    assert change.effective_confidence < AGING_BELOW
    assert dry.summary() == {"facts": 2, "aging": 1, "active": 0, "invalidated": 0}
    assert (await fact_of(mem, "knee")).status is FactStatus.ACTIVE  # the dry run wrote nothing
    assert [h.action for h in await mem.history(knee.id)] == ["created"]

    done = await mem.decay(user_id="u")
    assert [c.model_dump() for c in done.changes] == [c.model_dump() for c in dry.changes]
    assert (await fact_of(mem, "knee")).status is FactStatus.AGING
    assert (await fact_of(mem, "Lovelace")).status is FactStatus.ACTIVE
    [_, entry] = await mem.history(knee.id)
    assert (entry.action, entry.actor) == ("aging", "decay")
    assert entry.after is not None
    assert "below 0.35" in entry.after["reason"]
    assert (await mem.decay(user_id="u")).changes == []  # nothing left to change


async def test_reinforcement_resets_the_decay(mem: Memory, clock: Clock) -> None:
    await mem.write("My knee hurts.", user_id="u", occurred_at=T0)
    clock.at = T0 + 60 * DAY
    await mem.decay(user_id="u")
    assert (await fact_of(mem, "knee")).status is FactStatus.AGING
    # said again: validated now, active again, and no longer in need of validation
    await mem.write("My knee hurts.", user_id="u", occurred_at=T0 + 60 * DAY)
    knee = await fact_of(mem, "knee")
    assert knee.status is FactStatus.ACTIVE
    assert knee.last_validated_at == T0 + 60 * DAY
    assert knee.reinforcement_count == 2
    assert (await mem.decay(user_id="u", dry_run=True)).changes == []
    packet = await mem.read("How is my knee?", user_id="u", reference_time=T0 + 60 * DAY)
    assert not packet.sections.needs_validation
    assert [e.text for e in packet.sections.consider] == ["My knee hurts."]


async def test_a_fact_whose_every_source_was_marked_incorrect_is_invalidated(
    mem: Memory,
) -> None:
    written = await mem.write("I live in Lisbon.", user_id="u", occurred_at=T0)
    await mem.write("My name is Ada Lovelace.", user_id="u", occurred_at=T0)
    lisbon = await fact_of(mem, "Lisbon")
    await mem.update(written.item_ids[0], feedback="incorrect")
    dry = await mem.decay(user_id="u", dry_run=True)
    [change] = dry.changes
    assert (change.fact_id, change.after) == (lisbon.id, "invalidated")
    assert (await fact_of(mem, "Lisbon")).status is FactStatus.ACTIVE

    await mem.decay(user_id="u")
    assert "Lisbon" not in " ".join(f.text for f in await mem.facts(user_id="u"))
    stored = await fact_of(mem, "Lisbon", include_history=True)
    assert stored.status is FactStatus.INVALIDATED
    packet = await mem.read("Where do I live?", user_id="u", reference_time=T0)
    assert "Lisbon" not in packet.to_markdown()


async def test_the_read_decays_at_its_own_reference_time(mem: Memory, clock: Clock) -> None:
    await mem.write("My knee hurts.", user_id="u", occurred_at=T0)
    clock.at = T0 + 365 * DAY  # the clock is far ahead; the read replays its own time
    early = await mem.read("How is my knee?", user_id="u", reference_time=T0 + 10 * DAY)
    assert [e.text for e in early.sections.consider] == ["My knee hurts."]
    assert not early.sections.needs_validation
    [entry] = early.sections.consider
    assert entry.effective_confidence == pytest.approx(0.8 * 0.5 ** (10 / 30), abs=1e-3)

    late = await mem.read(
        "How is my knee?", user_id="u", reference_time=T0 + 60 * DAY, explain=True
    )
    assert not late.sections.consider
    [aging] = late.sections.needs_validation
    assert aging.text == "My knee hurts."
    assert aging.effective_confidence is not None
    assert aging.effective_confidence < AGING_BELOW
    assert "### Needs validation" in late.to_markdown()
    assert late.explain is not None
    [why] = [e for e in late.explain if e.id == aging.id]
    assert why.outcome == "section:needs_validation"
    assert why.signals["confidence"] == pytest.approx(0.8)
    assert why.signals["effective_confidence"] == pytest.approx(0.2, abs=1e-3)


async def test_a_binding_constraint_is_never_shown_as_needing_validation(mem: Memory) -> None:
    await mem.write("I'm allergic to shellfish.", user_id="u", occurred_at=T0)
    packet = await mem.read(
        "Can you recommend a seafood restaurant?", user_id="u", reference_time=T0 + 3650 * DAY
    )
    assert [e.text for e in packet.sections.must_follow] == ["I'm allergic to shellfish."]
    assert not packet.sections.needs_validation
