"""Numeric dates ("3/4/2024", "3.4.24", "on 3/4", "9/18-9/20"), read in an order the
caller sets (:data:`.dates.DateOrder`): where a memory is written is not in its text.
The conventions are listed in ``docs/time.md``."""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import partial

from cognimem.text import calendar as cal
from cognimem.text.dates import (
    DAY_AFTER,
    PART_OF,
    WORD_ABBREVIATIONS,
    DateOrder,
    after_words,
    full_date,
    whole_or_part,
)
from cognimem.text.mention import Resolved, Rule

__all__ = ["numeric_patterns"]


def _month_day(order: DateOrder, first: int, second: int) -> tuple[int, int]:
    """The month and day ``first/second`` say in ``order``; when that month cannot be
    one ("31/10" month first) but the other reading can, the other."""
    month, day = (first, second) if order == "month_first" else (second, first)
    if month > 12 and day <= 12:
        month, day = day, month
    return month, day


# month first, two pairs of one denominator ("7/10-8/10", "4/5-5/5") are a score, not the
# same day of two months, unless a word that makes a pair a date comes before them (in
# any case: "From 7/10-8/10 we were away" opens a sentence)
_MONTH = r"(?:0?[1-9]|1[0-2])"
_SCORE = re.compile(rf"(?<![\w/.]){_MONTH}/(\d{{1,2}})\s*[-–]\s*{_MONTH}/\1(?![/\d])")
_DATE_WORD = re.compile(
    rf"{DAY_AFTER}|{after_words('before after around between is was')}", re.IGNORECASE
)


def _is_score(m: re.Match[str]) -> bool:
    """Whether the pair ``m`` is one of a :data:`_SCORE` range with no date word before."""
    return any(
        r.start() <= m.start("a") < r.end() and _DATE_WORD.match(m.string, r.start()) is None
        for r in _SCORE.finditer(m.string, max(0, m.start("a") - 9), m.end() + 9)
    )


def _numeric_date(order: DateOrder, m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "3/4/2024", "3/4/24", "on 3/4"; "12.06.2024", "12-06-2024" alike."""
    month, day = _month_day(order, int(m.group("a")), int(m.group("b")))
    if not 1 <= month <= 12 or (order == "month_first" and not m.group("y") and _is_score(m)):
        return None
    year = cal.year_of(m.group("y"), ref) if m.group("y") else None
    return full_date(day, month, year, ref, future)


def _numeric_month(m: re.Match[str], _ref: datetime, _future: bool) -> Resolved:
    month = int(m.group(1))
    return whole_or_part("month", date(int(m.group(2)), month, 1), "") if 1 <= month <= 12 else None


# what follows a number pair that is not a date ("3/4 of", "1/2 cup", "9/10 stars")
_NOT_A_DATE = (
    r"(?![/\d])(?!\s*(?:of|cups?|teaspoons?|tablespoons?|tsp|tbsp|inch(?:es)?|miles?|"
    r"lbs?|kg|oz|stars?|points?)\b)"
)


# where a second number pair of a range or one after a weekday's abbreviation starts
# ("9/18-9/20", "between 9/22 and 9/26", "Mon 9/22"; "sat", "sun", "wed" capitalised)
_DAY_WORDS = [
    f"(?-i:{w.capitalize()}|{w.upper()})" if w in WORD_ABBREVIATIONS else w
    for w in cal.WEEKDAY_ABBREVIATIONS
]
_PAIR_AFTER = "|".join(
    [rf"(?<=/{d}{j})" for d in (r"\d", r"\d\d") for j in ("-", "–", r"\s-\s", r"\s–\s")]
    + [rf"(?<=between\s{a}/{b}\sand\s)" for a in (r"\d", r"\d\d") for b in (r"\d", r"\d\d")]
    + [rf"(?<=\b{w}\s)|(?<=\b{w}\.\s)" for w in _DAY_WORDS]
)


def numeric_patterns(order: DateOrder) -> tuple[Rule, ...]:
    """The numeric dates read in ``order`` (where a memory is written is not in its
    text, so the order is a setting: ``date_order`` of
    :func:`cognimem.text.temporal.find_times`; a date whose first number cannot be a
    month in that order, "31/10/1974" month first, is read the other way): ``3/4/2024``,
    ``3/4/24``, ``3.4.2024``, ``3-4-2024``, ``3-4-24`` (one separator throughout), and
    without a year only after a preposition (on, by, from, since, to, until, till,
    through, before, after, around, between; "the week of"), "is" / "was" or a weekday
    ("Mon 9/22"), in a range ("9/18-9/20", "between 9/22 and 9/26"), or alone ("on
    3/4", "her birthday is 11/4"; "rated it 9/10" is no date; month first, nor is a range
    of two pairs of one denominator, "7/10-8/10", but after such a word); ``2/2013`` is a
    month whatever the order."""
    read = partial(_numeric_date, order)
    return (
        (
            None,
            rf"(?<![\w/.])(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})/(?P<y>\d{{4}}|\d{{2}}){_NOT_A_DATE}",
            read,
        ),
        (
            None,
            r"(?<![\w/.-])(?P<a>\d{1,2})([.-])(?P<b>\d{1,2})\2(?P<y>(?:19|20)\d{2}|(?<=-)\d{2})"
            r"(?![\w.-]*\d)",
            read,
        ),
        (
            None,
            rf"(?:{DAY_AFTER}|{after_words('before after around between')}|{PART_OF}|^|"
            rf"{after_words('is was')}|(?<=day\s)|(?<=day,\s)|{_PAIR_AFTER}|"
            rf"(?=\d{{1,2}}/\d{{1,2}}\s*[-–]\s*\d{{1,2}}/\d{{1,2}}{_NOT_A_DATE}))"
            rf"(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})(?P<y>){_NOT_A_DATE}",
            read,
        ),
        (None, rf"(?<![\w/.])(\d{{1,2}})/((?:19|20)\d{{2}}){_NOT_A_DATE}", _numeric_month),
    )
