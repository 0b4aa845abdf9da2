"""API keys decide which level of memory they may write: an organisation key (the
default, as every key before levels) writes every level; an agent key only its agent's
memory; a user key only its user's. A write beyond the key's level is a 403
``PermissionDenied`` that stores nothing. Over real HTTP (uvicorn on loopback) on both
backends, and keys made with the CLI."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cognimem import Memory, MemoryClient, PermissionDenied, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.e2e.cli_runner import cognimem, cognimem_here
from tests.e2e.http_server import serving

ADMIN_KEY = "admin-key-for-the-level-tests-0123456789"
ORG = {"level": "organisation"}
RULE = "Never give medical dosage advice."


class Api:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client

    def key(self, **fields: Any) -> dict[str, str]:
        response = self.client.post(
            "/v1/admin/keys",
            json={"tenant_id": "acme", **fields},
            headers={"Authorization": f"Bearer {ADMIN_KEY}"},
        )
        assert response.status_code == 201, response.text
        return {"Authorization": f"Bearer {response.json()['secret']}"}

    def write(self, key: dict[str, str], scope: dict[str, Any], **body: Any) -> httpx.Response:
        return self.client.post(
            "/v1/memory/write",
            json={"content": RULE, "profile": "mandate", "scope": scope, **body},
            headers=key,
        )

    def mandates(self, key: dict[str, str], user: str) -> list[str]:
        read = {"query": "dosage advice?", "scope": {"user_id": user}}
        response = self.client.post("/v1/memory/read", json=read, headers=key)
        assert response.status_code == 200, response.text
        return [m["text"] for m in response.json()["sections"]["mandates"]]


@pytest.fixture
def api(memory_url: str) -> Iterator[Api]:
    settings = Settings.model_validate({"auth": {"admin_key": ADMIN_KEY}})
    memory = Memory.open(memory_url, settings=settings, embedder=HashingEmbedder())
    try:
        with serving(create_app(memory)) as base, httpx.Client(base_url=base, timeout=60) as c:
            yield Api(c)
    finally:
        asyncio.run(memory.aclose())


def _denied(response: httpx.Response, field: str, key_level: str) -> None:
    assert response.status_code == 403, response.text
    error = response.json()["error"]
    assert error["type"] == "PermissionDenied"
    assert error["details"]["field"] == field
    assert error["details"]["key_level"] == key_level


def test_a_user_key_writes_only_its_users_memory(api: Api) -> None:
    ada = api.key(level="user", user_id="ada")
    _denied(api.write(ada, ORG), "scope.level", "user")
    _denied(api.write(ada, {"user_id": "bob"}), "scope.user_id", "user")
    _denied(api.write(ada, {"agent_id": "helper"}), "scope.user_id", "user")
    batch = {"scope": ORG, "messages": [{"content": RULE}], "profile": "mandate"}
    _denied(
        api.client.post("/v1/memory/write_batch", json=batch, headers=ada), "scope.level", "user"
    )
    turn = {"user": {"content": RULE}, "scope": {"all_users": True}}
    _denied(api.client.post("/v1/memory/turn", json=turn, headers=ada), "scope.level", "user")
    _denied(api.client.delete("/v1/users/bob", headers=ada), "scope.user_id", "user")
    # nothing of the refused writes was stored: no user's packet carries the rule
    assert api.mandates(ada, "bob") == []

    assert api.write(ada, {"user_id": "ada", "agent_id": "helper"}).status_code == 200
    assert api.mandates(ada, "ada") == [RULE]


def test_an_agent_key_writes_only_its_agents_memory(api: Api) -> None:
    helper = api.key(level="agent", agent_id="helper")
    _denied(api.write(helper, ORG), "scope.level", "agent")
    _denied(api.write(helper, {"user_id": "ada"}), "scope.agent_id", "agent")
    _denied(api.write(helper, {"agent_id": "sales"}), "scope.agent_id", "agent")
    assert api.write(helper, {"agent_id": "helper"}).status_code == 200
    assert api.write(helper, {"agent_id": "helper", "user_id": "ada"}).status_code == 200


def test_an_organisation_key_writes_every_level_as_keys_always_did(api: Api) -> None:
    default = api.key()  # no level: the organisation's, as every key made before levels
    listed = api.client.get(
        "/v1/admin/keys",
        params={"tenant_id": "acme"},
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    ).json()
    assert [k["level"] for k in listed] == ["organisation"]
    assert api.write(default, ORG).status_code == 200
    assert api.write(default, {"user_id": "bob"}).status_code == 200
    assert api.mandates(default, "ada") == [RULE]


def test_a_key_level_names_what_it_is_bound_to(api: Api) -> None:
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    for body, field in (
        ({"level": "user"}, "user_id"),
        ({"level": "agent", "user_id": "ada"}, "user_id"),
        ({"level": "organisation", "agent_id": "helper"}, "agent_id"),
        ({"level": "team"}, "level"),
        ({"level": "user", "user_id": ""}, "user_id"),
    ):
        response = api.client.post(
            "/v1/admin/keys", json={"tenant_id": "acme", **body}, headers=admin
        )
        assert response.status_code == 422, (body, response.text)
        assert response.json()["error"]["details"]["field"].endswith(field), response.text


def test_the_cli_makes_a_user_key_that_cannot_write_the_organisation(db_url: str) -> None:
    done = cognimem(
        "keys", "create", "--tenant", "acme", "--level", "user", "--user", "ada", db_url=db_url
    )
    secret = done.stdout.split("secret: ")[1].strip()
    listed = cognimem_here("keys", "list", db_url=db_url).stdout
    assert "writes user ada" in listed
    refused = cognimem_here(
        "keys", "create", "--tenant", "acme", "--level", "user", db_url=db_url, check=False
    )
    assert refused.returncode != 0
    assert "user_id" in refused.stderr

    memory = Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder())
    try:
        with serving(create_app(memory)) as base, httpx.Client(base_url=base, timeout=60) as c:
            key = {"Authorization": f"Bearer {secret}"}
            _denied(Api(c).write(key, ORG), "scope.level", "user")
            assert Api(c).write(key, {"user_id": "ada"}).status_code == 200
    finally:
        asyncio.run(memory.aclose())


def _item(response: httpx.Response) -> str:
    assert response.status_code == 200, response.text
    (item_id,) = response.json()["messages"][0]["item_ids"]
    return str(item_id)


def test_a_call_on_one_id_reaches_only_what_the_key_may_write(api: Api) -> None:
    org = api.key()
    rule, helpers = _item(api.write(org, ORG)), _item(api.write(org, {"agent_id": "helper"}))
    body = {"content": "My favorite color is blue.", "scope": ORG}
    api.client.post("/v1/memory/write", json=body, headers=org).raise_for_status()
    facts = {"scope": ORG}  # the organisation's: every namespace's, listed at its level
    (fact,) = api.client.post("/v1/facts/query", json=facts, headers=org).json()
    ada = api.key(level="user", user_id="ada")
    own = _item(api.write(ada, {"user_id": "ada"}))

    _denied(api.client.get(f"/v1/memory/get/{rule}", headers=ada), "scope.level", "user")
    _denied(api.client.get(f"/v1/memory/get/{helpers}", headers=ada), "scope.user_id", "user")
    for shared in (rule, helpers):
        for change in ({"text": "Give dosage advice."}, {"feedback": "incorrect"}):
            edit = api.client.post("/v1/memory/update", json={"id": shared, **change}, headers=ada)
            assert edit.status_code == 403, edit.text
        history = api.client.get(f"/v1/memory/history/{shared}", headers=ada)
        assert history.status_code == 403, history.text
    history = api.client.get(f"/v1/memory/history/{fact['id']}", headers=ada)
    assert history.status_code == 403, history.text
    assert "the organisation's memory" in history.json()["error"]["message"]
    # nothing was changed: every user still reads the rule, word for word
    assert api.mandates(org, "bob") == [RULE]
    # the key's own user's memory it reaches by id
    assert api.client.get(f"/v1/memory/get/{own}", headers=ada).status_code == 200
    edit = api.client.post("/v1/memory/update", json={"id": own, "importance": 0.9}, headers=ada)
    assert edit.status_code == 200, edit.text
    # an agent key reaches its agent's memory, not the organisation's
    helper = api.key(level="agent", agent_id="helper")
    assert api.client.get(f"/v1/memory/get/{helpers}", headers=helper).status_code == 200
    denied = api.client.get(f"/v1/memory/get/{rule}", headers=helper)
    _denied(denied, "scope.level", "agent")


def test_no_call_on_one_id_crosses_tenants(api: Api) -> None:
    org = api.key()
    rule = _item(api.write(org, ORG))
    response = api.client.post(
        "/v1/admin/keys",
        json={"tenant_id": "globex"},
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    )
    globex = {"Authorization": f"Bearer {response.json()['secret']}"}
    globex_user = api.key(level="user", user_id="ada")  # acme's: a key of the same tenant
    assert api.client.get(f"/v1/memory/get/{rule}", headers=globex).status_code == 404
    assert api.client.get(f"/v1/memory/history/{rule}", headers=globex).status_code == 404
    edit = api.client.post(
        "/v1/memory/update", json={"id": rule, "importance": 0.1}, headers=globex
    )
    assert edit.status_code == 404, edit.text
    assert api.client.get(f"/v1/memory/get/{rule}", headers=globex_user).status_code == 403
    assert api.mandates(org, "bob") == [RULE]


def _export(api: Api, key: dict[str, str], scope: dict[str, Any]) -> httpx.Response:
    return api.client.post("/v1/memory/export", json={"scope": scope}, headers=key)


def test_the_lifecycle_export_and_forget_run_on_a_level_the_key_may_write(api: Api) -> None:
    org = api.key()
    api.write(org, ORG).raise_for_status()
    office = {"content": "We moved the office to Leeds in March.", "profile": "chat"}
    api.write(org, ORG, **office).raise_for_status()
    api.write(org, {"agent_id": "helper"}, content="Always sign off as the Helper bot.")
    api.write(org, {"user_id": "ada"}, content="I prefer tea over coffee.").raise_for_status()
    ada = api.key(level="user", user_id="ada")
    helper = api.key(level="agent", agent_id="helper")
    dry = {"dry_run": True}

    # a user key runs nothing on the organisation's or an agent's level
    lifecycle = "/v1/lifecycle/consolidate"
    for scope, field in ((ORG, "scope.level"), ({"agent_id": "helper"}, "scope.user_id")):
        run = api.client.post(lifecycle, json={"scope": scope, **dry}, headers=ada)
        _denied(run, field, "user")
        _denied(_export(api, ada, scope), field, "user")
        forget = {"scope": scope, "since": "2000-01-01T00:00:00+00:00", "dry_run": True}
        _denied(api.client.post("/v1/memory/forget", json=forget, headers=ada), field, "user")
    _denied(api.client.post(lifecycle, json={"scope": ORG, **dry}, headers=helper),
            "scope.level", "agent")  # fmt: skip

    # the organisation key runs it on the organisation's level alone
    run = api.client.post(lifecycle, json={"scope": ORG, **dry}, headers=org)
    assert run.status_code == 200, run.text
    assert run.json()["result"]["episodes"] == 1
    assert run.json()["scope"]["user_id"] is None
    assert run.json()["scope"]["agent_id"] is None
    # the agent key on its agent's level
    run = api.client.post(
        "/v1/lifecycle/decay", json={"scope": {"agent_id": "helper"}, **dry}, headers=helper
    )
    assert run.status_code == 200, run.text
    # the blocking SDK over the same server, with the agent's key
    secret = helper["Authorization"].removeprefix("Bearer ")
    with MemoryClient(str(api.client.base_url), api_key=secret) as sdk:
        decayed = sdk.run_lifecycle("decay", agent_id="helper", dry_run=True)
        assert (decayed.scope.user_id, decayed.scope.agent_id) == (None, "helper")
        with pytest.raises(PermissionDenied):
            sdk.run_lifecycle("decay", scope=ORG, dry_run=True)
    exported = _export(api, helper, {"agent_id": "helper"})
    assert exported.status_code == 200, exported.text
    lines = [json.loads(x) for x in exported.text.splitlines()]
    items = [x["data"]["text"] for x in lines if x["type"] == "item"]
    assert items == ["Always sign off as the Helper bot."]
    # no user, no agent and no level names no level: 422, never every user
    run = api.client.post(lifecycle, json={"scope": {}, **dry}, headers=org)
    assert run.status_code == 422, run.text
    assert run.json()["error"]["details"]["field"] == "scope.level"


def test_the_knowledge_listings_filter_by_level_over_http(api: Api) -> None:
    org = api.key()
    said = (
        ({"agent_id": "desk"}, "My favorite color is teal. My sister Ana lives in Lyon."),
        (ORG, "My favorite color is amber."),
        ({"user_id": "ada"}, "My favorite color is red. My friend Zoe lives in Rome."),
        ({"user_id": "ada", "agent_id": "desk"}, "My favorite color is green."),
    )
    for scope, content in said:
        api.write(org, scope, content=content, profile="chat").raise_for_status()

    def listed(path: str, scope: dict[str, Any], field: str) -> set[str]:
        response = api.client.post(path, json={"scope": scope}, headers=org)
        assert response.status_code == 200, response.text
        return {row[field] if field in row else row["entity"]["name"] for row in response.json()}

    colours = {"teal", "amber", "red", "green"}
    assert listed("/v1/facts/query", {"agent_id": "desk"}, "value") & colours == {"teal"}
    assert listed("/v1/facts/query", ORG, "value") & colours == {"amber"}
    # ada's turn with the desk agent is ada's (green superseded her red), not the agent's;
    # the organisation's is every namespace's, listed at its level, not the namespace's
    assert listed("/v1/facts/query", {"all_users": True}, "value") & colours == {
        "teal",
        "green",
    }
    entities = listed("/v1/entities/query", {"agent_id": "desk"}, "name")
    assert "Ana" in entities
    assert not entities & {"Zoe", "Rome"}  # ada's


def test_a_read_of_one_level_over_http_is_not_narrowed_by_the_key(api: Api) -> None:
    org = api.key()
    said = (
        ({"agent_id": "desk"}, "The desk agent's refund desk opens at nine."),
        (ORG, "The organisation's refund desk opens at eight."),
        ({"user_id": "ada", "agent_id": "desk"}, "Ada's refund desk visit is at noon."),
    )
    for scope, content in said:
        api.write(org, scope, content=content, profile="chat").raise_for_status()

    def read(key: dict[str, str], scope: dict[str, Any]) -> list[str]:
        body = {"query": "when does the refund desk open?", "scope": scope}
        response = api.client.post("/v1/memory/read", json=body, headers=key)
        assert response.status_code == 200, response.text
        return [i["text"] for i in response.json()["items"]]

    # reads are not narrowed by a key's level (docs/auth.md): what one level holds is
    # in its users' reads already, so a user key reads a level as an organisation key
    for key in (org, api.key(level="user", user_id="ada"), api.key(level="agent", agent_id="x")):
        assert read(key, {"agent_id": "desk"}) == ["The desk agent's refund desk opens at nine."]
        assert read(key, ORG) == ["The organisation's refund desk opens at eight."]
    # a level is read whole: no session, and the organisation names no agent
    for scope in ({"agent_id": "desk", "session_id": "s1"}, {**ORG, "agent_id": "desk"}):
        body = {"query": "refund desk?", "scope": scope}
        assert api.client.post("/v1/memory/read", json=body, headers=org).status_code == 422


def test_user_and_agent_keys_reach_neither_shared_level(api: Api) -> None:
    ada = api.key(level="user", user_id="ada")
    helper = api.key(level="agent", agent_id="helper")
    for key, key_level in ((ada, "user"), (helper, "agent")):
        for level in ("namespace", "organisation"):
            denied = api.write(key, {"level": level})
            _denied(denied, "scope.level", key_level)
            assert denied.json()["error"]["details"]["level"] == level
            erase = {"scope": {"level": level}}
            _denied(
                api.client.post("/v1/levels/erase", json=erase, headers=key),
                "scope.level",
                key_level,
            )
    assert api.mandates(ada, "ada") == []
    org = api.key()
    for level in ("organisation", "namespace"):
        assert api.write(org, {"level": level}, content=f"{RULE} ({level})").status_code == 200
    # what the shared levels hold still reaches the user key's reads
    assert api.mandates(ada, "ada") == [f"{RULE} (organisation)", f"{RULE} (namespace)"]


def test_a_user_key_edits_aliases_of_its_users_entities_only(api: Api) -> None:
    org = api.key()
    for user in ("ada", "bob"):
        said = "My sister Elizabeth Smith is a nurse. She goes by Lizzie."
        api.write(org, {"user_id": user}, content=said, profile="chat").raise_for_status()
    ada = api.key(level="user", user_id="ada")

    def sister(user: str) -> str:
        listed = api.client.post(
            "/v1/entities/query", json={"scope": {"user_id": user}}, headers=org
        )
        listed.raise_for_status()
        found = [e for e in listed.json() if "lizzie" in [a["alias"] for a in e["aliases"]]]
        assert len(found) == 1, listed.text
        return str(found[0]["entity"]["id"])

    bobs = sister("bob")
    for verb in ("remove", "add"):
        url = f"/v1/entities/{bobs}/aliases/{verb}"
        for scope, field in (
            ({"user_id": "bob"}, "scope.user_id"),
            ({"all_users": True}, "scope.level"),
        ):
            body = {"alias": "Lizzie", "scope": scope}
            _denied(api.client.post(url, json=body, headers=ada), field, "user")
    # nothing was taken off bob's entity; ada's own is hers to edit
    assert sister("bob") == bobs
    body = {"alias": "Lizzie", "scope": {"user_id": "ada"}}
    removed = api.client.post(
        f"/v1/entities/{sister('ada')}/aliases/remove", json=body, headers=ada
    )
    assert removed.status_code == 200, removed.text
