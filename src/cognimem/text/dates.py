"""Calendar dates named in text, with or without their year: ``2023-05-07``, ``7 May
2023``, ``May 7``, ``May 2023``, ``in 2019``, ``in May``, ``the 15th``, ``the second
week of May``, ``the last Saturday of July``, ``summer 2022``, numeric dates in a chosen
order (``3/4/2024``: :mod:`.numeric_dates`) and holidays (:mod:`.holidays`). The
conventions are listed in ``docs/time.md``; :mod:`.temporal` assembles these patterns
with the relative ones.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Literal

from cognimem.text import calendar as cal
from cognimem.text import holidays
from cognimem.text.mention import DIGIT_OR, Resolved, Rule
from cognimem.text.noun_senses import noun_classes
from cognimem.text.stopwords import STOP_WORDS
from cognimem.text.verb_senses import verb_senses

# how a numeric date "3/4/2024" is read: the US's month first or day first
DateOrder = Literal["month_first", "day_first"]


MONTH = rf"(?:{cal.alt(cal.MONTHS)})"
MONTH_ANY = rf"(?:{cal.alt([*cal.MONTHS, *cal.MONTH_ABBREVIATIONS])})\.?"
WEEKDAY = rf"(?:{cal.alt(cal.WEEKDAYS)})"
SEASON = rf"(?:{cal.alt(cal.SEASONS)})"
DAYNUM = r"(\d{1,2})(?:st|nd|rd|th)?"
# a day of the month in digits or as an ordinal word ("21st", "twenty-first")
DAY = (
    r"(\d{1,2}(?:st|nd|rd|th)?(?!\w)|(?:"
    + cal.alt(cal.DAY_ORDINALS).replace("-", r"[\s-]")
    + r")(?![\w-]))"
)
WEEKDAY_ANY = rf"(?:{cal.alt([*cal.WEEKDAYS, *cal.WEEKDAY_ABBREVIATIONS])})\.?"
# abbreviations that are words of their own in lower case ("I sat 3rd", "the sun")
WORD_ABBREVIATIONS = frozenset({"sat", "sun", "wed", "weds"})


def is_word_not_weekday(word: str) -> bool:
    """Whether an abbreviation read as a weekday is a word of its own ("sat", "sun",
    "wed" in lower case), not the day."""
    return word.rstrip(".") in WORD_ABBREVIATIONS


# a determiner or a possessor ("Mum's Sunday roast") before a weekday that modifies a noun
_DETERMINED = re.compile(r"(?:\b(?:the|an?|my|our|your|his|her|their|its)|\w's)\s+$", re.I)
_NEXT_WORD = re.compile(r"\s+([a-z][\w-]*)", re.IGNORECASE)
_NOT_MODIFIED = cal.WEEKDAY_WORDS | frozenset(cal.DAY_ORDINALS)  # "Monday first thing"


def names_a_thing(text: str, start: int, end: int) -> bool:
    """Whether the weekday at ``text[start:end]`` modifies a noun: "the Sunday market",
    "my Monday class", "Wednesday football" name a recurring thing, not a day. The next
    word must be a noun (WordNet) that names no time ("Sunday week", "Friday morning")
    and is no function word ("the Saturday we met") nor ordinal ("Monday first thing"),
    and, with no determiner before the weekday, no verb either ("Tuesday works for
    me")."""
    after = _NEXT_WORD.match(text, end)
    word = after.group(1).lower() if after else ""
    classes = noun_classes(word) if word not in STOP_WORDS else ()
    if not classes or classes[0] == "time" or word in _NOT_MODIFIED:
        return False
    return _DETERMINED.search(text, 0, start) is not None or verb_senses(word) is None


YEAR = r"((?:19|20)\d{2})"
# the words before a year or a month that make a number or "May" a date
_YEAR_WORDS = (
    r"in|since|during|from|until|till|by|of|before|after|around|circa|early|late|mid|"
    r"throughout|through"
)
_FUZZY = frozenset({"around", "circa", "early", "late", "mid"})
# lower-case "may" before a number ("may 3", "they may 2024 ...") is the verb far more
# often than the month
_VERB_MAY = "may"


def _iso_date(m: re.Match[str], _ref: datetime, _future: bool) -> Resolved:
    try:
        return cal.day_window(date(int(m.group(1)), int(m.group(3)), int(m.group(4))))
    except ValueError:
        return None


def full_date(day: int, month: int, year: int | None, ref: datetime, future: bool) -> Resolved:
    """The date; without a year, the latest that has begun by ``ref`` (looking ahead:
    the earliest that has not ended); ``None`` when there is no such date."""
    years = (ref.year - 1, ref.year, ref.year + 1) if year is None else (year,)
    return _pick_day([date(y, month, 1) for y in years], day, ref, future)


def _pick_day(
    firsts: list[date], day: int, ref: datetime, future: bool, weekday: int | None = None
) -> Resolved:
    """Of day ``day`` of the months starting on ``firsts`` (in time order; one: that
    one's), the one :func:`.calendar.pick` picks, on ``weekday`` when one is said."""
    days = [f.replace(day=day) for f in firsts if day <= cal.days_in_month(f.year, f.month)]
    days = [d for d in days if weekday is None or d.weekday() == weekday]
    if len(firsts) == 1:
        return cal.day_window(days[0]) if days else None
    found = cal.pick([cal.day_window(d)[:2] for d in days], ref, future)
    return None if found is None else (*found, "day", False)


def _day_and_month(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "3 May 2023", "the third of May", "May 3rd, '94", "March the 14th last year",
    "15-Mar-2024"."""
    day, month = (m.group(1), m.group(3)) if m.group(1) else (m.group(5), m.group(4))
    if m.group(4) == _VERB_MAY:
        return None
    if not day[0].isdigit() and m.group(1) and " of " not in " ".join(m.group(0).split()):
        return None  # "the second may be ..." is no date; "the second of May" is
    return full_date(
        cal.ordinal(day), cal.month_name(month), cal.said_year(m.group(6), ref), ref, future
    )


def _month_year(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "May 2023", "May of last year"; "late March 2019": days 21 to the end,
    approximate."""
    word, year = (m.group(1) or "").lower(), cal.said_year(m.group(3), ref) or ref.year
    if m.group(2) == _VERB_MAY:
        return None
    return whole_or_part("month", date(year, cal.month_name(m.group(2)), 1), word)


def whole_or_part(unit: str, first: date, word: str) -> Resolved:
    """The month or year that starts on ``first``; its early, mid or late part
    (:func:`.calendar.part_of`), approximate; approximate too after "around"."""
    if word in PART_WORDS:
        start, end = cal.part_of(unit, first, PART_WORDS[word])
        return cal.utc_at(start), cal.utc_at(end), unit, True
    return cal.utc_at(first), cal.utc_at(cal.move(first, unit, 1)[0]), unit, word in _FUZZY


def year_of_month(word: str, month: int, ref: datetime, future: bool) -> int:
    """The year of ``month`` named without one ("this May", "last May", "in May")."""
    if word == "this":
        return ref.year
    if word == "next" or (future and word != "last"):  # "next May": not this month's
        return ref.year + (month < ref.month + (word == "next"))
    return ref.year - (month > ref.month - (word == "last"))


# "early / mid / late": the part of a unit (:func:`.calendar.part_of`)
PART_WORDS = {"early": "beginning", "mid": "middle", "late": "end"}


# a plan set in the present ("is planned for June", "we're booked for May"): it is ahead
_PLAN_NOW = re.compile(r"(?:\b(?:is|are|be|been)|'s|'re)\s+(?:\w+\s+)?\w+\s+$", re.IGNORECASE)


def _month_only(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """``in May``, ``last May``, ``May.`` (the whole text, as after "in"); ``early`` /
    ``mid`` / ``late May``: days 1-10, 11-20, 21 to the end, approximate; a month a plan
    in the present is set for: ahead."""
    word = (m.group(2) or "").lower().replace("this past", "last")
    month = cal.month_name(m.group(1) or m.group(3))
    future = future or (word == "for" and _PLAN_NOW.search(m.string, 0, m.start()) is not None)
    return whole_or_part("month", date(year_of_month(word, month, ref, future), month, 1), word)


def _year_only(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "in 2019", "back in '19"; "early / mid / late 2019": its first quarter, May-August or
    September-December (:func:`.calendar.part_of`), approximate."""
    said = next((g for g in m.groups()[1:] if g), None)
    year, word = cal.said_year(said, ref) or ref.year, (m.group(1) or "").lower()
    return whole_or_part("year", date(year, 1, 1), word)


def _day_of_month(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "on the 15th" ("from / until the 15th" before a range word or the end, "the
    15th" as the whole text): the latest 15th that has begun by ``ref`` (looking ahead:
    the earliest that has not ended)."""
    firsts = [cal.month_of(ref.date(), months) for months in range(-2, 3)]
    return _pick_day(firsts, cal.ordinal(next(g for g in m.groups() if g)), ref, future)


def _nth_of_month(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "the second week of November" (Monday-to-Sunday weeks, the first being the one
    with four or more of its days in the month, as ISO 8601 counts a year's weeks; the
    last week: the last such week, with four of its days in the month),
    "the last Saturday of July", "the third Tuesday of May 2024", "the last day of
    October", "the last weekend of October" (its last Saturday and Sunday)."""
    n, what, which = cal.ordinal(m.group(1)), m.group(2).lower(), (m.group(3) or "").lower()
    if m.group(4).lower() == "month":  # "the last Friday of the month", "of next month"
        first = cal.month_of(ref.date(), cal.STEP[which])
        year, month = first.year, first.month
    elif m.group(5):
        year, month = int(m.group(5)), cal.month_name(m.group(4))
    else:
        month = cal.month_name(m.group(4))
        year = year_of_month(which, month, ref, future)
    days = cal.days_in_month(year, month)
    if what == "day":
        return cal.day_window(date(year, month, 1 if n == 1 else days)) if n in (1, -1) else None
    if what in cal.WEEKDAYS:
        return cal.day_window(cal.nth_weekday(year, month, cal.WEEKDAYS[what], n))
    if what.replace("-", "") == "weekend":
        saturday = cal.nth_weekday(year, month, 5, n)
        if n == -1 and saturday.day == days:  # its Sunday is in the next month
            saturday -= timedelta(weeks=1)
        return cal.utc_at(saturday), cal.utc_at(saturday + timedelta(days=2)), "weekend", False
    if n > 0:  # Monday-to-Sunday weeks from the first with four of its days in the month
        first = date(year, month, 1)
        start = first - timedelta(days=first.weekday()) + timedelta(weeks=n - (first.weekday() < 4))
    else:  # the last Monday-to-Sunday week with four of its days in the month
        last = date(year, month, days)
        start = last - timedelta(days=last.weekday() + (0 if last.weekday() >= 3 else 7))
    return cal.utc_at(start), cal.utc_at(start + timedelta(days=7)), "week", False


def _day_range(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "23rd to 26th Oct", "1-8 September", "May 3-7", "March 10 to 14, 2023",
    "between March 3 and 5": the first day to the end of the last."""
    if cal.lone_and(m) or m.group(5) == _VERB_MAY:
        return None
    first, last, month, year = m.group(6, 7, 5, 8) if m.group(5) else m.group(1, 2, 3, 4)
    year_said = int(year) if year else None
    return _through(
        full_date(cal.ordinal(first), cal.month_name(month), year_said, ref, future), last
    )


def _days_between(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "between the 5th and the 8th", "the 10th through the 14th" (no month): the
    first day as "on the 5th" reads it (:func:`_day_of_month`), to the end of the last
    in the same month ("and" joins days only after "between")."""
    return None if cal.lone_and(m) else _through(_day_of_month(m, ref, future), m.group(2))


def _through(first: Resolved, last_day: str) -> Resolved:
    """From the day ``first`` to the end of day ``last_day`` of its month, if later."""
    if first is None:
        return None
    try:
        last = first[0].replace(day=cal.ordinal(last_day))
    except ValueError:
        return None
    return (first[0], last + timedelta(days=1), "day", False) if last >= first[0] else None


def _dated_weekday(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "Sunday, Feb 10", "Jul 18, Fri", "Friday 21st June": the year (six back to six
    ahead) whose date falls on that weekday, the nearest; the date alone when none does."""
    g = m.groups()  # (weekday, month, day) in the order each alternative says them
    weekday_s, month_s, day_s = (
        g[:3] if g[0] else (g[5], g[3], g[4]) if g[3] else (g[6], g[8], g[7])
    )
    weekday = cal.weekday_of(weekday_s)
    month, day = cal.month_name(month_s), int(day_s)
    fits = [
        found
        for year in range(ref.year - 6, ref.year + 7)
        if 1 <= day <= cal.days_in_month(year, month)
        and (found := date(year, month, day)).weekday() == weekday
    ]
    if not fits:
        return full_date(day, month, None, ref, future)
    return cal.day_window(min(fits, key=lambda d: abs(cal.utc_at(d) - ref)))


def _named_season(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "summer 2022", "the spring of '21", "the spring of last year"."""
    year = cal.said_year(m.group(2), ref) or ref.year
    start, end = cal.month_range(year, cal.SEASONS[m.group(1).lower()], 3)
    return start, end, "season", False


def _weekday_day(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "Tuesday the 19th", "Thu 15th": the nearest 19th (ahead or back, by the tense)
    that is a Tuesday, within a year."""
    if is_word_not_weekday(m.group(1)):
        return None
    firsts = [cal.month_of(ref.date(), months) for months in range(-12, 13)]
    return _pick_day(firsts, cal.ordinal(m.group(2)), ref, future, cal.weekday_of(m.group(1)))


def _month_range(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "from May to July", "between June and August 2023": the first month to the end
    of the last (a year said is the last month's)."""
    first, last = cal.month_name(m.group(1)), cal.month_name(m.group(2))
    if m.group(3):
        start = date(int(m.group(3)) - (first > last), first, 1)
    else:
        start = date(year_of_month("", first, ref, future), first, 1)
    end = cal.add_months(start, (last - first) % 12 + 1)
    return cal.utc_at(start), cal.utc_at(end), "month", False


_MONTHS = cal.MONTH_WORDS
# a month's abbreviation after "in", "since", "last" ... ("in Feb."); "Jan" is a name too,
# a month only after a word of time and before a stop, a year or a subject ("since Jan
# I've ...", "since Jan and loving it"; "since Jan left", "since Jan and I met", "by Jan.")
_JAN_AFTER = ("since", "in", "during", "until", "till", "early", "late", "mid", "last", "next")
_JAN_AFTER_TOO = ("this",)
_JAN = (
    "(?:" + "|".join(rf"(?<=\b{w}[\s-])" for w in _JAN_AFTER + _JAN_AFTER_TOO) + ")"
    r"jan(?=\s*(?:[.,;:!?)]|$|\d|(?:i|we|you|he|she|they)\b|"
    r"and\s+(?!(?:i|we|you|he|she|they)\b)(?-i:[a-z])))"
)
_SHORT_MONTH = rf"(?:{cal.alt(a for a in cal.MONTH_ABBREVIATIONS if a != 'jan')}|{_JAN})"
# "the twenty-first": the words of the days as ordinals
_ORDINAL_WORDS = frozenset(w for day in cal.DAY_ORDINALS for w in day.split("-"))
# a day said alone as a word: only the compound ordinals ("twenty-second"; "second",
# "third" alone are replies as often)
_COMPOUND_ORDINALS = cal.alt(d for d in cal.DAY_ORDINALS if "-" in d).replace("-", r"[\s-]")
# a year between a determiner and a word that is not plural, a number or a range's
# ("the 2020 trip", "our 2016 road trip"; "the 2000 people", "the 2019 to 2021"), nor a
# name: a year before a capitalised word is a thing's model or vintage ("the 1978
# Stratocaster", "my 1967 Mustang"), not when anything happened
_ATTRIBUTIVE_YEAR = (
    rf"\s+{YEAR}(?=\s+(?!(?:to|and|or|through|until|till|of|in|on|at|for|from|people|men|"
    r"women|children|feet|more|less|times)\b)"
    r"(?-i:[a-z])[a-z]*(?<![^s]s)\b)"
)
_TO = rf"\s*{cal.RANGE_TO}\s*"
# "the morning of", "the week of": a day of the month after them is a date
PART_OF = "|".join(rf"(?<={w}\sof\s)" for w in ("ing", "noon", "night", "week", "weekend"))


def after_words(words: str) -> str:
    """A pattern that holds just after one of ``words`` (space-separated)."""
    return "|".join(rf"(?<=\b{w}\s)" for w in words.split())


# a day of the month alone is a date after these words ("until the 15th")
DAY_AFTER = after_words("from by since to until till through on")
PATTERNS: tuple[Rule, ...] = (
    (None, r"\b(\d{4})([-/.])(\d{1,2})\2(\d{1,2})\b(?![.-]\d)", _iso_date),
    (
        _MONTHS,
        rf"\b(?:on\s+)?(?:(?:the\s+)?{DAY}(?:(?:\s+of)?\s+|([-/]))({MONTH_ANY})|({MONTH_ANY})\s*"
        rf"(?:the\s+)?{DAY})(?:(?(2)(?=[-/])|,?\s+)[-/]?{cal.SAID_YEAR})?",
        _day_and_month,
    ),
    (
        _MONTHS,
        rf"\b(?:({_YEAR_WORDS})[\s-]+)?({MONTH_ANY}),?\s+(?:of\s+)?{cal.SAID_YEAR}",
        _month_year,
    ),
    (  # "in May", "last May"; a month that is the whole text ("February.", "Sept.")
        _MONTHS,
        rf"^\s*(?:in\s+)?({MONTH_ANY})\s*[.!?]?\s*$|"
        r"\b(in|during|since|by|until|till|throughout|(?:the\s+whole|all)\s+of|this\s+past|this|"
        r"last|next|early|late|mid|(?:(?<=planned\s)|(?<=booked\s)|(?<=scheduled\s))for)"
        rf"[\s-]+({MONTH}|{_SHORT_MONTH})\b"
        rf"(?!\s*(?:the\s+)?(?:\d|(?:{cal.alt(cal.DAY_ORDINALS)})\b))",
        _month_only,
    ),
    (
        None,
        rf"\b({_YEAR_WORDS})[\s-]+(?:the\s+year\s+)?(?!last|this|next){cal.SAID_YEAR}",
        _year_only,
    ),
    (  # "in twenty nineteen", "Two thousand and eight was ...": a year said in words
        frozenset({"nineteen", "twenty", "thousand"}),
        rf"(?:\b({_YEAR_WORDS})\s+|^\s*|(?<=[.!?]\s))({cal.SPOKEN_YEAR})",
        _year_only,
    ),
    (  # in digits: the whole text ("2014."), one that opens a sentence before "was" or
        # ends a clause after it or a hedge ("like 2019."), one after "in like", one that
        # qualifies a noun after a determiner ("the 2020 trip"; "the 2000 people" counts)
        DIGIT_OR,
        rf"()^\s*(?:in\s+)?(?:the\s+year\s+)?{YEAR}\s*[.!?]?\s*$|"
        rf"(?:^\s*|(?<=[.!?]\s)){YEAR}(?=\s+(?:was|is|were)\b)|"
        rf"\b(?:was|is|like|maybe|probably|perhaps)\s+{YEAR}(?![.,/-]\d)(?=\s*(?:[,.;!?]|$|or\b))|"
        rf"\b(?:in|since|around)\s+like\s+{YEAR}\b|"
        rf"\b(?:the|my|our|your|his|her|their|that){_ATTRIBUTIVE_YEAR}",
        _year_only,
    ),
    (
        _MONTHS,
        rf"\b(?:from|between)\s+({MONTH_ANY}){_TO}({MONTH_ANY})(?:,?\s+{YEAR})?\b",
        _month_range,
    ),
    (
        _MONTHS | {"month"},
        rf"\b(?:the\s+)?({cal.FIRST_FOUR})\s+"
        rf"(week-?end|week|day|{WEEKDAY})\s+(?:of|in)\s+(?:the\s+)?(?:(this|last|next)\s+)?"
        rf"({MONTH_ANY}|month)(?:,?\s+{YEAR})?\b",
        _nth_of_month,
    ),
    (
        frozenset(cal.SEASONS),
        rf"\b(?:the\s+)?({SEASON})\s+(?:of\s+)?{cal.SAID_YEAR}",
        _named_season,
    ),
    (
        _MONTHS,
        rf"\b(?:(?:the\s+)?{DAY}{_TO}(?:the\s+)?{DAY}(?:\s+of)?\s+({MONTH_ANY})(?:,?\s+{YEAR})?|"
        rf"({MONTH_ANY})\s*{DAY}{_TO}{DAY}(?:,?\s+{YEAR})?)\b",
        _day_range,
    ),
    (
        _MONTHS,
        rf"\b(?:on\s+)?(?:({WEEKDAY_ANY}),?\s+({MONTH_ANY})\s*{DAYNUM}|"
        rf"({MONTH_ANY})\s*{DAYNUM},?\s+({WEEKDAY_ANY})|"
        rf"({WEEKDAY_ANY}),?\s+(?:the\s+)?{DAYNUM}(?:\s+of)?\s+({MONTH_ANY}))\b(?!,?\s+(?:19|20)\d\d)",
        _dated_weekday,
    ),
    (
        DIGIT_OR | _ORDINAL_WORDS,
        r"(?=the\s)(?:(?<=\bon\s)the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)|"
        rf"(?:{DAY_AFTER})the\s+{DAY}(?=\s*(?:[.,;!?]|$|-|–|to\b|and\b|until\b|through\b))|"
        # "the morning of the 5th", "the week of the 10th"
        rf"(?:{PART_OF})the\s+{DAY}(?!\s*(?:of\s+)?{MONTH_ANY}))|"
        r"^\s*(?:on\s+)?(?:the\s+)?(\d{1,2}(?:st|nd|rd|th)|"
        rf"(?:{_COMPOUND_ORDINALS}))\s*[.!?]?\s*$",
        _day_of_month,
    ),
    (
        DIGIT_OR | _ORDINAL_WORDS,
        rf"\b(?:between\s+)?the\s+{DAY}{_TO}(?:the\s+)?{DAY}(?!\s*(?:of\s+)?{MONTH_ANY})",
        _days_between,
    ),
    (
        cal.WEEKDAY_WORDS | frozenset(cal.WEEKDAY_ABBREVIATIONS),
        rf"\b(?:on\s+)?({WEEKDAY_ANY}),?\s+(?:the\s+)?{DAY}(?![/.]\d)(?!\s*(?:of\s+)?{MONTH_ANY})",
        _weekday_day,
    ),
    *holidays.PATTERNS,
)
