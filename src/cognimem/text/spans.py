"""Spans of time and times told from another one: durations that date a start ("I've had
them for three years"), "since 2019" as an open interval, "recently", the weekend,
counted weekdays ("two Saturdays ago", "Friday after next", "Wednesday of next week")
and times relative to an event told just before ("two days later", "the next day",
"a week after that"). The conventions are listed in :mod:`.temporal`, which runs these
passes after its patterns.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from cognimem.text import calendar as cal
from cognimem.text.dates import DAY, MONTH, WEEKDAY, alt, day_of, year_of_month
from cognimem.text.mention import RECENT, Handler, Resolved, Rule, TimeMention

__all__ = [
    "HABIT_WORDS",
    "PATTERNS",
    "RECENT_DAYS",
    "habits",
    "join_ranges",
    "open_since",
    "tells_a_habit",
]

_DIGIT_WORD = alt(
    w for w, n in cal.NUMBERS.items() if n < 10 and w not in cal.APPROXIMATE and len(w) > 2
)
# (the lookahead fails fast where no number word can start: most words)
NUMBER = (
    rf"(?=[\d{''.join(sorted({w[0] for w in (*cal.NUMBERS, *cal.TENS)}))}])"
    rf"(?:\d{{1,3}}|(?:{alt(cal.TENS)})(?:[\s-]+(?:{_DIGIT_WORD})\b)?|"
    + alt(cal.NUMBERS).replace(" ", r"\s+")
    + ")"
)
UNIT = r"(?:day|week|fortnight|month|year|decade)s?"
# "recently" / "lately": this many days up to the day said
RECENT_DAYS = 30


def _recently(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """The :data:`RECENT_DAYS` before the day said; "the other day": the week before."""
    today, days = ref.date(), 7 if m.group(0).lower().endswith("day") else RECENT_DAYS
    return cal.utc_at(today - timedelta(days=days)), cal.utc_at(today), RECENT, True


def _the_weekend(_m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """The weekend under way, else the last one (looking ahead: the coming one)."""
    today = ref.date()
    step = -1 if today.weekday() < 5 and not future else 0
    return (*cal.unit_after(today, "weekend", step), False)


def _weekdays_ago(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "two Saturdays ago" (``back``): the Saturday before last; "3 Fridays from now":
    the third Friday after the day said."""
    n, approximate = cal.number_of(m.group(1))
    today, weekday = ref.date(), cal.WEEKDAYS[m.group(2).lower()]
    back = m.group(3).lower() in ("ago", "back")
    first = (cal.weekday_before if back else cal.weekday_after)(today, weekday)
    return (*cal.day_window(first + timedelta(weeks=(1 - n) if back else n - 1))[:3], approximate)


def _after_next(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "Friday after next": a week after next Friday; "March after next": a year after
    next March."""
    word, today = m.group(1).lower(), ref.date()
    if word in cal.WEEKDAYS:
        return cal.day_window(cal.weekday_after(today, cal.WEEKDAYS[word]) + timedelta(weeks=1))
    month = cal.month_name(word)
    start, end = cal.month_range(year_of_month("next", month, ref, True) + 1, month)
    return start, end, "month", False


def _weekday_of_week(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "Wednesday of next week", "last week's Sunday", "next week Tuesday": that day
    of that ISO week."""
    weekday = m.group(1) or m.group(4)
    step = cal.STEP[(m.group(2) or m.group(3)).lower()]
    monday = cal.week_start(ref.date()) + timedelta(weeks=step)
    return cal.day_window(monday + timedelta(days=cal.WEEKDAYS[weekday.lower()]))


def _day_of_relative_month(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the 20th of last month", "the first of next month": that day of the previous
    (this, next) month."""
    first = cal.add_months(ref.date().replace(day=1), cal.STEP[m.group(2).lower()])
    try:
        return cal.day_window(first.replace(day=day_of(m.group(1))))
    except ValueError:
        return None


def _rest_of(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the rest of the week": from the day said to the end of its week (month, year)."""
    unit, today = m.group(1).lower(), ref.date()
    return cal.utc_at(today), cal.unit_window(today, unit, 0)[1], unit, False


PATTERNS: tuple[Rule, ...] = (
    (
        frozenset({"month"}),
        rf"\b(?:on\s+)?(?:the\s+)?{DAY}\s+(?:of\s+)?(?:the\s+)?"
        r"(previous|last|this|next|following)\s+month\b",
        _day_of_relative_month,
    ),
    (frozenset({"rest"}), r"\b(?:the\s+)?rest\s+of\s+(?:the|this)\s+(week|month|year)\b", _rest_of),
    (
        frozenset({"recently", "lately", "late", "long", "other"}),
        r"\b(?:recently|lately|the\s+other\s+day|of\s+late(?=\s*(?:[.,;!?]|$))|"
        r"not\s+(?:so\s+|too\s+|that\s+)?long\s+ago)\b",
        _recently,
    ),
    (
        frozenset({"weekend", "week"}),
        r"\b(?:(?:on|over|at|during|for)\s+)?(?:the|my|your|our|his|her|their)\s+week-?end\b"
        r"(?!\s+(?:before|after|of)\b)",
        _the_weekend,
    ),
    (
        frozenset({"ago", "back", "now", "hence"}),
        rf"\b({NUMBER})\s+({WEEKDAY})s\s+(ago|back|from\s+now|hence)\b",
        _weekdays_ago,
    ),
    (
        cal.WEEKDAY_WORDS | cal.MONTH_WORDS,
        rf"\b(?:the\s+)?({WEEKDAY}|{MONTH})\s+after\s+next\b",
        _after_next,
    ),
    (
        frozenset({"week"}),
        rf"\b(?:({WEEKDAY})\s+(?:of\s+|from\s+)?(?:the\s+)?(this|next|last|previous|following)"
        rf"\s+week|(this|next|last|previous)\s+week(?:'s)?\s+({WEEKDAY}))\b",
        _weekday_of_week,
    ),
)
RELATIVE: frozenset[Handler] = frozenset(handler for _, _, handler in PATTERNS)


def open_since(text: str, mention: TimeMention, ref: datetime) -> TimeMention:
    """``mention`` after "since" runs on up to the end of the day said ("since 2019",
    said in June 2024: 2019-01-01 up to that day's end); a start after that day stays."""
    before = text[: mention.span[0]].rstrip().lower()
    if not (mention.text.lower().startswith("since") or before.endswith("since")):
        return mention
    day_end = cal.utc_at(ref.date() + timedelta(days=1))
    if mention.start >= day_end:
        return mention
    return replace(mention, end=max(mention.end, day_end))


_HABIT = re.compile(
    rf"\b(?:(?:every|each)\s+(?:other\s+|single\s+|second\s+|first\s+|last\s+)?(?:{WEEKDAY}"
    rf"(?:\s*(?:,|and|or|&)\s*{WEEKDAY})*(?:\s+(?:morning|afternoon|evening|night))?|"
    r"day|week-?end|week|month|year|morning|afternoon|evening|night|spring|summer|autumn|"
    r"fall|winter)|weekly|daily|monthly|yearly|annually|nightly)\b",
    re.IGNORECASE,
)
# "on Sundays", "we always / usually / used to": a habit too, told with no time to date
_HABIT_TOLD = re.compile(rf"\bon\s+{WEEKDAY}s\b|\b(?:always|usually|used\s+to)\b", re.IGNORECASE)


def tells_a_habit(text: str) -> bool:
    """Whether ``text`` tells of a habit ("every summer we went to the farm", "on
    Sundays we always went to church"), which is no event of one time."""
    return _HABIT.search(text) is not None or _HABIT_TOLD.search(text) is not None


# a date just after a habit ("every year in June", "weekly on Tuesday") or just before
# "of every month" ("on the 1st of each month") is a habit's too
_AFTER_HABIT = re.compile(r"\s*(?:in|on|at|during)?\s*$", re.IGNORECASE)
_OF_EVERY = re.compile(r"\s*of\s+(?:each|every)\s+(?:week|month|year)\b", re.IGNORECASE)
HABIT_WORDS = frozenset({"every", "each", "weekly", "daily", "monthly", "yearly", "annually"})
HABIT_WORDS |= {"nightly"}


def habits(text: str, kept: list[TimeMention]) -> list[TimeMention]:
    """``kept`` without the times inside a habit ("every Monday and Wednesday", "each
    summer", "every year in June", "on the 1st of each month"): a habit has no date."""
    found = [m.span() for m in _HABIT.finditer(text)]
    out = []
    for k in kept:
        if any(lo < k.span[1] and k.span[0] < hi for lo, hi in found):
            continue
        if any(hi <= k.span[0] and _AFTER_HABIT.fullmatch(text, hi, k.span[0]) for _, hi in found):
            continue
        if _OF_EVERY.match(text, k.span[1]):
            continue
        out.append(k)
    return out


_BETWEEN = re.compile(r"^\s*(?:-|–|to|through|until|till|(and))\s*$", re.IGNORECASE)
_BETWEEN_BEFORE = re.compile(r"\bbetween\s+$", re.IGNORECASE)


def join_ranges(text: str, kept: list[TimeMention]) -> list[TimeMention]:
    """Two dates joined by "-", "to", "through" or "until" ("Aug 8 - Aug 12", "between
    March 3 and March 5") as one span from the first's start to the second's end; two
    weekdays ("from Monday to Friday") from the first to the next such day after it."""
    out: list[TimeMention] = []
    for k in kept:
        last = out[-1] if out else None
        joint = None if last is None else _BETWEEN.match(text[last.span[1] : k.span[0]])
        if last is None or joint is None or last.relative != k.relative:
            out.append(k)
            continue
        if joint.group(1) and not _BETWEEN_BEFORE.search(text, 0, last.span[0]):
            out.append(k)
            continue
        end = k.end
        if last.relative and last.granularity == k.granularity == "day":
            while end <= last.start:  # "Monday to Friday": the Friday after that Monday
                end += timedelta(weeks=1)
        elif last.relative or last.start >= k.end:
            out.append(k)
            continue
        span = (last.span[0], k.span[1])
        out[-1] = replace(last, text=text[span[0] : span[1]], end=end, span=span)
    return out
