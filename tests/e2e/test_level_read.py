"""A read of one shared level alone — an agent's (``agent_id`` with no user) or the
organisation's (``scope={"level": "organisation"}``): that level's memories, facts and
mandates, never a user's nor another level's (what the dashboard's Recall page shows at
a level). Through ``Memory`` on both backends, and over HTTP with keys of each level."""

from __future__ import annotations

import asyncio
import subprocess
from datetime import UTC, datetime
from typing import Any

import pytest

from cognimem import Memory
from cognimem.errors import InvalidInput
from cognimem.models import ContextPacket, Scope
from cognimem.text.tokens import trigger_terms
from tests.contract.test_procedures_store import learnt
from tests.e2e.cli_runner import cognimem_here

ORG = {"level": "organisation"}
ASK = "When does the refund desk open?"
COLOUR = "what is my favorite color?"


async def _world(memory: Memory) -> None:
    await memory.write("The organisation refund desk opens at eight.", scope=ORG)
    await memory.write("The sales refund desk opens at nine.", agent_id="sales")
    await memory.write("The support refund desk opens at ten.", agent_id="support")
    await memory.write("My refund desk visit opens at noon.", user_id="ada", agent_id="sales")
    await memory.write("My own refund desk opens at one.", user_id="ada")
    await memory.write("Never promise a refund by phone.", agent_id="sales", profile="mandate")
    await memory.write("Never share prices.", scope=ORG, profile="mandate")
    await memory.write("Never call me after six.", user_id="ada", profile="mandate")


def _desks(packet: ContextPacket) -> list[str]:
    return sorted(i.text for i in packet.items if "refund desk" in i.text)


async def test_a_level_read_reads_that_level_alone(memory: Memory) -> None:
    await _world(memory)

    for preset in ("balanced", "lexical", "vector"):
        sales = await memory.read(ASK, agent_id="sales", preset=preset)
        assert _desks(sales) == ["The sales refund desk opens at nine."], preset
        org = await memory.read(ASK, scope=ORG, preset=preset)
        assert _desks(org) == ["The organisation refund desk opens at eight."], preset
    sales = await memory.read(ASK, agent_id="sales")
    assert [m.text for m in sales.sections.mandates] == ["Never promise a refund by phone."]
    org = await memory.read(ASK, scope=ORG)
    assert [m.text for m in org.sections.mandates] == ["Never share prices."]
    # every user's read made with the agent is still every user's (and not a level)
    every = await memory.read(ASK, agent_id="sales", all_users=True)
    assert "My refund desk visit opens at noon." in _desks(every)
    # another tenant's level of the same agent is not this one's
    assert _desks(await memory.read(ASK, scope={"tenant_id": "globex", "agent_id": "sales"})) == []


def _colours(packet: ContextPacket) -> list[str]:
    return [e.value for e in packet.sections.entries() if e.key.endswith("favorite_color")]


def _said(text: str) -> dict[str, Any]:
    return {"content": text, "role": "user", "occurred_at": datetime(2025, 1, 2, tzinfo=UTC)}


async def test_a_level_read_takes_that_levels_facts_alone(memory: Memory) -> None:
    await memory.write(_said("My favorite color is blue."), scope=ORG)
    await memory.write(_said("My favorite color is red."), agent_id="sales")
    await memory.write(_said("My favorite color is green."), user_id="ada", agent_id="sales")
    await memory.write(_said("My favorite color is pink."), agent_id="support")

    assert _colours(await memory.read(COLOUR, agent_id="sales")) == ["red"]
    assert _colours(await memory.read(COLOUR, scope=ORG)) == ["blue"]
    # a timed read picks that level's facts valid then
    then = datetime(2025, 2, 1, tzinfo=UTC)
    assert _colours(await memory.read(COLOUR, agent_id="sales", as_of=then)) == ["red"]
    assert _colours(await memory.read(COLOUR, scope=ORG, as_of=then)) == ["blue"]


async def test_a_level_is_read_whole(memory: Memory) -> None:
    # a level has no session, and the organisation has no agent: as a lifecycle call
    for scope, field in (
        ({"agent_id": "sales", "session_id": "s1"}, "scope.session_id"),
        ({**ORG, "agent_id": "sales"}, "scope.agent_id"),
    ):
        with pytest.raises(InvalidInput) as refused:
            await memory.read(ASK, scope=scope)
        assert refused.value.details["field"] == field


async def test_a_levels_procedures_are_not_crowded_out_by_users(memory: Memory) -> None:
    # more user procedures than a read lists (MAX_PROCEDURES), each more confident than
    # the shared levels' own: the limit counts a level's procedures alone
    bob = Scope(tenant_id="default", user_id="bob")
    many = [await learnt(memory.store, bob, f"unrelated chore {n}", 6) for n in range(205)]
    asked = " ".join(trigger_terms(ASK))
    org = await learnt(memory.store, Scope(tenant_id="default"), asked, 3)  # the namespace's
    agent = Scope(tenant_id="default", agent_id="sales")
    sales = await learnt(memory.store, agent, " ".join(trigger_terms(ASK)[:2]), 3)
    await memory.store.save_procedures([*many, org, sales], [])
    assert min(p.confidence for p in many) > org.confidence

    def shown(packet: ContextPacket) -> list[str]:
        return sorted(e.id for e in packet.sections.learned_procedures)

    assert shown(await memory.read(ASK, scope={"level": "namespace"})) == [org.id]
    assert shown(await memory.read(ASK, agent_id="sales")) == [sales.id]
    # a user's read has the organisation's, and with an agent the agent's too
    assert shown(await memory.read(ASK, user_id="ada")) == [org.id]
    assert shown(await memory.read(ASK, user_id="ada", agent_id="sales")) == sorted(
        [org.id, sales.id]
    )
    assert shown(await memory.read(ASK, user_id="ada", agent_id="support")) == [org.id]
    assert shown(await memory.read(ASK, scope={"tenant_id": "globex", "user_id": "ada"})) == []


async def test_the_cli_reads_one_level_alone(memory: Memory, memory_url: str) -> None:
    await _world(memory)

    async def recall(*args: str) -> subprocess.CompletedProcess[str]:
        return await asyncio.to_thread(cognimem_here, "recall", ASK, *args, db_url=memory_url,
                                       check=False)  # fmt: skip

    sales = (await recall("--agent", "sales")).stdout
    assert "The sales refund desk opens at nine." in sales
    assert "Never promise a refund by phone." in sales
    for other in ("organisation refund desk", "visit", "My own", "Never share prices."):
        assert other not in sales
    org = (await recall("--organisation")).stdout
    assert "The organisation refund desk opens at eight." in org
    assert "Never share prices." in org
    for other in ("sales refund desk", "visit", "My own", "Never promise"):
        assert other not in org
    # a user's read with the agent is still hers with the shared levels'
    ada = (await recall("--user", "ada", "--agent", "sales")).stdout
    assert "visit" in ada
    assert "Never share prices." in ada
    # the organisation's level is said alone, and a level is read whole
    both = await recall("--organisation", "--user", "ada")
    assert both.returncode == 1
    assert "--organisation" in both.stderr
    session = await recall("--agent", "sales", "--session", "s1")
    assert session.returncode == 1
    assert "session_id" in session.stderr
