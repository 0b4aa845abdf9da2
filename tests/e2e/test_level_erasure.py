"""Erasing a whole shared level: an agent's (``agent_id`` with no user) or the
organisation's (``scope: {"level": "organisation"}``). Its rows go in one transaction,
a read right after (same process, warm caches) never returns one of them, and no
user's memories, no other level and no other tenant change. Through ``Memory`` on both
backends, over real HTTP with keys of each level (async and blocking SDK), and the CLI."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cognimem import (
    AsyncMemoryClient,
    InvalidInput,
    Memory,
    MemoryClient,
    PermissionDenied,
    Settings,
)
from cognimem.api import create_app
from cognimem.models import Scope
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.reach import level_facts, level_filter
from cognimem.store.types import ItemFilter
from tests.e2e.cli_runner import cognimem, cognimem_here
from tests.e2e.http_server import serving
from tests.e2e.test_procedures import agent

ORG: dict[str, Any] = {"level": "organisation"}
RULE = "Never give medical dosage advice."
RUNBOOK = "The ops runbook lives in the wiki."
OFFICE = "We moved the office to Leeds in March."
OPS_RULE = "Always sign off as the Ops bot."
SALES_RULE = "Always offer the annual plan first."
ASK = "please deploy the staging build"


async def _mandates(memory: Memory, **scope: str) -> list[str]:
    packet = await memory.read("where is the office?", scope=scope)
    return [m.text for m in packet.sections.mandates]


async def _packet(memory: Memory, query: str, **scope: str) -> str:
    return (await memory.read(query, scope=scope)).model_dump_json()


async def _procedures_in_read(memory: Memory, **scope: str) -> list[str]:
    packet = await memory.read(ASK, scope=scope)
    return [e.id for e in packet.sections.learned_procedures]


async def _item_count(memory: Memory, item_filter: ItemFilter) -> int:
    return len(await memory.store.list_item_ids(item_filter, 10_000))


async def test_erasing_the_organisation_leaves_users_and_agents(memory: Memory) -> None:
    await memory.write(RULE, scope=ORG, profile="mandate")
    await memory.write(OFFICE, scope=ORG, profile="chat")
    await memory.write(OPS_RULE, agent_id="ops", profile="mandate")
    await memory.write("I prefer tea over coffee.", user_id="ada", profile="chat")
    await memory.write("Answer me in British English.", user_id="bob", profile="mandate")
    await memory.write(RULE, scope={**ORG, "tenant_id": "globex"}, profile="mandate")
    org = Scope().organisation()
    assert await _item_count(memory, level_filter(org)) >= 2
    adas = await _item_count(memory, ItemFilter(scope=Scope(user_id="ada")))
    # warm every cache first: the reads see the organisation's memory
    assert await _mandates(memory, user_id="ada", agent_id="ops") == [RULE, OPS_RULE]
    assert OFFICE in await _packet(memory, "where did the office move?", user_id="bob")

    report = await memory.erase_level(scope=ORG)

    assert report.removed["items"] >= 2
    assert report.removed["events"] == 2
    assert await _item_count(memory, level_filter(org)) == 0
    assert await memory.store.find_facts(level_facts(org)) == []
    # right after, in the same process: no read returns a row of the level
    assert await _mandates(memory, user_id="ada", agent_id="ops") == [OPS_RULE]
    assert await _mandates(memory, user_id="bob") == ["Answer me in British English."]
    for user in ("ada", "bob"):
        assert OFFICE not in await _packet(memory, "where did the office move?", user_id=user)
    # the users' memories and the agent's level stay; so does another tenant's organisation
    assert await _item_count(memory, ItemFilter(scope=Scope(user_id="ada"))) == adas
    assert "I prefer tea over coffee." in await _packet(
        memory, "what do I drink, tea?", user_id="ada"
    )
    assert await _item_count(memory, level_filter(Scope(agent_id="ops"))) >= 1
    assert await _mandates(memory, user_id="ada", tenant_id="globex") == [RULE]


async def test_erasing_an_agent_takes_its_level_alone(memory: Memory) -> None:
    await agent(memory, user="ada", agent_id="ops")
    await agent(memory, user="cy", agent_id="sales")
    await memory.detect_procedures(agent_id="ops", all_users=True)
    await memory.detect_procedures(agent_id="sales", all_users=True)
    (sales,) = await memory.procedures(agent_id="sales", all_users=True)
    (ops,) = await memory.procedures(agent_id="ops", all_users=True)
    await memory.write(RULE, scope=ORG, profile="mandate")
    await memory.write(OPS_RULE, agent_id="ops", profile="mandate")
    await memory.write(RUNBOOK, agent_id="ops", profile="chat")
    await memory.write(SALES_RULE, agent_id="sales", profile="mandate")
    await memory.write(
        OPS_RULE, scope={"agent_id": "ops", "tenant_id": "globex"}, profile="mandate"
    )
    adas = await _item_count(memory, ItemFilter(scope=Scope(user_id="ada")))
    assert await _procedures_in_read(memory, user_id="bob", agent_id="ops") == [ops.id]
    assert await _mandates(memory, user_id="bob", agent_id="ops") == [RULE, OPS_RULE]
    assert RUNBOOK in await _packet(memory, "where is the runbook?", user_id="bob",
                                      agent_id="ops")  # fmt: skip

    report = await memory.erase_level(agent_id="ops")

    assert report.removed["procedures"] == 1
    assert await memory.procedures(agent_id="ops", all_users=True) == []
    assert await _item_count(memory, level_filter(Scope(agent_id="ops"))) == 0
    assert await _procedures_in_read(memory, user_id="bob", agent_id="ops") == []
    assert await _mandates(memory, user_id="bob", agent_id="ops") == [RULE]
    assert RUNBOOK not in await _packet(memory, "where is the runbook?", user_id="bob",
                                          agent_id="ops")  # fmt: skip
    # another agent's level, the organisation's, the users' turns with the agent and
    # another tenant's agent of the same name stay
    assert await memory.procedures(agent_id="sales", all_users=True) == [sales]
    assert await _procedures_in_read(memory, user_id="bob", agent_id="sales") == [sales.id]
    assert await _mandates(memory, user_id="bob", agent_id="sales") == [RULE, SALES_RULE]
    assert await _item_count(memory, ItemFilter(scope=Scope(user_id="ada"))) == adas
    assert await _mandates(memory, user_id="bob", agent_id="ops", tenant_id="globex") == [OPS_RULE]


async def test_a_level_erasure_names_a_shared_level(memory: Memory) -> None:
    await memory.write(RULE, scope=ORG, profile="mandate")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"scope": {}}, "scope.level"),
        ({"scope": {"user_id": "ada"}}, "scope.user_id"),
        ({"scope": {"agent_id": "ops", "session_id": "s1"}}, "scope.session_id"),
        ({"scope": {**ORG, "user_id": "ada"}}, "scope.user_id"),
    ]
    for call, field in cases:
        with pytest.raises(InvalidInput) as refused:
            await memory.erase_level(**call)
        assert refused.value.field == field, call
    assert await _mandates(memory, user_id="ada") == [RULE]  # nothing erased


ADMIN_KEY = "admin-key-for-the-erasure-tests-0123456789"


@pytest.fixture
def server(memory_url: str) -> Iterator[tuple[str, httpx.Client]]:
    settings = Settings.model_validate({"auth": {"admin_key": ADMIN_KEY}})
    memory = Memory.open(memory_url, settings=settings, embedder=HashingEmbedder())
    try:
        with serving(create_app(memory)) as base, httpx.Client(base_url=base, timeout=60) as c:
            yield base, c
    finally:
        asyncio.run(memory.aclose())


def _key(client: httpx.Client, **fields: Any) -> str:
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    made = client.post("/v1/admin/keys", json={"tenant_id": "acme", **fields}, headers=admin)
    assert made.status_code == 201, made.text
    return str(made.json()["secret"])


def test_keys_erase_only_a_level_they_may_write(server: tuple[str, httpx.Client]) -> None:
    base, client = server
    org, ada = _key(client), _key(client, level="user", user_id="ada")
    helper = _key(client, level="agent", agent_id="helper")
    with MemoryClient(base, api_key=org) as sdk:
        sdk.write(RULE, scope=ORG, profile="mandate")
        sdk.write("Always sign off as the Helper bot.", agent_id="helper", profile="mandate")
        sdk.write("Always sign off as the Sales bot.", agent_id="sales", profile="mandate")
        sdk.write("Answer me in British English.", user_id="ada", profile="mandate")

    def erase(secret: str, scope: dict[str, Any]) -> httpx.Response:
        headers = {"Authorization": f"Bearer {secret}"}
        return client.post("/v1/levels/erase", json={"scope": scope}, headers=headers)

    for secret, scope in ((ada, ORG), (ada, {"agent_id": "helper"}), (helper, ORG),
                          (helper, {"agent_id": "sales"})):  # fmt: skip
        refused = erase(secret, scope)
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["type"] == "PermissionDenied"
    with MemoryClient(base, api_key=ada) as sdk, pytest.raises(PermissionDenied):
        sdk.erase_level(scope=ORG)
    malformed = erase(org, {"user_id": "ada"})
    assert malformed.status_code == 422, malformed.text
    assert malformed.json()["error"]["details"]["field"] == "scope.user_id"

    # an agent key erases its own agent's level; the organisation key the organisation's
    done = erase(helper, {"agent_id": "helper"})
    assert done.status_code == 200, done.text
    assert done.json()["removed"]["items"] == 1

    async def erase_org() -> dict[str, int]:
        async with AsyncMemoryClient(base, api_key=org) as sdk:
            return (await sdk.erase_level(scope=ORG)).removed

    assert asyncio.run(erase_org())["items"] == 1
    with MemoryClient(base, api_key=org) as sdk:

        def mandates(**scope: str) -> list[str]:
            packet = sdk.read("how should I answer?", scope=scope)
            return [m.text for m in packet.sections.mandates]

        # the other agent's level and the user's own mandate stay (hers, of no agent, is
        # in each of her reads whatever agent it names)
        own = "Answer me in British English."
        assert sorted(mandates(user_id="ada", agent_id="sales")) == [
            "Always sign off as the Sales bot.",
            own,
        ]
        assert mandates(user_id="ada", agent_id="helper") == [own]
        assert mandates(user_id="ada") == [own]


def test_the_cli_erases_a_shared_level(db_url: str) -> None:
    # the first command as a real process (the entry point); the rest in this one, the
    # same Typer app and output without a process start each (~1.5 s of CPU)
    cognimem("remember", RULE, "--organisation", "--profile", "mandate", db_url=db_url)
    cognimem_here("remember", OPS_RULE, "--agent", "ops", "--profile", "mandate", db_url=db_url)
    cognimem_here("remember", "I prefer tea over coffee.", "--user", "ada", db_url=db_url)

    both = cognimem_here(
        "erase", "--agent", "ops", "--user", "ada", "--yes", db_url=db_url, check=False
    )
    assert both.returncode != 0
    assert "exactly one of --user, --agent" in both.stderr
    erased = cognimem_here("erase", "--agent", "ops", "--yes", "--json", db_url=db_url)
    assert json.loads(erased.stdout)["removed"]["items"] == 1
    said = cognimem_here("erase", "--organisation", "--yes", db_url=db_url).stdout
    assert said.startswith("erased the organisation's level of tenant default: ")

    recalled = cognimem_here(
        "recall", "tea?", "--user", "ada", "--agent", "ops", db_url=db_url
    ).stdout
    assert "tea" in recalled
    assert RULE not in recalled
    assert OPS_RULE not in recalled
