"""``cognimem facts``, ``conflicts`` and ``stats``: the real command line (each test's
first call as a subprocess, the others in this process), on SQLite and on PostgreSQL,
answering what the library answers."""

from __future__ import annotations

import json

from cognimem import Memory
from cognimem.providers.fakes import HashingEmbedder
from tests.conftest import run_in_thread
from tests.e2e.cli_runner import NAME_KEY, cognimem, cognimem_here, failure, seed


def test_facts_as_lines_and_as_json(memory_url: str) -> None:
    seed(memory_url)
    lines = cognimem("facts", "--user", "ada", db_url=memory_url).stdout.splitlines()
    assert {line.split("\t")[0] for line in lines} == {
        "user:policy:allergy:peanuts = peanuts",
        f"{NAME_KEY} = Ada",
        f"{NAME_KEY} = Adaline",
    }
    assert all(line.split("\t")[1] == "active" for line in lines)

    names = json.loads(
        cognimem_here(
            "facts", "--user", "ada", "--key", NAME_KEY, "--json", db_url=memory_url
        ).stdout
    )
    assert sorted(f["value"] for f in names) == ["Ada", "Adaline"]
    policies = json.loads(
        cognimem_here(
            "facts", "--user", "ada", "--category", "policy", "--json", db_url=memory_url
        ).stdout
    )
    assert [f["key"] for f in policies] == ["user:policy:allergy:peanuts"]
    everyone = json.loads(cognimem_here("facts", "--all-users", "--json", db_url=memory_url).stdout)
    assert {f["scope"]["user_id"] for f in everyone} == {"ada", "bob", "cy"}
    other_tenant = cognimem_here("facts", "--all-users", "--tenant", "acme", db_url=memory_url)
    assert other_tenant.stdout == "no facts\n"

    kind, message = failure(cognimem_here("facts", db_url=memory_url, check=False))
    assert kind == "InvalidInput"
    assert "--user" in message
    assert "--all-users" in message


def test_conflicts_listed_then_settled_by_value(memory_url: str) -> None:
    seed(memory_url)
    [line] = cognimem("conflicts", "--user", "ada", db_url=memory_url).stdout.splitlines()
    shown, status, conflict_id = line.split("\t")
    assert shown in (f"{NAME_KEY}: Ada | Adaline", f"{NAME_KEY}: Adaline | Ada")
    assert status == "open"
    assert conflict_id.startswith("cfl_")
    both = json.loads(cognimem_here("conflicts", "--all-users", "--json", db_url=memory_url).stdout)
    assert {c["scope"]["user_id"] for c in both} == {"ada", "cy"}

    # a value the conflict does not hold, a key with no open conflict, a bad argument
    kind, message = failure(
        cognimem_here(
            "conflicts", "--user", "ada", "--resolve", f"{NAME_KEY}=Bob", db_url=memory_url,
            check=False,
        )
    )  # fmt: skip
    assert kind == "InvalidInput"
    assert "'Bob' is not one of them" in message
    assert "'Ada'" in message
    assert "'Adaline'" in message
    kind, message = failure(
        cognimem_here("conflicts", "--user", "bob", "--resolve", f"{NAME_KEY}=Bob",
                      db_url=memory_url, check=False)
    )  # fmt: skip
    assert kind == "NotFound"
    assert NAME_KEY in message
    kind, message = failure(
        cognimem_here("conflicts", "--user", "ada", "--resolve", NAME_KEY, db_url=memory_url,
                      check=False)
    )  # fmt: skip
    assert (kind, message) == ("InvalidInput", f"--resolve takes KEY=VALUE, not '{NAME_KEY}'")
    # across users the key is ambiguous: one user is named
    kind, message = failure(
        cognimem_here("conflicts", "--all-users", "--keep-both", NAME_KEY, db_url=memory_url,
                      check=False)
    )  # fmt: skip
    assert kind == "InvalidInput"
    assert "2 open conflicts" in message
    assert "--user" in message

    settled = cognimem_here(
        "conflicts", "--user", "ada", "--resolve", f"{NAME_KEY}=adaline", "--note", "her own word",
        db_url=memory_url,
    )  # fmt: skip
    assert settled.stdout == f"resolved the conflict on {NAME_KEY}: Adaline stands\n"
    assert cognimem_here("conflicts", "--user", "ada", db_url=memory_url).stdout == (
        "no open conflicts\n"
    )
    [resolved] = json.loads(
        cognimem_here(
            "conflicts", "--user", "ada", "--include-resolved", "--json", db_url=memory_url
        ).stdout
    )
    assert (resolved["status"], resolved["note"]) == ("resolved", "her own word")
    names = json.loads(
        cognimem_here(
            "facts", "--user", "ada", "--key", NAME_KEY, "--history", "--json", db_url=memory_url
        ).stdout
    )
    assert {f["value"]: f["status"] for f in names} == {"Adaline": "active", "Ada": "superseded"}
    assert resolved["winner_fact_id"] == next(f["id"] for f in names if f["value"] == "Adaline")

    kept = cognimem_here(
        "conflicts", "--user", "cy", "--keep-both", NAME_KEY, "--json", db_url=memory_url
    )
    assert json.loads(kept.stdout)["winner_fact_id"] is None
    cy = json.loads(
        cognimem_here(
            "facts", "--user", "cy", "--key", NAME_KEY, "--json", db_url=memory_url
        ).stdout
    )
    assert sorted(f["value"] for f in cy) == ["Cy", "Cyrus"]
    left = cognimem_here("conflicts", "--all-users", "--json", db_url=memory_url)
    assert json.loads(left.stdout) == []


def test_stats_as_the_library_counts_them(memory_url: str) -> None:
    seed(memory_url)

    async def counted() -> dict[str, object]:
        async with Memory.open(memory_url, embedder=HashingEmbedder()) as mem:
            return (await mem.stats(user_id="ada")).model_dump()

    expected = run_in_thread(counted)
    answer = json.loads(cognimem("stats", "--user", "ada", "--json", db_url=memory_url).stdout)
    assert answer == expected
    assert (answer["events"], answer["open_conflicts"]) == (3, 1)
    lines = cognimem_here("stats", "--user", "ada", db_url=memory_url).stdout.splitlines()
    assert "events: 3" in lines
    assert "open conflicts: 1" in lines
    assert "items: active 3" in lines
    everyone = json.loads(cognimem_here("stats", "--all-users", "--json", db_url=memory_url).stdout)
    assert everyone["events"] == 6
    acme = cognimem_here("stats", "--all-users", "--tenant", "acme", "--json", db_url=memory_url)
    assert json.loads(acme.stdout)["events"] == 0
