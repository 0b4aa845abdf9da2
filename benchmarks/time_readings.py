"""Dump every reading of the time parser over a fixed body of text, to show that a change
to the parser reads nothing differently (or to list what it reads differently).

Read: every LoCoMo dev turn (each sentence by ``find_times`` at the turn's time, both
tenses, numeric dates month first and not read; each turn's ``event_period`` chained
through the session as ingest chains it, both date orders) and question (at the
conversation's last turn, both tenses); the tune half of the time-expression set
(``benchmarks/time_expressions.py``: each sentence at its anchor, both tenses, three
date orders, with and without an event told a week before, ended or not). The check
half is never read.

One line per reading; the script prints how many lines, how many name a time, and the
md5 of the whole dump. ``--out FILE`` keeps the dump for a diff.

Usage (from the repository root):

    PYTHONPATH=src:. python benchmarks/time_readings.py LOCOMO.json [--out /tmp/dump.txt]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from cognimem.eval.locomo import Conversation, dev_five, load
from cognimem.ingest.thread import Thread
from cognimem.text.events import event_period
from cognimem.text.sentences import split_sentences
from cognimem.text.temporal import TimeMention, find_times

sys.path.insert(0, str(Path(__file__).resolve().parent))

from time_expressions import ADDED, DATA

ORDERS = (None, "month_first", "day_first")


def fmt(found: Sequence[TimeMention]) -> str:
    return " | ".join(
        f"{m.span} {m.start:%Y-%m-%d %H} {m.end:%Y-%m-%d %H} {m.granularity}"
        f"{' ~' if m.approximate else ''}{' r' if m.relative else ''}"
        f"{'' if m.anchor is None else f' a{m.anchor[0]:%Y-%m-%d}'}"
        for m in found
    )


def period(p: tuple[datetime, datetime] | None) -> str:
    return "-" if p is None else f"{p[0]:%Y-%m-%d %H:%M:%S} {p[1]:%Y-%m-%d %H:%M:%S}"


def locomo_lines(path: Path) -> Iterator[str]:
    for conv in dev_five(load(path)):
        yield from conversation_lines(conv)


def conversation_lines(conv: Conversation) -> Iterator[str]:
    """The readings of one LoCoMo conversation's turns and questions."""
    for order in ("month_first", "day_first"):
        for session in conv.sessions:
            thread = Thread()
            for turn in session:
                told = event_period(
                    turn.text,
                    turn.occurred_at,
                    after=thread.after,
                    answers=thread.answers,
                    ended=thread.ended,
                    date_order=order,
                )
                thread = thread.said(turn.text, told)
                yield f"E {turn.dia_id} {order}: {period(told)}"
    for turn in (t for s in conv.sessions for t in s):
        for i, sentence in enumerate(split_sentences(turn.text)):
            for future in (False, True):
                for order in ("month_first", None):
                    found = find_times(
                        sentence, turn.occurred_at, prefer_future=future, date_order=order
                    )
                    yield f"T {turn.dia_id}.{i} {future} {order}: {fmt(found)}"
    for n, question in enumerate(conv.questions):
        for future in (False, True):
            found = find_times(question.text, conv.last_time, prefer_future=future)
            yield f"Q {conv.sample_id}.{n} {future}: {fmt(found)}"


def tune_lines() -> Iterator[str]:
    for path in (DATA, *ADDED):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["split"] != "tune":
                continue
            anchor = datetime.fromisoformat(row["anchor"])
            week = (anchor - timedelta(days=7), anchor - timedelta(days=6))
            for future in (False, True):
                for order in ORDERS:
                    for after, ended in ((None, False), (week, False), (week, True)):
                        found = find_times(
                            row["sentence"],
                            anchor,
                            prefer_future=future,
                            date_order=order,  # type: ignore[arg-type]
                            after=after,
                            ended=ended,
                        )
                        yield (
                            f"S {row['id']} {future} {order} {after is not None} {ended}: "
                            + fmt(found)
                        )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("locomo", type=Path, help="a LoCoMo file holding the dev five")
    ap.add_argument("--out", type=Path, help="write the dump here")
    args = ap.parse_args(argv)
    lines = [*locomo_lines(args.locomo), *tune_lines()]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    named = sum(1 for line in lines if not line.endswith((": ", ": -")))
    digest = hashlib.md5(text.encode()).hexdigest()
    print(f"lines {len(lines)}, naming a time {named}, md5 {digest}")
    # as the earlier rounds counted: each time found in a LoCoMo sentence (numeric dates
    # month first) or question, both tenses
    picked = [x for x in lines if x[0] == "Q" or (x[0] == "T" and " month_first:" in x)]
    found = sum(said.count(" | ") + 1 for x in picked if (said := x.split(": ", 1)[1]))
    print(f"LoCoMo readings (sentences month first and questions, both tenses): {found}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
