"""``cognimem update`` and ``cognimem erase``: the real command line (each test's first
call as a subprocess, the others in this process) on SQLite and on PostgreSQL; bad input
fails as the HTTP API fails (same type, same message), and an erasure is asked for on a
terminal and refused without one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cognimem import Memory
from cognimem.api import create_app
from cognimem.models.admin import ScopeStats
from cognimem.providers.fakes import HashingEmbedder
from tests.conftest import run_in_thread
from tests.doubles import issue_api_key
from tests.e2e.cli_runner import cognimem, cognimem_answering, cognimem_here, failure, seed
from tests.e2e.http_server import PATIENT, serving


@pytest.fixture
def api(memory_url: str) -> Iterator[httpx.Client]:
    """The HTTP API on the same database, with a key of the default tenant."""
    key = issue_api_key(memory_url)
    with (
        serving(create_app(Memory.open(memory_url, embedder=HashingEmbedder()))) as base,
        httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=PATIENT
        ) as client,
    ):
        yield client


def history(db_url: str, item_id: str) -> list[str]:
    async def go() -> list[str]:
        async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
            return [entry.action for entry in await mem.history(item_id)]

    return run_in_thread(go)


def stats(db_url: str, user: str) -> ScopeStats:
    async def go() -> ScopeStats:
        async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
            return await mem.stats(user_id=user)

    return run_in_thread(go)


def test_update_edits_a_memory_as_the_api_does(memory_url: str) -> None:
    allergy = seed(memory_url)["allergy"]
    tiered = json.loads(
        cognimem("update", allergy, "--tier", "high", "--json", db_url=memory_url).stdout
    )
    assert (tiered["id"], tiered["tier"], tiered["status"]) == (allergy, "high", "active")
    edited = cognimem_here(
        "update", allergy, "--text", "I'm allergic to peanuts and cashews.", "--importance", "0.9",
        db_url=memory_url,
    ).stdout.splitlines()  # fmt: skip
    assert edited == [
        f"updated {allergy}",
        "status: active",
        "tier: high",
        "importance: 0.9",
        "text: I'm allergic to peanuts and cashews.",
    ]
    archived = json.loads(
        cognimem_here(
            "update", allergy, "--feedback", "outdated", "--json", db_url=memory_url
        ).stdout
    )
    assert archived["status"] == "archived"
    assert len(history(memory_url, allergy)) >= 3  # every change is in the history
    # another tenant has no such memory
    kind, message = failure(
        cognimem_here("update", allergy, "--tier", "low", "--tenant", "acme", db_url=memory_url,
                      check=False)
    )  # fmt: skip
    assert (kind, message) == ("NotFound", f"memory {allergy!r} not found")


def test_bad_input_fails_with_the_apis_error(memory_url: str, api: httpx.Client) -> None:
    allergy = seed(memory_url)["allergy"]
    cases: list[tuple[list[str], str, dict[str, Any]]] = [
        (["update", "mem_nope", "--tier", "high"], "/v1/memory/update",
         {"id": "mem_nope", "tier": "high"}),
        (["update", allergy, "--tier", "urgent"], "/v1/memory/update",
         {"id": allergy, "tier": "urgent"}),
        (["update", allergy, "--feedback", "meh"], "/v1/memory/update",
         {"id": allergy, "feedback": "meh"}),
        (["update", allergy, "--importance", "2"], "/v1/memory/update",
         {"id": allergy, "importance": 2}),
        (["update", allergy], "/v1/memory/update", {"id": allergy}),
        (["update", allergy, "--text", "   "], "/v1/memory/update", {"id": allergy, "text": "   "}),
        (["facts", "--user", "ada", "--category", "hobby"], "/v1/facts/query",
         {"scope": {"user_id": "ada"}, "categories": ["hobby"]}),
        (["facts", "--user", "ada", "--limit", "0"], "/v1/facts/query",
         {"scope": {"user_id": "ada"}, "limit": 0}),
    ]  # fmt: skip
    for args, path, body in cases:
        answer = api.post(path, json=body)
        assert answer.status_code in (404, 422), (args, answer.text)
        error = answer.json()["error"]
        cli_error = failure(cognimem_here(*args, db_url=memory_url, check=False))
        assert cli_error == (error["type"], error["message"]), args


def test_erase_asks_on_a_terminal_and_refuses_without_one(memory_url: str) -> None:
    seed(memory_url)
    before = stats(memory_url, "ada")
    assert before.events == 3

    kind, message = failure(cognimem("erase", "--user", "ada", db_url=memory_url, check=False))
    assert kind == "InvalidInput"
    assert "--yes" in message
    code, stdout, shown = cognimem_answering("n", "erase", "--user", "ada", db_url=memory_url)
    assert code == 1
    assert "Erase everything of user 'ada' of tenant 'default'? It cannot be undone" in shown
    assert "nothing erased" in shown
    assert stdout == ""
    assert stats(memory_url, "ada") == before

    code, stdout, shown = cognimem_answering("y", "erase", "--user", "ada", db_url=memory_url)
    assert code == 0, shown
    said = stdout.strip()
    assert said.startswith("erased user ada of tenant default: ")
    removed = dict(part.split(" ") for part in said.split(": ", 1)[1].split(", "))
    assert (removed["events"], removed["items"], removed["facts"]) == ("3", "3", "3")
    assert stats(memory_url, "ada") == ScopeStats()
    assert stats(memory_url, "bob").events == 1


def test_erase_with_yes_in_a_tenant(memory_url: str) -> None:
    seed(memory_url)
    elsewhere = cognimem("erase", "--user", "bob", "--tenant", "acme", "--yes", db_url=memory_url)
    assert elsewhere.stdout == "erased user bob of tenant acme: nothing was stored of them\n"
    assert stats(memory_url, "bob").events == 1
    report = json.loads(
        cognimem_here("erase", "--user", "bob", "--yes", "--json", db_url=memory_url).stdout
    )
    assert report["removed"]["events"] == 1
    assert report["content_hashes"]
    assert stats(memory_url, "bob") == ScopeStats()
    assert stats(memory_url, "ada").events == 3
    kind, message = failure(
        cognimem_here("erase", "--user", "no one", "--yes", db_url=memory_url, check=False)
    )
    assert kind == "InvalidInput"
    assert "user_id" in message
