"""What the probe-set benchmarks share: reading a labelled JSON-lines set, the report's
heading, and writing the report where it was asked for (and to the terminal)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file, blank lines left out."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def heading(title: str, command: str, set_line: str) -> str:
    """A report's first lines: its title, the command that wrote it, and its set."""
    return "\n".join([f"# {title}", "", f"Command: `{command}`", f"Set: {set_line}"])


def publish(out: Path, text: str) -> None:
    """Write the report to ``out`` and print it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text, end="")
