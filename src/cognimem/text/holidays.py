"""Holidays named in chat ("at Easter", "on New Year's Day", "since Christmas 2019"),
from a fixed table of names and the rule that dates each one.

The table (``data/holidays.tsv``, read into :data:`HOLIDAYS`: a pattern of the names and
a rule per line) holds the holidays of the Western (Gregorian) calendar and the public
holidays of the US, UK and Canada that English chat names most, each one day unless
said: fixed dates (Valentine's Day, Halloween, Christmas Eve, Boxing Day, Bonfire
Night, ...); Easter Sunday (the Gregorian computus, ``dateutil.easter``) and the days
counted from it (Good Friday -2, Easter Monday +1, Pentecost +49, Lent: the 46 days from
Ash Wednesday, ...); and counted weekdays (Thanksgiving: the fourth Thursday of
November, as in the US; Black Friday and Cyber Monday after it; Mother's Day: the second
Sunday of May, as in the US; Memorial Day, Labor Day, the UK bank holidays, ...).

Holidays of lunar and lunisolar calendars are read from a fixed table of their dates,
1990-2050 (``data/lunar_holidays.tsv``, generated from the calendar tables of the
``holidays`` package by ``scripts/lunar_holidays.py``): Passover (the eight days from 15
Nisan), Purim, Shavuot (two days), Rosh Hashanah (two days), Yom Kippur, Sukkot (seven
days), Hanukkah (eight days from 25 Kislev), Ramadan (its first day up to Eid al-Fitr),
Eid al-Fitr, Eid al-Adha, the Islamic New Year, Mawlid, the Lunar (Chinese) New Year,
Diwali, and (2001-2035, the years the package's table holds) Holi, Dussehra and Vesak.
A date of the Islamic calendar may differ by a day from the one a country observes (it
depends on the moon being seen); outside the table's years these names resolve to
nothing.

A holiday is read as a time after a preposition or a verb of hosting ("at Easter",
"since Christmas 2019", "we're hosting Thanksgiving"), before an occasion held on it
("a New Year's Eve party", "Thanksgiving dinner"), with ``last`` / ``this`` / ``next``
or a year, or alone; "I love Christmas" names no time.
Regional holidays not listed are not resolved. A holiday without a year is read like a
date without one: the latest that has begun, or looking ahead the earliest that has not
ended; ``last`` / ``next`` Easter is the one before / after the reference's day, ``the Christmas
before last`` / ``the Easter after next`` the one before / after that, ``two Christmases
ago`` / ``three Easters from now`` the second (third) before / after the reference's day.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path

from dateutil.easter import easter

from cognimem.text.calendar import NUMBER, SAID_YEAR, nth_weekday, number_of, said_year, utc_at
from cognimem.text.mention import Resolved, Rule

__all__ = ["HOLIDAY_NAMES", "HOLIDAY_WORDS", "PATTERNS", "easter", "holiday_date", "holiday_days"]


# a holiday's rule: the days it starts on in a year, each with how many days it lasts
Occurrences = Callable[[int], list[tuple[date, int]]]
_DATA = Path(__file__).with_name("data")


def _lunar_table() -> dict[str, list[tuple[date, int]]]:
    table: dict[str, list[tuple[date, int]]] = defaultdict(list)
    for key, first, days in _rows("lunar_holidays.tsv"):
        table[key].append((date.fromisoformat(first), int(days)))
    return dict(table)


def _rows(name: str) -> list[list[str]]:
    lines = (_DATA / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


_LUNAR = _lunar_table()


def _rule(said: str) -> Occurrences:
    """The rule a line of ``data/holidays.tsv`` names: ``fixed 12 25``, ``easter -2``
    (``easter -46 46``: 46 days), ``counted 11 3 4 1`` (the 4th Thursday of November,
    then a day on), ``lunar passover``."""
    kind, *args = said.split(" ")
    if kind == "lunar":
        key = " ".join(args)
        return lambda year: [(d, n) for d, n in _LUNAR[key] if d.year == year]
    a, b, c, d = [int(x) for x in args] + [0] * (4 - len(args))
    if kind == "fixed":
        return lambda year: [(date(year, a, b), 1)]
    if kind == "easter":
        return lambda year: [(easter(year) + timedelta(days=a), b or 1)]
    return lambda year: [(nth_weekday(year, a, b, c) + timedelta(days=d), 1)]


_S = r"(?:'?s|s'|)"  # "valentine's", "valentines", "valentine", "presidents'"
# (the names, as a pattern; the rule that dates the holiday in a year)
HOLIDAYS: tuple[tuple[str, Occurrences], ...] = tuple(
    (names.replace("{S}", _S), _rule(rule)) for names, rule in _rows("holidays.tsv")
)
_RULES = tuple((re.compile(rf"(?:{names})$", re.IGNORECASE), rule) for names, rule in HOLIDAYS)
HOLIDAY_NAMES = "|".join(names for names, _ in HOLIDAYS)
# a text naming a holiday holds one of these words (most names end in "day")
_WORDS = (
    "day eve night year years christmas xmas easter halloween thanksgiving pentecost "
    "fawkes valentine valentines monday wednesday friday sunday july passover pesach "
    "hanukkah hanukah chanukah chanukkah hannukah kippur hashanah ramadan ramadhan ramzan "
    "eid diwali deepavali purim shavuot shavuos sukkot sukkos succoth muharram mawlid "
    "milad holi dussehra dasara vijayadashami vesak wesak buddha epiphany kings groundhog "
    "juneteenth cinco lent ascension corpus gras thursday saturday burns hogmanay holiday "
    "ides tuesday muertos"
)
HOLIDAY_WORDS = frozenset(_WORDS.split())


def holiday_days(name: str, year: int) -> list[tuple[date, date]]:
    """The periods ``[first day, end)`` the holiday ``name`` (as written, e.g. "St
    Paddy's Day", "hanukah") starts in ``year``; empty when the table does not know the
    name or the year."""
    key = " ".join(name.split())
    for pattern, rule in _RULES:
        if pattern.match(key):
            return [(first, first + timedelta(days=n)) for first, n in rule(year)]
    return []


def holiday_date(name: str, year: int) -> date | None:
    """The first day of the holiday ``name`` in ``year``; ``None`` when it is unknown."""
    days = holiday_days(name, year)
    return days[0][0] if days else None


# a holiday is a time after a preposition ("at Easter"), with last/this/next or a year, or
# alone; "I love Christmas" names a thing, not a time
_TIME_BEFORE = re.compile(
    r"\b(?:at|on|for|over|during|since|until|till|before|after|by|around|from|of|about|"
    r"through|in|spent|celebrated|hosting|hosted|host|prior\s+to)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
# ... or names an occasion held on it: "a New Year's Eve party", "our Christmas dinner"
_OCCASION_AFTER = re.compile(
    r"\s+(?:party|parties|dinner|lunch|brunch|parade|celebrations?|service|market|fair|"
    r"concert|feast|fireworks|get-together)\b",
    re.IGNORECASE,
)


def _holiday(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    which, name = (m.group(1) or m.group(6) or "").lower(), m.group(2)
    alone = not m.string[: m.start()].strip() and not m.string[m.end() :].strip(" .!?")
    named_as_time = which or m.group(3) or m.group(5) or alone
    if not (
        named_as_time
        or _TIME_BEFORE.search(m.string, 0, m.start())
        or _OCCASION_AFTER.match(m.string, m.end())
    ):
        return None
    year = said_year(m.group(3), ref)
    if year is not None:
        found = holiday_days(name, year)[:1]
    else:
        today = ref.date()
        days = [p for y in range(ref.year - 2, ref.year + 3) for p in holiday_days(name, y)]
        if which.endswith("last"):  # "last Easter", "the Christmas before last"
            found = [p for p in days if p[0] < today][-1 - (" " in which) :][:1]
        elif which.endswith("next"):
            found = [p for p in days if p[0] > today][" " in which :][:1]
        elif future or which == "this":
            found = [p for p in days if utc_at(p[1]) > ref][:1]
        else:
            found = [p for p in days if utc_at(p[0]) <= ref][-1:]
    if not found:
        return None
    first, end = found[0]
    if m.group(5):
        return _weekend_of(first)
    near = _JUST.search(m.string, 0, m.start())
    if near is not None:  # "just before Christmas": the week before it, approximate
        week = timedelta(weeks=1)
        before = near.group(1).lower() == "before"
        first, end = (first - week, first) if before else (end, end + week)
        return utc_at(first), utc_at(end), "day", True
    granularity = (
        "day" if (end - first).days == 1 else "week" if (end - first).days < 10 else "month"
    )
    return utc_at(first), utc_at(end), granularity, False


# "just / right before Christmas", "just after New Year": the week before / after it
_JUST = re.compile(r"\b(?:just|right)\s+(before|after)\s+(?:the\s+)?$", re.IGNORECASE)


# the weekend of a holiday on each weekday (Monday first), in days from it: a Monday's,
# a Thursday's or a Friday's with the holiday (a long weekend); a Tuesday's or a
# Wednesday's the one before; a Saturday's or a Sunday's its own
_WEEKEND_AROUND = ((-2, 1), (-3, -1), (-4, -2), (0, 4), (0, 3), (0, 2), (-1, 1))


def _weekend_of(day: date) -> Resolved:
    """ "Memorial Day weekend", "Thanksgiving weekend": the Saturday and Sunday nearest
    the holiday, with the holiday itself when it falls on a Thursday, a Friday or a
    Monday (a long weekend)."""
    first, end = (day + timedelta(days=n) for n in _WEEKEND_AROUND[day.weekday()])
    return utc_at(first), utc_at(end), "weekend", False


def _counted_holiday(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "two Christmases ago" (``back``), "three Easters from now" (``hence``): the
    ``n``-th one before (after) the day said, the last (coming) one first."""
    n, approximate = number_of(m.group(1))
    back, today = m.group(3).lower() in ("ago", "back"), ref.date()
    years = range(ref.year - n - 1, ref.year + n + 2)
    days = [p for y in years for p in holiday_days(m.group(2), y)]
    found = [p for p in days if p[0] < today][::-1] if back else [p for p in days if p[0] > today]
    if len(found) < n:
        return None
    first, end = found[n - 1]
    return utc_at(first), utc_at(end), "day" if (end - first).days == 1 else "week", approximate


PATTERNS: tuple[Rule, ...] = (
    (
        HOLIDAY_WORDS,
        rf"\b(?:(last|this|next)\s+)?({HOLIDAY_NAMES})(?!\w)(?:,?\s+(?:of\s+)?{SAID_YEAR}|"
        r"\s+(long\s+)?(week-?end\b)|\s+(before\s+last|after\s+next)\b)?",
        _holiday,
    ),
    (
        frozenset({"ago", "back", "now", "hence"}),
        rf"\b({NUMBER})\s+({HOLIDAY_NAMES})e?s\s+(ago|back|from\s+now|hence)\b",
        _counted_holiday,
    ),
)
