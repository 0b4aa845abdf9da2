"""Time expressions in chat text, resolved against when the message was written.

Every expression resolves against ``reference`` (a message's ``occurred_at``), never
against the wall clock, so re-reading an old conversation gives the same answer. The
result is a half-open interval ``[start, end)`` in UTC with a ``granularity``:
``part_of_day``, ``day``, ``weekend``, ``week``, ``fortnight``, ``month``, ``season`` or
``year``.

Conventions, chosen so that every expression has exactly one reading:

- Calendar arithmetic runs in UTC (a message's own timezone is not known here).
- Weeks are ISO weeks, Monday to Sunday; a weekend is the Saturday and Sunday of a week.
- ``today`` / ``yesterday`` / ``tomorrow``: that whole day. Parts of a day:
  morning 06-12h, afternoon 12-18h, evening 18-24h, night 18h-06h (``tonight`` is the
  reference day's night, ``last night`` the previous day's).
- ``last`` / ``this`` / ``next`` + week, weekend, month, year: the previous, current or
  following calendar unit ("last year" said on 2024-06-15 is [2023-01-01, 2024-01-01)).
  ``last weekend`` is the weekend of the previous ISO week (said on a Monday: the one just
  past; said on a Saturday: the one a week ago).
- ``next Friday``: the first Friday strictly after the reference date. ``last Friday``:
  the latest Friday strictly before it. ``this Friday``: the Friday of the reference's
  ISO week (possibly already past). ``on Friday`` (no qualifier): the latest Friday
  strictly before the reference, or the first strictly after it when the caller says
  the sentence looks ahead (``prefer_future``); ``on Fridays`` (habitual) is ignored.
- ``this coming Friday``: as ``next Friday``. ``the past week`` (month, year): one unit
  back to the end of the reference's day. ``in May last year``, ``May of next year``:
  that month of the year before or after the reference's.
- ``the past/last N units``: from N units back to the end of the reference's day ("the
  last two years of school" is not one). ``the week/weekend/month/year before last``:
  two units back. ``the end/beginning/start/middle of the/this/last/next
  week/month/year``: that unit, ``approximate``.
- ``N days/weeks/months/years ago`` (or ``back``): the reference date moved back N
  units, as a window of one unit from there ("two years ago" on 2024-06-15 starts
  2022-06-15); a fortnight is two weeks. ``a few`` and ``several`` count as 3 and ``a
  couple (of)`` as 2; those mentions, and ``a month or so ago``, are ``approximate``.
  ``in N units`` / ``N units from now`` move forward the same way.
- Explicit dates: ``2023-05-07``, ``7 May 2023``, ``the 7th of May``, ``May 7, 2023``,
  ``May 2023``, ``Jan. 2020``, ``since January 2020``, ``in 2019`` (a year needs a
  preposition before it: in, since, during, from, until, by, of, before, after,
  around), ``in May``. A date or month without a
  year is the latest one whose start is not after the reference (chat about memories
  looks back); with ``prefer_future`` it is the earliest one that has not ended yet.
  ``last May`` is the latest May before the reference's month, ``next May`` the first
  May after it, ``this May`` the May of the reference's year.
- Seasons are meteorological, northern hemisphere (spring = March-May, summer = June-
  August, autumn/fall = September-November, winter = December-February). ``last summer``
  is the latest summer that has ended by the reference; ``this summer`` the one that
  contains the reference or else the next one; ``next summer`` the one after that.
  ``summer 2022`` / ``the summer of 2022`` name one directly.

- ``on the 15th`` (no month): the latest 15th that has begun (looking ahead: the
  earliest that has not ended). ``the first/second/third/fourth/last week of May``: days
  1-7, 8-14, 15-21, 22-28, or the month's last seven.
- ``the week/day/weekend/month/year before`` or ``after`` a date, ``N units before/after``
  it, ``the Friday before/after`` it, ``last weekend before`` it: counted from that date,
  which the mention keeps as its ``anchor``. ``relative`` marks the mentions counted from
  the reference.

Not resolved (ambiguous or not about dates): numeric dates other than ISO
(``8/5/2023`` reads differently in the US and Europe), clock times, durations
(``for two years``), ``recently``, ``the other day``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from cognimem.models.clock import to_utc
from cognimem.text.calendar import (
    MONTH_ABBREVIATIONS,
    MONTHS,
    NUMBERS,
    PARTS_OF_DAY,
    SEASONS,
    WEEKDAYS,
    add_months,
    day_window,
    days_in_month,
    month_name,
    month_range,
    move,
    number_of,
    season_containing,
    season_range,
    utc_at,
    week_start,
)

__all__ = ["TimeMention", "find_times"]


@dataclass(frozen=True)
class TimeMention:
    """One time expression: the words, where they are in the text, and the interval
    ``[start, end)`` (UTC) they name."""

    text: str
    start: datetime
    end: datetime
    granularity: str
    span: tuple[int, int]
    approximate: bool = False
    # counted from the reference ("last Friday", "two weeks ago"), not a date it names
    relative: bool = False
    # "the week before 16 November": the date it counts from
    anchor: tuple[datetime, datetime] | None = None


# ----------------------------------------------------------------- patterns


def _alt(words: Iterable[str]) -> str:
    return "|".join(sorted((str(w) for w in words), key=len, reverse=True))


_MONTH = rf"(?:{_alt(MONTHS)})"
_MONTH_ANY = rf"(?:{_alt([*MONTHS, *MONTH_ABBREVIATIONS])})\.?"
_WEEKDAY = rf"(?:{_alt(WEEKDAYS)})"
_SEASON = rf"(?:{_alt(SEASONS)})"
_NUMBER = r"(?:\d{1,3}|" + _alt(NUMBERS).replace(" ", r"\s+") + ")"
_UNIT = r"(?:day|week|fortnight|month|year)s?"
_DAYNUM = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d{2})"

_Resolved = tuple[datetime, datetime, str, bool] | None
# how far "last", "this" and "next" move a unit
_STEP = {"last": -1, "this": 0, "next": 1}
_Handler = Callable[[re.Match[str], datetime, bool], _Resolved]


# ----------------------------------------------------------------- handlers


def _relative_day(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    words = " ".join(m.group(0).lower().split())
    today = ref.date()
    offsets = {
        "the day before yesterday": -2,
        "the day after tomorrow": 2,
        "yesterday": -1,
        "tomorrow": 1,
        "today": 0,
        "earlier today": 0,
        "later today": 0,
    }
    if words in offsets:
        return day_window(today + timedelta(days=offsets[words]))
    if words == "tonight":
        words = "this night"
    elif words == "last night":
        words = "yesterday night"
    anchor, part = words.rsplit(" ", 1)
    shift = {"this": 0, "yesterday": -1, "tomorrow": 1}[anchor]
    first, last = PARTS_OF_DAY[part]
    day = today + timedelta(days=shift)
    return utc_at(day, first), utc_at(day, last), "part_of_day", False


def _relative_unit(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    which, unit = m.group(1).lower(), m.group(2).lower()
    if which.startswith("this"):
        which = "last" if "past" in which else "this"
    return _unit_window(ref.date(), unit, _STEP[which])


def _before_last(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    """``the week before last``: two units back."""
    return _unit_window(ref.date(), m.group(1).lower(), -2)


def _part_of_unit(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    """``the end of the year``, ``the beginning of next month``: the unit, approximately."""
    step = _STEP[(m.group(2) or "this").lower()]
    return (*_unit_window(ref.date(), m.group(3).lower(), step)[:3], True)


def _past_span(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    """``the past two weeks``: from that far back up to the end of the reference's day."""
    n, approximate = number_of(m.group(1))
    return _back_to_today(ref, m.group(2), n, approximate)


def _past_unit(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    """``the past week``: the unit back from the end of the reference's day."""
    return _back_to_today(ref, m.group(1), 1, False)


def _back_to_today(
    ref: datetime, unit: str, n: int, approximate: bool
) -> tuple[datetime, datetime, str, bool]:
    today = ref.date()
    start, _ = move(today, unit, -n)
    end = today + timedelta(days=1)
    return utc_at(start), utc_at(end), unit.lower().rstrip("s"), approximate


def _unit_window(today: date, unit: str, step: int) -> tuple[datetime, datetime, str, bool]:
    if unit == "week":
        start = week_start(today) + timedelta(weeks=step)
        return utc_at(start), utc_at(start + timedelta(weeks=1)), "week", False
    if unit == "weekend":
        saturday = week_start(today) + timedelta(weeks=step, days=5)
        return utc_at(saturday), utc_at(saturday + timedelta(days=2)), "weekend", False
    if unit == "month":
        first = add_months(today.replace(day=1), step)
        return utc_at(first), utc_at(add_months(first, 1)), "month", False
    year = today.year + step
    return utc_at(date(year, 1, 1)), utc_at(date(year + 1, 1, 1)), "year", False


def _relative_weekday(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    which, weekday = " ".join(m.group(1).lower().split()), WEEKDAYS[m.group(2).lower()]
    today = ref.date()
    if which == "this coming":
        which = "next"
    if which == "this":
        return day_window(week_start(today) + timedelta(days=weekday))
    if which == "next":
        ahead = (weekday - today.weekday() - 1) % 7 + 1
        return day_window(today + timedelta(days=ahead))
    back = (today.weekday() - weekday - 1) % 7 + 1
    return day_window(today - timedelta(days=back))


def _bare_weekday(m: re.Match[str], ref: datetime, future: bool) -> _Resolved:
    weekday = WEEKDAYS[m.group(1).lower()]
    today = ref.date()
    if future:
        return day_window(today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1))
    return day_window(today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1))


def _ago(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    n, approximate = number_of(m.group(1))
    start, end = move(ref.date(), m.group(2), -n)
    approximate = approximate or m.group(3) is not None  # "a month or so ago"
    return utc_at(start), utc_at(end), m.group(2).lower().rstrip("s"), approximate


def _month_of_relative_year(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    """``in May last year``, ``May of next year``."""
    if _the_verb_may(m.group(1)):
        return None
    start, end = month_range(ref.year + _STEP[m.group(2).lower()], month_name(m.group(1)))
    return start, end, "month", False


def _ahead(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    n, approximate = number_of(m.group(1))
    start, end = move(ref.date(), m.group(2), n)
    return utc_at(start), utc_at(end), m.group(2).lower().rstrip("s"), approximate


def _iso_date(m: re.Match[str], _ref: datetime, _future: bool) -> _Resolved:
    try:
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
    return day_window(day)


def _pick_year_for(month: int, day: int, ref: datetime, future: bool) -> date | None:
    """The latest such date whose start is not after ``ref`` or, looking ahead, the
    earliest one that has not ended (``None`` for a 29 February with no leap year near)."""
    candidates: list[date] = []
    for year in (ref.year - 1, ref.year, ref.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    if future:
        return next((c for c in candidates if utc_at(c + timedelta(days=1)) > ref), None)
    return next((c for c in reversed(candidates) if utc_at(c) <= ref), None)


def _full_date(
    day_s: str, month_s: str, year_s: str | None, ref: datetime, future: bool
) -> _Resolved:
    month, day = month_name(month_s), int(day_s)
    if year_s is None:
        found = _pick_year_for(month, day, ref, future)
        return None if found is None else day_window(found)
    try:
        return day_window(date(int(year_s), month, day))
    except ValueError:
        return None


def _day_month(m: re.Match[str], ref: datetime, future: bool) -> _Resolved:
    return _full_date(m.group(1), m.group(2), m.group(3), ref, future)


def _the_verb_may(word: str) -> bool:
    """Lower-case "may" before a number ("may 3", "they may 2024 ...") is the verb far
    more often than the month."""
    return word == "may"


def _month_day(m: re.Match[str], ref: datetime, future: bool) -> _Resolved:
    if _the_verb_may(m.group(1)):
        return None
    return _full_date(m.group(2), m.group(1), m.group(3), ref, future)


def _month_year(m: re.Match[str], _ref: datetime, _future: bool) -> _Resolved:
    if _the_verb_may(m.group(2)):
        return None
    start, end = month_range(int(m.group(3)), month_name(m.group(2)))
    approximate = (m.group(1) or "").lower() in {"around", "circa", "early", "late", "mid"}
    return start, end, "month", approximate


def _year_of_month(word: str, month: int, ref: datetime, future: bool) -> int:
    """The year of ``month`` named without one ("this May", "last May", "in May")."""
    this_month = date(ref.year, ref.month, 1)
    if word == "this":
        return ref.year
    if word == "last":
        return ref.year if month < ref.month else ref.year - 1
    if word == "next":
        return ref.year if month > ref.month else ref.year + 1
    if future:
        return ref.year if date(ref.year, month, 1) >= this_month else ref.year + 1
    return ref.year if date(ref.year, month, 1) <= this_month else ref.year - 1


def _month_only(m: re.Match[str], ref: datetime, future: bool) -> _Resolved:
    word, month = m.group(1).lower(), month_name(m.group(2))
    year = _year_of_month(word, month, ref, future)
    start, end = month_range(year, month)
    approximate = word in {"early", "late", "mid"}
    return start, end, "month", approximate


def _year_only(m: re.Match[str], _ref: datetime, _future: bool) -> _Resolved:
    year = int(m.group(2))
    approximate = m.group(1).lower() in {"around", "circa", "early", "late", "mid"}
    return utc_at(date(year, 1, 1)), utc_at(date(year + 1, 1, 1)), "year", approximate


def _day_of_month(m: re.Match[str], ref: datetime, future: bool) -> _Resolved:
    """ "on the 15th": the latest 15th that has begun by ``ref`` (looking ahead: the
    earliest that has not ended)."""
    day = int(m.group(1))
    this_month = date(ref.year, ref.month, 1)
    for months in (0, 1, 2) if future else (0, -1, -2):
        first = add_months(this_month, months)
        if day > days_in_month(first.year, first.month):
            continue
        found = first.replace(day=day)
        begun, ended = utc_at(found) <= ref, utc_at(found + timedelta(days=1)) <= ref
        if (future and not ended) or (not future and begun):
            return day_window(found)
    return None


_ORDINAL_WEEKS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3}


def _week_of_month(m: re.Match[str], ref: datetime, future: bool) -> _Resolved:
    """ "the second week of November": days 8-14 ("the last week of": its last seven)."""
    which, month = m.group(1).lower(), month_name(m.group(3))
    if m.group(4):
        year = int(m.group(4))
    else:
        year = _year_of_month((m.group(2) or "").lower(), month, ref, future)
    days = days_in_month(year, month)
    first = 1 + 7 * _ORDINAL_WEEKS[which] if which != "last" else days - 6
    start = date(year, month, first)
    return utc_at(start), utc_at(start + timedelta(days=7)), "week", False


def _relative_season(m: re.Match[str], ref: datetime, _future: bool) -> _Resolved:
    which, season = m.group(1).lower(), SEASONS[m.group(2).lower()]
    today = ref.date()
    current = season_containing(season, today)
    if which == "last" or "past" in which:
        for year in (today.year, today.year - 1, today.year - 2):
            start, end = season_range(season, year)
            if end <= utc_at(today):
                return start, end, "season", False
        return None
    if which == "this":
        start, end = current or season_range(season, today.year)
        return start, end, "season", False
    for year in (today.year, today.year + 1):
        start, end = season_range(season, year)
        if start > utc_at(today) and (current is None or start >= current[1]):
            return start, end, "season", False
    return None


def _named_season(m: re.Match[str], _ref: datetime, _future: bool) -> _Resolved:
    start, end = season_range(SEASONS[m.group(1).lower()], int(m.group(2)))
    return start, end, "season", False


_PATTERNS: tuple[tuple[re.Pattern[str], _Handler], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), handler)
    for pattern, handler in (
        (r"\b(\d{4})-(\d{2})-(\d{2})\b", _iso_date),
        (
            rf"\b(?:on\s+)?(?:the\s+)?{_DAYNUM}(?:\s+of)?\s+({_MONTH_ANY})(?:,?\s+{_YEAR})?\b",
            _day_month,
        ),
        (rf"\b(?:on\s+)?({_MONTH_ANY})\s+{_DAYNUM}(?!\d)(?:,?\s+{_YEAR})?\b", _month_day),
        (
            rf"\b(?:(in|since|during|from|until|till|by|of|before|after|around|circa|early|"
            rf"late|mid)[\s-]+)?({_MONTH_ANY})\s+(?:of\s+)?{_YEAR}\b",
            _month_year,
        ),
        (
            rf"\b(in|during|since|by|until|till|this|last|next|early|late|mid)[\s-]+({_MONTH})\b",
            _month_only,
        ),
        (
            rf"\b(in|since|during|from|until|till|by|of|before|after|around|circa|early|late|mid)"
            rf"[\s-]+{_YEAR}\b",
            _year_only,
        ),
        (
            r"\b(?:the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|"
            r"(?:this|yesterday|tomorrow)\s+(?:morning|afternoon|evening|night)|"
            r"last\s+night|tonight|(?:earlier|later)\s+today|today|yesterday|tomorrow)\b",
            _relative_day,
        ),
        (rf"\b(last|this\s+coming|this|next)\s+({_WEEKDAY})\b", _relative_weekday),
        (rf"\bon\s+({_WEEKDAY})\b(?!s)", _bare_weekday),
        (r"\b(this\s+past|last|this|next)\s+(week|weekend|month|year)\b", _relative_unit),
        (r"\bthe\s+(week|weekend|month|year)\s+before\s+last\b", _before_last),
        (
            r"\b(?:the\s+)?(end|beginning|start|middle)\s+of\s+(?:the\s+|this\s+|(last|next)\s+)"
            r"(week|month|year)\b",
            _part_of_unit,
        ),
        (
            rf"\b(?:the\s+)?(?:past|last|previous)\s+({_NUMBER})\s+({_UNIT})\b(?!\s+of\b)",
            _past_span,
        ),
        (rf"\b(this\s+past|last|this|next)\s+({_SEASON})\b", _relative_season),
        (rf"\b(?:the\s+)?({_SEASON})\s+(?:of\s+)?{_YEAR}\b", _named_season),
        (r"\bon\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b", _day_of_month),
        (
            rf"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|last)\s+week\s+of\s+"
            rf"(?:(this|last|next)\s+)?({_MONTH})(?:,?\s+{_YEAR})?\b",
            _week_of_month,
        ),
        (rf"\b({_NUMBER})\s+({_UNIT})\s+(or\s+so\s+)?(?:ago|back)\b", _ago),
        (r"\b(?:the\s+)?past\s+(day|week|fortnight|month|year)\b", _past_unit),
        (
            rf"\b(?:in\s+)?({_MONTH})\s+(?:of\s+)?(last|this|next)\s+year\b",
            _month_of_relative_year,
        ),
        (rf"\bin\s+({_NUMBER})\s+({_UNIT})\b", _ahead),
        (rf"\b({_NUMBER})\s+({_UNIT})\s+from\s+now\b", _ahead),
    )
)
_RELATIVE_HANDLERS: frozenset[_Handler] = frozenset(
    {_relative_day, _relative_unit, _relative_weekday, _bare_weekday, _ago, _ahead}
    | {_relative_season, _before_last, _part_of_unit, _past_span, _past_unit}
)
# "the week before" / "two days after" / "the Sunday before" / "last weekend before",
# just ahead of a date
_BEFORE_AFTER = re.compile(
    rf"\b(?:(?:the|last)\s+)?(?:({_NUMBER})\s+({_UNIT})|(day|week|weekend|month|year)|"
    rf"({_WEEKDAY}))\s+(before|after|prior\s+to)\s+$",
    re.IGNORECASE,
)


def _counted_from(m: re.Match[str], anchor: TimeMention) -> _Resolved:
    """The period ``m`` ("the week before", "two days after") names from ``anchor``."""
    before = m.group(5).lower() != "after"
    first, last = anchor.start.date(), (anchor.end - timedelta(microseconds=1)).date()
    if m.group(1):
        n, approximate = number_of(m.group(1))
        start, end = move(first if before else last, m.group(2), -n if before else n)
        return utc_at(start), utc_at(end), m.group(2).lower().rstrip("s"), approximate
    if m.group(4):
        weekday = WEEKDAYS[m.group(4).lower()]
        if before:
            return day_window(first - timedelta(days=(first.weekday() - weekday - 1) % 7 + 1))
        return day_window(last + timedelta(days=(weekday - last.weekday() - 1) % 7 + 1))
    unit = m.group(3).lower()
    if unit == "weekend":
        if before:  # the Saturday and Sunday that end by the anchor's first day
            saturday = first - timedelta(days=(first.weekday() - 5) % 7 or 7)
            if saturday + timedelta(days=2) > first:
                saturday -= timedelta(weeks=1)
        else:
            saturday = last + timedelta(days=(5 - last.weekday() - 1) % 7 + 1)
        return utc_at(saturday), utc_at(saturday + timedelta(days=2)), "weekend", False
    if before:
        start, _ = move(first, unit, -1)
        return utc_at(start), utc_at(first), unit, False
    end, _ = move(last + timedelta(days=1), unit, 1)
    return utc_at(last + timedelta(days=1)), utc_at(end), unit, False


def _count_from_dates(text: str, kept: list[TimeMention]) -> list[TimeMention]:
    """Each date that a "the week before" / "two days after" counts from, replaced by
    the period counted from it (with the date as its ``anchor``)."""
    out: list[TimeMention] = []
    for mention in kept:
        # "last weekend before 10 April": the count may start with a relative mention
        lo = out[-1].span[0 if out[-1].relative else 1] if out else 0
        m = None if mention.relative else _BEFORE_AFTER.search(text, lo, mention.span[0])
        resolved = None if m is None else _counted_from(m, mention)
        if m is None or resolved is None:
            out.append(mention)
            continue
        if out and m.start() < out[-1].span[1]:
            out.pop()
        start, end, granularity, approximate = resolved
        out.append(
            TimeMention(
                text=text[m.start() : mention.span[1]],
                start=start,
                end=end,
                granularity=granularity,
                span=(m.start(), mention.span[1]),
                approximate=approximate,
                relative=False,
                anchor=(mention.start, mention.end),
            )
        )
    return out


# cheap pre-check: a text with no digit and none of these words has no time expression
_TIME_WORDS = frozenset(
    (
        *MONTHS,
        *MONTH_ABBREVIATIONS,
        *WEEKDAYS,
        *SEASONS,
        *PARTS_OF_DAY,
        *("today", "tonight", "yesterday", "tomorrow", "ago", "weekend"),
        *("day", "days", "week", "weeks", "fortnight", "fortnights", "month", "months"),
        *("year", "years"),
    )
)
_WORD = re.compile(r"[a-z]+")
_DIGIT = re.compile(r"\d")


def find_times(text: str, reference: datetime, *, prefer_future: bool = False) -> list[TimeMention]:
    """Every time expression in ``text``, in order, resolved against ``reference``.

    Overlapping readings keep the one that starts first, then the longest ("on 7 May
    2023" wins over "May 2023"). ``prefer_future`` resolves the year-less and bare-weekday
    forms forwards instead of backwards (the caller knows the tense).
    """
    if not _DIGIT.search(text) and _TIME_WORDS.isdisjoint(_WORD.findall(text.lower())):
        return []
    ref = to_utc(reference)
    found: list[tuple[int, int, TimeMention]] = []
    for pattern, handler in _PATTERNS:
        for m in pattern.finditer(text):
            resolved = handler(m, ref, prefer_future)
            if resolved is None:
                continue
            start, end, granularity, approximate = resolved
            mention = TimeMention(
                text=m.group(0),
                start=start,
                end=end,
                granularity=granularity,
                span=(m.start(), m.end()),
                approximate=approximate,
                relative=handler in _RELATIVE_HANDLERS,
            )
            found.append((m.start(), -(m.end() - m.start()), mention))
    found.sort(key=lambda item: (item[0], item[1]))
    kept: list[TimeMention] = []
    for _, _, mention in found:
        if kept and mention.span[0] < kept[-1].span[1]:
            continue
        kept.append(mention)
    return _count_from_dates(text, kept)
