"""Does a library read a family of time expressions as well as the hand rules do?

The rows of the time-expression set (``benchmarks/time_expressions.py``) are grouped into
families by the words of the expression itself (not by which rule reads them, so the
grouping does not depend on the parser under test): numeric dates ("3/4/2024",
"2024-04-03"), dates written with a month's name and a day ("March 3rd", "15-Mar-2024"),
a month with a year ("May 2023"), holidays (the names of ``text/holidays.py``'s table),
counts from when it was said ("two weeks ago", "in 3 days", "a month from now") and
weekdays ("last Friday", "on Tuesday"). A row may fall in more than one family. For each
family and split: exact interval / start only / coverage per parser, scored as
``time_expressions.py`` scores them, and mean microseconds per sentence.

A family whose hand rules a library reads as well on the tune half is a candidate to
hand over to it; the check half (read as counts) decides.

Usage (from the repository root; a library parser needs its package importable):

    PYTHONPATH=src:. python benchmarks/time_families.py [--parsers temporal,dateparser]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from time_expressions import KINDS, SPLITS, load, run_parser, score

from cognimem.text import calendar as cal
from cognimem.text.holidays import HOLIDAY_NAMES

_MONTH = cal.alt([*cal.MONTHS, *cal.MONTH_ABBREVIATIONS])
_WEEKDAY = cal.alt(cal.WEEKDAYS)
FAMILIES: dict[str, re.Pattern[str]] = {
    "numeric date": re.compile(r"\b\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\b"),
    "written date": re.compile(
        rf"\b(?:{_MONTH})\b\.?[\s,-]*(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\b(?!\d)|"
        rf"\b\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?[\s-]+(?:{_MONTH})\b",
        re.IGNORECASE,
    ),
    "month and year": re.compile(
        rf"\b(?:{_MONTH})\b\.?,?\s+(?:of\s+)?(?:19|20)\d\d\b", re.IGNORECASE
    ),
    "holiday": re.compile(rf"\b(?:{HOLIDAY_NAMES.replace('{S}', '')})", re.IGNORECASE),
    "count from now": re.compile(
        r"\b(?:ago|back|from\s+now|hence)\b|\bin\s+(?:a|an|\d+|[a-z]+)\s+(?:\w+\s+)?"
        r"(?:days?|weeks?|months?|years?|hours?)\b",
        re.IGNORECASE,
    ),
    "weekday": re.compile(rf"\b(?:{_WEEKDAY})\b", re.IGNORECASE),
}


def family_rates(
    rows: Sequence[dict[str, Any]], scores: Sequence[dict[str, Any]], pattern: re.Pattern[str]
) -> dict[str, tuple[int, str]]:
    """Per split: how many rows of the family, and exact / start / coverage."""
    out: dict[str, tuple[int, str]] = {}
    for split in SPLITS:
        got = [
            s
            for row, s in zip(rows, scores, strict=True)
            if row["split"] == split and row["kind"] in KINDS and pattern.search(row["expression"])
        ]
        covered = [s["covered"] for s in got if s["covered"] is not None]

        def rate(values: list[bool]) -> str:
            return f"{sum(values) / len(values):.3f}" if values else "–"

        cells = (rate([s["exact"] for s in got]), rate([s["start"] for s in got]), rate(covered))
        out[split] = (len(got), " / ".join(cells))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parsers", default="temporal,dateparser")
    args = ap.parse_args(argv)
    rows = load()
    names = args.parsers.split(",")
    results: dict[str, Any] = {}
    for name in names:
        found, speed = run_parser(name, rows)
        scores = [score(row, f) for row, f in zip(rows, found, strict=True)]
        results[name] = ({fam: family_rates(rows, scores, p) for fam, p in FAMILIES.items()}, speed)
    print("| family | split | n | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for fam in FAMILIES:
        for split in SPLITS:
            n = results[names[0]][0][fam][split][0]
            cells = " | ".join(results[name][0][fam][split][1] for name in names)
            print(f"| {fam} | {split} | {n} | {cells} |")
    speeds = ", ".join(f"{n} {results[n][1]['mean_us']} µs" for n in names)
    print(f"\nmean per sentence: {speeds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
