"""Sentences that do not mean what they say (sarcasm with and without a marker, jokes and
hyperbole, teasing, quotations) beside earnest look-alikes, read by the rule extractor:
``benchmarks/data/unmeant_probes.jsonl`` (labelling guide: ``unmeant_probes.md``; issue
32, the goal of no fact from a "nothing" sentence).

Reported per half and family: false facts on the unmeant sentences (and how many
sentences gave any), and the labelled facts of the earnest ones that were read. The
tune half is printed item by item; the check half in counts only.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/unmeant_probes.py [--out benchmarks/results/unmeant_probes.md]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _probe_sets import heading, publish, read_jsonl
from nothing_probes import SPLITS, report, score

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "unmeant_probes.jsonl"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/unmeant_probes.md")
    parser.add_argument("--split", choices=SPLITS, action="append")
    args = parser.parse_args(argv)
    rows = read_jsonl(DATA)
    halves = {name: score([r for r in rows if r["split"] == name]) for name in args.split or SPLITS}
    header = heading(
        "Unmeant probes: sarcasm, jokes, teasing and quotations beside earnest look-alikes "
        "(rules, no LLM)",
        "PYTHONPATH=src python benchmarks/unmeant_probes.py",
        f"{len(rows)} sentences ({DATA.relative_to(ROOT)})",
    )
    publish(args.out, report(halves, header))


if __name__ == "__main__":
    main()
