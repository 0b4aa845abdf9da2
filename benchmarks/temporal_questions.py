"""Time questions on conversations of other styles: does a read bring the turns that
date what a "when", "since when", "how many" or "which first" question asks?

Data: ``benchmarks/data/temporal_questions.jsonl`` (written for this benchmark by hand,
committed before the code it measures changed; nothing in it is drawn from an evaluation
set; see ``temporal_questions.md``): 26 short conversations in styles unlike the
``time_kinds`` sets — a user asking an assistant for help with the user's life told in
passing, lower-case texting between friends, a three-person group chat — three dated
sessions each, four questions each of six kinds (the five of issue 31 and plain
``when``), each labelled with its evidence turns and the date it expects.
``--data benchmarks/data/temporal_questions_told.jsonl`` reads eight more conversations
(``temporal_questions_told.md``) whose events are told with no time word beside
unrelated turns that carry dates.

Protocol: that of ``benchmarks/time_kinds.py`` (one temporary SQLite database, default
local embedder, no LLM, a padding session of filler before each session, one
``write_batch`` per session, each question read a day after the last session with
``limit`` 10); its ``run`` does the work. Reported: ``frac@10`` (the share of a
question's evidence turns among the top ten items, the LoCoMo protocol) and ``hit@10``
per split, per kind and per split and kind, then the questions not fully answered.

Usage (repository root):

    PYTHONPATH=src:. python benchmarks/temporal_questions.py [--data FILE] [--preset NAME]
        [--padding N] [--split tune|check|both] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from _machine import describe
from time_kinds import PADDING, SPLITS, render, run, summarise

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "temporal_questions.jsonl"
KINDS = ("duration_start", "told_event", "pronoun", "count_order", "plan", "when")
TITLE = "# Time questions in other styles (`benchmarks/temporal_questions.py`)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="a set in this file's schema")
    parser.add_argument("--preset", default="balanced")
    parser.add_argument("--padding", type=int, default=PADDING)
    parser.add_argument("--split", choices=(*SPLITS, "both"), default="both")
    parser.add_argument("--out", type=Path, default=None, help="directory for the results")
    args = parser.parse_args()
    splits = SPLITS if args.split == "both" else (args.split,)
    started = time.perf_counter()
    rows = asyncio.run(run(args.data, args.preset, args.padding, splits))
    result = {
        "command": ("python benchmarks/temporal_questions.py " + " ".join(sys.argv[1:])).strip(),
        "machine": describe(),
        "seconds": round(time.perf_counter() - started, 1),
        "summary": summarise(rows, KINDS),
        "missed": [r for r in rows if r["frac"] < 1.0],
    }
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        stem = args.data.stem if args.split == "both" else f"{args.data.stem}_{args.split}"
        (args.out / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.out / f"{stem}.md").write_text(render(result, TITLE))
    sys.stdout.write(render(result, TITLE))


if __name__ == "__main__":
    main()
