"""A month in the life of one scope, on the embedded default (SQLite outbox) and on
PostgreSQL + Redis: a scripted agent writes and reads every simulated day for 30 days
(the Memory's clock and every write's ``occurred_at`` are simulated time, never the wall
clock), and at the end of each day the worker's scheduler queues the lifecycle jobs due
(``forget_policy`` and ``consolidate`` on their default schedules) and a worker runs
them. The forgetting policy must keep the active store bounded while every constraint
and every memory the agent keeps reading is still recalled."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory
from cognimem.models import ItemKind, ItemStatus, Scope
from cognimem.store import ItemFilter
from tests import servers
from tests.lifecycle_ops import memory_for, new_name

T0 = datetime(2024, 3, 4, 8, 0, tzinfo=UTC)
DAYS = 30
USER = "sam"
# said once; the policy must never forget them (the reads check Must follow / Consider)
CONSTRAINTS = {
    0: ("I'm allergic to peanuts", "peanuts"),
    4: ("I'm vegetarian", "vegetarian"),
    9: ("I never fly on Sundays", "fly"),
}
# said once, then read for every other day: the agent needs them
NEEDED = {
    1: ("The gym closes at 9 on weekdays", "when does the gym close on weekdays?"),
    3: ("My dentist is Dr. Okafor on Pine Street", "who is my dentist and where?"),
    6: ("Our team standup moved to 10:30", "what time is the team standup?"),
}
CHATTER = ["haha yeah", "ok cool", "lol", "sounds good", "thanks!", "nice", "sure", "good night"]
THINGS = [
    "pancakes", "traffic", "rain", "podcast", "laundry", "sunset", "coffee", "bus", "emails",
    "garden", "puzzle", "groceries", "movie", "playlist", "cat", "bakery", "jogging", "paint",
    "library", "tea", "kite", "market", "snow", "bike", "soup", "museum", "ferry", "candles",
    "printer", "picnic",
]  # fmt: skip
FEELINGS = ["fun", "boring", "long", "relaxing", "odd", "busy", "quiet", "great"]


def chatter(day: int, n: int) -> str:
    return f"{CHATTER[(day + n) % len(CHATTER)]}, {THINGS[(day * 3 + n) % len(THINGS)]} again"


def note(day: int, n: int) -> str:
    thing = THINGS[(day * 7 + n * 11) % len(THINGS)]
    return f"Spent some time with the {thing} today and it felt {FEELINGS[(day + n) % 8]}"


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


Backend = tuple[str, str | None, str]


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, db_url: str) -> Backend:
    if request.param == "sqlite":
        return db_url, None, new_name()
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    return str(request.getfixturevalue("postgres_dsn")), redis.url, new_name()


async def active_items(mem: Memory) -> tuple[int, int]:
    """Active items: all of them, and those neither a summary nor stated by one (a
    summary's stated sentences keep their items as its provenance)."""
    rows = await mem.store.retention_rows("default", "default", USER)
    active = [r for r in rows if r.status is ItemStatus.ACTIVE]
    assert len(active) == await mem.store.count_items(ItemFilter(scope=Scope(user_id=USER)))
    return len(active), sum(1 for r in active if r.kind is not ItemKind.SUMMARY and not r.summaries)


async def run_due_jobs(mem: Memory) -> list[str]:
    """One scheduler tick, then work the queue dry (as `cognimem worker` would)."""
    await mem.schedule_lifecycle()
    ops = []
    while (job := await mem.process_next_job("sim")) is not None:
        ops.append(str(job.payload.get("op", job.kind)))
    return ops


async def test_a_month_of_daily_use_stays_bounded_and_recalls_what_matters(
    backend: Backend,
) -> None:
    clock = Clock()
    settings = {
        "lifecycle": {"operations": {"revise": {"interval_s": None, "after_episodes": None}}}
    }
    mem = memory_for(*backend, settings=settings, clock=clock)
    await mem.start()
    try:
        written: list[str] = []
        needed: dict[str, str] = {}  # item id -> the question the agent asks for it
        constraint_ids: dict[str, str] = {}
        active_by_day: list[tuple[int, int]] = []
        written_by_day: list[int] = []
        ran: list[str] = []
        for day in range(DAYS):
            start = T0 + timedelta(days=day)
            texts = [chatter(day, n) for n in range(6)] + [note(day, n) for n in range(2)]
            if day in CONSTRAINTS:
                texts.append(CONSTRAINTS[day][0])
            if day in NEEDED:
                texts.append(NEEDED[day][0])
            for n, text in enumerate(texts):
                clock.now = start + timedelta(minutes=10 * n)
                done = await mem.write(text, user_id=USER, session_id=f"day-{day}",
                                       occurred_at=clock.now)  # fmt: skip
                written += done.item_ids
                if day in CONSTRAINTS and text == CONSTRAINTS[day][0]:
                    constraint_ids[CONSTRAINTS[day][1]] = done.item_ids[0]
                if day in NEEDED and text == NEEDED[day][0]:
                    needed[done.item_ids[0]] = NEEDED[day][1]
            # the agent reads: every other day what it needs, and a decision question
            clock.now = start + timedelta(hours=12)
            if day % 2 == 0:
                for item_id, question in needed.items():
                    packet = await mem.read(question, user_id=USER)
                    assert item_id in [i.id for i in packet.items], (day, question)
            clock.now = start + timedelta(hours=23)
            ran += await run_due_jobs(mem)
            active_by_day.append(await active_items(mem))
            written_by_day.append(len(set(written)))

        assert "forget_policy" in ran
        assert "consolidate" in ran
        total = written_by_day[-1]
        active = [a for a, _ in active_by_day]
        loose = [f for _, f in active_by_day]
        # bounded: the episodes nothing summarises level off while writing goes on at
        # the same pace (a summary a day and the sentences it states remain: forgotten
        # in turn as they age, on their own half-life)
        assert max(loose[22:]) <= max(loose[15:20]) * 1.15, active_by_day
        grown, wrote = active[-1] - active[19], written_by_day[-1] - written_by_day[19]
        assert grown <= 0.35 * wrote, (active_by_day, written_by_day)
        assert active[-1] < 0.7 * total, (active_by_day, total)
        # every constraint still recalled, as a constraint, and its memory still active
        clock.now = T0 + timedelta(days=DAYS, hours=1)
        for word, item_id in constraint_ids.items():
            [item] = await mem.store.get_items("default", [item_id])
            assert item.status is ItemStatus.ACTIVE, word
        # a decision that names what each constraint is about: the test's hashing
        # embedder sees shared words, while its closeness between "dinner" and "I'm
        # vegetarian" is noise the profile's ranking would be tested on instead of what
        # forgetting kept (the real model's reach is measured by benchmarks/cue_trigger*)
        decision = await mem.read(
            "Can you book me a vegetarian dinner with no peanuts?", user_id=USER
        )
        said = " ".join(c.text for c in decision.sections.must_follow + decision.sections.consider)
        for word in ("peanuts", "vegetarian"):
            assert word in said, (word, said)
        flights = await mem.read("Can I fly out on Sunday?", user_id=USER)
        rules = flights.sections.must_follow + flights.sections.consider
        assert any("fly" in c.text for c in rules)
        # every memory the agent kept using is still recalled
        for item_id, question in needed.items():
            packet = await mem.read(question, user_id=USER)
            assert item_id in [i.id for i in packet.items[:10]], question
        # and what was forgotten was small talk and notes nobody read, not the above
        kept = {i.id for i in await mem.store.get_items("default", written)
                if i.status is ItemStatus.ACTIVE}  # fmt: skip
        assert set(needed) | set(constraint_ids.values()) <= kept
    finally:
        await mem.aclose()
