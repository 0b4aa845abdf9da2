"""The organisation level and the namespace level: a write reaches one only by naming
it, the organisation's mandates and guardrails are in every user's packet in every
namespace and a namespace's in its users' alone, erasing a user leaves both, erasing
one leaves the other, and nothing of one tenant's shared levels reaches another
tenant. Through ``Memory`` on both backends, the HTTP API and the CLI."""

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
NAMESPACE = {"level": "namespace"}
SALES = {"level": "namespace", "namespace": "sales"}
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
    # the organisation is every namespace's: its users get them too
    other = await memory.read("cook?", user_id="bob", scope={"namespace": "sales"})
    assert [m.text for m in other.sections.mandates] == [GUARD, RULE]


async def test_the_levels_mandates_come_organisation_namespace_agent_user(
    memory: Memory,
) -> None:
    await memory.write(RULE, scope=ORG, profile="mandate")
    await memory.write("Quote prices in euros.", scope=SALES, profile="mandate")
    helper = {"namespace": "sales", "agent_id": "helper"}
    await memory.write("Sign off as the helper.", scope=helper, profile="mandate")
    mine = {"namespace": "sales", "user_id": "ada"}
    await memory.write("Call me Ada.", scope=mine, profile="mandate")

    ada = await memory.read("prices?", scope={**mine, "agent_id": "helper"})
    assert [m.text for m in ada.sections.mandates] == [
        RULE,
        "Quote prices in euros.",
        "Sign off as the helper.",
        "Call me Ada.",
    ]
    # a namespace's reach its users alone; the organisation's every namespace's
    bob = await memory.read("prices?", user_id="bob")
    assert [m.text for m in bob.sections.mandates] == [RULE]
    carol = await memory.read("prices?", scope={"namespace": "sales", "user_id": "carol"})
    assert [m.text for m in carol.sections.mandates] == [RULE, "Quote prices in euros."]
    # each level read alone
    level = await memory.read("prices?", scope=SALES)
    assert [m.text for m in level.sections.mandates] == ["Quote prices in euros."]
    level = await memory.read("prices?", scope=ORG)
    assert [m.text for m in level.sections.mandates] == [RULE]


async def test_a_namespace_write_names_its_level(memory: Memory) -> None:
    for scope, field in (
        ({**NAMESPACE, "user_id": "ada"}, "scope.user_id"),
        ({**NAMESPACE, "agent_id": "helper"}, "scope.agent_id"),
        ({**NAMESPACE, "session_id": "s1"}, "scope.session_id"),
        ({**NAMESPACE, "namespace": "*"}, "scope.namespace"),
        ({"namespace": "*", "user_id": "ada"}, "scope.namespace"),
    ):
        with pytest.raises(InvalidInput) as refused:
            await memory.write("hi", scope=scope)
        assert refused.value.field == field
    with pytest.raises(InvalidInput) as empty:
        await memory.write("hi", scope=NAMESPACE, user_id="")
    assert empty.value.field == "scope.user_id"
    assert (await memory.stats(all_users=True)).events == 0


async def test_erasing_a_user_leaves_the_organisations_memory(memory: Memory) -> None:
    await _organisation(memory)
    await memory.write("Quote prices in euros.", scope=NAMESPACE, profile="mandate")
    await memory.write("I cook noodles every Friday", user_id="ada")
    await memory.erase_user("ada")
    bob = await memory.read("what should I cook?", user_id="bob")
    assert [m.text for m in bob.sections.mandates] == [GUARD, RULE, "Quote prices in euros."]


@pytest.mark.parametrize("erased", ["namespace", "organisation"])
async def test_erasing_one_shared_level_leaves_the_other(memory: Memory, erased: str) -> None:
    await memory.write(RULE, scope=ORG, profile="mandate")
    await memory.write("My favorite color is blue.", scope=ORG)
    await memory.write("Quote prices in euros.", scope=NAMESPACE, profile="mandate")
    await memory.write("My favorite color is red.", scope=NAMESPACE)
    await memory.write("My favorite color is green.", user_id="ada")

    report = await memory.erase_level(scope={"level": erased})

    assert report.removed["events"] == 2
    kept = {"namespace": ([RULE], "blue"), "organisation": (["Quote prices in euros."], "red")}
    mandates, colour = kept[erased]
    bob = await memory.read("what is my favorite color?", user_id="bob")
    assert [m.text for m in bob.sections.mandates] == mandates
    assert [e.value for e in bob.sections.entries() if "color" in e.key] == [colour]
    left = {"namespace": ORG, "organisation": NAMESPACE}[erased]
    assert len(await memory.facts(scope=left)) == 1
    assert await memory.facts(scope={"level": erased}) == []
    assert len(await memory.facts(user_id="ada")) == 1


async def test_one_tenants_organisation_never_reaches_another(memory: Memory) -> None:
    await _organisation(memory, tenant="acme")
    acme_ns = {**NAMESPACE, "tenant_id": "acme"}
    await memory.write("Quote prices in euros.", scope=acme_ns, profile="mandate")
    await memory.write("My favorite color is red.", scope=acme_ns)
    await memory.write("My favorite color is blue.", scope={**ORG, "tenant_id": "acme"})
    globex = await memory.read("what should I cook?", user_id="ada", scope={"tenant_id": "globex"})
    assert globex.sections.mandates == []
    assert globex.sections.entries() == []
    for level in (ORG, NAMESPACE):
        alone = await memory.read("color?", scope={**level, "tenant_id": "globex"})
        assert alone.sections.mandates == []
        assert alone.sections.entries() == []
        assert await memory.facts(scope={**level, "tenant_id": "globex"}) == []
    acme = await memory.read("what should I cook?", user_id="ada", scope={"tenant_id": "acme"})
    assert [m.text for m in acme.sections.mandates] == [GUARD, RULE, "Quote prices in euros."]


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
    sales = {"content": "Quote prices in euros.", "profile": "mandate", "scope": SALES}
    assert (await http.post("/v1/memory/write", json=sales)).status_code == 200
    for namespace, mandates in (("sales", [RULE, sales["content"]]), ("default", [RULE])):
        read = {"query": "prices?", "scope": {"user_id": "ada", "namespace": namespace}}
        packet = (await http.post("/v1/memory/read", json=read)).json()
        assert [m["text"] for m in packet["sections"]["mandates"]] == mandates
    level = {"query": "prices?", "scope": SALES}
    packet = (await http.post("/v1/memory/read", json=level)).json()
    assert [m["text"] for m in packet["sections"]["mandates"]] == [sales["content"]]
    named = {"content": "hi", "scope": {"user_id": "ada", "namespace": "*"}}
    assert (await http.post("/v1/memory/write", json=named)).status_code == 422


async def test_the_cli_writes_the_organisations_memory(db_url: str) -> None:
    refused = cognimem("remember", RULE, "--profile", "mandate", db_url=db_url, check=False)
    assert refused.returncode != 0
    assert "scope.level" in refused.stderr
    cognimem_here("remember", RULE, "--profile", "mandate", "--organisation", db_url=db_url)
    out = cognimem_here("recall", "dosage?", "--user", "ada", db_url=db_url).stdout
    assert RULE in out
    euros = "Quote prices in euros."
    cognimem_here(
        "remember", euros, "--profile", "mandate", "--namespace-level", "default", db_url=db_url
    )
    out = cognimem_here("recall", "prices?", "--user", "ada", db_url=db_url).stdout
    assert RULE in out
    assert euros in out
    level = ("recall", "prices?", "--namespace-level", "default")
    out = cognimem_here(*level, db_url=db_url).stdout
    assert euros in out
    assert RULE not in out
    out = cognimem_here("recall", "prices?", "--organisation", db_url=db_url).stdout
    assert RULE in out
    assert euros not in out
