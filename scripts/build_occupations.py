"""Writes ``src/cognimem/text/data/occupations.txt`` from the job titles of the Faker
package (40.40.0, MIT; ``faker/providers/job/__init__.py``, the English list, itself
drawn from the UK National Careers Service titles):

    pip download --no-deps faker==40.40.0 && unzip -q faker-40.40.0-py3-none-any.whl
    python scripts/build_occupations.py faker/providers/job/__init__.py

Each title is lower-cased and a title written index-style ("Accountant, chartered") is
turned round ("chartered accountant"); titles with alternatives ("Land/geomatics
surveyor") or notes in brackets are left out, and so is a one-word entry that is the
start of another title's first word ("Copy" of "Copywriter") or one of the list's two
halves of a hyphenated title ("Make" of make-up artist, "Sub" of sub-editor, which it
holds as entries of their own). The rule extractor reads a job from this list beside its own
(``ingest/extract/vocabulary.py``).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

_HALVES = frozenset({"make", "sub"})
OUT = Path(__file__).resolve().parent.parent / "src/cognimem/text/data/occupations.txt"


def _titles(source: str) -> list[str]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "jobs":
            return [str(t) for t in ast.literal_eval(node.value)]
    raise SystemExit("no job list found")


def _turned(title: str) -> str:
    head, _, rest = title.lower().partition(",")
    return f"{rest.strip()} {head.strip()}" if rest else head.strip()


def main(path: str) -> None:
    titles = [t for t in _titles(Path(path).read_text("utf-8")) if "/" not in t and "(" not in t]
    firsts = {t.lower().split(",")[0].split()[0] for t in titles}
    kept = set()
    for title in titles:
        turned = _turned(title)
        one = turned if " " not in turned else None
        if one and (one in _HALVES or any(f != one and f.startswith(one) for f in firsts)):
            continue  # a fragment ("copy" of "copywriter")
        kept.add(turned)
    header = "# job titles from Faker 40.40.0 (MIT), see NOTICE; scripts/build_occupations.py\n"
    OUT.write_text(header + "\n".join(sorted(kept)) + "\n", encoding="utf-8")
    print(f"{len(kept)} titles -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
