"""Does the rule extractor record the constraints people state, with the right polarity
and the whole object? And does it keep quiet on sentences that state none?

The set is ``benchmarks/data/constraint_statements.jsonl``, written by hand for this
benchmark before the extractor was changed for it and frozen since (nothing in it is
taken from any dataset). One JSON object per line:

- a *statement* (``"constraint": true``): ``text``, the ``object`` a careful reader
  would record (what is avoided, chosen or required, with its modifiers, not cut to a
  head word), ``polarity`` (``false``: the speaker is against it), ``kind`` (``plain``,
  ``exclusive`` "I only ...", ``conditional`` "when I travel I ...", ``reasoned`` "...
  because of my knee") and, for the last two, the ``condition`` or ``reason``;
- a *no-constraint sentence* (``"constraint": false``): a question, a hypothetical,
  reported speech about someone else, a stance the speaker says they dropped, a fact
  about the world, small talk, a joke, a past event or a request; its ``kind`` says
  which.

Every row has a ``topic`` (24 everyday topics) and a ``split``: ``tune`` or ``check``,
assigned by topic (12 each), so the check half shares no topic with the half the
extractor was tuned on. The report lists the tune half's failures only; the check half
is measured, never read for tuning.

Scoring (each message read alone by ``RuleExtractor.extract_one``, role ``user``, at
2024-06-15T12:00Z):

- a *constraint fact* is a fact of a constraint category (goal, state, value, causal,
  policy) that still holds (``holds`` true);
- its *stance* is its polarity, flipped when its value opens with a word of refusal
  ("no", "not", "never", "avoid", "without", "skip", "stop", "don't", "won't",
  "can't", "refuse"): "no pork" with polarity true and "pork" with polarity false both
  say the speaker is against pork; so does an ``allergy`` or ``intolerance`` fact
  "pork" with polarity true (its predicate is against its value);
- a statement is *recorded* when one of its constraint facts has the labelled stance
  and its value holds every content word of the labelled object (lower-cased, split at
  non-letters, function words dropped, a light suffix stemmer so "fly" and "flying"
  agree). A value that is the whole sentence holds the object too, but its stance is
  its polarity (it opens with "I"), so a negative statement recorded only as its
  sentence with polarity true is not recorded;
- *condition / reason kept*: of the recorded conditional and reasoned statements, how
  many have the condition's or reason's content words in some constraint fact of the
  statement (the same fact or, for a reason, a causal one);
- *any constraint*: the statement gave at least one constraint fact;
- *false constraints*: on the no-constraint sentences, the share that gave any
  constraint fact of the user's, and such facts per sentence. A constraint read as
  another person's ("My father refuses to drink herbal tea": subject ``father``) is what
  that sentence states, not a constraint of the speaker's, and does not count.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/constraint_recording.py [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractedFact, ExtractionInput
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.text.tokens import words

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "constraint_statements.jsonl"
REFERENCE = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
SPLITS = ("tune", "check")
GOAL_RECORDED = 0.90
GOAL_FALSE = 0.03
_CONSTRAINT_VALUES = frozenset(c.value for c in CONSTRAINT_CATEGORIES)
_WORD = re.compile(r"[a-z0-9]+")
_FUNCTION_WORDS = frozenset(
    words(
        """a, an, the, my, our, your, his, her, their, its, me, i, we, you, it, this, that,
        these, those, of, to, in, on, at, for, with, and, or, by, from, than, over, as, like,
        any, some, s, is, are, be, been, being, which, who, what, do, does"""
    )
)
_AGAINST_PREDICATES = frozenset({"allergy", "intolerance"})
USER = "user"  # the subject of the speaker's own facts
_REFUSAL = re.compile(
    r"^(?:no|not|never|avoid|avoiding|without|skip|skipping|stop|don't|do not|won't|can't|"
    r"cannot|refuse|refuse to)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Row:
    id: str
    split: str
    topic: str
    text: str
    constraint: bool
    kind: str
    polarity: bool = True
    object: str = ""
    condition: str = ""
    reason: str = ""


@dataclass
class Tally:
    """What one split gave."""

    statements: int = 0
    recorded: int = 0
    any_constraint: int = 0
    framed: int = 0  # recorded conditional / reasoned statements
    framed_kept: int = 0
    quiet: int = 0  # no-constraint sentences
    quiet_broken: int = 0
    quiet_facts: int = 0
    by_kind: dict[str, Counter[str]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    false_constraints: list[str] = field(default_factory=list)

    def kind(self, name: str) -> Counter[str]:
        return self.by_kind.setdefault(name, Counter())

    def as_dict(self) -> dict[str, Any]:
        return {
            "statements": self.statements,
            "recorded": self.recorded,
            "recorded_rate": _ratio(self.recorded, self.statements),
            "any_constraint_rate": _ratio(self.any_constraint, self.statements),
            "condition_or_reason_kept": _ratio(self.framed_kept, self.framed),
            "no_constraint_sentences": self.quiet,
            "false_constraint_rate": _ratio(self.quiet_broken, self.quiet),
            "false_constraints_per_sentence": _ratio(self.quiet_facts, self.quiet),
            "by_kind": {
                k: {"recorded": c["recorded"], "of": c["of"]}
                for k, c in sorted(self.by_kind.items())
            },
        }


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def load(path: Path = DATA) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows.append(Row(**json.loads(line)))
    return rows


def stem(word: str) -> str:
    """A light suffix stemmer: enough that "fly" / "flying" and "drive" / "driving"
    agree."""
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: len(word) - len(suffix)] + keep
            break
    return word.rstrip("e") or word


def content(text: str) -> frozenset[str]:
    """The content words of ``text``, stemmed."""
    words = _WORD.findall(text.casefold().replace("'", ""))
    return frozenset(stem(w) for w in words if w not in _FUNCTION_WORDS)


def stance(fact: ExtractedFact) -> bool:
    """Whether the fact is *for* its object (:func:`stance_of`)."""
    return stance_of(fact.predicate, fact.polarity, fact.value)


def stance_of(predicate: str | None, polarity: bool, value: str) -> bool:
    """Whether a fact is *for* its object: its polarity, flipped by a value that opens
    with a word of refusal or by a predicate that is against its value (an allergy or
    intolerance names what is avoided)."""
    against = predicate in _AGAINST_PREDICATES
    return polarity != (against or bool(_REFUSAL.match(value.strip())))


def constraint_facts(facts: Iterable[ExtractedFact]) -> list[ExtractedFact]:
    return [f for f in facts if f.category.value in _CONSTRAINT_VALUES and f.holds]


def user_constraint_facts(facts: Iterable[ExtractedFact]) -> list[ExtractedFact]:
    """The constraint facts whose subject is the speaker, not another person."""
    return [f for f in constraint_facts(facts) if f.subject == USER]


def recorded_by(row: Row, facts: Sequence[ExtractedFact]) -> ExtractedFact | None:
    """The constraint fact that records ``row`` with its stance and whole object."""
    wanted = content(row.object)
    for fact in constraint_facts(facts):
        if stance(fact) == row.polarity and wanted <= content(fact.value):
            return fact
    return None


def describe(fact: ExtractedFact) -> str:
    sign = "" if fact.polarity else "NOT "
    return f"{fact.category.value}/{fact.predicate}={sign}{fact.value!r}"


def score(rows: Sequence[Row], extractor: RuleExtractor) -> Tally:
    tally = Tally()
    for row in rows:
        message = ExtractionInput(text=row.text, occurred_at=REFERENCE)
        facts = extractor.extract_one(message).facts
        found = constraint_facts(facts)
        if not row.constraint:
            claimed = user_constraint_facts(found)
            tally.quiet += 1
            tally.quiet_broken += bool(claimed)
            tally.quiet_facts += len(claimed)
            if claimed:
                got = "; ".join(describe(f) for f in claimed)
                tally.false_constraints.append(f"{row.id} [{row.kind}] {row.text!r}: {got}")
            continue
        tally.statements += 1
        tally.any_constraint += bool(found)
        hit = recorded_by(row, facts)
        kind = tally.kind(row.kind)
        kind["of"] += 1
        polarity = tally.kind("negative" if not row.polarity else "positive")
        polarity["of"] += 1
        if hit is not None:
            tally.recorded += 1
            kind["recorded"] += 1
            polarity["recorded"] += 1
            frame = row.condition or row.reason
            if frame:
                tally.framed += 1
                words = content(frame)
                tally.framed_kept += any(words <= content(f.value) for f in found)
            continue
        got = "; ".join(describe(f) for f in facts) or "nothing"
        sign = "for" if row.polarity else "against"
        tally.failures.append(f"{row.id} [{row.kind}, {sign} {row.object!r}] {row.text!r}: {got}")
    return tally


def _table(tallies: dict[str, Tally]) -> list[str]:
    lines = [
        "| split | statements | recorded (stance + whole object) | any constraint | "
        "negative recorded | positive recorded | condition / reason kept | "
        "no-constraint sentences | with a constraint | constraints per sentence |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, t in tallies.items():
        neg, pos = t.kind("negative"), t.kind("positive")
        lines.append(
            f"| {name} | {t.statements} | {_ratio(t.recorded, t.statements):.3f} "
            f"({t.recorded}) | {_ratio(t.any_constraint, t.statements):.3f} | "
            f"{_ratio(neg['recorded'], neg['of']):.3f} | "
            f"{_ratio(pos['recorded'], pos['of']):.3f} | "
            f"{_ratio(t.framed_kept, t.framed):.3f} ({t.framed_kept}/{t.framed}) | {t.quiet} | "
            f"{_ratio(t.quiet_broken, t.quiet):.3f} ({t.quiet_broken}) | "
            f"{_ratio(t.quiet_facts, t.quiet):.3f} |"
        )
    return lines


def report(tallies: dict[str, Tally], header: list[str], *, list_check: bool) -> str:
    lines = [*header, ""]
    lines += _table(tallies)
    lines += ["", "Recorded by kind:", "", "| split | " + " | ".join(_KINDS) + " |"]
    lines.append("|---" * (len(_KINDS) + 1) + "|")
    for name, t in tallies.items():
        cells = [
            f"{_ratio(t.kind(k)['recorded'], t.kind(k)['of']):.3f} "
            f"({t.kind(k)['recorded']}/{t.kind(k)['of']})"
            for k in _KINDS
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Goals on the check half: recorded ≥ {GOAL_RECORDED:.2f}, false constraints ≤ "
        f"{GOAL_FALSE:.2f} per no-constraint sentence.",
    ]
    shown = [s for s in SPLITS if s == "tune" or list_check]
    for name in shown:
        t = tallies[name]
        lines += ["", f"Not recorded, {name} ({len(t.failures)}):"]
        lines += [f"  - {f}" for f in t.failures] or ["  (none)"]
        lines += ["", f"False constraints, {name} ({len(t.false_constraints)}):"]
        lines += [f"  - {f}" for f in t.false_constraints] or ["  (none)"]
    if not list_check:
        lines += ["", "The check half's failures are not listed: it is measured, not tuned on."]
    return "\n".join(lines) + "\n"


_KINDS = ("plain", "exclusive", "conditional", "reasoned")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument(
        "--list-check", action="store_true", help="also list the check half's failures"
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=DATA,
        help="another set of the same form (house_rules.jsonl: rules said with no first "
        "person); its results are named after it",
    )
    parser.add_argument("--name", help="the results' file name (default: after the set, as above)")
    args = parser.parse_args(argv)
    data = args.data.resolve()
    name = "constraint_recording" if data == DATA else f"constraint_recording_{data.stem}"
    name = args.name or name

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _machine import describe as describe_machine
    from _machine import provenance

    machine = describe_machine()
    rows = load(data)
    extractor = RuleExtractor()
    tallies = {s: score([r for r in rows if r.split == s], extractor) for s in SPLITS}
    tallies["all"] = score(rows, extractor)
    topics = {s: sorted({r.topic for r in rows if r.split == s}) for s in SPLITS}
    header = [
        "# Constraint statements recorded by the rule extractor",
        "",
        *provenance(
            "PYTHONPATH=src python benchmarks/constraint_recording.py"
            + (" --list-check" if args.list_check else "")
            + ("" if data == DATA else f" --data {data.relative_to(ROOT)}")
            + (f" --name {args.name}" if args.name else ""),
            machine,
        ),
        "",
        f"`{data.relative_to(ROOT)}`: {sum(r.constraint for r in rows)} statements and "
        f"{sum(not r.constraint for r in rows)} no-constraint sentences over "
        f"{len({r.topic for r in rows})} topics, written by hand before the extractor was "
        "changed for them. Tune topics: "
        + ", ".join(topics["tune"])
        + ". Check topics: "
        + ", ".join(topics["check"])
        + ". Scoring: see the module docstring.",
    ]
    text = report(tallies, header, list_check=args.list_check)
    result = {
        "machine": machine,
        "data": str(data.relative_to(ROOT)),
        "topics": topics,
        "splits": {name: t.as_dict() for name, t in tallies.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / f"{name}.md").write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
