"""``scripts/long_functions.py`` lists the functions of src/ over 60 lines; src/ holds
none, and no module of src/ is over 500 lines (issue 30's goals, met for the whole tree
once the last long functions and modules were split)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
MODULE_LIMIT = 500


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "long_functions", ROOT / "scripts" / "long_functions.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def function(name: str, lines: int, indent: str = "") -> str:
    """Source of a function ``lines`` long, ``def`` line included."""
    body = [f"{indent}    x = {n}" for n in range(lines - 2)]
    return "\n".join([f"{indent}def {name}() -> int:", *body, f"{indent}    return 0"]) + "\n"


def test_it_lists_functions_and_methods_over_the_limit(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text(
        function("fits", 60)
        + function("too_long", 61)
        + "class Thing:\n"
        + function("method", 70, indent="    ")
        + "    @property\n"  # decorators do not count
        + function("decorated", 60, indent="    "),
        encoding="utf-8",
    )

    found = load_script().long_functions(tmp_path, limit=60)

    assert [(f.path, f.name, f.lines) for f in found] == [
        ("pkg/mod.py", "Thing.method", 70),
        ("pkg/mod.py", "too_long", 61),
    ]


def test_no_function_of_src_is_over_sixty_lines() -> None:
    found = load_script().long_functions()

    assert [f"{f.path}:{f.line} {f.name} ({f.lines})" for f in found] == []


def test_no_module_of_src_is_over_five_hundred_lines() -> None:
    lines = {
        str(p.relative_to(ROOT / "src")): len(p.read_text(encoding="utf-8").splitlines())
        for p in (ROOT / "src").rglob("*.py")
    }

    assert {m: n for m, n in lines.items() if n > MODULE_LIMIT} == {}
