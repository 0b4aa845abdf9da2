"""Where the learned stance reader's scores put the sentences it would speak on.

A diagnostic of why no threshold keeps the reader (``benchmarks/results/
stance_reader.md``, branch ``stance24``): the stance scores, by the stored reader, of
the constraint sets' **check**-half no-constraint sentences the reader may speak on
(the rules read no stance from them and they pass the statement gates,
``stance_reader.stated``), against those of round 12's statements the rules miss
there; then how many of each clear a range of thresholds. It reads check rows, so
nothing may be chosen from it: it only says what a threshold could have bought.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/stance_reader_margin.py
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import constraint_recording as cr
from stance_data import STATEMENT_SETS
from stance_reader import READ_AS_STANCE, shipped_reader, stated
from stance_reader_effect import DATA, embed

from cognimem.ingest.extract.detect_stances import FIRST_PERSON
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput

THRESHOLDS = (0.8349, 0.86, 0.88, 0.90, 0.92, 0.94, 0.96)


def spoken_scores(rows: Sequence[cr.Row]) -> list[tuple[float, cr.Row]]:
    """The stance score of each row the reader may speak on (rules read no stance, or
    do not record the statement; the statement gates pass), highest first."""
    reader, rules = shipped_reader(), RuleExtractor()
    vectors = embed([r.text for r in rows])
    out = []
    for row in rows:
        facts = rules.extract_one(ExtractionInput(text=row.text, occurred_at=cr.REFERENCE)).facts
        if any(f.category in READ_AS_STANCE for f in facts):
            continue
        if stated(row.text, cr.REFERENCE) is None:
            continue
        out.append((reader.scores(vectors[row.text], row.text)[0], row))
    return sorted(out, key=lambda t: -t[0])


def main() -> None:
    negatives = []
    for name in STATEMENT_SETS:
        rows = [r for r in cr.load(DATA / f"{name}.jsonl") if r.split == "check"]
        negatives += [(s, name, r) for s, r in spoken_scores([r for r in rows if not r.constraint])]
    negatives.sort(key=lambda t: -t[0])
    r12 = [r for r in cr.load(DATA / "constraint_forms_round12.jsonl") if r.constraint]
    stances = spoken_scores(r12)
    print(f"threshold stored: {shipped_reader().threshold:.4f}")
    print(f"check no-constraint sentences the reader may speak on: {len(negatives)}")
    print("their highest scores (set, has a first-person word):")
    for s, name, r in negatives[:10]:
        print(f"  {s:.3f} {name} {FIRST_PERSON.search(r.text) is not None}")
    print(f"round-12 statements the reader may speak on: {len(stances)}")
    print("their highest scores: " + ", ".join(f"{s:.3f}" for s, _ in stances[:12]))
    print("| threshold | check no-constraint above | round-12 statements above |")
    print("|---|---|---|")
    for t in THRESHOLDS:
        neg = sum(s >= t for s, _, _ in negatives)
        pos = sum(s >= t for s, _ in stances)
        print(f"| {t:.4f} | {neg} | {pos} |")


if __name__ == "__main__":
    main()
