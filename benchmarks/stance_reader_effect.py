"""The learned stance reader's effect on the labelled sets, before / after, by half.

The constraint sets (``constraint_recording.py``: recorded statements, false constraint
facts per no-constraint sentence, and both pooled over the sets), the knowledge set
(``knowledge_set.py``, fact level), its "nothing" rounds, the nothing probes
(``nothing_probes.py``) and the labelled extraction set (``extraction_quality.py``) are
scored by their own scorers twice: with the rule extractor alone, and with the rules
then the stance reader over each message's vector as the write funnel would read it
(the text embedded as its item is, ``"<author>: <text>"`` when the message has an
author, by the shipped MiniLM embedder). The reader's fact goes through the rules' gates
for a whole-sentence stance (``StanceReader.rule_gates``: someone else's stance, the
collector's one-occasion, in-the-moment and past-habit gates) unless
``--without-rule-gates``. ``constraint_moments`` (one-off refusals and their standing
pairs, written for the moment gate) is scored beside the constraint sets, outside the
pooled rows, whose sets are those the keep rule names.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/stance_reader_effect.py [--reader rich] [--threshold T]
        [--first-person] [--without-rule-gates] [--list-added] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import constraint_recording as cr
import extraction_quality as eq
import knowledge_set as ks
import nothing_probes as npb
from _machine import describe, provenance
from stance_data import STATEMENT_SETS
from stance_reader import READ_AS_STANCE, StanceReader, shipped_reader, stated
from stance_reader_rich import rich_reader

from cognimem.ingest.extract.coref import Discourse
from cognimem.ingest.extract.detect_stances import FIRST_PERSON
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import Extraction, ExtractionInput
from cognimem.models.items import index_text
from cognimem.providers.onnx import OnnxMiniLMEmbedder

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
# sets no rule or reader was tuned on (every row "check"), written and committed before
# they were measured; kept out of ``stance_data``'s sets and out of the pooled rows
UNSEEN_SETS = ("constraint_forms_round12",)
# constraint sets scored by half but kept out of the pooled rows
UNPOOLED_SETS = ("constraint_moments",)
_KINDS = ("plain", "exclusive", "conditional", "reasoned")  # a statement's kinds


class ReadingExtractor(RuleExtractor):
    """The rules, then the stance reader over the vectors of ``vectors`` (by the text
    the funnel embeds)."""

    def __init__(self, reader: StanceReader, vectors: dict[str, np.ndarray]) -> None:
        self.reader = reader
        self.vectors = vectors

    def rules_only(self, message: ExtractionInput) -> Extraction:
        return super().extract_one(message)

    def extract_one(
        self, message: ExtractionInput, discourse: Discourse | None = None
    ) -> Extraction:
        found = super().extract_one(message, discourse)
        if message.role not in {"user", "human"}:
            return found
        vector = self.vectors.get(index_text(message.author, message.text))
        return self.reader.read(found, message.text, vector, message.occurred_at)


def embed(texts: Sequence[str]) -> dict[str, np.ndarray]:
    distinct = list(dict.fromkeys(texts))
    matrix = asyncio.run(OnnxMiniLMEmbedder().embed(distinct, "document"))
    return dict(zip(distinct, matrix, strict=True))


# which reader is measured: the pooled one (``stance_reader``) or ``--reader rich``
# (``stance_reader_rich``, whose vectors are its rows of inputs)
_RICH: list[bool] = [False]
# ``--threshold`` / ``--first-person``: the pooled reader with another threshold or gate
_SETTINGS: dict[str, Any] = {}


def _reading(texts: Sequence[str]) -> ReadingExtractor:
    """The rules + the measured reader over ``texts``' vectors (or rows of inputs)."""
    if _RICH[0]:
        rich = rich_reader()
        if _SETTINGS:
            rich = dataclasses.replace(rich, **_SETTINGS)
        return ReadingExtractor(rich, rich.inputs_for(texts))
    reader = shipped_reader()
    if _SETTINGS:
        reader = dataclasses.replace(reader, **_SETTINGS)
    return ReadingExtractor(reader, embed(texts))


def _both(texts: Sequence[str], run: Callable[[RuleExtractor], str]) -> tuple[str, str]:
    return run(RuleExtractor()), run(_reading(texts))


def constraints() -> list[str]:
    """One row per constraint set and half, then the pooled rows."""
    lines = []
    pooled = {h: [0] * 8 for h in cr.SPLITS}
    for name in (*STATEMENT_SETS, *UNPOOLED_SETS):
        rows = cr.load(DATA / f"{name}.jsonl")
        reading = _reading([r.text for r in rows])
        for half in cr.SPLITS:
            mine = [r for r in rows if r.split == half]
            cells = []
            for i, x in enumerate((RuleExtractor(), reading)):
                t = cr.score(mine, x)
                p = pooled[half] if name in STATEMENT_SETS else [0] * 8
                p[4 * i : 4 * i + 4] = [
                    a + b
                    for a, b in zip(
                        p[4 * i : 4 * i + 4],
                        (t.recorded, t.statements, t.quiet_facts, t.quiet),
                        strict=True,
                    )
                ]
                cells.append(
                    f"recorded {t.recorded}/{t.statements}, false constraints "
                    f"{t.quiet_facts}/{t.quiet}"
                )
            lines.append(f"| {name} | {half} | {cells[0]} | {cells[1]} |")
    for half, p in pooled.items():
        cells = [
            f"recorded {p[j]}/{p[j + 1]} ({p[j] / p[j + 1]:.3f}), false constraints "
            f"{p[j + 2]}/{p[j + 3]} ({p[j + 2] / p[j + 3]:.3f})"
            for j in (0, 4)
        ]
        lines.append(f"| **constraint sets pooled** | {half} | {cells[0]} | {cells[1]} |")
    return lines


def _unseen_cells(t: cr.Tally) -> list[str]:
    neg, pos = t.kind("negative"), t.kind("positive")
    kinds = [f"{k} {t.kind(k)['recorded']}/{t.kind(k)['of']}" for k in _KINDS if t.kind(k)["of"]]
    return [
        f"{t.recorded}/{t.statements} ({t.recorded / t.statements:.3f})",
        f"{neg['recorded']}/{neg['of']}",
        f"{pos['recorded']}/{pos['of']}",
        ", ".join(kinds),
        f"{t.quiet_facts}/{t.quiet} ({t.quiet_facts / t.quiet:.3f})",
        f"{t.quiet_broken}/{t.quiet}",
    ]


def unseen() -> list[str]:
    """The sets no one tuned on: recorded (against / for, by kind) and false constraints,
    rules alone and rules + reader."""
    lines = [
        "| set | extractor | recorded | against | for | by kind | false constraints "
        "per sentence | sentences with one |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in UNSEEN_SETS:
        rows = cr.load(DATA / f"{name}.jsonl")
        reading = _reading([r.text for r in rows])
        for label, x in (("rules alone", RuleExtractor()), ("rules + stance reader", reading)):
            cells = _unseen_cells(cr.score(rows, x))
            lines.append(f"| {name} | {label} | " + " | ".join(cells) + " |")
        lines += ["", _where_misses_stop(name, rows, reading)]
    return lines


def _where_misses_stop(name: str, rows: Sequence[cr.Row], reading: ReadingExtractor) -> str:
    """Where the statements the rules do not record stop on the reader's path: the
    statement gates (``stance_reader.stated``), the rules' other stances (the reader
    speaks only when the rules read none), the threshold, the polarity."""
    reader = reading.reader
    missed = gated = spoken = above = right = 0
    for row in rows:
        if not row.constraint:
            continue
        message = ExtractionInput(text=row.text, occurred_at=cr.REFERENCE)
        rules = reading.rules_only(message).facts
        if cr.recorded_by(row, rules) is not None:
            continue
        missed += 1
        if stated(row.text, cr.REFERENCE) is None:
            continue
        gated += 1
        if any(f.category in READ_AS_STANCE for f in rules):
            continue
        spoken += 1
        stance = reader.scores(reading.vectors[row.text], row.text)[0]
        if stance >= reader.threshold and (
            not reader.first_person or FIRST_PERSON.search(row.text) is not None
        ):
            above += 1
            right += cr.recorded_by(row, reading.extract_one(message).facts) is not None
    return (
        f"{name}: statements the rules miss {missed}; pass the statement gates {gated}; "
        f"with no stance read by the rules {spoken}; at or above the threshold "
        f"{reader.threshold:.4f} {above}; recorded (stance and object) {right}."
    )


def added_false() -> list[str]:
    """The check no-constraint sentences (constraint sets, then the nothing probes) given
    more constraint facts by rules + reader than by the rules alone (``--list-added``)."""
    lines = ["Check no-constraint sentences the reader adds a constraint to:", ""]
    rules = RuleExtractor()
    quiet = [
        (name, r.kind, r.text)
        for name in (*STATEMENT_SETS, *UNPOOLED_SETS)
        for r in cr.load(DATA / f"{name}.jsonl")
        if r.split == "check" and not r.constraint
    ]
    quiet += [("nothing_probes", r["kind"], r["text"]) for r in npb.load() if r["split"] == "check"]
    reading = _reading([text for _, _, text in quiet])
    for name, kind, text in quiet:
        message = ExtractionInput(text=text, occurred_at=cr.REFERENCE)
        before = cr.constraint_facts(rules.extract_one(message).facts)
        if len(cr.constraint_facts(reading.extract_one(message).facts)) > len(before):
            lines.append(f"- {name} ({kind}): {text}")
    return lines


def knowledge(name: str) -> list[str]:
    passages = ks.load(DATA / f"{name}.jsonl")
    texts = [t for p in passages for t in p.turns]
    lines = []
    for half in ks.SPLITS:
        rows = [p for p in passages if p.split == half]

        def run(x: RuleExtractor, rows: Any = rows) -> str:
            f = ks.score_facts(rows, x)
            return (
                f"P {f.precision:.3f} R {f.recall:.3f} F1 {f.f1:.3f}, nothing false/100 "
                f"{f.false_per_100:.1f} ({f.nothing_facts}/{f.nothing_turns})"
            )

        before, after = _both(texts, run)
        lines.append(f"| {name} | {half} | {before} | {after} |")
    return lines


def probes() -> list[str]:
    rows = npb.load()
    lines = []
    for half in npb.SPLITS:
        mine = [r for r in rows if r["split"] == half]

        def run(x: RuleExtractor, mine: Any = mine) -> str:
            h = npb.score(mine, x)
            return (
                f"nothing with a constraint {h.total('sentences with a constraint')}/"
                f"{h.total('nothing')}, false facts {h.total('false facts')}"
            )

        before, after = _both([r["text"] for r in mine], run)
        lines.append(f"| nothing_probes (all rounds) | {half} | {before} | {after} |")
    return lines


def labelled() -> list[str]:
    rows = eq.load()
    lines = []
    for split in ("dev", "heldout", "fresh"):
        mine = [r for r in rows if r.split == split]

        def run(x: RuleExtractor, mine: Any = mine) -> str:
            s = eq.score(mine, x)
            return (
                f"P {s.precision:.3f} R {s.recall:.3f} F1 {s.f1:.3f}, empty with facts "
                f"{s.empty_with_facts}/{s.empty_sentences}"
            )

        texts = [index_text(r.author, r.text) for r in mine]
        before, after = _both(texts, run)
        lines.append(f"| extraction_labelled | {split} | {before} | {after} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--unseen-only", action="store_true", help="only the sets no one tuned on")
    parser.add_argument("--reader", choices=("pooled", "rich"), default="pooled")
    parser.add_argument("--threshold", type=float, help="the pooled reader's, not its stored one")
    parser.add_argument(
        "--first-person", action="store_true", help="speak only with a first-person word"
    )
    parser.add_argument(
        "--without-rule-gates",
        action="store_true",
        help="the reader's fact kept without the rules' gates (as before branch stance25)",
    )
    parser.add_argument(
        "--list-added",
        action="store_true",
        help="only list the check no-constraint sentences the reader adds a constraint to",
    )
    args = parser.parse_args(argv)
    _RICH[0] = args.reader == "rich"
    command = "PYTHONPATH=src python benchmarks/stance_reader_effect.py"
    if _RICH[0]:
        command += " --reader rich"
    if args.threshold is not None:
        _SETTINGS["threshold"] = args.threshold
        command += f" --threshold {args.threshold}"
    if args.first_person:
        _SETTINGS["first_person"] = True
        command += " --first-person"
    if args.without_rule_gates:
        _SETTINGS["rule_gates"] = False
        command += " --without-rule-gates"
    if args.list_added:
        command += " --list-added"
    lines = [
        "# The stance reader on the fact-level sets, before / after",
        "",
        *provenance(command, describe()),
        "",
    ]
    if args.list_added:
        _emit("\n".join([*lines, *added_false()]) + "\n", args.out)
        return
    lines += [*unseen(), ""]
    if args.unseen_only:
        _emit("\n".join(lines) + "\n", args.out)
        return
    lines += [
        "| set | half | rules alone | rules + stance reader |",
        "|---|---|---|---|",
    ]
    lines += constraints()
    for name in ("knowledge_set", "knowledge_nothing_round10", "knowledge_nothing_round11"):
        lines += knowledge(name)
    lines += probes()
    lines += labelled()
    _emit("\n".join(lines) + "\n", args.out)


def _emit(text: str, out: Path | None) -> None:
    if out:
        out.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
