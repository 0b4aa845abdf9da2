"""Paraphrase renewal through the embedded write path (issue 32, item 7), on
``benchmarks/data/renewal_pairs.jsonl``: pairs of user turns where the second says the
first's fact again in other words (``restates: true``: "My elbow hurts." / "My elbow is
still sore today.") or states another fact of the same kind (``false``: "My wrist hurts
too."), in five families (health, job, home, preference, state of work or life).

Each pair is written turn by turn through ``Memory.write`` (SQLite file, the default
local embedder, no LLM), one user per pair, exactly as ``knowledge_set.py`` scores its
restatement pairs: right when the first turn's fact counts the second turn as evidence
for a restatement, and does not for another fact. A pair that is not right is counted by
why (the second turn wrote no fact, it wrote one in another key family, or in the same
family and was not taken as the same).

The set was written and committed before ``ingest/restatement.py`` changed for it; rows
alternate tune / check within each family and kind. A second round,
``renewal_pairs_round2.jsonl`` (36 pairs in the same five families, written and
committed before the code of issue 32's thirteenth round), is read with ``--data``
(``--out`` then names its own results file). The tune half is printed item by
item; the check half in counts only.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/renewal_pairs.py [--out benchmarks/results/renewal_pairs.md]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _probe_sets import heading, publish, read_jsonl
from knowledge_set import Passage, StoreScore, score_store

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "renewal_pairs.jsonl"
SPLITS = ("tune", "check")


def load(path: Path = DATA) -> list[Passage]:
    rows = read_jsonl(path)
    return [
        Passage(r["id"], r["split"], r["family"], tuple(r["turns"]), (), restates=r["restates"])
        for r in rows
    ]


def report(halves: dict[str, tuple[list[Passage], StoreScore]], header: str) -> str:
    lines = [
        header,
        "",
        "| half | pairs | right | restatements renewed | other facts left alone |",
        "|---|---|---|---|---|",
    ]
    for name, (pairs, score) in halves.items():
        right = score.renewal_outcomes
        same = [p for p in pairs if p.restates]
        other = [p for p in pairs if not p.restates]
        lines.append(
            f"| {name} | {len(pairs)} | {score.renewals_right}/{score.renewals} | "
            f"{sum(right[p.id] == 'right' for p in same)}/{len(same)} | "
            f"{sum(right[p.id] == 'right' for p in other)}/{len(other)} |"
        )
    for name, (pairs, score) in halves.items():
        lines += ["", f"## {name} half", "", "| family | restatements | other facts |"]
        lines.append("|---|---|---|")
        by_family: dict[str, Counter[str]] = defaultdict(Counter)
        for p in pairs:
            kind = "same" if p.restates else "other"
            by_family[p.kind][kind] += 1
            by_family[p.kind][f"{kind} right"] += score.renewal_outcomes[p.id] == "right"
        for family, c in sorted(by_family.items()):
            lines.append(
                f"| {family} | {c['same right']}/{c['same']} | {c['other right']}/{c['other']} |"
            )
        lines += ["", "Not right, by reason:", ""]
        lines += [f"- {why}: {n}" for why, n in sorted(score.reasons.items())] or ["- (none)"]
        if name == "tune" and score.notes:
            lines += ["", "Items:"]
            lines += [f"  - {m}" for m in score.notes]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/renewal_pairs.md")
    parser.add_argument("--split", choices=SPLITS, action="append")
    parser.add_argument("--embedder", choices=("local", "hashing"), default="local")
    parser.add_argument("--data", type=Path, default=DATA, help="a round of pairs (jsonl)")
    args = parser.parse_args(argv)
    pairs = load(args.data)
    halves = {}
    for name in args.split or SPLITS:
        part = [p for p in pairs if p.split == name]
        halves[name] = (part, asyncio.run(score_store(part, args.embedder)))
    header = heading(
        "Renewal pairs: a fact said again in other words (embedded write path, no LLM)",
        "PYTHONPATH=src python benchmarks/renewal_pairs.py"
        + ("" if args.embedder == "local" else f" --embedder {args.embedder}")
        + ("" if args.data == DATA else f" --data {args.data} --out {args.out}"),
        f"{len(pairs)} pairs ({args.data.resolve().relative_to(ROOT)})",
    )
    publish(args.out, report(halves, header))


if __name__ == "__main__":
    main()
