"""``cognimem reembed``, run as a real subprocess on each backend: the database moves to
the new model (with a progress bar), and the commands (run in this process) follow the
model it records."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from tests.conftest import child_env
from tests.e2e.cli_runner import cognimem_here
from tests.e2e.test_reembed import KEY, seed


def cli(
    *args: str, db_url: str, model: str, terminal: bool = False
) -> subprocess.CompletedProcess[str]:
    """``cognimem ARGS`` in this process; with ``terminal``, in a process of its own on
    which rich draws as on a terminal (progress bars)."""
    if not terminal:
        return cognimem_here(*args, db_url=db_url, check=False, COGNIMEM_EMBEDDING__MODEL=model)
    env = child_env(COGNIMEM_DATABASE_URL=db_url, COGNIMEM_EMBEDDING__MODEL=model)
    env |= {"TTY_COMPATIBLE": "1", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "cognimem", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_reembed_moves_the_database_and_the_commands_follow(memory_url: str) -> None:
    asyncio.run(seed(memory_url))  # built with hashing:64
    refused = cli("recall", "spare key", "--user", "u", db_url=memory_url, model="hashing:64:v2")
    assert refused.returncode == 1
    assert "cognimem reembed --model hashing:64:v2" in refused.stderr

    moved = cli(
        "reembed", "--model", "hashing:64:v2", db_url=memory_url, model="hashing:64", terminal=True
    )
    assert moved.returncode == 0, moved.stderr
    outcome = json.loads(moved.stdout)
    assert (outcome["model"], outcome["previous_model"]) == ("hashing:64:v2", "hashing:64")
    assert outcome["items"] == 3
    assert "reembed hashing:64:v2" in moved.stderr  # the progress bar

    recalled = cli("recall", "spare key", "--user", "u", db_url=memory_url, model="hashing:64:v2")
    assert recalled.returncode == 0, recalled.stderr
    assert KEY in recalled.stdout
    old = cli("recall", "spare key", "--user", "u", db_url=memory_url, model="hashing:64")
    assert old.returncode == 1
    assert "set COGNIMEM_EMBEDDING__MODEL to 'hashing:64:v2'" in old.stderr
