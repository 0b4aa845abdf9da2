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
from datetime import date, datetime, timedelta

from cognimem.text.calendar import (
    MONTH_WORDS,
    NUMBERS,
    UNIT_WORDS,
    WEEKDAY_WORDS,
    WEEKDAYS,
    add_months,
    day_window,
    month_name,
    month_range,
    move,
    number_of,
    utc_at,
    week_start,
)
from cognimem.text.dates import DAY, MONTH, WEEKDAY, alt, day_of, year_of_month
from cognimem.text.mention import RECENT, Handler, Resolved, Rule, TimeMention

__all__ = [
    "PATTERNS",
    "RECENT_DAYS",
    "durations",
    "habits",
    "join_ranges",
    "open_since",
    "told_after",
]

NUMBER = r"(?:\d{1,3}|" + alt(NUMBERS).replace(" ", r"\s+") + ")"
UNIT = r"(?:day|week|fortnight|month|year)s?"
# "recently" / "lately": this many days up to the day said
RECENT_DAYS = 30


def _recently(_m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    today = ref.date()
    return utc_at(today - timedelta(days=RECENT_DAYS)), utc_at(today), RECENT, True


def _saturday_of(day_: datetime, future: bool) -> datetime:
    """The Saturday of the weekend "the weekend" means on ``day_``: the one under way,
    else the last one (looking ahead: the coming one)."""
    today = day_.date()
    saturday = week_start(today) + timedelta(days=5)
    if today.weekday() < 5 and not future:
        saturday -= timedelta(weeks=1)
    return utc_at(saturday)


def _the_weekend(_m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    saturday = _saturday_of(ref, future)
    return saturday, saturday + timedelta(days=2), "weekend", False


def _weekdays_ago(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "two Saturdays ago": the Saturday before last."""
    n, approximate = number_of(m.group(1))
    today, weekday = ref.date(), WEEKDAYS[m.group(2).lower()]
    last = today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    return (*day_window(last - timedelta(weeks=n - 1))[:3], approximate)


def _after_next(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "Friday after next": a week after next Friday; "March after next": a year after
    next March."""
    word, today = m.group(1).lower(), ref.date()
    if word in WEEKDAYS:
        ahead = (WEEKDAYS[word] - today.weekday() - 1) % 7 + 1
        return day_window(today + timedelta(days=ahead + 7))
    month = month_name(word)
    start, end = month_range(year_of_month("next", month, ref, True) + 1, month)
    return start, end, "month", False


_WEEK_STEP = {"this": 0, "next": 1, "following": 1, "last": -1, "previous": -1}


def _weekday_of_week(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "Wednesday of next week", "last week's Sunday", "next week Tuesday": that day
    of that ISO week."""
    weekday = m.group(1) or m.group(4)
    step = _WEEK_STEP[(m.group(2) or m.group(3)).lower()]
    monday = week_start(ref.date()) + timedelta(weeks=step)
    return day_window(monday + timedelta(days=WEEKDAYS[weekday.lower()]))


def _next_span(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the next six weeks", "next few days": from the day after the reference (months
    and years: from the next calendar one)."""
    n, approximate = number_of(m.group(1))
    unit, today = m.group(2).lower().rstrip("s"), ref.date()
    if unit in ("month", "year"):
        first = today.replace(day=1) if unit == "month" else today.replace(month=1, day=1)
        start = move(first, unit, 1)[0]
        return utc_at(start), utc_at(move(start, unit, n)[0]), unit, approximate
    start = today + timedelta(days=1)
    return utc_at(start), utc_at(move(start, unit, n)[0]), unit, approximate


def _day_of_relative_month(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the 20th of last month", "the first of next month": that day of the previous
    (this, next) month."""
    step = {"previous": -1, "last": -1, "this": 0, "next": 1, "following": 1}[m.group(2).lower()]
    first = add_months(ref.date().replace(day=1), step)
    try:
        return day_window(first.replace(day=day_of(m.group(1))))
    except ValueError:
        return None


def _rest_of(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the rest of the week": from the day said to the end of its week (month, year)."""
    unit, today = m.group(1).lower(), ref.date()
    if unit == "week":
        end = week_start(today) + timedelta(weeks=1)
    else:
        base = today.replace(day=1) if unit == "month" else today.replace(month=1, day=1)
        end = move(base, unit, 1)[0]
    return utc_at(today), utc_at(end), unit, False


PATTERNS: tuple[Rule, ...] = (
    (
        frozenset({"month"}),
        rf"\b(?:on\s+)?(?:the\s+)?{DAY}\s+of\s+(?:the\s+)?"
        r"(previous|last|this|next|following)\s+month\b",
        _day_of_relative_month,
    ),
    (frozenset({"rest"}), r"\b(?:the\s+)?rest\s+of\s+(?:the|this)\s+(week|month|year)\b", _rest_of),
    (
        frozenset({"recently", "lately", "late"}),
        r"\b(?:recently|lately|of\s+late(?=\s*(?:[.,;!?]|$)))\b",
        _recently,
    ),
    (
        frozenset({"weekend", "week"}),
        r"\b(?:(?:on|over|at|during|for)\s+)?the\s+week-?end\b(?!\s+(?:before|after|of)\b)",
        _the_weekend,
    ),
    (frozenset({"ago"}), rf"\b({NUMBER})\s+({WEEKDAY})s\s+ago\b", _weekdays_ago),
    (
        WEEKDAY_WORDS | MONTH_WORDS,
        rf"\b(?:the\s+)?({WEEKDAY}|{MONTH})\s+after\s+next\b",
        _after_next,
    ),
    (
        frozenset({"week"}),
        rf"\b(?:({WEEKDAY})\s+(?:of\s+|from\s+)?(?:the\s+)?(this|next|last|previous|following)"
        rf"\s+week|(this|next|last|previous)\s+week(?:'s)?\s+({WEEKDAY}))\b",
        _weekday_of_week,
    ),
    (UNIT_WORDS, rf"\b(?:the\s+)?next\s+({NUMBER})\s+({UNIT})\b", _next_span),
)
RELATIVE: frozenset[Handler] = frozenset(handler for _, _, handler in PATTERNS)


# ----------------------------------------------------------------- durations

_DURATION = re.compile(
    rf"\bfor\s+(?:(about|around|roughly|almost|nearly|over|more\s+than|less\s+than|"
    rf"just\s+over|just\s+under)\s+)?({NUMBER})\s+({UNIT})(?:\s+(now|before\s+that|after\s+that))?\b",
    re.IGNORECASE,
)
# the clause before a duration says it runs up to now: "I've had", "has been", "been"
_PERFECT = re.compile(r"\b(?:have|has|'ve|been)\b", re.IGNORECASE)
_CLAUSE_START = re.compile(r"[.;!?]|,\s*(?:but|and|so)\b", re.IGNORECASE)
# a date a duration runs from: "for 10 days from 18th Dec", "18th Dec for 10 days"
_RUNS_FROM = re.compile(r"^\s*,?\s*(?:from\s+|starting\s+)?$", re.IGNORECASE)


def durations(
    text: str,
    ref: datetime,
    future: bool,
    after: tuple[datetime, datetime] | None,
    kept: list[TimeMention],
) -> list[TimeMention]:
    """The spans "for N units" dates in ``text``: from a date beside it ("for 10 days
    from 18 Dec": through ten days after it), up to the day said when the clause is in
    the perfect ("we've lived here for twelve years") or looks back without an event told
    before, ending at the event told before when "before that" follows, starting at it
    otherwise ("he was in hospital for four days" after "he had a fall on 5 November").
    A duration ahead with no date ("I'll be away for a week") names no period."""
    out: list[TimeMention] = []
    for m in _DURATION.finditer(text):
        if any(k.span[0] < m.end() and m.start() < k.span[1] for k in kept):
            continue
        n, approximate = number_of(m.group(2))
        approximate = approximate or m.group(1) is not None
        unit, tail = m.group(3).lower().rstrip("s"), (m.group(4) or "").lower()
        span, start = (m.start(), m.end()), None
        beside = _date_beside(text, m, kept)
        clause = _CLAUSE_START.split(text[: m.start()])[-1]
        if beside is not None:
            span = (min(span[0], beside.span[0]), max(span[1], beside.span[1]))
            start, end = beside.start, utc_at(move(beside.end.date(), unit, n)[0])
        elif _PERFECT.search(clause) or tail == "now" or (after is None and not future):
            end = utc_at(ref.date())
            start = utc_at(move(ref.date(), unit, -n)[0])
        elif after is not None and tail == "before that":
            end = after[0]
            start = utc_at(move(end.date(), unit, -n)[0])
        elif after is not None:
            start = after[0]
            end = utc_at(move(start.date(), unit, n)[0])
        if start is None:
            continue
        out.append(
            TimeMention(
                text=text[span[0] : span[1]],
                start=start,
                end=end,
                granularity=unit,
                span=span,
                approximate=approximate,
                anchor=None if beside is None else (beside.start, beside.end),
            )
        )
    return out


def _date_beside(text: str, m: re.Match[str], kept: list[TimeMention]) -> TimeMention | None:
    for k in kept:
        if k.relative:
            continue
        if k.span[1] <= m.start() and _RUNS_FROM.match(text[k.span[1] : m.start()]):
            return k
        if k.span[0] >= m.end() and _RUNS_FROM.match(text[m.end() : k.span[0]]):
            return k
    return None


def open_since(text: str, mention: TimeMention, ref: datetime) -> TimeMention:
    """``mention`` after "since" runs on up to the end of the day said ("since 2019",
    said in June 2024: 2019-01-01 up to that day's end); a start after that day stays."""
    before = text[: mention.span[0]].rstrip().lower()
    if not (mention.text.lower().startswith("since") or before.endswith("since")):
        return mention
    day_end = utc_at(ref.date() + timedelta(days=1))
    if mention.start >= day_end:
        return mention
    return replace(mention, end=max(mention.end, day_end))


# ----------------------------------------------------------------- told after an event

_LATER = re.compile(
    rf"\b(?:({NUMBER})\s+({UNIT})\s+(?:later|after\s+that|afterwards)|"
    r"the\s+(next|following)\s+(day|morning|afternoon|evening|week-?end|week|month|year)|"
    r"(?:the\s+)?day\s+after(?!\s+(?:tomorrow|next)\b))\b",
    re.IGNORECASE,
)


def told_after(
    text: str, ref: datetime, after: tuple[datetime, datetime] | None, kept: list[TimeMention]
) -> list[TimeMention]:
    """``kept`` with the times told from an earlier event added: "two days later", "a
    week after that", "the next day", "the following week". Each counts from the time
    told just before it in ``text``, else from ``after`` (the event the previous turns
    told of); "the next/following day/week" with neither counts from the reference,
    and "N units later" with neither names no date."""
    out: list[TimeMention] = []
    rest = list(kept)
    for m in _LATER.finditer(text):
        if any(k.span[0] < m.end() and m.start() < k.span[1] for k in kept):
            continue
        while rest and rest[0].span[1] <= m.start():
            out.append(rest.pop(0))
        anchor = (out[-1].start, out[-1].end) if out else after
        if anchor is None and m.group(1):
            continue
        first = (anchor or (ref, ref))[0].date()
        if m.group(1):
            n, approximate = number_of(m.group(1))
            start, end, granularity, _ = day_window(move(first, m.group(2), n)[0])
        else:
            unit = (m.group(4) or "day").lower().replace("-", "")
            approximate = False
            start, end, granularity = _unit_after(first, unit)
        out.append(
            TimeMention(
                text=m.group(0),
                start=start,
                end=end,
                granularity=granularity,
                span=(m.start(), m.end()),
                approximate=approximate,
                relative=anchor is None,
                anchor=anchor,
            )
        )
    return sorted(out + rest, key=lambda k: k.span)


def _unit_after(first: date, unit: str) -> tuple[datetime, datetime, str]:
    if unit == "week":
        monday = week_start(first) + timedelta(weeks=1)
        return utc_at(monday), utc_at(monday + timedelta(weeks=1)), "week"
    if unit == "weekend":
        saturday = first + timedelta(days=(5 - first.weekday() - 1) % 7 + 1)
        return utc_at(saturday), utc_at(saturday + timedelta(days=2)), "weekend"
    if unit in ("month", "year"):
        base = first.replace(day=1) if unit == "month" else first.replace(month=1, day=1)
        start = move(base, unit, 1)[0]
        return utc_at(start), utc_at(move(start, unit, 1)[0]), unit
    return day_window(first + timedelta(days=1))[:3]


_HABIT = re.compile(
    rf"\b(?:every|each)\s+(?:other\s+|single\s+|second\s+)?(?:{WEEKDAY}"
    rf"(?:\s*(?:,|and|or|&)\s*{WEEKDAY})*(?:\s+(?:morning|afternoon|evening|night))?|"
    r"day|week-?end|week|month|year|morning|afternoon|evening|night|spring|summer|autumn|"
    r"fall|winter)\b",
    re.IGNORECASE,
)


def habits(text: str, kept: list[TimeMention]) -> list[TimeMention]:
    """``kept`` without the times inside a habit ("every Monday and Wednesday", "each
    summer"): a habit has no date."""
    found = [m.span() for m in _HABIT.finditer(text)]
    if not found:
        return kept
    return [k for k in kept if not any(lo < k.span[1] and k.span[0] < hi for lo, hi in found)]


_BETWEEN = re.compile(r"^\s*(?:-|–|to|through|until|till)\s*$", re.IGNORECASE)


def join_ranges(text: str, kept: list[TimeMention]) -> list[TimeMention]:
    """Two dates joined by "-", "to", "through" or "until" ("Aug 8 - Aug 12") as one
    span from the first's start to the second's end."""
    out: list[TimeMention] = []
    for k in kept:
        last = out[-1] if out else None
        if (
            last is not None
            and not last.relative
            and not k.relative
            and last.start < k.end
            and _BETWEEN.match(text[last.span[1] : k.span[0]])
        ):
            span = (last.span[0], k.span[1])
            out[-1] = replace(last, text=text[span[0] : span[1]], end=k.end, span=span)
            continue
        out.append(k)
    return out
