"""Time expressions in chat text, resolved against when the message was written.

Every expression resolves against ``reference`` (a message's ``occurred_at``), never
against the wall clock, so re-reading an old conversation gives the same answer. The
result is a half-open interval ``[start, end)`` in UTC with a ``granularity``. Calendar
dates are read by :mod:`.dates` (holidays: :mod:`.holidays`), spans and times told from
another event by :mod:`.spans`; this module reads the times counted from the reference
and assembles them all. Conventions, chosen so that every expression has one reading:

- Calendar arithmetic runs in UTC. Weeks are ISO weeks, Monday to Sunday; a weekend is
  the Saturday and Sunday of a week; seasons are meteorological, northern hemisphere.
- ``today`` / ``yesterday`` / ``tomorrow``: that whole day. Parts of a day: morning
  06-12h, afternoon 12-18h, evening and night 18-24h (``last night``: the day before's).
- ``last`` / ``this`` / ``next`` (``this past``, ``previous``) + week, weekend, month,
  year: the previous, current or following calendar unit; ``the coming`` /
  ``upcoming`` one is the next (``this coming weekend``: this week's until Saturday),
  ``the past weekend`` the last. ``the week before last`` / ``the weekend after
  next``: two units back or ahead. ``the beginning / middle / end of`` a week,
  month or year: its first, middle or last part (:func:`.calendar.part_of`), approximate.
- ``next Friday``: the first Friday strictly after the reference date; ``last Friday``
  the latest strictly before; ``this Friday`` the Friday of the reference's week. A bare
  ``Friday`` / ``on Friday``: the latest one before, or the first after when the caller
  says the sentence looks ahead (``prefer_future``); ``on Fridays`` (a habit) is ignored.
  ``two Saturdays ago``, ``Friday after next``, ``Wednesday of next week`` (``next week
  Wednesday``): as said. Abbreviations (``Thu``, ``tues``) are read beside a day number
  or after last / this / next; lower-case ``sat``, ``sun``, ``wed`` are words.
- ``N days/weeks/months/years ago`` (``back``), ``in N units``, ``N units from now``
  (``from today``, ``hence``): the day N units back or ahead; ``a few`` / ``several``
  count as 3 and ``a couple (of)`` as 2, approximate, as are ``about`` / ``almost``.
  ``half a year ago``, ``a year and a half ago``, ``in two and a half weeks``: that many
  halves of the unit, approximate. ``in 2 hours``, ``an hour ago``: the day they reach.
- ``the past/last N units``: from N units back to the end of the reference's day;
  ``the next N units``: from the next day (months, years: the next calendar one).
- Dates without a year: the latest that has begun (looking ahead: the earliest that has
  not ended); ``early / mid / late May``: days 1-10, 11-20, 21-end, approximate.
  Numeric dates (``3/4/2024``) are read only when the caller gives ``date_order``.
  A day may be an ordinal word (``the third of March``; a word day before its month
  needs ``of``). ``the 5th of last month``: that day of that month. ``May 3-7``, ``from
  May to July``: the first day or month to the end of the last. ``Q3 2023``, ``the third
  quarter`` (no year: as a date without one); ``the 90s``, ``the nineties`` (``in my
  20s`` is an age: a two-digit or word decade needs ``the`` or an apostrophe).
- ``for N units``: a span, dated by :func:`.spans.durations`; ``since X``: from X up to
  the end of the day said; ``recently`` / ``lately``: the 30 days before the day said,
  approximate; ``the weekend``: the one under way or the last one (ahead: the coming).
- ``the week/day before`` or ``after`` a date, ``N units before/after/from`` it, ``the
  Friday before`` it: counted from that date, kept as the mention's ``anchor``.
  ``two days later``, ``a week after that``, ``the next day``: counted from the time
  told just before in the text, else from ``after`` (the event the conversation told
  of last); ``relative`` marks the mentions counted from the reference.

Not resolved: clock times, ``the other day``, lunar holidays, durations ahead with no
date ("I'll be away for a week").
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from cognimem.models.clock import to_utc
from cognimem.text import dates, spans
from cognimem.text.calendar import (
    MONTH_ABBREVIATIONS,
    MONTH_WORDS,
    MONTHS,
    PARTS_OF_DAY,
    SEASONS,
    UNIT_WORDS,
    WEEKDAY_ABBREVIATIONS,
    WEEKDAY_WORDS,
    WEEKDAYS,
    add_months,
    day_window,
    month_name,
    month_range,
    move,
    number_of,
    part_of,
    season_containing,
    season_range,
    utc_at,
    week_start,
    weekday_of,
)
from cognimem.text.dates import (
    MONTH,
    SEASON,
    WEEKDAY,
    WEEKDAY_ANY,
    DateOrder,
    is_word_not_weekday,
)
from cognimem.text.holidays import HOLIDAY_WORDS
from cognimem.text.mention import Handler, Resolved, Rule, TimeMention
from cognimem.text.spans import NUMBER, UNIT

__all__ = ["DateOrder", "TimeMention", "find_times"]

# how far "last", "this" and "next" move a unit
_STEP = {"last": -1, "previous": -1, "past": -1, "this": 0, "next": 1}


# ----------------------------------------------------------------- handlers


def _relative_day(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    words = " ".join(m.group(0).lower().split()).removeprefix("the ")
    today = ref.date()
    offsets = {
        "day before yesterday": -2,
        "day after tomorrow": 2,
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


def _relative_unit(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    which, unit = " ".join(m.group(1).lower().split()), m.group(2).lower().replace("-", "")
    if which.endswith("coming"):  # the next one to begin: this week's weekend until it has
        step = 0 if unit == "weekend" and ref.weekday() < 5 else 1
        return _unit_window(ref.date(), unit, step)
    return _unit_window(ref.date(), unit, _STEP[which.split()[-1]])


def _two_away(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """``the week before last``: two units back; ``the weekend after next``: ahead."""
    step = -2 if m.group(2).lower().startswith("before") else 2
    return _unit_window(ref.date(), m.group(1).lower().replace("-", ""), step)


_PART_WORDS = {"early": "beginning", "mid": "middle", "late": "end"}


def _part_of_unit(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """``the end of the year``, ``the beginning of next month``, ``the end of 2012``,
    ``the beginning of January``, ``early next month``, ``mid next week``: that part of
    the unit, approximately."""
    part, which, unit = m.group(1).lower(), (m.group(2) or "").lower(), m.group(3).lower()
    part = _PART_WORDS.get(part, part)
    if unit.isdigit():
        first, unit = date(int(unit), 1, 1), "year"
    elif unit in ("week", "month", "year"):
        step = 1 if which == "following" else _STEP[which or "this"]
        first = _unit_window(ref.date(), unit, step)[0].date()
    else:
        month = month_name(unit)
        first, unit = date(dates.year_of_month(which, month, ref, future), month, 1), "month"
    start, end = part_of(unit, first, part)
    return utc_at(start), utc_at(end), unit, True


def _past_span(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """``the past two weeks``, ``the past week``: from that far back up to the end of the
    reference's day."""
    n, approximate = number_of(m.group(1)) if m.group(1) else (1, False)
    return _back_to_today(ref, m.group(2), n, approximate)


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
    if unit in ("month", "quarter"):
        months = 1 if unit == "month" else 3
        first = today.replace(day=1, month=today.month - (today.month - 1) % months)
        first = add_months(first, step * months)
        return utc_at(first), utc_at(add_months(first, months)), unit, False
    year = today.year + step
    return utc_at(date(year, 1, 1)), utc_at(date(year + 1, 1, 1)), "year", False


def _relative_weekday(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    if is_word_not_weekday(m.group(2)):  # "I last sat there"
        return None
    which, weekday = " ".join(m.group(1).lower().split()), weekday_of(m.group(2))
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


def _bare_weekday(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    weekday = WEEKDAYS[m.group(1).lower()]
    today = ref.date()
    if future:
        return day_window(today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1))
    return day_window(today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1))


def _ago(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "two weeks ago": the day two weeks back ("about", "almost", "or so": approximate)."""
    n, approximate = number_of(m.group(2))
    approximate = approximate or m.group(1) is not None or m.group(4) is not None
    return (*_day_known_to(move(ref.date(), m.group(3), -n)[0], m.group(3)), approximate)


def _month_of_relative_year(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """``in May last year``, ``May of next year``."""
    if m.group(1) == "may":  # the verb
        return None
    start, end = month_range(ref.year + _STEP[m.group(2).lower()], month_name(m.group(1)))
    return start, end, "month", False


def _ahead(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "in two weeks", "two weeks from now": the day two weeks ahead."""
    n, approximate = number_of(m.group(1) or m.group(3))
    unit = m.group(2) or m.group(4)
    return (*_day_known_to(move(ref.date(), unit, n)[0], unit), approximate)


# a half of each unit, in the smaller unit it is counted in
_HALF = {"year": (6, "month"), "month": (15, "day"), "week": (84, "hour"), "day": (12, "hour")}


def _halves(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "half a year ago" (six months), "a year and a half ago", "in two and a half
    weeks": the day that many halves of the unit back or ahead, approximate."""
    ahead, suffix = m.group(1) is not None, (m.group(6) or "").lower()
    if ahead == bool(suffix) and not suffix.endswith("now"):  # "half a year": a length
        return None
    unit = (m.group(2) or m.group(4) or m.group(5)).lower().rstrip("s")
    halves = 1 if m.group(2) else 2 * number_of(m.group(3))[0] + 1
    size, smaller = _HALF[unit]
    sign = 1 if ahead or suffix.endswith("now") else -1
    if smaller == "hour":
        day = ref.date() + timedelta(hours=sign * halves * size)
    else:
        day = move(ref.date(), smaller, sign * halves * size)[0]
    return (*_day_known_to(day, unit), True)


def _hours(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "in two hours", "an hour ago", "20 minutes from now": the day of that moment."""
    n, approximate = number_of(m.group(1) or m.group(3))
    unit = (m.group(2) or m.group(4)).lower()
    sign = -1 if m.group(0).lower().endswith("ago") else 1
    moment = ref + sign * timedelta(**{"hours" if unit.startswith("h") else "minutes": n})
    return (
        *day_window(moment.date(), "hour" if unit.startswith("h") else "minute")[:3],
        approximate,
    )


def _day_known_to(day: date, unit: str) -> tuple[datetime, datetime, str]:
    """``day``, with the granularity of the unit it was counted in (``precision``)."""
    return utc_at(day), utc_at(day + timedelta(days=1)), unit.lower().rstrip("s")


def _relative_season(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """``last summer``, ``this winter``, ``next spring``; ``the summer``: the latest that
    has begun (looking ahead: the earliest that has not ended)."""
    which, season = (m.group(1) or "").lower(), SEASONS[m.group(2).lower()]
    today = ref.date()
    current = season_containing(season, today)
    if not which:
        years = (today.year - 1, today.year, today.year + 1)
        ranges = [season_range(season, y) for y in years]
        if future:
            return (*next(r for r in ranges if r[1] > utc_at(today)), "season", False)
        return (*next(r for r in reversed(ranges) if r[0] <= utc_at(today)), "season", False)
    if which == "last" or "past" in which:
        for year in (today.year, today.year - 1, today.year - 2):
            start, end = season_range(season, year)
            if end <= utc_at(today):
                return start, end, "season", False
        return None
    if which in ("this", "current"):
        start, end = current or season_range(season, today.year)
        return start, end, "season", False
    for year in (today.year, today.year + 1):
        start, end = season_range(season, year)
        if start > utc_at(today) and (current is None or start >= current[1]):
            return start, end, "season", False
    return None


_SEASONS = frozenset(SEASONS)
_PATTERNS: tuple[Rule, ...] = (
    *dates.PATTERNS,
    (
        frozenset({"today", "tonight", "yesterday", "tomorrow", *PARTS_OF_DAY}),
        r"\b(?:(?:the\s+)?day\s+before\s+yesterday|(?:the\s+)?day\s+after\s+tomorrow|"
        r"(?:this|yesterday|tomorrow)\s+(?:morning|afternoon|evening|night)|"
        r"last\s+night|tonight|(?:earlier|later)\s+today|today|yesterday|tomorrow)\b",
        _relative_day,
    ),
    (
        WEEKDAY_WORDS | frozenset(WEEKDAY_ABBREVIATIONS),
        rf"\b(last|this\s+coming|this|next)\s+({WEEKDAY_ANY})(?!\w)",
        _relative_weekday,
    ),
    (
        WEEKDAY_WORDS,
        rf"\b(?:on\s+)?({WEEKDAY})\b(?!s\b|'s|\s+(?:morning|afternoon|evening|night)s\b)",
        _bare_weekday,
    ),
    (
        UNIT_WORDS,
        r"\b(this\s+past|the\s+past(?=\s+week-?end)|(?:this|the)\s+(?:up)?coming|upcoming|"
        r"last|previous|this|next)\s+(week-?end|week|month|quarter|year)\b",
        _relative_unit,
    ),
    (
        UNIT_WORDS,
        r"\bthe\s+(week-?end|week|month|year)\s+(before\s+last|after\s+next)\b",
        _two_away,
    ),
    (
        frozenset({"end", "beginning", "start", "middle"}),
        r"\b(?:at\s+)?(?:the\s+)?(end|beginning|start|middle)\s+of\s+(?:the\s+)?"
        rf"(?:(this|last|next|previous|following)\s+)?(week|month|year|{MONTH}|(?:19|20)\d{{2}})\b",
        _part_of_unit,
    ),
    (
        frozenset({"early", "mid", "late"}),
        r"\b(early|mid|late)[\s-]+(this|last|next)\s+(week|month|year)\b",
        _part_of_unit,
    ),
    (
        UNIT_WORDS,
        rf"\b(?:the\s+)?(?:(?:past|last|previous)\s+({NUMBER})|past)\s+({UNIT})\b(?!\s+of\b)",
        _past_span,
    ),
    (
        _SEASONS,
        rf"\b(?:(this\s+past|last|this|next|current)|(?:in|over|during|for)\s+the)\s+({SEASON})\b"
        r"(?!\s+of\b)",
        _relative_season,
    ),
    (
        frozenset({"hour", "hours", "minute", "minutes", "mins"}),
        rf"\b(?:in\s+({NUMBER})\s+(hours?|minutes?|mins)|({NUMBER})\s+(hours?|minutes?|mins)"
        r"\s+(?:from\s+now|ago))\b",
        _hours,
    ),
    (
        frozenset({"half"}),
        rf"\b(in\s+)?(?:half\s+an?\s+(year|month|week|day)|({NUMBER})\s+(?:and\s+a\s+half\s+"
        rf"(years?|months?|weeks?|days?)|(years?|months?|weeks?|days?)\s+and\s+a\s+half))"
        r"(\s+(?:ago|back|from\s+now))?\b",
        _halves,
    ),
    (
        frozenset({"ago", "back"}),
        rf"\b(?:(about|around|almost|nearly|over|roughly)\s+)?({NUMBER})\s+({UNIT})\s+"
        r"(or\s+so\s+)?(?:ago|back)\b",
        _ago,
    ),
    (
        MONTH_WORDS,
        rf"\b(?:in\s+)?({MONTH})\s+(?:of\s+)?(last|this|next)\s+year\b",
        _month_of_relative_year,
    ),
    (
        UNIT_WORDS,
        rf"\b(?:in\s+({NUMBER})\s+({UNIT})|({NUMBER})\s+({UNIT})\s+"
        r"(?:from\s+(?:now|today)|hence))\b",
        _ahead,
    ),
    *spans.PATTERNS,
)
_RELATIVE: frozenset[Handler] = frozenset(
    {_relative_day, _relative_unit, _relative_weekday, _bare_weekday, _ago, _ahead, _halves}
    | {_hours, _relative_season, _two_away, _part_of_unit, _past_span, *spans.RELATIVE}
)
_COMPILED = {
    order: tuple(
        (needs, re.compile(pattern, re.IGNORECASE), handler)
        for needs, pattern, handler in (
            *_PATTERNS,
            *(dates.numeric_patterns(order) if order else ()),
        )
    )
    for order in (None, "month_first", "day_first")
}
# "the week before" / "two days after" / "the Sunday before" / "last weekend before" /
# "a week from", just ahead of a date
_BEFORE_AFTER = re.compile(
    rf"(?<!for\s)\b(?:(?:the|last)\s+)?(?:({NUMBER})\s+({UNIT})|(day|week|weekend|month|year)|"
    rf"({WEEKDAY}))\s+(before|after|prior\s+to|from)\s+$",
    re.IGNORECASE,
)


def _counted_from(m: re.Match[str], anchor: TimeMention) -> Resolved:
    """The period ``m`` ("the week before", "two days after") names from ``anchor``."""
    before = m.group(5).lower() not in ("after", "from")
    first, last = anchor.start.date(), (anchor.end - timedelta(microseconds=1)).date()
    if m.group(1):
        n, approximate = number_of(m.group(1))
        if m.group(5).lower() == "from":  # "a week from Friday": the day
            return (*day_window(move(first, m.group(2), n)[0])[:3], approximate)
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
        m = _BEFORE_AFTER.search(text, lo, mention.span[0])
        if m is not None and mention.relative and m.group(5).lower() != "from":
            m = None  # "a week from Friday" counts from a relative day, "before" does not
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
                relative=mention.relative,
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
        *WEEKDAY_ABBREVIATIONS,
        *SEASONS,
        *PARTS_OF_DAY,
        *HOLIDAY_WORDS,
        *UNIT_WORDS,
        *("today", "tonight", "yesterday", "tomorrow", "ago", "recently", "lately"),
        # every word a pattern is gated on (a pattern with no word gate needs a digit)
        *(word for needs, _, _ in _PATTERNS if needs is not None for word in needs),
    )
)
_LATER_WORDS = frozenset({"later", "after", "afterwards", "next", "following"})
_WORD = re.compile(r"[a-z]+")
_DIGIT = re.compile(r"\d")


def find_times(
    text: str,
    reference: datetime,
    *,
    prefer_future: bool = False,
    after: tuple[datetime, datetime] | None = None,
    date_order: DateOrder | None = None,
) -> list[TimeMention]:
    """Every time expression in ``text``, in order, resolved against ``reference``.

    Overlapping readings keep the one that starts first, then the longest ("on 7 May
    2023" wins over "May 2023"). ``prefer_future`` resolves the year-less and bare-weekday
    forms forwards instead of backwards (the caller knows the tense). ``after`` is the
    period of the event the conversation told of just before ("two days later" counts
    from it). ``date_order`` reads numeric dates ("3/4/2024"), which are otherwise left
    alone (they read differently in the US and elsewhere).
    """
    words = frozenset(_WORD.findall(text.lower()))
    digit = _DIGIT.search(text) is not None
    if not digit and _TIME_WORDS.isdisjoint(words):
        return []
    ref = to_utc(reference)
    found: list[tuple[int, int, TimeMention]] = []
    for needs, pattern, handler in _COMPILED[date_order]:
        if not digit if needs is None else needs.isdisjoint(words):
            continue
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
                relative=handler in _RELATIVE,
            )
            found.append((m.start(), -(m.end() - m.start()), mention))
    found.sort(key=lambda item: (item[0], item[1]))
    kept: list[TimeMention] = []
    for _, _, mention in found:
        if kept and mention.span[0] < kept[-1].span[1]:
            continue
        kept.append(mention)
    kept = [spans.open_since(text, k, ref) for k in _count_from_dates(text, kept)]
    kept = spans.join_ranges(text, kept)
    if "every" in words or "each" in words:
        kept = spans.habits(text, kept)
    if not _LATER_WORDS.isdisjoint(words):
        kept = spans.told_after(text, ref, after, kept)
    if "for" not in words:
        return kept
    return _merge(kept, spans.durations(text, ref, prefer_future, after, kept))


def _merge(kept: list[TimeMention], spans_: list[TimeMention]) -> list[TimeMention]:
    """``kept`` with the durations, each replacing the dates it runs from."""
    out = [
        k
        for k in kept
        if not any(d.span[0] <= k.span[0] and k.span[1] <= d.span[1] for d in spans_)
    ]
    return sorted(out + spans_, key=lambda k: k.span)
