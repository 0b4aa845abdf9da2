"""Figures of speech beside literal statements of the same grammar, read by the rule
extractor: ``benchmarks/data/figurative_probes.jsonl`` (issue 32: no fact from a
"nothing" sentence; a metaphor said as what a thing or a person *is*).

Each row is one user sentence of chat with an assistant, of a ``family`` (what a thing
is, what a person is, what a pet is, what the speaker is, "X is killing me", "dying to"
and other body hyperbole, idioms) and a ``kind``: ``nothing`` (a figure of speech: no
fact may be read) or ``fact`` (a literal statement in the same grammar that must still
give its labelled fact; ``predicate`` null means any). Rows alternate ``tune`` /
``check`` within each family and kind; the set and its guide
(``benchmarks/data/figurative_probes.md``) were committed before the extractor changed
for them. Scored as ``nothing_probes.py`` scores its set: the tune half item by item,
the check half in counts only.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/figurative_probes.py [--out PATH.md]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _probe_sets import heading, publish, read_jsonl
from nothing_probes import SPLITS, report, score

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "figurative_probes.jsonl"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "benchmarks/results/figurative_probes.md"
    )
    parser.add_argument("--split", choices=SPLITS, action="append")
    args = parser.parse_args(argv)
    rows = read_jsonl(DATA)
    halves = {name: score([r for r in rows if r["split"] == name]) for name in args.split or SPLITS}
    header = heading(
        "Figurative probes: figures of speech beside literal statements (rules, no LLM)",
        "PYTHONPATH=src python benchmarks/figurative_probes.py",
        f"{len(rows)} sentences ({DATA.relative_to(ROOT)})",
    )
    publish(args.out, report(halves, header))


if __name__ == "__main__":
    main()
