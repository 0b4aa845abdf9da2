"""The Python snippets the docs say run, run: each one marked ``<!-- doc-test: runs -->``
(and each ``<!-- doc-test: continues -->`` inside the one before it) as a fresh
process in an empty directory, as a reader would paste it."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import child_env

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"<!-- doc-test: (runs|continues) -->\n```python\n(.*?)```", re.S)


def snippets() -> list[tuple[str, str]]:
    """(where, program) of every runnable snippet; a continuation goes inside the
    program before it, after that program's last line at its depth."""
    found: list[tuple[str, str]] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            where = f"{doc.name}:{text[: match.start()].count(chr(10)) + 2}"
            kind, code = match.groups()
            if kind == "runs":
                found.append((where, code))
                continue
            assert found, f"{where}: a continuation with no snippet before it"
            before, program = found.pop()
            depth = len(code) - len(code.lstrip(" "))
            lines = program.splitlines(keepends=True)
            last = max(i for i, line in enumerate(lines) if line.startswith(" " * depth))
            found.append(
                (f"{before} + {where}", "".join([*lines[: last + 1], code, *lines[last + 1 :]]))
            )
    return found


def _program(code: str) -> str:
    """Top-level ``await`` (as in ``python -m asyncio``) wrapped in a coroutine."""
    if "asyncio.run(" in code or not re.search(r"^(async with|await )", code, re.M):
        return code
    return (
        "import asyncio\n\nasync def _snippet():\n"
        + textwrap.indent(code, "    ")
        + ("\n\nasyncio.run(_snippet())\n")
    )


def test_the_marked_snippets_are_found() -> None:
    where = [w for w, _ in snippets()]
    assert any(w.startswith("sdk.md") for w in where)
    assert any(w.startswith("README.md") and "+" in w for w in where)


@pytest.mark.parametrize(("where", "code"), snippets(), ids=lambda v: v.split(chr(10))[0])
def test_a_docs_snippet_runs_as_written(where: str, code: str, tmp_path: Path) -> None:
    env = child_env(COGNIMEM_EMBEDDING__MODEL="hashing")  # the snippets' code, a faster model
    done = subprocess.run(
        [sys.executable, "-c", _program(code)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{where}:\n{done.stderr}"
    assert done.stdout.strip(), f"{where} printed nothing"
