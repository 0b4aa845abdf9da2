"""Docs that match the code: the public surface, the settings table, CLI help."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_every_command_has_help() -> None:
    runner = CliRunner()
    top = runner.invoke(app, ["--help"])
    assert top.exit_code == 0
    for command in (
        "serve", "mcp", "worker", "remember", "recall", "forget", "import", "export",
        "migrate", "eval", "keys", "lifecycle",
    ):  # fmt: skip
        assert command in top.output
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0, command
    assert runner.invoke(app, ["eval", "locomo", "--help"]).exit_code == 0
