"""Question forms: does the rule classifier tell a time question about someone's past
or planned act from a request for a decision, and see the questions that order, count
or span events?

Data: ``benchmarks/data/question_forms.jsonl`` (76 questions written by hand for issue
31 before the rules were changed for them; labelling guide beside it). Each question is
read by ``recall.analyze.classify`` and ``event_question`` (rules only, no store).

Reported per split: ``intent`` (the rules' intent among the labelled ones), ``decision``
(the decision flag as labelled), ``events`` (the event form as labelled, None included)
and ``all`` (all three right); with ``--misses``, the questions of the tune split the
rules get wrong (the check split is read only to report it).

Usage (repository root):

    python benchmarks/question_forms.py [--misses] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cognimem.recall.analyze import classify, event_question

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "question_forms.jsonl"
SPLITS = ("tune", "check")


def judge(row: dict[str, Any]) -> dict[str, Any]:
    reading = classify(row["question"])
    form = event_question(row["question"])
    got = {
        "intent": reading.intent.value,
        "decision": reading.decision,
        "events": None if form is None else form.value,
    }
    right = {
        "intent": got["intent"] in row["intent"],
        "decision": got["decision"] == row["decision"],
        "events": got["events"] == row["events"],
    }
    return {"id": row["id"], "got": got, "right": right}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="list the tune split's misses")
    parser.add_argument("--out", type=Path, help="write the results as JSON")
    parser.add_argument("--split", action="append", choices=SPLITS, help="only this split")
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    report: dict[str, Any] = {}
    for split in args.split or SPLITS:
        judged = [judge(r) for r in rows if r["split"] == split]
        n = len(judged)
        scores = {
            key: round(sum(j["right"][key] for j in judged) / n, 4)
            for key in ("intent", "decision", "events")
        }
        scores["all"] = round(sum(all(j["right"].values()) for j in judged) / n, 4)
        report[split] = {"n": n, **scores}
        print(f"{split:5} n={n}  " + "  ".join(f"{k} {v:.4f}" for k, v in scores.items()))
        if args.misses and split == "tune":
            for row, j in zip([r for r in rows if r["split"] == split], judged, strict=True):
                if not all(j["right"].values()):
                    print(f"  {row['id']} {row['question']!r} got {j['got']}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
