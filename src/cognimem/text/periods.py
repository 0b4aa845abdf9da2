"""Periods longer than a month named in text: quarters ("Q3 2023", "the third
quarter"), decades and their parts ("the 90s", "the late nineties"), spans of years
("from 2015 until 2018", "2010-2014"); a month or a year that is the whole text is
read by :mod:`.dates`. The conventions are listed in ``docs/time.md``; :mod:`.temporal`
assembles these patterns with the others."""

from __future__ import annotations

import re
from datetime import date, datetime

from cognimem.text import calendar as cal
from cognimem.text.dates import YEAR
from cognimem.text.mention import Resolved, Rule

__all__ = ["PATTERNS"]


def _quarter(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "Q3 2023", "the third quarter of 2022"; without a year the latest that has begun
    (looking ahead: the earliest that has not ended)."""
    n = int(m.group(1)) if m.group(1) else cal.ordinal(m.group(2)) % 5  # "last": the 4th
    year = cal.said_year(m.group(3), ref)
    years = [year] if year else [ref.year - 1, ref.year, ref.year + 1]
    firsts = [date(y, 3 * n - 2, 1) for y in years]
    spans = [(cal.utc_at(f), cal.utc_at(cal.add_months(f, 3))) for f in firsts]
    found = spans[0] if year else cal.pick(spans, ref, future)
    return None if found is None else (*found, "quarter", False)


# "the twenties" ... "the nineties": the tens of a decade
_DECADE_WORDS = {f"{word[:-1]}ies": n // 10 for word, n in cal.TENS.items()}


# the years of a decade its early, mid and late part name, approximately
_DECADE_PARTS = {"early": (0, 4), "mid": (3, 7), "late": (6, 10)}


def _decade(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the 1990s", "the 90s", "the nineties": that decade, the latest that has begun
    when its century is not said; "the early / mid / late 90s": its first four, middle
    four or last four years, approximate."""
    if m.group(2):
        first = int(m.group(2))
    else:
        tens = int(m.group(3)) if m.group(3) else _DECADE_WORDS[m.group(4).lower()]
        first = ref.year // 100 * 100 + 10 * tens
        if first > ref.year:
            first -= 100
    lo, hi = _DECADE_PARTS.get((m.group(1) or "").lower(), (0, 10))
    start, end = cal.utc_at(date(first + lo, 1, 1)), cal.utc_at(date(first + hi, 1, 1))
    return start, end, "decade", m.group(1) is not None


def _year_range(m: re.Match[str], _ref: datetime, _future: bool) -> Resolved:
    """ "from 2010 to 2014", "2010-2014": the first year to the end of the last."""
    first, last = int(m.group(1)), int(m.group(2))
    if last < first or cal.lone_and(m):
        return None  # "between 2010 and 2014" needs its "between"
    return cal.utc_at(date(first, 1, 1)), cal.utc_at(date(last + 1, 1, 1)), "year", False


PATTERNS: tuple[Rule, ...] = (
    (
        frozenset({"quarter", "q"}),
        rf"\b(?:q([1-4])|(?:the\s+)?({cal.FIRST_FOUR})\s+quarter)"
        rf"(?:,?\s+(?:of\s+)?{cal.SAID_YEAR})?",
        _quarter,
    ),
    # "in my 20s", "in her thirties" are ages: two digits or a word need "the" or "'"
    (None, r"\b(?:the\s+)?(?:(early|mid|late)[\s-]+)?((?:19|20)\d0)'?s\b()()", _decade),
    (None, r"(?:\bthe\s+(?:(early|mid|late)[\s-]+)?'?|(?<!\w)')()(\d)0'?s\b()", _decade),
    (
        frozenset(_DECADE_WORDS),
        rf"\bthe\s+(?:(early|mid|late)[\s-]+)?()()({cal.alt(_DECADE_WORDS)})\b",
        _decade,
    ),
    (
        None,
        rf"\b(?:(?:from|between)\s+)?{YEAR}\s*{cal.RANGE_TO}\s*{YEAR}\b",
        _year_range,
    ),
)
