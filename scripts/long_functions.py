"""Every function in src/ longer than the limit, longest first, read with ``ast``
(nothing is imported). A function's length runs from its ``def`` (decorators left out)
to its last line, docstring and comments included; a nested function counts towards
the function that holds it as well as on its own.

    .venv/bin/python scripts/long_functions.py          # list the functions over 60 lines
    .venv/bin/python scripts/long_functions.py --max 40 # another limit

Exits 1 when it lists any.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
LIMIT = 60


@dataclass(frozen=True)
class LongFunction:
    path: str  # relative to src/
    name: str  # qualified within its module (``Class.method``, ``outer.inner``)
    line: int
    lines: int


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    """Each function and method of ``tree`` with its qualified name."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{prefix}{node.name}", node
            yield from functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}{node.name}.")
        else:
            yield from functions(node, prefix)


def long_functions(src: Path = SRC, limit: int = LIMIT) -> list[LongFunction]:
    found = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, node in functions(tree):
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                found.append(LongFunction(str(path.relative_to(src)), name, node.lineno, lines))
    return sorted(found, key=lambda f: (-f.lines, f.path, f.line))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--max", type=int, default=LIMIT, help="longest allowed (lines)")
    limit = parser.parse_args().max
    found = long_functions(limit=limit)
    for function in found:
        print(f"{function.lines:4d}  {function.path}:{function.line}  {function.name}")
    print(f"{len(found)} function(s) over {limit} lines")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
