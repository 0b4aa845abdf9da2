"""Holidays named in chat ("at Easter", "on New Year's Day", "since Christmas 2019"),
from a fixed table of names and the rule that dates each one.

The table (:data:`HOLIDAYS`) holds the holidays of the Western (Gregorian) calendar and
the public holidays of the US, UK and Canada that English chat names most; each is one
day unless said:

- fixed dates: New Year's Day (1 Jan), Epiphany (6 Jan), Groundhog Day (2 Feb),
  Valentine's Day (14 Feb), St David's Day (1 Mar), St Patrick's Day (17 Mar), April
  Fools' Day (1 Apr), Earth Day (22 Apr), St George's Day (23 Apr), Cinco de Mayo (5
  May), Juneteenth (19 Jun), Canada Day (1 Jul), Independence Day / the Fourth of July
  (4 Jul), Bastille Day (14 Jul), Halloween (31 Oct), All Saints' (1 Nov), All Souls' /
  Día de Muertos (2 Nov), Bonfire Night / Guy Fawkes Night (5 Nov), Veterans /
  Remembrance / Armistice Day (11 Nov), St Andrew's Day (30 Nov), Christmas Eve,
  Christmas (Day), Boxing Day (24-26 Dec), New Year's Eve (31 Dec);
- Easter Sunday (the Gregorian computus) and the days counted from it: Shrove Tuesday /
  Mardi Gras (-47), Ash Wednesday (-46), Lent (the 46 days from Ash Wednesday to Easter),
  Palm Sunday (-7), Maundy Thursday (-3), Good Friday (-2), Holy Saturday (-1), Easter
  Monday (+1), Ascension (+39), Pentecost (+49), Whit Monday (+50), Trinity Sunday
  (+56), Corpus Christi (+60);
- the Ides of March (15 Mar); UK: Burns Night (25 Jan), Hogmanay (31 Dec), Mothering
  Sunday (Easter - 21), the early May bank holiday (first Monday of May), the spring
  bank holiday (last Monday of May), the August bank holiday (last Monday of August);
- counted weekdays: Martin Luther King Day (third Monday of January), Presidents' Day
  (third Monday of February), Mother's Day (second Sunday of May, as in the US),
  Memorial Day (last Monday of May), Father's Day (third Sunday of June), Labor Day
  (first Monday of September), Columbus / Indigenous Peoples' Day (second Monday of
  October), Remembrance Sunday (second Sunday of November), Thanksgiving (fourth
  Thursday of November, as in the US), Black Friday and Cyber Monday (the Friday and
  Monday after it).

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
ended; ``last`` / ``next`` Easter is the one before / after the reference's day.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path

from cognimem.text.calendar import nth_weekday, utc_at
from cognimem.text.mention import Resolved, Rule

__all__ = ["HOLIDAY_WORDS", "PATTERNS", "easter", "holiday_date", "holiday_days"]


def easter(year: int) -> date:
    """Easter Sunday of ``year`` (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    weekday = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * weekday) // 451
    month, day = divmod(h + weekday - 7 * m + 114, 31)
    return date(year, month, day + 1)


# a holiday's rule: the days it starts on in a year, each with how many days it lasts
Occurrences = Callable[[int], list[tuple[date, int]]]


def _fixed(month: int, day: int) -> Occurrences:
    return lambda year: [(date(year, month, day), 1)]


def _from_easter(days: int) -> Occurrences:
    return lambda year: [(easter(year) + timedelta(days=days), 1)]


def _counted(month: int, weekday: int, n: int, shift: int = 0) -> Occurrences:
    return lambda year: [(nth_weekday(year, month, weekday, n) + timedelta(days=shift), 1)]


def _lunar_table() -> dict[str, list[tuple[date, int]]]:
    path = Path(__file__).with_name("data") / "lunar_holidays.tsv"
    table: dict[str, list[tuple[date, int]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            key, first, days = line.split("\t")
            table[key].append((date.fromisoformat(first), int(days)))
    return dict(table)


_LUNAR = _lunar_table()


def _lunar(key: str) -> Callable[[int], list[tuple[date, int]]]:
    return lambda year: [(d, n) for d, n in _LUNAR[key] if d.year == year]


_S = r"(?:'?s|s'|)"  # "valentine's", "valentines", "valentine", "presidents'"
# (the names, as a pattern; the rule that dates the holiday in a year)
HOLIDAYS: tuple[tuple[str, Occurrences], ...] = (
    (r"(?:lunar|chinese)\s+new\s+year", _lunar("lunar new year")),
    (rf"new\s+year{_S}\s+eve", _fixed(12, 31)),
    (rf"new\s+year{_S}(?:\s+day)?", _fixed(1, 1)),
    (rf"(?:st\.?\s+|saint\s+)?valentine{_S}(?:\s+day)?", _fixed(2, 14)),
    (rf"(?:st\.?\s+|saint\s+)(?:patrick|paddy){_S}\s+day", _fixed(3, 17)),
    (rf"april\s+fool{_S}(?:\s+day)?", _fixed(4, 1)),
    (r"independence\s+day|(?:the\s+)?fourth\s+of\s+july", _fixed(7, 4)),
    (r"hall[o']?ween", _fixed(10, 31)),
    (r"bonfire\s+night|guy\s+fawkes(?:\s+night|\s+day)?", _fixed(11, 5)),
    (r"veterans\s+day", _fixed(11, 11)),
    (r"(?:christmas|xmas)\s+eve", _fixed(12, 24)),
    (r"(?:christmas|xmas)(?:\s+day)?", _fixed(12, 25)),
    (r"boxing\s+day", _fixed(12, 26)),
    (r"ash\s+wednesday", _from_easter(-46)),
    (r"palm\s+sunday", _from_easter(-7)),
    (r"good\s+friday", _from_easter(-2)),
    (r"easter\s+mon(?:day)?", _from_easter(1)),
    (r"easter(?:\s+sunday|\s+day)?", _from_easter(0)),
    (r"pentecost|whit\s+sunday", _from_easter(49)),
    (r"(?:mlk|martin\s+luther\s+king(?:,?\s+jr\.?)?)\s+day", _counted(1, 0, 3)),
    (rf"president{_S}\s+day", _counted(2, 0, 3)),
    (rf"mother{_S}\s+day", _counted(5, 6, 2)),
    (r"memorial\s+day", _counted(5, 0, -1)),
    (rf"father{_S}\s+day", _counted(6, 6, 3)),
    (r"labou?r\s+day", _counted(9, 0, 1)),
    (r"thanksgiving(?:\s+day)?", _counted(11, 3, 4)),
    (r"black\s+friday", _counted(11, 3, 4, 1)),
    (r"cyber\s+monday", _counted(11, 3, 4, 4)),
    (r"passover|pesach", _lunar("passover")),
    (r"c?hann?ukk?ah?|chanukkah", _lunar("hanukkah")),
    (r"rosh\s+hashan?ah?", _lunar("rosh hashanah")),
    (r"yom\s+kippur", _lunar("yom kippur")),
    (r"rama[dz]h?an", _lunar("ramadan")),
    (r"eid(?:\s+al|\s+ul)?[\s-]+fitr", _lunar("eid al-fitr")),
    (r"eid(?:\s+al|\s+ul)?[\s-]+adha", _lunar("eid al-adha")),
    (r"diwali|deepavali", _lunar("diwali")),
    (r"purim", _lunar("purim")),
    (r"shavuot|shavuos", _lunar("shavuot")),
    (r"sukkot|sukkos|succoth", _lunar("sukkot")),
    (r"islamic\s+new\s+year|hijri\s+new\s+year|muharram", _lunar("islamic new year")),
    (r"mawlid|milad(?:\s+un)?[\s-]+nabi", _lunar("mawlid")),
    (r"holi", _lunar("holi")),
    (r"dussehra|dasara|vijayadashami", _lunar("dussehra")),
    (r"vesak|wesak|buddha\s+purnima|buddha\s+day", _lunar("vesak")),
    (r"epiphany|three\s+kings(?:'?\s+day)?", _fixed(1, 6)),
    (r"burns\s+night", _fixed(1, 25)),
    (r"(?:the\s+)?ides\s+of\s+march", _fixed(3, 15)),
    (r"hogmanay", _fixed(12, 31)),
    (r"mothering\s+sunday", _from_easter(-21)),
    (r"(?:the\s+)?early\s+may\s+bank\s+holiday|may\s+day\s+bank\s+holiday", _counted(5, 0, 1)),
    (r"(?:the\s+)?(?:spring|late\s+may)\s+bank\s+holiday", _counted(5, 0, -1)),
    (r"(?:the\s+)?(?:august|summer)\s+bank\s+holiday", _counted(8, 0, -1)),
    (r"groundhog\s+day", _fixed(2, 2)),
    (rf"(?:st\.?\s+|saint\s+)david{_S}\s+day", _fixed(3, 1)),
    (rf"(?:st\.?\s+|saint\s+)george{_S}\s+day", _fixed(4, 23)),
    (r"earth\s+day", _fixed(4, 22)),
    (r"cinco\s+de\s+mayo", _fixed(5, 5)),
    (r"juneteenth", _fixed(6, 19)),
    (r"canada\s+day", _fixed(7, 1)),
    (r"bastille\s+day", _fixed(7, 14)),
    (r"all\s+saints(?:'|'s)?\s+day", _fixed(11, 1)),
    (r"all\s+souls(?:'|'s)?\s+day|d[ií]a\s+de\s+(?:los\s+)?muertos", _fixed(11, 2)),
    (r"remembrance\s+day|armistice\s+day", _fixed(11, 11)),
    (rf"(?:st\.?\s+|saint\s+)andrew{_S}\s+day", _fixed(11, 30)),
    (r"remembrance\s+sunday", _counted(11, 6, 2)),
    (r"columbus\s+day|indigenous\s+peoples?(?:'|'s)?\s+day", _counted(10, 0, 2)),
    (r"shrove\s+tuesday|pancake\s+day|mardi\s+gras", _from_easter(-47)),
    (r"maundy\s+thursday|holy\s+thursday", _from_easter(-3)),
    (r"holy\s+saturday", _from_easter(-1)),
    (r"ascension(?:\s+day|\s+thursday)?", _from_easter(39)),
    (r"whit\s+monday|pentecost\s+monday", _from_easter(50)),
    (r"trinity\s+sunday", _from_easter(56)),
    (r"corpus\s+christi", _from_easter(60)),
    # "Lent" with its capital: "I lent him money" is the verb
    (r"(?-i:Lent)", lambda year: [(easter(year) - timedelta(days=46), 46)]),
)
_RULES = tuple((re.compile(rf"(?:{names})$", re.IGNORECASE), rule) for names, rule in HOLIDAYS)
_NAMES = "|".join(names for names, _ in HOLIDAYS)
# a text naming a holiday holds one of these words (most names end in "day")
HOLIDAY_WORDS = frozenset(
    {"day", "eve", "night", "year", "years", "christmas", "xmas", "easter", "halloween"}
    | {"thanksgiving", "pentecost", "fawkes", "valentine", "valentines", "monday"}
    | {"wednesday", "friday", "sunday", "july", "passover", "pesach", "hanukkah", "hanukah"}
    | {"chanukah", "chanukkah", "hannukah", "kippur", "hashanah", "ramadan", "ramadhan"}
    | {"ramzan", "eid", "diwali", "deepavali", "purim", "shavuot", "shavuos", "sukkot"}
    | {"sukkos", "succoth", "muharram", "mawlid", "milad", "holi", "dussehra", "dasara"}
    | {"vijayadashami", "vesak", "wesak", "buddha", "epiphany", "kings", "groundhog"}
    | {"juneteenth", "cinco", "lent", "ascension", "corpus", "gras", "thursday", "saturday"}
    | {"burns", "hogmanay", "holiday", "ides"}
)


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
    r"through|in|until|spent|celebrated|hosting|hosted|host)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
# ... or names an occasion held on it: "a New Year's Eve party", "our Christmas dinner"
_OCCASION_AFTER = re.compile(
    r"\s+(?:party|parties|dinner|lunch|brunch|parade|celebrations?|service|market|fair|"
    r"concert|feast|fireworks|get-together)\b",
    re.IGNORECASE,
)


def _holiday(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    which, name = (m.group(1) or "").lower(), m.group(2)
    alone = not m.string[: m.start()].strip() and not m.string[m.end() :].strip(" .!?")
    named_as_time = which or m.group(3) or m.group(4) or m.group(6) or alone
    if not (
        named_as_time
        or _TIME_BEFORE.search(m.string, 0, m.start())
        or _OCCASION_AFTER.match(m.string, m.end())
    ):
        return None
    if m.group(3) or m.group(4):
        step = {"last": -1, "this": 0, "next": 1}
        year = int(m.group(3)) if m.group(3) else ref.year + step[m.group(4).lower()]
        found = holiday_days(name, year)[:1]
    else:
        today = ref.date()
        days = [p for y in (ref.year - 1, ref.year, ref.year + 1) for p in holiday_days(name, y)]
        if which == "last":
            found = [p for p in days if p[0] < today][-1:]
        elif which == "next":
            found = [p for p in days if p[0] > today][:1]
        elif future or which == "this":
            found = [p for p in days if utc_at(p[1]) > ref][:1]
        else:
            found = [p for p in days if utc_at(p[0]) <= ref][-1:]
    if not found:
        return None
    first, end = found[0]
    if m.group(6):
        return _weekend_of(first)
    granularity = (
        "day" if (end - first).days == 1 else "week" if (end - first).days < 10 else "month"
    )
    return utc_at(first), utc_at(end), granularity, False


def _weekend_of(day: date) -> Resolved:
    """ "Memorial Day weekend", "Thanksgiving weekend": the Saturday and Sunday nearest
    the holiday, with the holiday itself when it falls on a Thursday, a Friday or a
    Monday (a long weekend)."""
    weekday = day.weekday()
    if weekday in (3, 4):
        first, end = day, day + timedelta(days=7 - weekday)
    elif weekday == 0:
        first, end = day - timedelta(days=2), day + timedelta(days=1)
    else:  # on a weekend: that one; a Tuesday or a Wednesday: the one before
        saturday = day - timedelta(days=weekday - 5 if weekday >= 5 else weekday + 2)
        first, end = saturday, saturday + timedelta(days=2)
    return utc_at(first), utc_at(end), "weekend", False


PATTERNS: tuple[Rule, ...] = (
    (
        HOLIDAY_WORDS,
        rf"\b(?:(last|this|next)\s+)?({_NAMES})(?:,?\s+(?:of\s+)?((?:19|20)\d{{2}})|"
        rf"(?:\s+of)?\s+(last|this|next)\s+year|\s+(long\s+)?(week-?end))?\b",
        _holiday,
    ),
)
