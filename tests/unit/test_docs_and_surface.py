"""Docs that match the code: the public surface, the settings table, CLI help."""

from __future__ import annotations

import re
from pathlib import Path

import typer
from pydantic import BaseModel
from typer.testing import CliRunner

import cognimem
from cognimem.cli import app
from cognimem.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_public_names_are_importable_and_listed() -> None:
    for name in cognimem.__all__:
        assert getattr(cognimem, name) is not None
    assert {"Memory", "SyncMemory", "Settings", "ContextPacket", "CognimemError"} <= set(
        cognimem.__all__
    )
    assert sorted(cognimem.__all__) == list(cognimem.__all__)


def _env_names(model: type[BaseModel], prefix: str) -> list[str]:
    names = []
    for field, info in model.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            names += _env_names(annotation, f"{prefix}{field.upper()}__")
        else:
            names.append(f"{prefix}{field.upper()}")
    return names


def test_every_setting_is_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    documented = set(re.findall(r"COGNIMEM_[A-Z_]+", readme))
    # a row may document siblings as `COGNIMEM_X__A` / `__B`
    for short in re.findall(r"`__([A-Z_]+)`", readme):
        documented |= {n.rsplit("__", 1)[0] + "__" + short for n in documented if "__" in n}
    missing = [n for n in _env_names(Settings, "COGNIMEM_") if n not in documented]
    assert missing == []


def _command_paths() -> list[tuple[str, ...]]:
    """Every command of the CLI as typed after ``cognimem`` (``keys create``)."""
    paths: list[tuple[str, ...]] = []
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    for name, command in group.commands.items():
        subcommands = getattr(command, "commands", None)
        paths += [(name, sub) for sub in subcommands] if subcommands else [(name,)]
    return paths


def test_every_command_has_help_and_is_documented() -> None:
    paths = _command_paths()
    assert {
        ("serve",), ("mcp",), ("worker",), ("remember",), ("recall",), ("update",),
        ("forget",), ("facts",), ("conflicts",), ("stats",), ("erase",), ("import",),
        ("export",), ("migrate",), ("lifecycle",), ("eval", "locomo"), ("keys", "create"),
    } <= set(paths)  # fmt: skip
    docs = " ".join(
        path.read_text(encoding="utf-8") for path in [ROOT / "README.md", *ROOT.glob("docs/*.md")]
    )
    docs = re.sub(r"\s+", " ", docs)
    runner = CliRunner()
    top = runner.invoke(app, ["--help"])
    assert top.exit_code == 0
    for path in paths:
        assert path[0] in top.output
        shown = runner.invoke(app, [*path, "--help"])
        assert shown.exit_code == 0, path
        assert "Usage:" in shown.output, path
        assert f"cognimem {' '.join(path)}" in docs, (
            f"`cognimem {' '.join(path)}` is not in the docs"
        )
