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
    "HABIT_WORDS",
    "PATTERNS",
    "RECENT_DAYS",
    "durations",
    "habits",
    "join_ranges",
    "open_since",
    "runs_up_to_now",
    "told_after",
]

NUMBER = r"(?:\d{1,3}|" + alt(NUMBERS).replace(" ", r"\s+") + ")"
UNIT = r"(?:day|week|fortnight|month|year|decade)s?"
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
    """ "two Saturdays ago" (``back``): the Saturday before last; "3 Fridays from now":
    the third Friday after the day said."""
    n, approximate = number_of(m.group(1))
    today, weekday = ref.date(), WEEKDAYS[m.group(2).lower()]
    if m.group(3).lower() in ("ago", "back"):
        last = today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
        return (*day_window(last - timedelta(weeks=n - 1))[:3], approximate)
    first = today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
    return (*day_window(first + timedelta(weeks=n - 1))[:3], approximate)


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
    """ "the next six weeks", "next few days", "the coming 3 days": from the day after
    the reference (months
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
        rf"\b(?:on\s+)?(?:the\s+)?{DAY}\s+(?:of\s+)?(?:the\s+)?"
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
    (
        frozenset({"ago", "back", "now", "hence"}),
        rf"\b({NUMBER})\s+({WEEKDAY})s\s+(ago|back|from\s+now|hence)\b",
        _weekdays_ago,
    ),
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
    (
        UNIT_WORDS,
        rf"\b(?:the\s+)?(?:next|upcoming|coming|following)\s+({NUMBER})\s+({UNIT})\b",
        _next_span,
    ),
)
RELATIVE: frozenset[Handler] = frozenset(handler for _, _, handler in PATTERNS)


# ----------------------------------------------------------------- durations

_DURATION = re.compile(
    r"\bfor\s+(?:(about|around|roughly|almost|nearly|over|more\s+than|less\s+than|"
    r"(?:just|a\s+little|a\s+bit)\s+(?:over|under|more\s+than|less\s+than)|close\s+to|"
    rf"at\s+least)\s+)?(?:({NUMBER})\s+({UNIT})(\s+and\s+a\s+half)?|(half)\s+an?\s+({UNIT}))"
    r"(?:\s+(now|before\s+that|after\s+that))?\b",
    re.IGNORECASE,
)
# the clause before a duration says it runs up to now: "I've had", "has been", "been"
_PERFECT = re.compile(r"\b(?:ha(?:ve|s)(?:n'?t)?|'ve|been)\b", re.IGNORECASE)
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
        n, approximate = number_of(m.group(2) or "1")
        approximate = approximate or m.group(1) is not None
        unit, tail = (m.group(3) or m.group(6)).lower().rstrip("s"), (m.group(7) or "").lower()
        if m.group(4) or m.group(5):  # "a year and a half", "half a year": in months, days
            n, unit = _in_halves(n, unit, 0 if m.group(5) else 1)
        span, start = (m.start(), m.end()), None
        beside = _date_beside(text, m, kept)
        if beside is not None:
            span = (min(span[0], beside.span[0]), max(span[1], beside.span[1]))
            start, end = beside.start, utc_at(move(beside.end.date(), unit, n)[0])
        elif runs_up_to_now(text, m.start()) or tail == "now" or (after is None and not future):
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


def _in_halves(n: int, unit: str, whole: int) -> tuple[int, str]:
    """``n`` units and a half (``whole`` 1) or half a unit (``whole`` 0), counted in
    the next smaller unit."""
    per = {"decade": (120, "month"), "year": (12, "month"), "month": (30, "day")}
    per |= {"fortnight": (14, "day"), "week": (7, "day"), "day": (1, "day")}
    size, smaller = per[unit]
    return (whole * n * size + size // 2) or 1, smaller


def runs_up_to_now(text: str, at: int) -> bool:
    """Whether the clause before ``at`` is in the perfect ("I've had", "has been"): a
    span told there runs up to the moment said."""
    return _PERFECT.search(_CLAUSE_START.split(text[:at])[-1]) is not None


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

_PART_UNITS = r"day|morning|afternoon|evening|night|week-?end|week|month|year"
_LATER = re.compile(
    rf"\b(?:(?P<n>{NUMBER})\s+(?P<n_unit>{UNIT})\s+(?P<n_word>later|after(?:\s+that)?|afterwards|"
    r"earlier|before(?:\s+that)?|prior)|the\s+(?P<word>next|following|previous|preceding)\s+"
    rf"(?P<unit>{_PART_UNITS})|(?:the\s+)?(?P<unit_b>day|night|week-?end|week|month|year)\s+"
    r"(?P<word_b>after|before)(?!\s+(?:tomorrow|next|yesterday|last)\b)|(?P<that>that|the\s+same)"
    rf"\s+(?:same\s+|very\s+)?(?P<unit_c>{_PART_UNITS})|(?P<since>since\s+then)|(?:the\s+"
    rf"(?P<day_word>following|next)\s+|that\s+|on\s+the\s+|the\s+)(?P<weekday>{WEEKDAY})"
    r"(?:\s+(?P<day_after>after|before)(?:\s+that)?)?)\b",
    re.IGNORECASE,
)
_FOR_BEFORE = re.compile(r"\bfor\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
# how far each word moves from the event told before
_LATER_STEP = {"next": 1, "following": 1, "after": 1, "previous": -1, "preceding": -1}
_LATER_STEP |= {"before": -1, "that": 0, "the same": 0}


def told_after(
    text: str, ref: datetime, after: tuple[datetime, datetime] | None, kept: list[TimeMention]
) -> list[TimeMention]:
    """``kept`` with the times told from an earlier event added: "two days later", "a
    week after that", "three days after the move", "the next day", "the following
    week", "the day before", "that evening", "the following Tuesday", "since then".
    Each counts from the time told just before it in ``text``, else from ``after`` (the
    event the previous turns told of); "the next/following day/week" with neither
    counts from the reference, and the others with neither name no date."""
    out: list[TimeMention] = []
    rest = list(kept)
    for m in _LATER.finditer(text):
        inside = [k for k in kept if k.span[0] < m.end() and m.start() < k.span[1]]
        if inside and not (m.group("weekday") and all(_within(k, m) for k in inside)):
            continue  # "the next Tuesday" replaces "next Tuesday"; dates stay
        if m.group("n") and _FOR_BEFORE.search(text, 0, m.start()):
            continue  # "for twenty years before that": a duration (:func:`durations`)
        while rest and rest[0].span[1] <= m.start():
            out.append(rest.pop(0))
        anchor = (out[-1].start, out[-1].end) if out else after
        ahead = m.group("word") in ("next", "following") if m.group("word") else False
        if anchor is None and not (ahead or (m.group("unit_b") or "").lower() == "day"):
            continue  # "two days later", "that day", "the Sunday": from no event
        if anchor is None and m.group("word_b") and m.group("word_b").lower() == "before":
            continue
        resolved = _from_event(m, (anchor or (ref, ref))[0].date(), ref)
        rest = [k for k in rest if k not in inside]
        start, end, granularity, approximate = resolved
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


def _within(k: TimeMention, m: re.Match[str]) -> bool:
    """Whether ``k`` is a weekday counted from the reference inside ``m``."""
    return k.relative and k.granularity == "day" and m.start() <= k.span[0] and k.span[1] <= m.end()


def _from_event(
    m: re.Match[str], first: date, ref: datetime
) -> tuple[datetime, datetime, str, bool]:
    """The period a :data:`_LATER` match names, counted from the day ``first``."""
    if m.group("n"):
        n, approximate = number_of(m.group("n"))
        n = n if m.group("n_word").lower().startswith(("later", "after")) else -n
        return (*day_window(move(first, m.group("n_unit"), n)[0])[:3], approximate)
    if m.group("since"):
        return utc_at(first), utc_at(ref.date() + timedelta(days=1)), "day", False
    if m.group("weekday"):
        weekday = WEEKDAYS[m.group("weekday").lower()]
        word = (m.group("day_word") or m.group("day_after") or "").lower()
        if word == "before":
            return day_window(first - timedelta(days=(first.weekday() - weekday - 1) % 7 + 1))
        ahead = (weekday - first.weekday()) % 7 or (7 if word else 0)
        return day_window(first + timedelta(days=ahead))
    word = m.group("word") or m.group("word_b") or m.group("that")
    unit = m.group("unit") or m.group("unit_b") or m.group("unit_c")
    step = _LATER_STEP[" ".join(word.lower().split())]
    return (*_unit_after(first, unit.lower().replace("-", ""), step), False)


def _unit_after(first: date, unit: str, step: int) -> tuple[datetime, datetime, str]:
    """The ``unit`` ``step`` units from the one ``first`` falls in (a day for a part of
    one; a weekend: the next, the last, or the one of ``first``'s week)."""
    if unit == "week":
        monday = week_start(first) + timedelta(weeks=step)
        return utc_at(monday), utc_at(monday + timedelta(weeks=1)), "week"
    if unit == "weekend":
        saturday = week_start(first) + timedelta(days=5)
        if step and (saturday > first) == (step > 0):
            saturday += timedelta(weeks=step if step < 0 else 0)
        elif step:
            saturday += timedelta(weeks=step)
        return utc_at(saturday), utc_at(saturday + timedelta(days=2)), "weekend"
    if unit in ("month", "year"):
        base = first.replace(day=1) if unit == "month" else first.replace(month=1, day=1)
        start = move(base, unit, step)[0]
        return utc_at(start), utc_at(move(start, unit, 1)[0]), unit
    return day_window(first + timedelta(days=step))[:3]


_HABIT = re.compile(
    rf"\b(?:(?:every|each)\s+(?:other\s+|single\s+|second\s+|first\s+|last\s+)?(?:{WEEKDAY}"
    rf"(?:\s*(?:,|and|or|&)\s*{WEEKDAY})*(?:\s+(?:morning|afternoon|evening|night))?|"
    r"day|week-?end|week|month|year|morning|afternoon|evening|night|spring|summer|autumn|"
    r"fall|winter)|weekly|daily|monthly|yearly|annually|nightly)\b",
    re.IGNORECASE,
)
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
            while end - last.start > timedelta(weeks=1):
                end -= timedelta(weeks=1)
        elif last.relative or last.start >= k.end:
            out.append(k)
            continue
        span = (last.span[0], k.span[1])
        out[-1] = replace(last, text=text[span[0] : span[1]], end=end, span=span)
    return out
