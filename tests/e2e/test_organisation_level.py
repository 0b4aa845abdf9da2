"""The organisation level: a write reaches it only by naming it, its mandates and
guardrails are in every user's packet, erasing a user leaves it, and nothing of one
tenant's organisation reaches another tenant. Through ``Memory`` on both backends, the
HTTP API and the CLI."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from cognimem import InvalidInput, Memory, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import new_api_key
from tests.e2e.cli_runner import cognimem, cognimem_here

ORG = {"level": "organisation"}
RULE = "Never give medical dosage advice."
GUARD = "Do not share one customer's details with another."


async def _organisation(memory: Memory, tenant: str = "default") -> None:
    scope = {**ORG, "tenant_id": tenant}
    await memory.write(RULE, scope=scope, profile="mandate")
    await memory.write(GUARD, scope=scope, profile="guardrail")


async def test_a_write_names_its_level(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as unnamed:
        await memory.write("The office dog is called Biscuit")
    assert unnamed.value.field == "scope.level"
    for scope, field in (
        ({**ORG, "user_id": "ada"}, "scope.user_id"),
        ({**ORG, "agent_id": "helper"}, "scope.agent_id"),
        ({"level": "team"}, "scope.level"),
    ):
        with pytest.raises(InvalidInput) as refused:
            await memory.write_batch(["hi"], scope=scope)
        assert refused.value.field == field
    with pytest.raises(InvalidInput) as empty:
        await memory.write("hi", user_id="")  # an empty user is never the organisation
    assert empty.value.field == "scope.user_id"
    assert (await memory.stats(all_users=True)).events == 0


async def test_every_users_packet_carries_the_organisations_mandates(memory: Memory) -> None:
    await _organisation(memory)
    await memory.write("Always answer in British English.", user_id="ada", profile="mandate")
    await memory.write("I cook noodles every Friday", user_id="bob")
    ada = await memory.read("what should I cook tonight?", user_id="ada")
    bob = await memory.read("what should I cook tonight?", user_id="bob")
    assert [m.text for m in ada.sections.mandates] == [
        GUARD,
        RULE,
        "Always answer in British English.",
    ]
    assert [m.text for m in bob.sections.mandates] == [GUARD, RULE]
    assert RULE in bob.to_markdown()
    # another namespace is another organisation's part: its users do not get them
    other = await memory.read("cook?", user_id="bob", scope={"namespace": "sales"})
    assert other.sections.mandates == []


async def test_erasing_a_user_leaves_the_organisations_memory(memory: Memory) -> None:
    await _organisation(memory)
    await memory.write("I cook noodles every Friday", user_id="ada")
    await memory.erase_user("ada")
    bob = await memory.read("what should I cook?", user_id="bob")
    assert [m.text for m in bob.sections.mandates] == [GUARD, RULE]


async def test_one_tenants_organisation_never_reaches_another(memory: Memory) -> None:
    await _organisation(memory, tenant="acme")
    globex = await memory.read("what should I cook?", user_id="ada", scope={"tenant_id": "globex"})
    assert globex.sections.mandates == []
    acme = await memory.read("what should I cook?", user_id="ada", scope={"tenant_id": "acme"})
    assert [m.text for m in acme.sections.mandates] == [GUARD, RULE]


@pytest.fixture
async def http(db_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        key = await new_api_key(memory.store)
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_app(memory)),
            base_url="http://cognimem.test",
            headers={"Authorization": f"Bearer {key}"},
        ) as client:
            yield client


async def test_http_writes_name_the_organisation_level(http: httpx.AsyncClient) -> None:
    unnamed = await http.post("/v1/memory/write", json={"content": RULE, "profile": "mandate"})
    assert unnamed.status_code == 422
    assert unnamed.json()["error"]["details"]["field"] == "scope.level"
    written = await http.post(
        "/v1/memory/write", json={"content": RULE, "profile": "mandate", "scope": ORG}
    )
    assert written.status_code == 200, written.text
    both = {"content": RULE, "scope": {**ORG, "user_id": "ada"}}
    assert (await http.post("/v1/memory/write", json=both)).status_code == 422
    read = {"query": "dosage?", "scope": {"user_id": "ada"}}
    packet = (await http.post("/v1/memory/read", json=read)).json()
    assert [m["text"] for m in packet["sections"]["mandates"]] == [RULE]


async def test_the_cli_writes_the_organisations_memory(db_url: str) -> None:
    refused = cognimem("remember", RULE, "--profile", "mandate", db_url=db_url, check=False)
    assert refused.returncode != 0
    assert "scope.level" in refused.stderr
    cognimem_here("remember", RULE, "--profile", "mandate", "--organisation", db_url=db_url)
    out = cognimem_here("recall", "dosage?", "--user", "ada", db_url=db_url).stdout
    assert RULE in out
