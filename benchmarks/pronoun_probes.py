"""Facts said of someone by a pronoun, on ``benchmarks/data/pronoun_probes.jsonl``
(issue 32, item 2: a resolved pronoun's fact reaches the store).

Each row is two user turns: the first names a person ("My brother Tom is moving to
Seattle."), the second says something about them by a pronoun ("He got a job at
Boeing."), labelled with that fact (its ``predicate`` null means any) in one of twelve
families (job, employer, home, age, allergy, diet, relationship, pet, goal, health,
preference, singular "they"). Reported per half and family:

- **rules**: the rule extractor reads the second turn, with the first as its window,
  into the labelled fact with the person as subject;
- **store**: the pair written through ``Memory.write`` (as ``knowledge_set.py`` does)
  leaves a fact from the second turn whose subject is the person, or, when it leaves no
  fact about anyone else, the second turn's item linked to the person's entity; one
  that is not is counted by why.

The set was written and committed before the extractor changed for it; rows alternate
tune / check within each family. The tune half is printed item by item; the check half
in counts only.

Rounds: ``pronoun_probes.jsonl`` (48 pairs), ``pronoun_probes_round2.jsonl`` (64 pairs,
relation forms said of a person by a pronoun: career and life events, moves, "her new
job at ...", origins, diagnoses, hires, a fronted time or a discourse marker before the
pronoun, "now / still / been", "he and his wife ...", schools, a job left),
``pronoun_probes_round3.jsonl`` (28 pairs: teaching, being into something, health,
pastimes, home, work, their children and siblings), ``pronoun_probes_round4.jsonl`` (26
pairs: a person introduced with no fact, habits, schools, "based in"),
``pronoun_probes_round5.jsonl`` (56 pairs: what the rules read for the speaker said of
someone else: habits, health, work, home, likes and dislikes; and ``nothing`` pairs, a
joke, figure, hearsay, wish, question or denial said of the person, which must give no
fact: labelled with no fact and no link, counted apart).

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/pronoun_probes.py [--out benchmarks/results/pronoun_probes.md]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter, defaultdict
from pathlib import Path

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractedFact, ExtractionInput

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _probe_sets import heading, publish, read_jsonl
from extraction_quality import describe_fact, values_match
from knowledge_set import Passage, StoreScore, said_at, same_subject, score_store

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "pronoun_probes.jsonl"
# each round of probes written before the code it measured; reported each on its own
ROUNDS = (
    DATA,
    ROOT / "benchmarks" / "data" / "pronoun_probes_round2.jsonl",
    ROOT / "benchmarks" / "data" / "pronoun_probes_round3.jsonl",
    ROOT / "benchmarks" / "data" / "pronoun_probes_round4.jsonl",
    ROOT / "benchmarks" / "data" / "pronoun_probes_round5.jsonl",
)
SPLITS = ("tune", "check")


def load(paths: tuple[Path, ...] = ROUNDS) -> list[Passage]:
    """Every round's pairs, each family named with its round after the first
    ("moved, round 2")."""
    pairs = []
    for n, path in enumerate(paths, 1):
        suffix = f", round {n}" if n > 1 else ""
        pairs += [
            Passage(
                r["id"],
                r["split"],
                r["family"] + suffix,
                tuple(r["turns"]),
                tuple(r["facts"]),
                coref=tuple(r["coref"]),
            )
            for r in read_jsonl(path)
        ]
    return pairs


def rules_read(p: Passage, extractor: RuleExtractor) -> tuple[bool, str]:
    """Whether the rules read the labelled fact of the second turn (for a pair labelled
    with none, whether they read nothing from it), and what they read."""
    message = ExtractionInput(text=p.turns[1], occurred_at=said_at(1), context=p.turns[:1])
    facts = extractor.extract_one(message).facts
    read = "; ".join(f"{f.subject}: {describe_fact(f)}" for f in facts) or "nothing"
    if not p.facts:
        return not facts, read
    [gold] = p.facts
    hit = any(
        same_subject(p, gold, f)
        and gold["category"] == f.category.value
        and gold["predicate"] in (None, f.predicate)
        and values_match(gold["value"], f.value)
        and ("polarity" not in gold or _against(f) == (not gold["polarity"]))
        for f in facts
    )
    return hit, read


def _against(fact: ExtractedFact) -> bool:
    """A stance against its value, written either way: polarity false or "no X"."""
    return not fact.polarity or fact.value.lower().startswith("no ")


def _round(p: Passage) -> int:
    return int(p.kind.rsplit(" ", 1)[1]) if ", round " in p.kind else 1


def report(halves: dict[str, tuple[list[Passage], StoreScore, dict[str, str]]], header: str) -> str:
    """Per half and round: the pairs whose labelled fact the rules read, the store's
    links, and the "nothing" pairs (labelled with no fact) that gave a fact."""
    lines = [header, "", "| half | pairs | rules read the fact | store links right | "]
    lines[-1] += "nothing pairs giving a fact |"
    lines.append("|---|---|---|---|---|")
    for name, (pairs, store, missed) in halves.items():
        lines.append(
            _row(
                name,
                pairs,
                missed,
                f"{store.links_right}/{store.links} (wrong {store.links_wrong})",
            )
        )
        for n in range(1, len(ROUNDS) + 1):
            lines.append(_row(f"{name}, round {n}", [p for p in pairs if _round(p) == n], missed))
    for name, (pairs, store, missed) in halves.items():
        by_family: dict[str, Counter[str]] = defaultdict(Counter)
        for p in pairs:
            by_family[p.kind]["pairs"] += 1
            by_family[p.kind]["read"] += p.id not in missed
        lines += ["", f"## {name} half", "", "| family | rules read the fact |", "|---|---|"]
        lines += [f"| {f} | {c['read']}/{c['pairs']} |" for f, c in sorted(by_family.items())]
        lines += ["", "Store links not right, by reason:", ""]
        lines += [f"- {why}: {n}" for why, n in sorted(store.reasons.items())] or ["- (none)"]
        if name == "tune":
            lines += ["", "Rules missed:"]
            lines += [f"  - {m}" for m in missed.values()] or ["  (none)"]
    return "\n".join(lines) + "\n"


def _row(label: str, pairs: list[Passage], missed: dict[str, str], store: str = "") -> str:
    said = [p for p in pairs if p.facts]
    read = sum(p.id not in missed for p in said)
    empty = [p for p in pairs if not p.facts]
    gave = f"{sum(p.id in missed for p in empty)}/{len(empty)}" if empty else ""
    return f"| {label} | {len(said)} | {read}/{len(said)} | {store} | {gave} |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/pronoun_probes.md")
    parser.add_argument("--split", choices=SPLITS, action="append")
    args = parser.parse_args(argv)
    pairs, extractor = load(), RuleExtractor()
    halves = {}
    for name in args.split or SPLITS:
        part = [p for p in pairs if p.split == name]
        missed = {}
        for p in part:
            hit, read = rules_read(p, extractor)
            if not hit:
                who = p.facts[0]["subject"] if p.facts else "must give nothing"
                missed[p.id] = f"{p.id} {p.turns[1]!r} ({who}) -> {read}"
        halves[name] = (part, asyncio.run(score_store(part)), missed)
    header = heading(
        "Pronoun probes: facts said of someone by a pronoun (rules and store, no LLM)",
        "PYTHONPATH=src python benchmarks/pronoun_probes.py",
        f"{len(pairs)} pairs ({', '.join(str(r.relative_to(ROOT)) for r in ROUNDS)})",
    )
    publish(args.out, report(halves, header))


if __name__ == "__main__":
    main()
