"""CPU time of ``find_times`` per LoCoMo dev turn: every sentence of every turn of the
dev five, read at the turn's time (past, numeric dates month first), one pass after a
warm-up pass; ``--repeat`` passes, each reported, then the median. Process CPU time, so
other load on the machine counts less than with a wall clock; compare two trees by
running them in turn (A/B/A/B) at the same ``nice``.

Usage (repository root):

    PYTHONPATH=src:. python benchmarks/time_cpu.py LOCOMO.json [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from cognimem.eval.locomo import dev_five, load
from cognimem.text.sentences import split_sentences
from cognimem.text.temporal import find_times


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("locomo", type=Path, help="a LoCoMo file holding the dev five")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    turns = [
        (split_sentences(t.text), t.occurred_at)
        for conv in dev_five(load(args.locomo))
        for s in conv.sessions
        for t in s
    ]

    def one_pass() -> float:
        t0 = time.process_time()
        for sentences, at in turns:
            for sentence in sentences:
                find_times(sentence, at, date_order="month_first")
        return (time.process_time() - t0) / len(turns) * 1e6

    one_pass()  # warm-up: compiled patterns, caches
    runs = [one_pass() for _ in range(args.repeat)]
    print(f"turns {len(turns)}; µs CPU per turn: " + " ".join(f"{r:.1f}" for r in runs))
    print(f"median {statistics.median(runs):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
