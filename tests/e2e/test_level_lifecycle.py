"""The lifecycle per level: consolidate, decay, the forgetting policy, forget and export
run on one level's memories — a user's, an agent's (``agent_id`` with no user) or the
organisation's (``scope: {"level": "organisation"}``) — and a shared level's run never
reads or changes a user's memories or another level's. Through ``Memory`` on both
backends (a queued job on SQLite, whose queue is built in)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cognimem import InvalidInput, Memory
from cognimem.models import ItemKind, Scope
from cognimem.store.types import FactQuery, ItemFilter
from tests.e2e.cli_runner import cognimem, cognimem_here

ORG: dict[str, Any] = {"level": "organisation"}
LEVELS: list[dict[str, Any]] = [
    {"scope": ORG},
    {"agent_id": "ops"},
    {"agent_id": "sales"},
    {"user_id": "ada"},
    {"user_id": "ada", "agent_id": "ops"},
    {"user_id": "bob"},
]
SAID = [
    "We moved the office to Leeds in March.",
    "The quarterly review is on Fridays.",
    "I prefer tea over coffee.",
    "My manager is Sam Jones.",
]


async def _fill(memory: Memory) -> None:
    for who in LEVELS:
        for text in SAID:
            await memory.write(text, **who)


def _whose(scope: Scope) -> tuple[str | None, str | None]:
    return scope.user_id, scope.agent_id


async def _items(memory: Memory, **kinds: Any) -> list[Any]:
    """Every item of the tenant (any user, any status; the organisation's too)."""
    store = memory.store
    every = ItemFilter(scope=Scope(), with_organisation=True, **kinds)
    ids = await store.list_item_ids(every, 10_000)
    return await store.get_items("default", ids)


async def _unconsolidated(memory: Memory) -> dict[tuple[str | None, str | None], int]:
    out: dict[tuple[str | None, str | None], int] = {}
    for i in await _items(memory, kinds=(ItemKind.EPISODE,), consolidated=False):
        out[_whose(i.scope)] = out.get(_whose(i.scope), 0) + 1
    return out


async def test_consolidating_the_organisation_touches_its_episodes_alone(memory: Memory) -> None:
    await _fill(memory)

    done = await memory.consolidate(scope=ORG)

    assert done.episodes == 4
    assert done.consolidated == 4
    left = await _unconsolidated(memory)
    assert (None, None) not in left
    # every agent's and user's episodes wait for their own level's run
    assert left == {(None, "ops"): 4, (None, "sales"): 4, ("ada", None): 4, ("ada", "ops"): 4,
                    ("bob", None): 4}  # fmt: skip
    summaries = await _items(memory, kinds=(ItemKind.SUMMARY,))
    assert summaries
    assert {_whose(s.scope) for s in summaries} == {(None, None)}


async def test_an_agents_consolidation_reads_and_writes_its_level_alone(memory: Memory) -> None:
    await _fill(memory)

    done = await memory.consolidate(agent_id="ops")

    assert done.episodes == 4  # not ada's turns with ops: they are ada's
    left = await _unconsolidated(memory)
    assert (None, "ops") not in left
    assert left[("ada", "ops")] == 4
    assert left[(None, None)] == 4
    summaries = await _items(memory, kinds=(ItemKind.SUMMARY,))
    assert {_whose(s.scope) for s in summaries} == {(None, "ops")}
    # a user's run still reads every agent's turns with that user, and no shared level
    assert (await memory.consolidate(user_id="ada", dry_run=True)).episodes == 8


async def test_decay_weighs_one_levels_facts(memory: Memory) -> None:
    await _fill(memory)
    facts = [  # the namespace's rows and the organisation's (every namespace's)
        f
        for namespace in ("default", Scope().organisation().namespace)
        for f in await memory.store.find_facts(
            FactQuery("default", namespace, None, all_users=True)
        )
    ]
    by_level: dict[tuple[str | None, str | None], int] = {}
    for f in facts:
        key = (f.scope.user_id, None if f.scope.user_id else f.scope.agent_id)
        by_level[key] = by_level.get(key, 0) + 1
    assert by_level[(None, None)]
    assert by_level[(None, "ops")]

    assert (await memory.decay(scope=ORG, dry_run=True)).facts == by_level[(None, None)]
    assert (await memory.decay(agent_id="ops", dry_run=True)).facts == by_level[(None, "ops")]
    assert (await memory.decay(user_id="bob", dry_run=True)).facts == by_level[("bob", None)]


async def test_the_forgetting_policy_plans_over_one_level(memory: Memory) -> None:
    await _fill(memory)
    whose = {i.id: _whose(i.scope) for i in await _items(memory)}

    for level, call in (((None, None), {"scope": ORG}), ((None, "sales"), {"agent_id": "sales"})):
        plan = await memory.forget_by_policy(dry_run=True, **call)
        assert plan.scored == 4
        assert {whose[d.id] for d in plan.plan} == {level}
    plan = await memory.forget_by_policy(user_id="ada", dry_run=True)
    assert {whose[d.id] for d in plan.plan} == {("ada", None), ("ada", "ops")}


async def test_forget_at_a_level_never_reaches_a_users_memories(memory: Memory) -> None:
    await _fill(memory)
    items = await _items(memory)
    adas = [i.id for i in items if i.scope.user_id == "ada"]

    # by ids: a user's item named at the agent's level is not the agent's
    assert (await memory.forget(ids=adas, agent_id="ops")).item_ids == []
    # by time range: the organisation's items alone
    gone = await memory.forget(since=items[-1].occurred_at.replace(year=2000), scope=ORG)
    assert {_whose(i.scope) for i in items if i.id in gone.item_ids} == {(None, None)}
    assert len(gone.item_ids) == 4
    left = {_whose(i.scope) for i in await _items(memory)}
    assert (None, None) not in left
    assert ("ada", None) in left
    assert (None, "ops") in left
    # a level named with a user is refused, never read as every user
    with pytest.raises(InvalidInput):
        await memory.forget(ids=adas, scope={**ORG, "user_id": "ada"})


async def test_an_export_of_a_level_holds_that_level_alone(memory: Memory) -> None:
    await _fill(memory)

    for level, scope in (((None, "ops"), {"agent_id": "ops"}), ((None, None), ORG)):
        records = [r async for r in memory.export(scope=scope)]
        owned = [r.data["scope"] for r in records if r.type in ("event", "item", "fact")]
        assert owned
        assert {(s.get("user_id"), s.get("agent_id")) for s in owned} == {level}
        assert sum(r.type == "item" for r in records) == 4


async def test_a_level_is_said_never_left_out(memory: Memory) -> None:
    await _fill(memory)
    # no user, no agent and no level: refused, never the organisation's or every user's
    for call in (memory.consolidate, memory.decay):
        with pytest.raises(InvalidInput) as caught:
            await call(dry_run=True)
        assert caught.value.field == "scope.level"
    with pytest.raises(InvalidInput):
        await memory.run_lifecycle("decay", scope={"agent_id": "ops", "session_id": "s1"})


async def test_a_lifecycle_job_runs_on_one_level(db_url: str) -> None:
    from cognimem import Settings
    from cognimem.providers.fakes import HashingEmbedder

    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        await _fill(memory)
        dry = await memory.run_lifecycle("consolidate", agent_id="ops", dry_run=True)
        assert dry.result is not None
        assert dry.result["episodes"] == 4
        queued = await memory.run_lifecycle("consolidate", scope=ORG, key="k1")
        again = await memory.run_lifecycle("consolidate", scope=ORG, key="k1")
        ops = await memory.run_lifecycle("consolidate", agent_id="ops", key="k1")
        assert queued.job is not None
        assert again.job is not None
        assert ops.job is not None
        assert queued.job.id == again.job.id != ops.job.id  # a level's own job
        while await memory.process_next_job("w1") is not None:
            pass
        done = await memory.get_job(queued.job.id)
        assert done.state.value == "done", done.error
        left = await _unconsolidated(memory)
        assert (None, None) not in left
        assert (None, "ops") not in left
        assert left[("ada", None)] == 4
        assert left[(None, "sales")] == 4


def test_the_cli_runs_the_lifecycle_and_export_at_one_level(db_url: str) -> None:
    # the first command as a real process (the entry point); the rest in this one, the
    # same Typer app and output without a process start each (~1.5 s of CPU)
    cognimem("remember", "We moved the office to Leeds in March.", "--organisation",
             db_url=db_url)  # fmt: skip
    cognimem_here("remember", "The deploy window is on Tuesdays.", "--agent", "ops",
                  db_url=db_url)  # fmt: skip
    cognimem_here("remember", "I prefer tea over coffee.", "--user", "ada", db_url=db_url)

    run = cognimem_here("lifecycle", "consolidate", "--organisation", "--dry-run", db_url=db_url)
    assert json.loads(run.stdout)["result"]["episodes"] == 1
    assert json.loads(run.stdout)["scope"]["user_id"] is None
    exported = cognimem_here("export", "--agent", "ops", db_url=db_url).stdout.splitlines()
    records = [json.loads(x) for x in exported]
    items = [r["data"]["text"] for r in records if r["type"] == "item"]
    assert items == ["The deploy window is on Tuesdays."]
    # the organisation is said with its flag: with another level it is refused
    both = cognimem_here("lifecycle", "decay", "--organisation", "--user", "ada", "--dry-run",
                         db_url=db_url, check=False)  # fmt: skip
    assert both.returncode != 0
    assert "organisation's level" in both.stderr


async def test_the_sdk_runs_the_lifecycle_and_export_at_one_level(memory: Memory) -> None:
    import httpx

    from cognimem import AsyncMemoryClient
    from cognimem.api import create_app
    from tests.doubles import new_api_key

    await _fill(memory)
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    async with AsyncMemoryClient("http://cognimem.test", transport=transport, api_key=key) as sdk:
        run = await sdk.run_lifecycle("consolidate", agent_id="ops", dry_run=True)
        assert run.result is not None
        assert run.result["episodes"] == 4
        assert (run.scope.user_id, run.scope.agent_id) == (None, "ops")
        records = [r async for r in sdk.export(scope=ORG)]
        items = [r.data["scope"] for r in records if r.type == "item"]
        assert len(items) == 4
        assert {(s.get("user_id"), s.get("agent_id")) for s in items} == {(None, None)}
