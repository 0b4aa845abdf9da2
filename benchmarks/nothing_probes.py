"""Sentences that must state nothing, beside real statements of the same grammar, read
by the rule extractor: ``benchmarks/data/nothing_probes.jsonl`` (issue 32, item 5 and the
goal of no fact from a "nothing" sentence).

Each row is one user sentence of chat with an assistant, of a ``family`` (a metaphor
with no laughter, an "-ic" adjective, a joke's age, hyperbole, a joke title, a negation,
reported speech, a hypothetical) and a ``kind``: ``nothing`` (no fact may be read) or
``fact`` (a real statement in the same words that must still give its labelled fact;
``predicate`` null means any). Rows alternate ``tune`` / ``check`` within each family
and kind; the set was written and committed before the extractor changed for it.
``nothing_probes_added.jsonl`` (round 3: laughter, a claim taken back, sarcasm,
exaggeration, wishes, hypotheticals, others' words, questions without a question mark,
negations, a person or a made thing said to be another) was written later, after the
first two rounds' fixes, and frozen before the code it measures changed; its rows are
counted by family as ``family, round 3``. ``nothing_probes_round4.jsonl`` (round 4:
jokes said as chat, figures said as what a thing is or with no copula, daydreams,
others' words and questions, requests for advice, negations) was written after round
3's fixes and frozen before the code it measures changed. ``nothing_probes_round5.jsonl``
(round 5: an "allergy" to what is no substance, a role in one's family said as a job)
likewise after round 4's. ``nothing_probes_round6.jsonl`` (round 6: epithets for
people, figurative homes, jobs and relations, unmarked sarcasm, hyperbole,
self-deprecation, song lyrics and quotes, jokes) after round 5's.
``nothing_probes_round7.jsonl`` (round 7: sarcasm the sentence itself marks, jokes about
oneself, figures of speech about oneself and one's things, jokes and figures said of
someone else, each beside real statements of the same surface) after round 6's.
``nothing_probes_round8.jsonl`` (round 8: hypotheticals, reported speech about the
speaker, questions about oneself, jokes, and others' plans for the speaker, each beside
real statements of the same words) after round 7's.

Reported per half and family: false facts on "nothing" sentences (and how many
sentences gave any), and the labelled facts of the real statements that were read. The
tune half is printed item by item; the check half in counts only.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/nothing_probes.py [--out benchmarks/results/nothing_probes.md]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractedFact, ExtractionInput

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _probe_sets import heading, publish, read_jsonl
from constraint_recording import constraint_facts, content, stance
from extraction_quality import describe_fact, values_match

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "nothing_probes.jsonl"
ADDED = ROOT / "benchmarks" / "data" / "nothing_probes_added.jsonl"
ROUND4 = ROOT / "benchmarks" / "data" / "nothing_probes_round4.jsonl"
ROUND5 = ROOT / "benchmarks" / "data" / "nothing_probes_round5.jsonl"
ROUND6 = ROOT / "benchmarks" / "data" / "nothing_probes_round6.jsonl"
ROUND7 = ROOT / "benchmarks" / "data" / "nothing_probes_round7.jsonl"
ROUND8 = ROOT / "benchmarks" / "data" / "nothing_probes_round8.jsonl"
SAID = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
SPLITS = ("tune", "check")


@dataclass
class Half:
    counts: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    items: list[str] = field(default_factory=list)

    def total(self, key: str, rounds: str | None = None) -> int:
        """The count ``key`` over every family, or over the families of one round only
        (``"1"``, ``"3"``) or of the first two (``"1-2"``)."""
        return sum(
            c[key]
            for family, c in self.counts.items()
            if rounds is None
            or (rounds == "1-2" and _round(family) < 3)
            or (rounds.isdigit() and _round(family) == int(rounds))
        )


SETS = (DATA, ADDED, ROUND4, ROUND5, ROUND6, ROUND7, ROUND8)


def _round(family: str) -> int:
    """The round a family's rows were written in ("metaphor, round 2": 2; no round: 1)."""
    return int(family.rsplit(" ", 1)[1]) if ", round " in family else 1


def load(paths: tuple[Path, ...] = SETS) -> list[dict[str, Any]]:
    return [row for path in paths for row in read_jsonl(path)]


def matches(gold: dict[str, Any], fact: ExtractedFact) -> bool:
    """Whether ``fact`` is the labelled one (a null ``category`` or ``predicate`` means
    any)."""
    return (
        gold["category"] in (None, fact.category.value)
        and gold["predicate"] in (None, fact.predicate)
        and values_match(gold["value"], fact.value)
    )


def score(rows: list[dict[str, Any]], extractor: RuleExtractor | None = None) -> Half:
    extractor = extractor or RuleExtractor()
    out = Half()
    for row in rows:
        facts = extractor.extract_one(ExtractionInput(text=row["text"], occurred_at=SAID)).facts
        round_ = f", round {row['round']}" if row.get("round", 1) != 1 else ""
        c = out.counts[row["family"] + round_]
        read = "; ".join(describe_fact(f) for f in facts) or "nothing"
        if row["kind"] == "nothing":
            c["nothing"] += 1
            c["false facts"] += len(facts)
            c["sentences with a fact"] += bool(facts)
            c["sentences with a constraint"] += bool(constraint_facts(facts))
            if facts:
                out.items.append(f"{row['id']} must give nothing: {row['text']!r} -> {read}")
            continue
        c["real"] += 1
        hits = [any(matches(gold, f) for f in facts) for gold in row["facts"]]
        if "constraint" in row:  # a stance: recorded as constraint_recording.py scores it
            wanted = content(row["constraint"]["object"])
            polarity = row["constraint"]["polarity"]
            hits.append(
                any(
                    stance(f) == polarity and wanted <= content(f.value)
                    for f in constraint_facts(facts)
                )
            )
        c["labelled"] += len(hits)
        c["read"] += sum(hits)
        if not all(hits):
            out.items.append(f"{row['id']} missed: {row['text']!r} -> {read}")
    return out


ROUNDS = (
    (None, ""),
    ("1-2", ", rounds 1-2"),
    ("3", ", round 3"),
    ("4", ", round 4"),
    ("5", ", round 5"),
    ("6", ", round 6"),
    ("7", ", round 7"),
    ("8", ", round 8"),
)


def report(
    halves: dict[str, Half], header: str, rounds_shown: tuple[tuple[str | None, str], ...] = ROUNDS
) -> str:
    """The report: a line per half (and per group of rounds, when the set has more than
    one), then each half by family; the tune half's items."""
    lines = [
        header,
        "",
        "| half | nothing sentences | false facts | sentences with a fact | sentences with a "
        "constraint | real statements | labelled facts read |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, h in halves.items():
        several = len({_round(family) for family in h.counts}) > 1
        for rounds, label in rounds_shown:
            if rounds and not several:
                continue
            keys = (
                "nothing",
                "false facts",
                "sentences with a fact",
                "sentences with a constraint",
            )
            cells = [h.total(k, rounds) for k in keys]
            read = f"{h.total('read', rounds)}/{h.total('labelled', rounds)}"
            lines.append(
                f"| {name}{label} | {' | '.join(map(str, cells))} | {h.total('real', rounds)} | "
                f"{read} |"
            )
    for name, h in halves.items():
        lines += [
            "",
            f"## {name} half",
            "",
            "| family | nothing | false facts | real | read |",
            "|---|---|---|---|---|",
        ]
        for family in sorted(h.counts):
            c = h.counts[family]
            lines.append(
                f"| {family} | {c['nothing']} | {c['false facts']} | {c['real']} | "
                f"{c['read']}/{c['labelled']} |"
            )
        if name == "tune":
            lines += ["", "Items:"]
            lines += [f"  - {m}" for m in h.items] or ["  (none)"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/nothing_probes.md")
    parser.add_argument("--split", choices=SPLITS, action="append")
    args = parser.parse_args(argv)
    rows = load()
    halves = {name: score([r for r in rows if r["split"] == name]) for name in args.split or SPLITS}
    header = heading(
        "Nothing probes: sentences that state nothing, beside real ones (rules, no LLM)",
        "PYTHONPATH=src python benchmarks/nothing_probes.py",
        f"{len(rows)} sentences ({', '.join(str(p.relative_to(ROOT)) for p in SETS)})",
    )
    publish(args.out, report(halves, header))


if __name__ == "__main__":
    main()
