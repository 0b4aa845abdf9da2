"""Lines and code lines of the time parser's ten modules under ``src/cognimem/text/``.

Code lines are the lines left without blank lines, comments and docstrings (a string
statement: a module's, a class's, a function's, or one after an assignment), counted
with ``ast`` and ``tokenize``, as ``benchmarks/results/time_parser_size.md`` counts them.

Usage (from the repository root, or give the root of another tree):

    python benchmarks/time_size.py [ROOT]
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from collections.abc import Sequence
from pathlib import Path

MODULES = ("temporal", "dates", "relative", "periods", "calendar", "holidays", "events")
MODULES += ("numeric_dates", "mention", "told")
_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}


def count(source: str) -> tuple[int, int]:
    """The lines of ``source`` and its code lines."""
    strings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(getattr(node.value, "value", None), str):
            strings |= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    code: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in _SKIP or tok.type == tokenize.ENDMARKER:
            continue
        code |= {n for n in range(tok.start[0], tok.end[0] + 1) if n not in strings}
    return len(source.splitlines()), len(code)


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    root = Path(args[0] if args else ".") / "src" / "cognimem" / "text"
    total = [0, 0]
    for name in MODULES:
        lines, code = count((root / f"{name}.py").read_text(encoding="utf-8"))
        total = [total[0] + lines, total[1] + code]
        print(f"{name:14} {lines:5} {code:5}")
    print(f"{'total':14} {total[0]:5} {total[1]:5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
