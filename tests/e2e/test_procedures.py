"""Procedural memory end to end, on both backends: a scripted tool-using agent repeats
"deploy the staging build" → ``deploy(env="staging", build=N)`` over several sessions;
the ``procedures`` lifecycle operation learns one procedure with the right count and
provenance (a dry run changes nothing, a second run nothing either); a request that
matches its trigger gets it in the packet, with why; one that does not, does not; a
turn that does it again reinforces it; tool-discovery writes count and still reach the
packet as before; the listing over HTTP, the SDK and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from cognimem import AsyncMemoryClient, InvalidInput, Memory
from cognimem.api import create_app
from cognimem.models import Role
from cognimem.models.procedures import VARIES, ActionKind
from tests.doubles import new_api_key

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
ROOT = Path(__file__).resolve().parents[2]


def deploy_call(build: int) -> dict[str, Any]:
    return {"name": "deploy", "arguments": {"env": "staging", "build": build}}


async def agent(mem: Memory, user: str = "ada", agent_id: str | None = None) -> list[str]:
    """Four sessions of a tool-using agent (``agent_id``, when given), each deploying
    the staging build (the third through a tool-role message, the fourth in the OpenAI
    shape) among other requests; returns the ids of the deploy requests' events."""
    requests: list[str] = []
    scope = {"user_id": user, **({} if agent_id is None else {"agent_id": agent_id})}
    for day in range(4):
        at = T0 + day * DAY
        session = f"s{day}"
        ask = {"content": "Deploy the staging build", "occurred_at": at}
        if day == 2:
            stored = await mem.write_batch(
                [
                    ask,
                    {"content": "deployed build 43", "role": "tool", "name": "deploy",
                     "occurred_at": at, "metadata": {"arguments": {"env": "staging",
                                                                   "build": 43}}},
                    {"content": "Build 43 is on staging.", "role": "assistant",
                     "occurred_at": at},
                ],
                scope=scope,
                session_id=session,
            )  # fmt: skip
            requests.append(stored.messages[0].event_id)
        else:
            call: dict[str, Any] = deploy_call(41 + day)
            if day == 3:
                args = json.dumps(call["arguments"])
                call = {"type": "function", "function": {"name": "deploy", "arguments": args}}
            turn = await mem.turn(
                ask,
                {"content": f"Deploying build {41 + day} to staging.", "occurred_at": at,
                 "metadata": {"tool_calls": [call]}},
                scope=scope,
                session_id=session,
            )  # fmt: skip
            requests.append(turn.stored.messages[0].event_id)
        await mem.turn(
            {"content": f"What should I cook for dinner on day {day}?", "occurred_at": at},
            {"content": ["Try a risotto.", "Tacos!", "A curry.", "Soup."][day],
             "occurred_at": at},
            scope=scope,
            session_id=session,
        )  # fmt: skip
    return requests


async def test_a_tool_using_agent_yields_one_procedure(memory: Memory) -> None:
    requests = await agent(memory)

    dry = await memory.detect_procedures(user_id="ada", dry_run=True)
    assert dry.dry_run
    assert len(dry.created) == 1
    assert await memory.procedures(user_id="ada") == []  # a dry run changes nothing

    result = await memory.detect_procedures(user_id="ada")
    assert len(result.created) == 1
    assert result.reinforced == []
    (p,) = await memory.procedures(user_id="ada")
    assert p.id == result.created[0]
    assert p.trigger == "Deploy the staging build"
    assert p.observed_count == 4
    assert p.trigger_count == 4
    assert p.confidence == pytest.approx(0.8)
    assert p.action.kind is ActionKind.TOOL
    assert [t.name for t in p.action.tools] == ["deploy"]
    assert p.action.tools[0].arguments == {"env": "staging", "build": VARIES}
    assert sorted(p.request_event_ids) == sorted(requests)
    sources = await memory.get_events(p.source_event_ids, tenant_id="default")
    assert len(sources) == len(p.source_event_ids) == 9  # 4 asks, 4 answers, 1 tool message
    assert {e.role for e in sources} == {Role.USER, Role.ASSISTANT, Role.TOOL}
    assert all("dinner" not in e.content for e in sources)
    assert p.first_seen_at == T0
    assert p.last_seen_at == T0 + 3 * DAY
    # the dry run said what the run did
    assert dry.procedures[0].request_event_ids == p.request_event_ids

    again = await memory.detect_procedures(user_id="ada")  # idempotent
    assert again.created == []
    assert again.reinforced == []
    assert again.unchanged == [p.id]
    assert await memory.procedures(user_id="ada") == [p]
    assert await memory.procedures(user_id="bob") == []


async def test_a_matching_request_gets_the_procedure_in_its_packet(memory: Memory) -> None:
    await agent(memory)
    await memory.detect_procedures(user_id="ada")
    (p,) = await memory.procedures(user_id="ada")

    packet = await memory.read("please deploy the staging build", user_id="ada", explain=True)
    (entry,) = packet.sections.learned_procedures
    assert entry.id == p.id
    assert entry.observed_count == 4
    assert entry.matched == ["deplo", "stagi", "build"]
    assert entry.source_event_ids == p.source_event_ids
    markdown = packet.to_markdown()
    assert "### Learned procedures" in markdown
    assert 'call deploy(env="staging", build="<varies>") (done 4 times)' in markdown
    assert packet.token_count <= packet.max_tokens
    (step,) = [s for s in packet.steps if s.name == "learned_procedures"]
    assert step.results == 1
    (why,) = [e for e in packet.explain or [] if e.type == "procedure"]
    assert why.outcome == "section:learned_procedures"
    assert why.reason is not None
    assert "3 of the trigger's 3 words" in why.reason

    for other in ("what should I cook for dinner?", "what did I deploy last week?"):
        unrelated = await memory.read(other, user_id="ada")
        assert unrelated.sections.learned_procedures == [], other
    # another user's request never sees ada's procedures
    bob = await memory.read("deploy the staging build", user_id="bob")
    assert bob.sections.learned_procedures == []


async def test_a_tight_budget_leaves_the_procedure_out(memory: Memory) -> None:
    await agent(memory)
    await memory.detect_procedures(user_id="ada")
    packet = await memory.read("deploy the staging build", user_id="ada", max_tokens=60)
    assert packet.sections.learned_procedures == []
    assert packet.token_count <= 60


async def test_a_turn_that_does_it_again_reinforces_it(memory: Memory) -> None:
    await agent(memory)
    await memory.detect_procedures(user_id="ada")
    (p,) = await memory.procedures(user_id="ada")
    at = T0 + 5 * DAY
    turn = await memory.turn(
        {"content": "deploy the staging build", "occurred_at": at},
        {"content": "On it.", "occurred_at": at, "metadata": {"tool_calls": [deploy_call(46)]}},
        user_id="ada",
        session_id="s5",
    )
    assert [e.id for e in turn.packet.sections.learned_procedures] == [p.id]
    assert turn.procedures_reinforced == [p.id]
    (grown,) = await memory.procedures(user_id="ada")
    assert grown.observed_count == 5
    assert grown.confidence > p.confidence
    assert turn.stored.messages[0].event_id in grown.request_event_ids
    assert grown.last_seen_at == at
    # a turn that did something else reinforces nothing
    other = await memory.turn(
        {"content": "deploy the staging build", "occurred_at": at + DAY},
        {"content": "Not now, the pipeline is frozen.", "occurred_at": at + DAY},
        user_id="ada",
        session_id="s6",
    )
    assert other.procedures_reinforced == []
    # the lifecycle run then counts it against the procedure, and nothing twice
    rerun = await memory.detect_procedures(user_id="ada")
    assert rerun.reinforced == [p.id]
    (after,) = await memory.procedures(user_id="ada")
    assert after.observed_count == 5
    assert after.trigger_count == 6
    assert after.confidence < grown.confidence
    assert (await memory.detect_procedures(user_id="ada")).unchanged == [p.id]


async def test_tool_discovery_writes_count_and_still_reach_the_packet(memory: Memory) -> None:
    hint = await memory.write(
        "To deploy the staging build, call the deploy tool with env staging.",
        user_id="ada",
        profile="tool_discovery",
        occurred_at=T0,
    )
    # one explicit write alone is no repetition: no procedure
    assert (await memory.detect_procedures(user_id="ada")).created == []
    how = await memory.read("how do I deploy the staging build?", user_id="ada")
    assert [i.id for i in how.sections.procedures] == hint.item_ids  # as before

    await memory.turn(
        {"content": "Deploy the staging build", "occurred_at": T0 + DAY},
        {"content": "Done.", "occurred_at": T0 + DAY,
         "metadata": {"tool_calls": [deploy_call(7)]}},
        user_id="ada",
    )  # fmt: skip
    result = await memory.detect_procedures(user_id="ada")
    assert len(result.created) == 1
    assert result.hints == 1
    (p,) = await memory.procedures(user_id="ada")
    assert p.observed_count == 2
    assert hint.messages[0].event_id in p.source_event_ids
    assert p.action.kind is ActionKind.TOOL  # the calls say more than the sentence
    how = await memory.read("how do I deploy the staging build?", user_id="ada")
    assert [i.id for i in how.sections.procedures] == hint.item_ids
    assert [e.id for e in how.sections.learned_procedures] == [p.id]


async def test_bad_calls_are_refused(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as exc:
        await memory.detect_procedures()
    assert exc.value.field == "scope.user_id"
    with pytest.raises(InvalidInput) as exc:
        await memory.procedures(user_id="ada", limit=0)
    assert exc.value.field == "limit"


@pytest.fixture
async def client(memory: Memory) -> AsyncIterator[AsyncMemoryClient]:
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    async with AsyncMemoryClient("http://cognimem.test", transport=transport, api_key=key) as sdk:
        yield sdk


async def test_over_http_and_the_sdk(memory: Memory, client: AsyncMemoryClient) -> None:
    await agent(memory)
    dry = await client.run_lifecycle("procedures", user_id="ada", dry_run=True)
    assert dry.summary is not None
    assert dry.summary["created"] == 1
    assert await client.procedures(user_id="ada") == []
    await memory.detect_procedures(user_id="ada")
    (p,) = await client.procedures(user_id="ada")
    assert p == (await memory.procedures(user_id="ada"))[0]
    assert await client.procedures(user_id="bob") == []
    assert await client.procedures(user_id="ada", scope={"namespace": "other"}) == []
    with pytest.raises(InvalidInput) as exc:
        await client.procedures()  # no user
    assert exc.value.field == "scope.user_id"
    with pytest.raises(InvalidInput):  # the server's 422
        await client.procedures(user_id="ada", limit=0)


def test_the_cli_dry_run(db_url: str) -> None:
    import asyncio

    from cognimem.providers.fakes import HashingEmbedder

    async def seed() -> None:
        async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
            await agent(mem)

    asyncio.run(seed())
    env = {**os.environ, "COGNIMEM_DATABASE_URL": db_url, "COGNIMEM_EMBEDDING__MODEL": "hashing"}
    done = subprocess.run(
        [sys.executable, "-m", "cognimem", "lifecycle", "procedures", "--user", "ada",
         "--dry-run"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["dry_run"] is True
    assert out["summary"]["created"] == 1

    async def listed() -> int:
        async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
            return len(await mem.procedures(user_id="ada"))

    assert asyncio.run(listed()) == 0


async def test_the_operation_runs_as_a_job(db_url: str) -> None:
    from cognimem.providers.fakes import HashingEmbedder
    from cognimem.queue import JobState

    async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
        assert "procedures" in mem.lifecycle_operations
        await agent(mem)
        run = await mem.run_lifecycle("procedures", user_id="ada", key="k1")
        assert run.job is not None
        assert await mem.procedures(user_id="ada") == []  # queued, not run yet
        while (await mem.get_job(run.job.id)).state in (JobState.QUEUED, JobState.RUNNING):
            await mem.process_next_job("w1")
        job = await mem.get_job(run.job.id)
        assert job.state is JobState.DONE
        assert job.result is not None
        assert job.result["created"] == 1
        (p,) = await mem.procedures(user_id="ada")
        assert p.observed_count == 4
