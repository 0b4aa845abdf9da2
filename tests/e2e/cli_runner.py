"""The real ``cognimem`` command line as a subprocess on a database, for the CLI tests;
and the world they share: two users' memories, one with a conflict between facts."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cognimem import Memory
from cognimem.providers.fakes import HashingEmbedder
from tests.conftest import child_env, run_in_thread

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
NAME_KEY = "user:identity:name"
# what a failed command prints on stderr
ERROR_LINE = re.compile(r"^error \((\w+)\): (.*)$", re.MULTILINE)


def cognimem(
    *args: str, db_url: str, check: bool = True, **settings: str
) -> subprocess.CompletedProcess[str]:
    """``cognimem ARGS`` on ``db_url`` with the hashing embedder, stdin not a terminal;
    ``settings`` are more environment variables (``COLUMNS="60"``)."""
    result = subprocess.run(
        [sys.executable, "-m", "cognimem", *args],
        cwd=ROOT,
        env=_env(db_url, settings),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def cognimem_here(
    *args: str, db_url: str, check: bool = True, **settings: str
) -> subprocess.CompletedProcess[str]:
    """``cognimem ARGS`` as ``cognimem`` would run it, but inside this process: the real
    Typer app, on ``db_url`` with the hashing embedder, in the environment ``cognimem``
    gets (no developer COGNIMEM_* setting), stdin empty; its exit code and what it wrote
    on stdout and stderr. A command's output is the same as from a subprocess, without
    the start (a process imports the library again: 1.5 s of CPU each). The entry point
    itself, terminal drawing and environment settings keep their subprocess tests
    (``cognimem``); an unexpected exception is raised here rather than printed.
    ``settings`` are more COGNIMEM_* variables."""
    from typer.testing import CliRunner, Result

    from cognimem.cli import app

    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("COGNIMEM_")}
    assert all(k.startswith("COGNIMEM_") for k in settings), settings
    chosen = {**_env(db_url, {}), **settings}
    env.update({k: v for k, v in chosen.items() if k.startswith("COGNIMEM_")})
    outcome: list[Result | BaseException] = []

    def invoke() -> None:  # a thread of its own: the command runs its own event loop
        try:
            outcome.append(CliRunner().invoke(app, list(args), env=env, catch_exceptions=False))
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=invoke)
    thread.start()
    thread.join()
    done = outcome[0]
    if isinstance(done, BaseException):
        raise done
    result = subprocess.CompletedProcess(
        ["cognimem", *args], done.exit_code, done.stdout, done.stderr
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def cognimem_answering(answer: str, *args: str, db_url: str) -> tuple[int, str, str]:
    """``cognimem ARGS`` with a terminal on stdin and stderr (where a question is asked)
    on which ``answer`` is typed: the exit code, stdout, and what the terminal showed."""
    terminal, child_side = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cognimem", *args],
            cwd=ROOT,
            env=_env(db_url, {"NO_COLOR": "1"}),
            stdin=child_side,
            stdout=subprocess.PIPE,
            stderr=child_side,
            text=True,
        )
        os.close(child_side)
        # typed ahead: the terminal holds the line until the command reads it
        os.write(terminal, answer.encode() + b"\n")
        stdout, _ = proc.communicate(timeout=120)
        shown = b""
        while True:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # the command closed its side: all was read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(terminal)
    return proc.returncode, stdout, shown.decode(errors="replace")


def failure(result: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    """The error type and message a failed command printed (exit code 1)."""
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    found = ERROR_LINE.search(result.stderr)
    assert found, result.stderr
    return found.group(1), found.group(2)


def seed(db_url: str) -> dict[str, str]:
    """Ada (two names said at once: an open conflict; an allergy), Bob (a city) and Cy
    (two cities said at once); the id of Ada's allergy memory under ``allergy``."""

    async def go() -> dict[str, str]:
        async with Memory.open(db_url, embedder=HashingEmbedder()) as mem:
            await mem.write("My name is Ada.", user_id="ada", occurred_at=T0)
            await mem.write("My name is Adaline.", user_id="ada", occurred_at=T0)
            allergy = await mem.write(
                "I'm allergic to peanuts.", user_id="ada", occurred_at=T0 + timedelta(days=1)
            )
            await mem.write("I live in Leeds.", user_id="bob", occurred_at=T0)
            await mem.write("My name is Cy.", user_id="cy", occurred_at=T0)
            await mem.write("My name is Cyrus.", user_id="cy", occurred_at=T0)
            return {"allergy": allergy.item_ids[0]}

    return run_in_thread(go)


def _env(db_url: str, settings: dict[str, str]) -> dict[str, str]:
    return child_env(
        COGNIMEM_DATABASE_URL=db_url,
        COGNIMEM_EMBEDDING__MODEL="hashing",
        **settings,
    )
