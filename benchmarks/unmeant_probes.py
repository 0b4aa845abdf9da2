"""Sentences that do not mean what they say (sarcasm with and without a marker, jokes and
hyperbole, teasing, quotations) beside earnest look-alikes, read by the rule extractor:
``benchmarks/data/unmeant_probes.jsonl`` (labelling guide: ``unmeant_probes.md``; issue
32, the goal of no fact from a "nothing" sentence), and round 2,
``benchmarks/data/unmeant_round2.jsonl`` (guide: ``unmeant_round2.md``; issues 29 and
32: sentences that must give no constraint and no fact, split by topic, beside earnest
look-alikes that must still give theirs; a row with a ``constraint`` label is read when
a constraint fact has its stance and whole object, as ``constraint_recording.py``
scores a statement); and round 3, ``benchmarks/data/unmeant_round3.jsonl`` (jokes about
allergies, roles at home, dreams, hearsay at a sentence's end; see the guide of round
2 for how it was written).

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
ROUND2 = ROOT / "benchmarks" / "data" / "unmeant_round2.jsonl"
ROUND3 = ROOT / "benchmarks" / "data" / "unmeant_round3.jsonl"
ROUNDS = ((None, ""), ("1", ", round 1"), ("2", ", round 2"), ("3", ", round 3"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/unmeant_probes.md")
    parser.add_argument("--split", choices=SPLITS, action="append")
    args = parser.parse_args(argv)
    rows = read_jsonl(DATA) + read_jsonl(ROUND2) + read_jsonl(ROUND3)
    halves = {name: score([r for r in rows if r["split"] == name]) for name in args.split or SPLITS}
    header = heading(
        "Unmeant probes: sarcasm, jokes, teasing and quotations beside earnest look-alikes "
        "(rules, no LLM)",
        "PYTHONPATH=src python benchmarks/unmeant_probes.py",
        f"{len(rows)} sentences "
        f"({', '.join(str(p.relative_to(ROOT)) for p in (DATA, ROUND2, ROUND3))})",
    )
    publish(args.out, report(halves, header, ROUNDS))


if __name__ == "__main__":
    main()
