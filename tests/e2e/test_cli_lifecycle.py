"""``cognimem lifecycle``, run as a real subprocess on a real SQLite file. The operation
is the tests' ``archive_stale``: the subprocess is the real command line with it
registered on every Memory the command opens (the real operations register the same
way, in ``Memory``'s table)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from cognimem import Memory
from cognimem.models import ItemStatus
from cognimem.providers.fakes import HashingEmbedder
from tests.lifecycle_ops import MARK, OP

ROOT = Path(__file__).resolve().parents[2]

# the real CLI, with the test operation registered on the Memory it opens
WITH_OP = """
import sys
import cognimem.memory
from cognimem.cli import main
from tests.lifecycle_ops import OP, archive_stale

class WithOp(cognimem.memory.Memory):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_lifecycle_operation(OP, archive_stale(self))

# the command imports Memory when it runs: it finds this one
cognimem.memory.Memory = WithOp
sys.argv = ["cognimem", *sys.argv[1:]]
main()
"""


def cli(*args: str, db_url: str, with_op: bool = True) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "COGNIMEM_DATABASE_URL": db_url,
        "COGNIMEM_EMBEDDING__MODEL": "hashing",
        "TTY_COMPATIBLE": "1",  # rich draws the progress bar as on a terminal
        "NO_COLOR": "1",
    }
    command = ["-c", WITH_OP] if with_op else ["-m", "cognimem"]
    return subprocess.run(
        [sys.executable, *command, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def seed(db_url: str) -> str:
    async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
        await mem.write("I moved to Lisbon in May", user_id="ada")
        return (await mem.write(f"{MARK} my old phone number", user_id="ada")).item_ids[0]


async def status(db_url: str, item_id: str) -> ItemStatus:
    async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
        return (await mem.get(item_id)).status


def test_dry_run_then_run_with_a_progress_bar(db_url: str) -> None:
    stale = asyncio.run(seed(db_url))

    dry = cli("lifecycle", OP, "--user", "ada", "--dry-run", db_url=db_url)
    assert dry.returncode == 0, dry.stderr
    answer = json.loads(dry.stdout)
    assert (answer["job"], answer["summary"]) == (None, {"archived": 1})
    assert answer["result"]["item_ids"] == [stale]
    assert f"{OP} ada" in dry.stderr  # the progress bar
    assert asyncio.run(status(db_url, stale)) is ItemStatus.ACTIVE

    # no worker runs: the command runs its job itself while it waits
    ran = cli("lifecycle", OP, "--user", "ada", "--key", "k1", db_url=db_url)
    assert ran.returncode == 0, ran.stderr
    job = json.loads(ran.stdout)["job"]
    assert (job["state"], job["result"], job["progress"]) == ("done", {"archived": 1}, 1.0)
    assert asyncio.run(status(db_url, stale)) is ItemStatus.ARCHIVED

    queued = cli("lifecycle", OP, "--user", "ada", "--no-wait", db_url=db_url)
    assert queued.returncode == 0, queued.stderr
    assert json.loads(queued.stdout)["job"]["state"] == "queued"


def test_an_unknown_operation_is_an_error(db_url: str) -> None:
    bad = cli("lifecycle", "no_such_op", "--user", "ada", db_url=db_url, with_op=False)
    assert bad.returncode == 1
    assert "NotFound" in bad.stderr
    assert "lifecycle operation 'no_such_op' not found" in bad.stderr


def test_conflicting_level_flags_are_an_error_not_a_traceback(db_url: str) -> None:
    bad = cli(
        "lifecycle", "decay", "--organisation", "--namespace-level", "x",
        db_url=db_url, with_op=False,
    )  # fmt: skip
    assert bad.returncode == 1
    # the one line every command prints for a refused call (no traceback)
    assert re.sub(r"\x1b\[[0-9;]*m", "", bad.stderr).strip() == (
        "error (InvalidInput): lifecycle: pass --organisation or --namespace-level, not both"
    )


async def seed_wrong_fact(db_url: str) -> str:
    async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
        [item_id] = (await mem.write("I live in Lisbon.", user_id="ada")).item_ids
        await mem.update(item_id, feedback="incorrect")
        [fact] = await mem.facts(user_id="ada")
        return fact.id


async def fact_status(db_url: str, fact_id: str) -> str:
    async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
        [fact] = [f for f in await mem.facts(user_id="ada", include_history=True)]
        assert fact.id == fact_id
        return fact.status.value


def test_decay_from_the_command_line(db_url: str) -> None:
    fact_id = asyncio.run(seed_wrong_fact(db_url))
    dry = cli("lifecycle", "decay", "--user", "ada", "--dry-run", db_url=db_url, with_op=False)
    assert dry.returncode == 0, dry.stderr
    answer = json.loads(dry.stdout)
    assert answer["summary"] == {"facts": 1, "aging": 0, "active": 0, "invalidated": 1}
    assert [c["fact_id"] for c in answer["result"]["changes"]] == [fact_id]
    assert asyncio.run(fact_status(db_url, fact_id)) == "active"

    ran = cli("lifecycle", "decay", "--user", "ada", "--key", "k1", db_url=db_url, with_op=False)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["job"]["state"] == "done"
    assert asyncio.run(fact_status(db_url, fact_id)) == "invalidated"
