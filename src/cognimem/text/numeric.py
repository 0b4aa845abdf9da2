"""Numeric dates ("3/4/2024", "12.06.2024", "on 3/4"), read in a chosen order: the
US's month first (``month_first``) or day first as most of the world writes them
(``day_first``). Where a memory is written is not in its text, so the order is a
setting (``date_order``, :func:`cognimem.text.temporal.find_times`), and a date whose
first number cannot be a month in that order ("31/10/1974" month first) is read the
other way; with none, numeric
dates other than ``2024-06-12`` / ``2024/06/12`` (year first, read everywhere alike) are
left alone."""

from __future__ import annotations

import re
from datetime import datetime
from functools import partial

from cognimem.text.calendar import month_range, year_of
from cognimem.text.dates import DateOrder, full_date
from cognimem.text.mention import Resolved, Rule

__all__ = ["numeric_patterns"]


def _month_day(order: DateOrder, first: int, second: int) -> tuple[int, int]:
    """The month and day ``first/second`` say in ``order``; when that month cannot be
    one ("31/10" month first) but the other reading can, the other."""
    month, day = (first, second) if order == "month_first" else (second, first)
    if month > 12 and day <= 12:
        month, day = day, month
    return month, day


def _numeric_date(order: DateOrder, m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "3/4/2024", "3/4/24", "on 3/4"; "12.06.2024", "12-06-2024" alike."""
    month, day = _month_day(order, int(m.group("a")), int(m.group("b")))
    if not 1 <= month <= 12:
        return None
    year = year_of(m.group("y"), ref) if m.group("y") else None
    return full_date(day, month, year, ref, future)


def _numeric_month(m: re.Match[str], _ref: datetime, _future: bool) -> Resolved:
    month = int(m.group(1))
    if not 1 <= month <= 12:
        return None
    start, end = month_range(int(m.group(2)), month)
    return start, end, "month", False


# what follows a number pair that is not a date ("3/4 of", "1/2 cup", "9/10 stars")
_NOT_A_DATE = (
    r"(?![/\d])(?!\s*(?:of|cups?|teaspoons?|tablespoons?|tsp|tbsp|inch(?:es)?|miles?|"
    r"lbs?|kg|oz|stars?|points?)\b)"
)


def numeric_patterns(order: DateOrder) -> tuple[Rule, ...]:
    """The numeric dates read in ``order``: ``3/4/2024``, ``3/4/24``, ``3.4.2024``,
    ``3-4-2024`` (one separator throughout), and without a year only after a
    preposition or "is" / "was", or alone ("on 3/4", "her birthday is 11/4"; "rated
    it 9/10" is no date); ``2/2013`` is a month
    whatever the order."""
    read = partial(_numeric_date, order)
    return (
        (
            None,
            rf"(?<![\w/.])(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})/(?P<y>\d{{4}}|\d{{2}}){_NOT_A_DATE}",
            read,
        ),
        (
            None,
            r"(?<![\w/.-])(?P<a>\d{1,2})([.-])(?P<b>\d{1,2})\2(?P<y>(?:19|20)\d{2})(?![\w.-]*\d)",
            read,
        ),
        (
            None,
            r"(?:(?<=\bon\s)|(?<=\bby\s)|(?<=\buntil\s)|(?<=\bfrom\s)|(?<=\bsince\s)|^|"
            r"(?<=\bis\s)|(?<=\bwas\s)|"
            r"(?<=day\s)|(?<=day,\s))"
            rf"(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})(?P<y>){_NOT_A_DATE}",
            read,
        ),
        (None, rf"(?<![\w/.])(\d{{1,2}})/((?:19|20)\d{{2}}){_NOT_A_DATE}", _numeric_month),
    )
