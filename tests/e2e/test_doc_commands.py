"""The shell commands README.md and docs/domain.md give, runnable as written from the
repository root with the project's venv (``.venv``, which ``make serve`` and ``make
test`` build): every command of a ```bash block, and every inline one that starts with
``make``, ``bash``, ``python`` or ``.venv/bin/``.

As written means: a bare ``python`` is the system's, which has no cognimem, so a
command names the venv's (``.venv/bin/python``); each ``.venv/bin/X`` is in the venv,
and a ``cognimem`` subcommand exists (its ``--help`` answers); ``make`` accepts each
target; each script a command names is in the checkout; and an example
(``examples/...``) runs and exits 0. The ``.venv`` a command names is the one this
suite runs in (``make test`` runs ``.venv/bin/pytest``)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import child_env

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "docs" / "domain.md"]
VENV_BIN = Path(sys.executable).parent
# programs a reader's machine has; the docs run them against a server or the shell
SYSTEM = frozenset({"curl", "export", "make", "bash"})
_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
_INLINE = re.compile(r"`([^`]+)`")
_INLINE_COMMAND = re.compile(
    r"(?:[A-Za-z_]\w*=\S+\s+)*(?:make|bash|python[\d.]*|\.venv/bin/\S+)(?:\s|$)"
)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SUBCOMMAND = re.compile(r"^[a-z][a-z-]*$")


def _block_commands(block: str, first_line: int) -> list[tuple[int, list[str]]]:
    """(line, words) of each command in a shell block: a command goes on over a
    trailing backslash and over a quote still open (a JSON body); comments dropped."""
    found: list[tuple[int, list[str]]] = []
    pending, start = "", first_line
    for number, line in enumerate(block.splitlines(), first_line):
        if not pending:
            start = number
        pending += line + "\n"
        if pending.rstrip().endswith("\\"):
            continue
        try:
            words = shlex.split(pending.replace("\\\n", " "), comments=True)
        except ValueError:  # a quote still open: the command goes on
            continue
        pending = ""
        if words:
            found.append((start, words))
    assert not pending, f"line {start}: a command that never ends"
    return found


def commands(doc: Path) -> list[tuple[str, list[str]]]:
    """(where, words) of every shell command ``doc`` gives, in order."""
    text = doc.read_text(encoding="utf-8")
    found: list[tuple[int, list[str]]] = []
    for match in _FENCE.finditer(text):
        if match.group(1).strip() in {"bash", "sh", "shell"}:
            found += _block_commands(match.group(2), text.count("\n", 0, match.start(2)) + 1)
    # inline spans, outside the fenced blocks (blanked, keeping their lines)
    prose = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    for match in _INLINE.finditer(prose):
        span = " ".join(match.group(1).split())
        if _INLINE_COMMAND.match(span):
            found.append((prose.count("\n", 0, match.start()) + 1, shlex.split(span)))
    return [(f"{doc.name}:{line}", words) for line, words in sorted(found, key=lambda f: f[0])]


def every_command() -> list[tuple[str, list[str]]]:
    """Each distinct command of the docs once, where it is first written."""
    seen: dict[str, tuple[str, list[str]]] = {}
    for doc in DOCS:
        for where, words in commands(doc):
            seen.setdefault(shlex.join(words), (where, words))
    return list(seen.values())


def _program(words: list[str]) -> tuple[str, list[str]]:
    """The program a command runs and its arguments, past ``NAME=value`` settings."""
    rest = list(words)
    while rest and _ASSIGNMENT.match(rest[0]):
        rest.pop(0)
    assert rest, f"{words}: settings and no program"
    return rest[0], rest[1:]


def _venv_program(program: str) -> Path:
    """The file a ``.venv/bin/X`` names: X in the venv this suite runs in."""
    assert program.startswith(".venv/bin/"), (
        f"`{program}` is the system's, without cognimem: "
        f"write `.venv/bin/{program}` (the venv `make serve` and `make test` build)"
    )
    path = VENV_BIN / program.removeprefix(".venv/bin/")
    assert path.is_file(), f"{program}: no such program in the project's venv ({VENV_BIN})"
    return path


def _scripts_exist(args: list[str]) -> None:
    for arg in args:
        if arg.endswith((".py", ".sh")):
            assert (ROOT / arg).is_file(), f"{arg}: no such file in the checkout"


def test_the_docs_commands_are_found() -> None:
    readme = [words for _, words in commands(ROOT / "README.md")]
    # the README opens with its two commands, exactly
    assert readme[:2] == [["make", "serve"], ["make", "test"]]
    assert any(w[0].endswith("/cognimem") for w in readme), readme
    assert any(w[:1] == ["curl"] and "-d" in w for w in readme), readme  # the JSON body
    assert any("examples/shop/run.py" in w for w in readme), readme
    assert any("examples/shop/run.py" in w for _, w in commands(ROOT / "docs" / "domain.md"))


@pytest.mark.parametrize(
    ("where", "words"), every_command(), ids=[where for where, _ in every_command()]
)
def test_a_docs_command_is_runnable_as_written(where: str, words: list[str]) -> None:
    program, args = _program(words)
    if program == "make":
        assert shutil.which("make"), "make is not installed"
        done = subprocess.run(
            ["make", "-n", *(a for a in args if a != "...")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )  # -n: make checks the targets and prints their recipes, running none
        assert done.returncode == 0, f"{where}: {shlex.join(words)}\n{done.stderr}"
    elif program == "bash":
        _scripts_exist(args)
    elif program in SYSTEM:
        pass
    else:
        path = _venv_program(program)
        _scripts_exist(args)
        if path.name == "cognimem":
            subcommand = []
            for arg in args:
                if not _SUBCOMMAND.match(arg):
                    break
                subcommand.append(arg)
            done = subprocess.run(
                [str(path), *subcommand, "--help"],
                cwd=ROOT,
                env=child_env(),
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, f"{where}: {shlex.join(words)}\n{done.stderr}"


def test_the_shop_example_runs_as_the_docs_write_it() -> None:
    examples = [(w, words) for w, words in every_command() if "examples/shop/run.py" in words]
    assert examples
    for where, words in examples:
        program, args = _program(words)
        done = subprocess.run(
            [str(_venv_program(program)), *args],
            cwd=ROOT,
            env=child_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{where}: {shlex.join(words)}\n{done.stderr}"
        assert "Domain facts" in done.stdout, done.stdout
