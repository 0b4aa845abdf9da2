"""The calendar the time expressions of :mod:`.temporal` are resolved on: the names of
months, weekdays, seasons, parts of a day and small numbers, and date arithmetic in UTC
(ISO weeks from Monday, meteorological northern seasons); the counted weekdays of
holidays by ``dateutil``'s ``relativedelta`` (months by hand: it is six times slower)."""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta

from dateutil.relativedelta import relativedelta, weekdays

_MONTH_NAMES = "january february march april may june july august september october november"
MONTHS: dict[str, int] = {name: n for n, name in enumerate([*_MONTH_NAMES.split(), "december"], 1)}
# abbreviations only where a day number makes them unambiguous ("Jan" is also a name)
MONTH_ABBREVIATIONS = {name[:3]: n for name, n in MONTHS.items() if name != "may"} | {"sept": 9}
_WEEKDAY_NAMES = "monday tuesday wednesday thursday friday saturday sunday"
WEEKDAYS: dict[str, int] = {name: n for n, name in enumerate(_WEEKDAY_NAMES.split())}
# abbreviations read only beside a day number or after "last" / "next" ("sun", "sat" and
# "wed" are words of their own)
WEEKDAY_ABBREVIATIONS: dict[str, int] = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3}
WEEKDAY_ABBREVIATIONS |= {"weds": 2, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
_FIRST_NINE = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
# the days of a month as ordinal words ("the third of March", "March twenty-first")
DAY_ORDINALS: dict[str, int] = {w: n for n, w in enumerate(_FIRST_NINE, 1)}
_TEENS = "tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth"
DAY_ORDINALS |= {w: n for n, w in enumerate([*_TEENS.split(), "eighteenth", "nineteenth"], 10)}
DAY_ORDINALS |= {"twentieth": 20}
DAY_ORDINALS |= {f"twenty-{w}": 20 + n for n, w in enumerate(_FIRST_NINE, 1)}
DAY_ORDINALS |= {"thirtieth": 30, "thirty-first": 31}
# how far "last", "this", "next", "the following", "the week after" ... move a unit
STEP = {"last": -1, "previous": -1, "past": -1, "preceding": -1, "before": -1, "before last": -2}
STEP |= {"": 0, "this": 0, "all": 0, "that": 0, "the same": 0, "the": 0}
STEP |= {"next": 1, "following": 1, "after": 1, "after next": 2}
SEASONS: dict[str, int] = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve thirteen"
_NUMBER_WORDS += " fourteen fifteen sixteen seventeen eighteen nineteen"
NUMBERS: dict[str, int] = {word: n for n, word in enumerate(_NUMBER_WORDS.split(), 1)}
# tens, alone or before a digit's word ("forty", "twenty-five"; :func:`number_of`)
_TENS_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety"
TENS = {word: 10 * n for n, word in enumerate(_TENS_WORDS.split(), 2)}
NUMBERS |= {"a": 1, "an": 1, "a dozen": 12, "a hundred": 100}
# approximate counts
NUMBERS |= {"a couple of": 2, "a couple": 2, "couple of": 2, "couple": 2, "a few": 3, "few": 3}
NUMBERS |= {"several": 3, "a cpl": 2, "cpl": 2}
# words that gate the patterns (:data:`cognimem.text.mention.Rule`)
MONTH_WORDS = frozenset([*MONTHS, *MONTH_ABBREVIATIONS])
WEEKDAY_WORDS = frozenset(WEEKDAYS)
UNIT_WORDS = frozenset(
    {"day", "days", "week", "weeks", "weekend", "weekends", "fortnight", "fortnights"}
    | {"month", "months", "quarter", "year", "years", "decade", "decades"}
    | {"wk", "wks", "mo", "mos", "mth", "mths", "yr", "yrs"}
)
APPROXIMATE = frozenset({"a few", "few", "several", "a couple of", "a couple", "couple of"})
APPROXIMATE |= {"couple", "a cpl", "cpl"}
PARTS_OF_DAY: dict[str, tuple[int, int]] = {"morning": (6, 12), "afternoon": (12, 18)}
PARTS_OF_DAY |= {"evening": (18, 24), "night": (18, 24)}
PART_OF_DAY = "|".join(PARTS_OF_DAY)
# the words that join the two ends of a range ("May 3-7"; "and": :func:`lone_and`)
RANGE_TO = r"(?:-|–|to|through|until|till|and)"


def lone_and(m: re.Match[str]) -> bool:
    """Whether the range ``m`` is joined by "and" with no "between" ("on March 3 and 5")."""
    said, before = m.group(0).lower(), m.string[: m.start()].rstrip().lower()
    return " and " in said and not (said.startswith("between") or before.endswith("between"))


# "the first", "the 2nd", "the last" (week of a month, quarter)
FIRST_FOUR = "first|1st|second|2nd|third|3rd|fourth|4th|last"


def alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, the longest first."""
    return "|".join(sorted((str(w) for w in words), key=len, reverse=True))


_DIGIT_WORD = alt(w for w, n in NUMBERS.items() if n < 10 and w not in APPROXIMATE and len(w) > 2)
# (the lookahead fails fast where no number word can start: most words)
NUMBER = (
    rf"(?=[\d{''.join(sorted({w[0] for w in (*NUMBERS, *TENS)}))}])"
    rf"(?:\d{{1,3}}\+?|(?:{alt(TENS)})(?:[\s-]+(?:{_DIGIT_WORD})\b)?|"
    + alt(NUMBERS).replace(" ", r"\s+")
    + ")"
)
_UNIT_NAMES = "day|week|fortnight|month|year|decade"
# a unit, or one written short as in chat ("2 wks ago", "3 mos", "5 yrs"): :func:`unit_name`
UNIT = rf"(?:{_UNIT_NAMES}|wk|mo|mth|yr)s?(?!\w)"
UNIT_PLURAL = rf"(?:{_UNIT_NAMES})s"
_SHORT_UNITS = dict(wk="week", mo="month", mth="month", yr="year", hr="hour", min="minute")


def unit_name(word: str) -> str:
    """The unit a word of :data:`UNIT` (or "hours", "hrs", "mins") says: "weeks" and
    "wks" are "week"."""
    unit = word.lower().rstrip("s")
    return _SHORT_UNITS.get(unit, unit)


def utc_at(day: date, hour: int = 0) -> datetime:
    """``hour`` o'clock (0 to 30: past 24 is the next day) on ``day``, in UTC."""
    return datetime.combine(day, time(), tzinfo=UTC) + timedelta(hours=hour)


def add_months(day: date, months: int) -> date:
    """``day`` ``months`` later (earlier when negative), kept inside the month (31 Jan + 1
    month is 28 or 29 Feb); by hand: relativedelta takes six times as long, on every
    count a turn reads."""
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    return date(year, month + 1, min(day.day, days_in_month(year, month + 1)))


def month_of(day: date, step: int = 0) -> date:
    """The first day of the month ``step`` months from ``day``'s."""
    return add_months(day.replace(day=1), step)


def days_in_month(year: int, month: int) -> int:
    """How many days the month has."""
    return monthrange(year, month)[1]


def month_range(year: int, month: int, months: int = 1) -> tuple[datetime, datetime]:
    """The month as ``[first day, first day of the next)`` in UTC; ``months`` months from
    it (a season: the three from its first, winter running into the next year)."""
    first = date(year, month, 1)
    return utc_at(first), utc_at(add_months(first, months))


def week_start(day: date) -> date:
    """The Monday of ``day``'s ISO week."""
    return day - timedelta(days=day.weekday())


def day_window(
    day: date, granularity: str = "day", approximate: bool = False
) -> tuple[datetime, datetime, str, bool]:
    """``day`` as a resolved mention: its start, its end, ``granularity``, whether it is
    only approximate."""
    return utc_at(day), utc_at(day + timedelta(days=1)), granularity, approximate


def weekday_of(word: str) -> int:
    """The weekday (0 = Monday) a name or abbreviation says ("Thurs." is 3)."""
    key = word.lower().rstrip(".")
    return WEEKDAYS[key] if key in WEEKDAYS else WEEKDAY_ABBREVIATIONS[key]


def ordinal(word: str) -> int:
    """The number an ordinal or a day of a month says ("third", "3rd", "21", "twenty
    first", "twenty-first"); "last" is -1."""
    key = "-".join(word.lower().split()).replace("--", "-")
    if key[0].isdigit():
        return int(key.rstrip("stndrh"))
    return -1 if key == "last" else DAY_ORDINALS[key]


def month_name(word: str) -> int:
    """The month (1-12) a name or abbreviation says ("Sept." is 9)."""
    key = word.lower().rstrip(".")
    return MONTHS.get(key) or MONTH_ABBREVIATIONS[key]


def season_from(season_month: int, day: date, step: int) -> tuple[datetime, datetime]:
    """The season starting in ``season_month`` told from ``day``: the one under way or
    the next to begin (``step`` 0: "that summer"), the next to begin after it (1: "the
    following spring"), or the last to have ended by it (-1: "the previous winter")."""
    at = utc_at(day)
    seasons = [month_range(year, season_month, 3) for year in range(day.year - 2, day.year + 2)]
    if step < 0:
        return [s for s in seasons if s[1] <= at][-1]
    return next(s for s in seasons if (s[0] > at if step > 0 else s[1] > at))


def number_of(word: str) -> tuple[int, bool]:
    """The number that digits or number words (:data:`NUMBERS`, :data:`TENS`: "forty",
    "twenty-five") say, and whether it is only approximate ("a few", "6+")."""
    key = " ".join(word.lower().split())
    if key.rstrip("+").isdigit():
        return int(key.rstrip("+")), key.endswith("+")
    if key in NUMBERS:
        return NUMBERS[key], key in APPROXIMATE
    tens, _, ones = key.replace("-", " ").partition(" ")
    return TENS[tens] + (NUMBERS[ones] if ones else 0), False


# the units a count moves by, in days or in months (:func:`move`)
_DAYS_IN = {"day": 1, "night": 1, "week": 7, "weekend": 7, "fortnight": 14}
_MONTHS_IN = {"month": 1, "quarter": 3, "year": 12, "decade": 120}


def move(day: date, unit: str, n: int) -> tuple[date, date]:
    """``day`` moved by ``n`` units, and the end of a one-unit window from there."""
    unit = unit_name(unit)
    if unit in _DAYS_IN:
        size = timedelta(days=_DAYS_IN[unit])
        return day + size * n, day + size * (n + 1)
    moved = add_months(day, _MONTHS_IN[unit] * n)
    return moved, add_months(moved, _MONTHS_IN[unit])


def weekday_after(day: date, weekday: int) -> date:
    """The first ``weekday`` (0 = Monday) strictly after ``day``."""
    return day + timedelta(days=(weekday - day.weekday() - 1) % 7 + 1)


def weekday_before(day: date, weekday: int) -> date:
    """The last ``weekday`` (0 = Monday) strictly before ``day``."""
    return day - timedelta(days=(day.weekday() - weekday - 1) % 7 + 1)


def unit_window(day: date, unit: str, step: int) -> tuple[datetime, datetime, str, bool]:
    """The calendar ``unit`` (decade, ISO week, weekend, month, quarter, year) ``step``
    units from the one ``day`` falls in (a weekend: that of ``day``'s week)."""
    if unit == "weekend":
        saturday = week_start(day) + timedelta(weeks=step, days=5)
        return utc_at(saturday), utc_at(saturday + timedelta(days=2)), "weekend", False
    if unit == "week":
        first = week_start(day)
    elif unit in ("month", "quarter"):
        first = day.replace(day=1, month=day.month - (day.month - 1) % _MONTHS_IN[unit])
    else:  # a year or a decade
        first = date(day.year - day.year % (10 if unit == "decade" else 1), 1, 1)
    start, end = move(first, unit, step)
    return utc_at(start), utc_at(end), unit, False


def pick(
    windows: Iterable[tuple[datetime, datetime]], ref: datetime, future: bool
) -> tuple[datetime, datetime] | None:
    """Of ``windows`` (in time order), the latest that has begun by ``ref`` or, looking
    ahead (``future``), the earliest that has not ended; ``None`` when none has."""
    if future:
        return next((w for w in windows if w[1] > ref), None)
    return next((w for w in reversed(list(windows)) if w[0] <= ref), None)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The ``n``-th ``weekday`` (0 = Monday) of the month; ``n = -1`` is the last one."""
    found: date = date(year, month, 1) + relativedelta(
        day=1 if n > 0 else 31, weekday=weekdays[weekday](n)
    )
    return found


# the parts of a unit "the beginning / middle / end of" names, and its first and second
# halves: (start, end) offsets in days for a week, in days of the month, in months of the
# year, in the order of _PART_NAMES
_PART_NAMES = ("beginning", "middle", "end", "first", "second")
_PARTS = {"week": ((0, 3), (2, 5), (4, 7), (0, 4), (3, 7))}
_PARTS |= {"month": ((1, 11), (11, 21), (21, 32), (1, 16), (16, 32))}
_PARTS |= {"year": ((1, 4), (5, 9), (9, 13), (1, 7), (7, 13))}


def part_of(unit: str, first: date, part: str) -> tuple[date, date]:
    """The beginning, middle or end of the ``unit`` (week, month, year) that starts on
    ``first``: a week's first, middle or last three days; a month's days 1-10, 11-20,
    21-end; a year's first quarter, May-August, or September-December; or its ``first``
    or ``second`` half (a month's days 1-15 and 16-end)."""
    lo, hi = _PARTS[unit][_PART_NAMES.index("beginning" if part == "start" else part)]
    if unit == "week":
        return first + timedelta(days=lo), first + timedelta(days=hi)
    if unit == "month":
        end = min(hi, days_in_month(first.year, first.month) + 1)
        start = first.replace(day=lo)
        return start, start + timedelta(days=end - lo)
    return date(first.year, lo, 1), add_months(date(first.year, hi - 1, 1), 1)


def year_of(digits: str, ref: datetime) -> int:
    """The year ``digits`` says; two digits ("'19", "3/4/24"): the latest that is not ten
    years after ``ref``."""
    if len(digits) == 4:
        return int(digits)
    year = ref.year // 100 * 100 + int(digits)
    return year - 100 if year > ref.year + 10 else year


def unit_after(first: date, unit: str, step: int) -> tuple[datetime, datetime, str]:
    """The ``unit`` ``step`` units from the one ``first`` falls in (a day for a part of
    one; a weekend: the next, the last, or the one of ``first``'s week)."""
    if unit == "weekend" and step > 0 and week_start(first) + timedelta(days=5) > first:
        step = 0  # the next: this week's, while ahead
    if unit in ("weekend", "week", "month", "year"):
        return unit_window(first, unit, step)[:3]
    return day_window(first + timedelta(days=step))[:3]


# the year said after a date, a month, a season or a holiday: "2019", "2019ish", "'94",
# "last year"
SAID_YEAR = r"((?:19|20)\d{2}(?=(?:-?ish)?\b)|['’]\d\d(?![\w'’])|(?:last|this|next)\s+year\b)"


_UNITS, _TEEN = "|".join(_NUMBER_WORDS.split()[:9]), "|".join(_NUMBER_WORDS.split()[9:])
_TENS_AND = rf"(?:{_TENS_WORDS.replace(' ', '|')})(?:[\s-]+(?:{_UNITS}))?"
# a year said in words: "nineteen ninety-five", "twenty nineteen", "twenty oh five",
# "two thousand and eight" (a century then a number from ten, or "oh" and a digit's word)
SPOKEN_YEAR = (
    rf"(?:nineteen|twenty)[\s-]+(?:oh[\s-]+(?:{_UNITS})|{_TEEN}|{_TENS_AND})\b|"
    rf"two\s+thousand(?:\s+and)?\s+(?:{_TEEN}|{_TENS_AND}|{_UNITS})\b"
)


def spoken_year(said: str) -> int:
    """The year a :data:`SPOKEN_YEAR` match says ("twenty twenty-two" is 2022)."""
    words = [w for w in said.lower().replace("-", " ").split() if w not in ("and", "oh")]
    thousand = words[1] == "thousand"
    century = 2000 if thousand else 100 * number_of(words[0])[0]
    return century + sum(number_of(w)[0] for w in words[2 if thousand else 1 :])


def said_year(said: str | None, ref: datetime) -> int | None:
    """The year a :data:`SAID_YEAR` group (or :data:`SPOKEN_YEAR`) says (two digits:
    :func:`year_of`; "last year": the one before ``ref``'s); ``None`` when none is
    said."""
    if not said:
        return None
    word = said.split()[0].lower()
    if word in STEP:
        return ref.year + STEP[word]
    return spoken_year(said) if word[0].isalpha() else year_of(said.lstrip("'’"), ref)


def count_of(said: str | None, unit: str, words: str) -> tuple[int, str, bool]:
    """How many ``unit`` the count ``said`` (None or "half a": a half) in ``words`` says,
    in the next smaller unit when it holds a half; and whether it is approximate."""
    half_only = said is None or said.lower().startswith("half")
    n, approximate = (1, False) if said is None or half_only else number_of(said)
    if "half" not in words.lower():
        return n, unit, approximate
    smaller = "month" if unit in ("year", "decade") else "day"
    size = _MONTHS_IN[unit] if smaller == "month" else _DAYS_IN.get(unit, 30)
    return ((0 if half_only else n) * size + size // 2) or 1, smaller, approximate
