"""``cognimem --help`` loads the command line, not the library: each command imports what
it uses when it runs (the store, the ``Memory`` facade, the API), so a start that only
parses its arguments or prints help does not pay for numpy, the recall and write paths,
FastAPI or a database driver. Checked by what a real start imports, never by its time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import child_env

ROOT = Path(__file__).resolve().parents[2]
# what only a command that uses it may load
HEAVY = (
    "numpy",
    "onnxruntime",
    "tokenizers",
    "fastapi",
    "starlette",
    "uvicorn",
    "httpx",
    "asyncpg",
    "psycopg",
    "redis",
    "pydantic_settings",
    "cognimem.api",
    "cognimem.client",
    "cognimem.config",
    "cognimem.ingest",
    "cognimem.memory",
    "cognimem.providers",
    "cognimem.recall",
    "cognimem.services",
    "cognimem.store",
)


def imported_by(*args: str) -> list[str]:
    """The modules ``cognimem ARGS`` imports (Python's own import log, on stderr)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cognimem", *args],
        cwd=ROOT,
        env=child_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    return [line.rsplit("|", 1)[1].strip() for line in lines[1:]]  # the first is a header


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("args", [("--help",), ("keys", "--help"), ("recall", "--help")])
def test_help_imports_none_of_the_library(args: tuple[str, ...]) -> None:
    modules = imported_by(*args)
    assert "cognimem.cli" in modules  # the log is read right
    assert heavy(modules) == []
