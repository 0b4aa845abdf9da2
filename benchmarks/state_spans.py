"""How often the rule that gives a state fact its half-life (``models/state_span.py``)
reads a state as its label says: lasting or passing, per half of
``benchmarks/data/state_spans.jsonl``.

Usage (repository root): ``python benchmarks/state_spans.py [--split tune|check|all]``
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cognimem.models.state_span import lasting_in_text

DATA = Path(__file__).resolve().parent / "data" / "state_spans.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--split", choices=("tune", "check", "all"), default="tune")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    halves = ("tune", "check") if args.split == "all" else (args.split,)
    for half in halves:
        part = [r for r in rows if r["split"] == half]
        for label in ("lasting", "passing"):
            of = [r for r in part if r["label"] == label]
            wrong = [r for r in of if lasting_in_text(r["text"]) != (label == "lasting")]
            print(f"{half} {label}: {len(of) - len(wrong)}/{len(of)} read as {label}")
            for r in wrong:
                print(f"  wrong: {r['text']}")


if __name__ == "__main__":
    main()
