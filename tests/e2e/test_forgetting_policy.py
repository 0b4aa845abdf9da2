"""The forgetting policy and the write gate's scores through ``Memory``, on SQLite and
PostgreSQL: importance and novelty stored at write time (rules, and an LLM's judgment),
each action of the policy, its protections, a dry run that changes nothing, and the
store's dependency counts against the truth read back through ``Memory``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cognimem import InvalidInput, Memory, Settings
from cognimem.models import ItemKind, ItemStatus, Scope
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm.fakes import ScriptedLLM
from cognimem.store import ItemFilter

T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
BANDS = ("decay", "silence", "compress", "archive", "delete")


class Clock:
    """The Memory's clock: simulated time the test moves by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def only_band(action: str) -> Settings:
    """Settings whose policy sends every unprotected item to ``action`` (no minimum
    age), and no other band."""
    bands = {b: {"below": 1.0 if b == action else None, "min_age_days": 0.0} for b in BANDS}
    return Settings.model_validate({"lifecycle": {"forgetting": bands}})


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def open_at(url: str, clock: Clock, settings: Settings | None = None, **kw: Any) -> Memory:
    mem = Memory.open(
        url, settings=settings or Settings(), embedder=HashingEmbedder(), clock=clock, **kw
    )
    await mem.start()
    return mem


@pytest.fixture
async def mem(memory_url: str, clock: Clock) -> AsyncIterator[Memory]:
    m = await open_at(memory_url, clock)
    try:
        yield m
    finally:
        await m.aclose()


async def say(m: Memory, text: str, minutes: int, **kw: Any) -> str:
    done = await m.write(text, user_id="ada", occurred_at=T0 + timedelta(minutes=minutes), **kw)
    [item_id] = done.item_ids
    return item_id


# -- the write gate ---------------------------------------------------------------------------


async def test_the_write_gate_stores_importance_and_novelty(mem: Memory) -> None:
    chatter = await say(mem, "haha yeah", 0)
    allergy = await say(mem, "I'm allergic to peanuts", 1)
    plans = await say(mem, "We are planning a trip to the mountains in June", 2)
    again = await say(mem, "We are planning a long trip to the high mountains in late June", 3)
    rule = await say(mem, "Always answer in English", 4, profile="mandate")
    items = {i.id: i for i in await mem.store.get_items("default", [chatter, allergy, plans,
                                                                       again, rule])}  # fmt: skip
    assert items[chatter].importance < 0.35  # small talk
    assert items[allergy].importance >= 0.9  # a constraint: never below the floor
    assert items[chatter].importance < items[plans].importance < items[allergy].importance
    assert items[rule].importance == 1.0  # the profile's word
    assert items[chatter].novelty == 1.0  # the scope held nothing yet
    # a near-repeat tells less that is new than its first telling did
    assert items[again].novelty is not None
    assert items[plans].novelty is not None
    assert items[again].novelty < 0.5 < items[plans].novelty


async def test_an_llm_judges_importance_when_one_is_configured(
    memory_url: str, clock: Clock
) -> None:
    def answer(importance: float) -> str:
        return json.dumps({"messages": [{"index": 0, "extraction": {"importance": importance}}]})

    llm = ScriptedLLM(answer(0.95), answer(0.05))
    m = await open_at(memory_url, clock, llm=llm)
    try:
        vital = await say(m, "the meeting moved", 0)
        trivial = await say(m, "The board approved the merger with Initech for 4 million", 1)
        items = {i.id: i for i in await m.store.get_items("default", [vital, trivial])}
    finally:
        await m.aclose()
    assert llm.call_count == 2
    # the model's judgement, not the text's look: a short line it calls vital is kept high
    assert items[vital].importance == 0.95
    assert items[trivial].importance < 0.4


# -- the policy --------------------------------------------------------------------------------


async def a_month_old_life(m: Memory) -> dict[str, str]:
    ids = {
        "chatter": await say(m, "haha yeah", 0),
        "thanks": await say(m, "ok cool, thanks", 1),
        "weather": await say(m, "It rained all afternoon in town", 2),
        "allergy": await say(m, "I'm allergic to peanuts", 3),
        "sister": await say(m, "My sister Ana lives in Lyon", 4),
        "mandate": await say(m, "Always answer in English", 5, profile="mandate"),
    }
    m_clock: Clock = m._parts.clock  # type: ignore[assignment]
    m_clock.now = T0 + timedelta(days=30)
    return ids


PROTECTED = ("allergy", "sister", "mandate")
FREE = ("chatter", "thanks", "weather")


@pytest.mark.parametrize("action", BANDS)
async def test_each_action_of_the_policy(memory_url: str, clock: Clock, action: str) -> None:
    m = await open_at(memory_url, clock, only_band(action))
    try:
        ids = await a_month_old_life(m)
        before = {i.id: i for i in await m.store.get_items("default", list(ids.values()))}
        dry = await m.forget_by_policy(user_id="ada", dry_run=True)
        by_id = {d.id: d for d in dry.plan}
        assert {by_id[ids[n]].action for n in FREE} == {action}
        assert all(by_id[ids[n]].action == "keep" for n in PROTECTED)
        assert by_id[ids["mandate"]].reason == "protected: mandate"
        assert by_id[ids["allergy"]].reason == "protected: active constraint"
        assert by_id[ids["sister"]].reason.startswith("protected: live dependents")
        assert all(0.0 <= d.score <= 1.0 for d in dry.plan)
        # the dry run changed nothing
        assert {i.id: i for i in await m.store.get_items("default", list(ids.values()))} == before
        assert [await m.history(ids[n]) for n in FREE] == [[], [], []]

        done = await m.forget_by_policy(user_id="ada")
        after = {i.id: i for i in await m.store.get_items("default", list(ids.values()))}
        for n in PROTECTED:  # untouched
            assert after[ids[n]] == before[ids[n]]
        free = [ids[n] for n in FREE]
        if action == "decay":
            assert done.decayed == 3
            for i in free:
                assert after[i].importance == pytest.approx(round(before[i].importance * 0.8, 4))
                assert after[i].status is ItemStatus.ACTIVE
            [entry] = await m.history(free[0])
            assert (entry.action, entry.actor) == ("decayed", "forgetting")
        elif action == "delete":
            assert done.deleted == 3
            assert not any(i in after for i in free)
        elif action == "compress":
            assert done.compressed == 3
            assert done.summaries_written >= 1
            [summary] = await m.store.get_items("default", done.summary_ids[:1])
            assert summary.kind is ItemKind.SUMMARY
            assert summary.status is ItemStatus.ACTIVE
            stated = {i for c in summary.metadata["consolidation"]["claims"] for i in c["item_ids"]}
            assert stated
            assert stated <= set(free)
            for i in free:  # folded: a stated one stays as the summary's provenance
                want = ItemStatus.ACTIVE if i in stated else ItemStatus.ARCHIVED
                assert (after[i].status, after[i].consolidated) == (want, True)
            # now it has a live dependent: the next run keeps it
            again = await m.forget_by_policy(user_id="ada", dry_run=True)
            assert {d.id: d.action for d in again.plan}[next(iter(stated))] == "keep"
        else:
            status = {"silence": ItemStatus.SILENT, "archive": ItemStatus.ARCHIVED}[action]
            assert all(after[i].status is status for i in free)
            assert getattr(done, {"silence": "silenced", "archive": "archived"}[action]) == 3
            [entry] = await m.history(free[0])
            assert entry.actor == "forgetting"
        assert done.facts_orphaned == []
    finally:
        await m.aclose()


async def test_the_default_policy_forgets_small_talk_and_keeps_what_is_used(mem: Memory) -> None:
    ids = await a_month_old_life(mem)
    used = await say(mem, "The gym closes at 9 on weekdays", 6)
    mem_clock: Clock = mem._parts.clock  # type: ignore[assignment]
    for day in range(1, 30, 3):  # read for it every few days
        mem_clock.now = T0 + timedelta(days=day)
        packet = await mem.read("when does the gym close?", user_id="ada")
        assert used in [i.id for i in packet.items]
    mem_clock.now = T0 + timedelta(days=30)
    plan = {d.id: d for d in (await mem.forget_by_policy(user_id="ada", dry_run=True)).plan}
    assert plan[used].action == "keep"
    assert plan[ids["chatter"]].action != "keep"
    assert plan[ids["chatter"]].score < plan[used].score


async def test_a_scope_without_a_user_or_a_level_is_refused(mem: Memory) -> None:
    # no user and no agent is not the organisation's level: that is said explicitly
    with pytest.raises(InvalidInput) as caught:
        await mem.forget_by_policy()
    assert caught.value.field == "scope.level"


async def test_dependency_counts_from_the_store_match_the_truth(mem: Memory) -> None:
    for n, text in enumerate([
        "My sister Ana lives in Lyon", "I'm allergic to peanuts", "I work at Acme as a nurse",
        "haha yeah", "I love Italian food", "My brother Tom lives in Oslo",
        "We hiked the ridge trail on Saturday", "I'm vegetarian", "ok cool",
    ]):  # fmt: skip
        await say(mem, text, n)
    await mem.consolidate(user_id="ada")
    rows = await mem.store.retention_rows("default", "default", "ada")
    facts = await mem.facts(user_id="ada")
    entities = [e.id for e, _ in await mem.entities(user_id="ada")]
    relations = [r for r in await mem.relations(entities, user_id="ada") if r.active]
    summary_ids = await mem.store.list_item_ids(
        ItemFilter(scope=Scope(tenant_id="default", user_id="ada"), kinds=(ItemKind.SUMMARY,)), 1000
    )
    summaries = await mem.store.get_items("default", summary_ids)
    assert facts
    assert relations
    assert summaries
    for r in rows:
        citing = [f for f in facts if r.id in f.evidence_item_ids]
        assert r.facts == len(citing)
        assert r.constraints == sum(f.is_constraint for f in citing)
        assert r.relations == sum(1 for e in relations if e.fact_id in {f.id for f in citing})
        assert r.summaries == sum(
            1
            for s in summaries
            if s.status is ItemStatus.ACTIVE
            and any(r.id in c["item_ids"] for c in s.metadata["consolidation"]["claims"])
        )
    assert any(r.summaries for r in rows)
    assert any(r.relations for r in rows)


# -- the faces: CLI (a real subprocess), HTTP and SDK (a real server) ---------------------------


def test_the_cli_runs_the_policy_dry_then_for_real(db_url: str) -> None:
    from tests.e2e.test_cli_lifecycle import cli

    async def seed() -> dict[str, str]:
        clock = Clock()
        clock.now = datetime.now(UTC) - timedelta(days=60)  # said two months ago
        m = await open_at(db_url, clock)
        try:
            return {
                "chatter": await say(m, "haha yeah", 0),
                "allergy": await say(m, "I'm allergic to peanuts", 1),
            }
        finally:
            await m.aclose()

    ids = asyncio.run(seed())
    dry = cli("lifecycle", "forget_policy", "--user", "ada", "--dry-run", db_url=db_url,
              with_op=False)  # fmt: skip
    assert dry.returncode == 0, dry.stderr
    answer = json.loads(dry.stdout)
    plan = {d["id"]: d for d in answer["result"]["plan"]}
    assert plan[ids["allergy"]]["reason"] == "protected: active constraint"
    assert plan[ids["chatter"]]["action"] in ("compress", "archive", "delete")
    assert answer["summary"]["scored"] == 2
    ran = cli("lifecycle", "forget_policy", "--user", "ada", db_url=db_url, with_op=False)
    assert ran.returncode == 0, ran.stderr
    job = json.loads(ran.stdout)["job"]
    assert job["state"] == "done"
    assert job["result"]["protected"] == 1


async def test_http_and_sdk_run_the_policy(memory_url: str, clock: Clock) -> None:
    from cognimem.api import create_app
    from cognimem.client import AsyncMemoryClient
    from tests.doubles import issue_api_key
    from tests.e2e.http_server import serving

    m = await open_at(memory_url, clock)
    try:
        ids = await a_month_old_life(m)
    finally:
        await m.aclose()
    server = Memory.open(memory_url, embedder=HashingEmbedder(), clock=clock)
    with serving(create_app(server)) as base:
        async with AsyncMemoryClient(base, api_key=issue_api_key(memory_url)) as sdk:
            dry = await sdk.run_lifecycle("forget_policy", user_id="ada", dry_run=True)
    assert dry.job is None
    assert dry.result is not None
    plan = {d["id"]: d for d in dry.result["plan"]}
    assert plan[ids["mandate"]]["reason"] == "protected: mandate"
    assert dry.summary is not None
    assert dry.summary["scored"] == len(ids)


# -- summaries and what they state -------------------------------------------------------------

# twelve messages over three days, months before consolidation and the policy run: the
# summaries tell of early January, and are written in November
JANUARY = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
NOVEMBER = datetime(2025, 11, 20, 9, 0, tzinfo=UTC)
TWELVE = [
    "We hiked the ridge trail on Saturday", "My sister Ana lives in Lyon", "haha yeah",
    "The bakery on Main Street sells rye bread", "I work at Acme as a nurse", "ok cool",
    "We watched a movie about sharks", "My brother Tom lives in Oslo", "lol sounds good",
    "The ferry to the island was late again", "I love Italian food", "thanks, good night",
]  # fmt: skip


async def dangling_claims(m: Memory) -> list[tuple[str, str, str]]:
    """Each claim of an active or silent summary that states an item no longer there
    (deleted) or let go (archived): (summary, item, what became of it)."""
    rows = {r.id: r for r in await m.store.retention_rows("default", "default", "ada")}
    summaries = await m.store.get_items(
        "default", [i for i, r in rows.items() if r.kind is ItemKind.SUMMARY]
    )
    out = []
    for s in summaries:
        if s.status not in (ItemStatus.ACTIVE, ItemStatus.SILENT):
            continue
        for claim in s.metadata["consolidation"]["claims"]:
            for item_id in claim["item_ids"]:
                found = rows.get(item_id)
                if found is None or found.status is ItemStatus.ARCHIVED:
                    out.append((s.id, item_id, "deleted" if found is None else "archived"))
    return out


# the default policy archives forgotten episodes; this one deletes them instead
DELETING = Settings.model_validate({"lifecycle": {"forgetting": {"delete": {"below": 0.22}}}})


@pytest.mark.parametrize("settings", [Settings(), DELETING], ids=["archiving", "deleting"])
async def test_the_policy_never_forgets_what_a_kept_summary_states(
    memory_url: str, clock: Clock, settings: Settings
) -> None:
    """Consolidate, then run the policy three times, every message's importance 0: a
    summary ages from when it was written, not from the period it tells of, and an
    item stated by an active or silent summary is never archived or deleted."""
    clock.now = NOVEMBER
    m = await open_at(memory_url, clock, settings)
    try:
        for n, text in enumerate(TWELVE):
            done = await m.write(text, user_id="ada", occurred_at=JANUARY + timedelta(hours=5 * n))
            await m.update(done.item_ids[0], importance=0.0)
        written = await m.consolidate(user_id="ada")
        assert written.written >= 2
        runs = []
        for days in (0, 300, 400):
            clock.now = NOVEMBER + timedelta(days=days)
            runs.append(await m.forget_by_policy(user_id="ada"))
            assert await dangling_claims(m) == [], f"after the run {days} days on"
        first = {d.id: d for d in runs[0].plan}
        for summary_id in written.summary_ids:  # written today: fresh, whatever it tells of
            assert (first[summary_id].action, first[summary_id].reason) == (
                "keep",
                f"score {first[summary_id].score:.3f}",
            )
        # the runs did forget: the episodes no summary states went; the summaries,
        # unused for three hundred days, were silenced, and what they state stays
        forgot = "deleted" if settings is DELETING else "archived"
        assert sum(getattr(r, forgot) for r in runs) > 0
        silenced = {d.id: d.action for d in runs[1].plan}
        assert {silenced[s] for s in written.summary_ids} == {"silence"}
        stated = {
            i
            for s in await m.store.get_items("default", written.summary_ids)
            for c in s.metadata["consolidation"]["claims"]
            for i in c["item_ids"]
        }
        assert stated
        last = {d.id: d for d in runs[2].plan}
        assert {last[s].status for s in written.summary_ids} == {"silent"}
        assert all(last[i].reason.startswith("protected: live dependents") for i in stated)
    finally:
        await m.aclose()
