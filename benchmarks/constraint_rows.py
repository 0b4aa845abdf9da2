"""Per-row outcome of :mod:`constraint_recording` on every constraint-recording set, as
JSON, so that two commits can be compared row by row (which check rows a change gains
or loses, which no-constraint sentences start giving a constraint).

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/constraint_rows.py OUT.json

Each set's rows map to ``recorded`` (a statement recorded with its stance and whole
object) or ``false`` (a no-constraint sentence that gave a constraint fact of the
user's, not another person's), with the row's split; the sets are every
``benchmarks/data/constraint_*.jsonl``, ``house_rules.jsonl`` and
``present_states.jsonl``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from constraint_recording import REFERENCE, load, recorded_by, user_constraint_facts

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"


def sets() -> list[Path]:
    found = sorted(DATA.glob("constraint_*.jsonl"))
    return [*found, DATA / "house_rules.jsonl", DATA / "present_states.jsonl"]


def main(out: Path) -> None:
    extractor = RuleExtractor()
    result: dict[str, dict[str, dict[str, object]]] = {}
    for path in sets():
        rows = {}
        for row in load(path):
            facts = extractor.extract_one(
                ExtractionInput(text=row.text, occurred_at=REFERENCE)
            ).facts
            if row.constraint:
                ok = recorded_by(row, facts) is not None
            else:
                ok = bool(user_constraint_facts(facts))
            rows[row.id] = {"split": row.split, "constraint": row.constraint, "hit": ok}
        result[path.stem] = rows
    out.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main(Path(sys.argv[1]))
