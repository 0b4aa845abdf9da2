"""Occupation forms: whether the rule extractor reads the job and its holder from "I'm a
X", "I work as an X", "my <relative> (<name>) is a X" and "I'm married to a X named N",
and reads no job from person nouns that name none ("I'm a night owl", "I'm a Canadian").

The set is ``benchmarks/data/occupation_forms.jsonl`` (written and committed before the
code it measures), split by topic: tune is health, science, trades and public service
jobs and diet, temperament and family nouns; check is arts, office and law, transport
and outdoors, teaching and faith jobs and where-from, belief, pastime and stage-of-life
nouns. Every frame is in both halves; ``in_job_list`` says whether the job (or its head
word) was in the rules' hand list when the set was written.

A job sentence is right when a ``job`` fact has its holder as subject and its job as
value; precision is right job facts over all job facts read; false jobs are job facts
read from the sentences that name none.

    PYTHONPATH=src python benchmarks/occupation_forms.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks/data/occupation_forms.jsonl"
WHEN = datetime(2024, 6, 15, 12, tzinfo=UTC)


@dataclass
class Tally:
    jobs: int = 0
    right: int = 0
    read: int = 0
    unlisted: int = 0
    unlisted_right: int = 0
    none_sentences: int = 0
    false_jobs: int = 0
    misses: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def line(self, name: str) -> str:
        p = self.right / self.read if self.read else 1.0
        r = self.right / self.jobs if self.jobs else 0.0
        return (
            f"{name}: recall {self.right}/{self.jobs} = {r:.3f} (jobs not in the list "
            f"{self.unlisted_right}/{self.unlisted}), precision {self.right}/{self.read} = "
            f"{p:.3f}, false jobs {self.false_jobs} on {self.none_sentences} sentences "
            "naming none"
        )


def score(rows: list[dict[str, object]]) -> Tally:
    extractor = RuleExtractor()
    t = Tally()
    for row in rows:
        text = str(row["text"])
        facts = extractor.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
        jobs = [(f.subject, f.value.lower()) for f in facts if f.predicate == "job"]
        t.read += len(jobs)
        if not row["occupation"]:
            t.none_sentences += 1
            t.false_jobs += len(jobs)
            t.wrong += [f"{text} -> {j}" for j in jobs]
            continue
        t.jobs += 1
        t.unlisted += not row["in_job_list"]
        want = (str(row["holder"]).lower(), str(row["job"]).lower())
        hit = [j for j in jobs if (j[0].lower(), j[1]) == want]
        t.right += bool(hit)
        t.unlisted_right += bool(hit) and not row["in_job_list"]
        t.read -= len(hit) - 1 if hit else 0  # one right fact counts once
        if not hit:
            t.misses.append(f"{text} -> {jobs or 'nothing'}")
        t.wrong += [f"{text} -> {j}" for j in jobs if j not in hit]
    return t


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    lines = ["# Occupation forms (benchmarks/data/occupation_forms.jsonl)", ""]
    for name in ("tune", "check"):
        t = score([r for r in rows if r["split"] == name])
        lines += [t.line(name), "", f"Missed, {name}:"]
        lines += [f"  - {m}" for m in t.misses] or ["  (none)"]
        lines += [f"Wrong or false, {name}:"]
        lines += [f"  - {m}" for m in t.wrong] or ["  (none)"]
        lines.append("")
    text = "\n".join(lines)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
