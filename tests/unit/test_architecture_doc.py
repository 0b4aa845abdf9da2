"""docs/architecture.md names modules that exist: a module moved or removed without the
map following fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "cognimem"
# a Python file named in backticks: `recall/steps.py`, `store/*/edits.py`, `pairs.py`,
# `ingest/extract/clauses.py: event_period`
NAMED = re.compile(r"`([\w*./-]+\.py)(?::[^`]*)?`")


def missing(text: str) -> list[str]:
    """The files ``text`` names that do not exist: a path is looked up from the
    repository root and from the package; a bare file name anywhere in the package."""
    gone = []
    for name in sorted(set(NAMED.findall(text))):
        if "/" in name:
            found = any(any(base.glob(name)) for base in (ROOT, PACKAGE, ROOT / "src"))
        else:
            found = any(PACKAGE.rglob(name))
        if not found:
            gone.append(name)
    return gone


def test_the_architecture_map_names_modules_that_exist() -> None:
    assert missing((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")) == []


def test_a_module_that_moved_is_reported() -> None:
    assert missing("`ingest/keys.py` and `text/names.py`, `store/*/edits.py`") == ["ingest/keys.py"]
