"""Relative time expressions, resolved against when they were said: days ("yesterday",
"the day after tomorrow", "this morning"), weekdays ("last Friday", "on Tuesday"),
units ("next week", "the month before last", "early next month", "the past 3 weeks"),
seasons and their parts ("last summer", "in early spring") and counts back and ahead
("two years ago", "in 3 weeks", "a year and a half ago", "in 2 hours"), "recently", the
weekend, counted weekdays ("two Saturdays ago", "Friday after next") and days of a
relative month ("the 5th of last month"); "March of last year" is a
date with its year said (:mod:`.dates`).

``PATTERNS`` holds each form with the words it needs and its resolver, ``RELATIVE`` the
resolvers whose answer is counted from the reference time; :mod:`cognimem.text.temporal`
runs them with the absolute dates' patterns."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from cognimem.text import calendar as cal
from cognimem.text import dates
from cognimem.text.calendar import NUMBER, UNIT
from cognimem.text.mention import RECENT, Handler, Resolved, Rule
from cognimem.text.told import runs_up_to_now

# ----------------------------------------------------------------- handlers


# the days said from today ("the night before last": the day before yesterday's)
_DAY_OFFSETS = dict.fromkeys(("day before yesterday", "night before last"), -2)
_DAY_OFFSETS |= dict.fromkeys(("day after tomorrow", "day after next"), 2)
_DAY_OFFSETS |= {"yesterday": -1, "tomorrow": 1}
_DAY_OFFSETS |= dict.fromkeys(("today", "earlier today", "later today", "now", "right now"), 0)
# the parts of a day said from today ("tomorrow morning", "last night"): (days, part)
_DAY_PARTS = {
    f"{word} {part}": (shift, part)
    for word, shift in (("this", 0), ("yesterday", -1), ("tomorrow", 1))
    for part in cal.PARTS_OF_DAY
}
_DAY_PARTS |= {"tonight": (0, "night"), "last night": (-1, "night")}
# ("now" only as the whole text)
_SAID_DAYS = cal.alt(w for w in (*_DAY_OFFSETS, *_DAY_PARTS) if w != "now").replace(" ", r"\s+")


def _relative_day(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    words = " ".join(m.group(0).lower().split()).removeprefix("the ")
    if words in _DAY_OFFSETS:
        return cal.day_window(ref.date() + timedelta(days=_DAY_OFFSETS[words]))
    shift, part = _DAY_PARTS[words]
    day, (first, last) = ref.date() + timedelta(days=shift), cal.PARTS_OF_DAY[part]
    return cal.utc_at(day, first), cal.utc_at(day, last), "part_of_day", False


def _relative_unit(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """``last week``, ``this coming weekend``; ``the week before last`` (``last week but
    one``): two units back, ``the weekend after next`` (``next year but one``): two
    ahead ("a week before last Friday" counts from last Friday)."""
    which = " ".join((m.group(1) or m.group(5)).lower().split())
    unit = (m.group(2) or m.group(4)).lower().replace("-", "")
    if which.endswith("coming"):  # the next one to begin: this week's weekend until it has
        step = 0 if unit == "weekend" and ref.weekday() < 5 else 1
        return cal.unit_window(ref.date(), unit, step)
    step = cal.STEP.get(which) or cal.STEP[which.split()[-1]]
    found = cal.unit_window(ref.date(), unit, step * 2 if m.group(3) else step)
    tomorrow = cal.utc_at(ref.date() + timedelta(days=1))
    if which == "all" and found[0] < tomorrow and runs_up_to_now(m.string, m.start()):
        return found[0], min(found[1], tomorrow), found[2], False  # "it's been raining all week"
    return found


def _part_of_unit(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """``the end of the year``, ``the beginning of next month``, ``the end of 2012``,
    ``the beginning of January``, ``early next month``, ``mid next week``: that part of
    the unit, approximately."""
    part, which, unit = (m.group(1) or "").lower(), (m.group(2) or "").lower(), m.group(3).lower()
    part = {"earlier": "early", "later": "late"}.get(part, part)  # "earlier last month"
    part = dates.PART_WORDS.get(part, part or "middle")  # "midweek": the middle of this week
    if part.endswith("half"):  # "the first half", "the latter half"
        part = "first" if part.startswith(("first", "1st")) else "second"
    if unit.isdigit():
        first, unit = date(int(unit), 1, 1), "year"
    elif unit in ("week", "month", "year"):
        step = cal.STEP[which]
        first = cal.unit_window(ref.date(), unit, step)[0].date()
    elif unit in cal.SEASONS:  # "the end of summer": its last month
        months = {"beginning": 0, "start": 0, "middle": 1, "end": 2}.get(part)
        if months is None:  # "the first half of summer"
            return None
        start = cal.add_months(_season(which, cal.SEASONS[unit], ref, future)[0].date(), months)
        return (*cal.month_range(start.year, start.month), "season", True)
    else:
        month = cal.month_name(unit)
        year = cal.said_year(m.group(4), ref) or dates.year_of_month(which, month, ref, future)
        first, unit = date(year, month, 1), "month"
    start, end = cal.part_of(unit, first, part)
    return cal.utc_at(start), cal.utc_at(end), unit, True


def _past_span(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """``the last two weeks``, ``past 3 days``: the whole units before the reference's
    (days before its day, ISO weeks before its week, ...); ``the past week`` (no count)
    or in a clause in the perfect ("I've been ill for the past two weeks"): from that
    far back up to the end of the reference's day. ``in recent weeks``: as ``the past
    few weeks``."""
    count = m.group(1) or ("a few" if m.group(2) else None)
    n, approximate = cal.number_of(count) if count else (1, False)
    if m.group(4):  # "the past year and a half": in months, up to the day said
        n, unit, _ = cal.count_of(count or "1", cal.unit_name(m.group(3)), "half")
        return _back_to_today(ref, unit, n, approximate)
    if not count or runs_up_to_now(m.string, m.start(), m.end()):
        return _back_to_today(ref, m.group(3), n, approximate)
    unit = cal.unit_name(m.group(3))
    end = cal.unit_window(ref.date(), unit, 0)[0] if unit != "day" else cal.utc_at(ref.date())
    start, _ = cal.move(end.date(), unit, -n)
    return cal.utc_at(start), end, unit, approximate


def _back_to_today(
    ref: datetime, unit: str, n: int, approximate: bool
) -> tuple[datetime, datetime, str, bool]:
    today = ref.date()
    start, _ = cal.move(today, unit, -n)
    end = today + timedelta(days=1)
    return cal.utc_at(start), cal.utc_at(end), cal.unit_name(unit), approximate


_SHORT_WEEKDAY = cal.alt(cal.WEEKDAY_ABBREVIATIONS)


def _relative_weekday(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    which, weekday = " ".join(m.group(1).lower().split()), cal.weekday_of(m.group(2))
    if which != "next" and dates.is_word_not_weekday(m.group(2)):  # "I last sat there"
        return None
    today = ref.date()
    which = "next" if which.endswith("coming") else which  # "this coming / upcoming Friday"
    if which == "this":
        return cal.day_window(cal.week_start(today) + timedelta(days=weekday))
    further = timedelta(weeks=1 if m.group(3) else 0)  # "last Sunday but one"
    if which == "next":
        return cal.day_window(cal.weekday_after(today, weekday) + further)
    return cal.day_window(cal.weekday_before(today, weekday) - further)


def _bare_weekday(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """ "on Friday", a weekday's abbreviation that is the whole text ("sun"), or one
    after "on" / "by" / "until" / "since" or ending a clause ("see you Thurs!"; "sat",
    "sun" and "wed" only capitalised there); not a weekday that names a recurring thing
    ("the Sunday market", :func:`.dates.names_a_thing`)."""
    short = m.group(3) or m.group(4)
    if short and dates.is_word_not_weekday(short) and not m.group(0).lower().startswith("since"):
        return None  # "I sat.", "on sun loungers" (not "since sat")
    if m.group(1) and dates.names_a_thing(m.string, m.start(1), m.end(1)):
        return None
    weekday = cal.weekday_of(m.group(1) or m.group(2) or short)
    return cal.day_window(
        (cal.weekday_after if future else cal.weekday_before)(ref.date(), weekday)
    )


def _been_since(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "it's been two years since (I quit)", "three weeks old" (not "33 years old"): the
    span from that far back up to the day said, as "I haven't smoked in two years" (what
    it dates starts then and holds)."""
    n, approximate = cal.number_of(m.group(2) or m.group(4))
    return _back_to_today(ref, m.group(3) or m.group(5), n, approximate or m.group(1) is not None)


def _count(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "two weeks ago" (``back``; ``about``, ``almost``, ``or so``: approximate), "in
    two weeks", "two weeks from now" (``hence``): the day that many units back or ahead;
    "(I haven't smoked) in three years", in a clause in the perfect: the span up to the
    day said. "in 2 hours", "an hour ago": the day they reach. "half a year ago", "a year
    and a half ago", "in two and a half weeks": that many halves of the unit, in the
    smaller unit, approximate."""
    suffix = (m.group(6) or "").lower()
    # "moved in a month ago": "in" is the verb's, not a count ahead (a hedge or "another"
    # between them: "in just over a week", "in another month")
    ahead = m.group(1) is not None and suffix not in ("ago", "back")
    if ahead == bool(suffix) and not suffix.endswith("now"):  # "two weeks": a length
        return None
    unit = cal.unit_name(m.group(4) or m.group(5))
    n, approximate = cal.number_of(m.group(3) or "1")
    hedged = (m.group(2) or "exactly").lower() not in ("exactly", "precisely")
    approximate = approximate or hedged or " or " in m.group(0).lower()
    sign = -1 if suffix in ("ago", "back") else 1
    half = "half" in m.group(0).lower()
    if unit in ("hour", "minute", "min"):
        hours = unit == "hour"
        moment = ref + sign * timedelta(**{"hours" if hours else "minutes": n})
        return cal.day_window(moment.date(), "hour" if hours else "minute", approximate)
    unit = "day" if unit == "night" else unit
    if half:
        count, smaller, _ = cal.count_of(m.group(3), unit, "half")
        return cal.day_window(cal.move(ref.date(), smaller, sign * count)[0], unit, True)
    if unit == "weekend":  # "three weekends ago": the Saturday and Sunday of that one
        first = cal.unit_after(ref.date(), unit, sign)[0]  # the last, or the coming one
        return (*cal.unit_after(first.date(), unit, sign * (n - 1)), approximate)
    if ahead and not suffix and runs_up_to_now(m.string, m.start()):
        return _back_to_today(ref, unit, n, approximate)
    return cal.day_window(cal.move(ref.date(), unit, sign * n)[0], unit, approximate)


def _relative_season(m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """``last summer``, ``this winter``, ``next spring``, ``the summer``
    (:func:`_season`); ``in early spring``, ``mid-winter``, ``late summer``: its first,
    middle or last month, approximate."""
    found = _season((m.group(1) or "").lower(), cal.SEASONS[m.group(3).lower()], ref, future)
    if m.group(2):
        month = cal.add_months(found[0].date(), ("early", "mid", "late").index(m.group(2).lower()))
        return (*cal.month_range(month.year, month.month), "season", True)
    return (*found, "season", False)


def _season(which: str, season: int, ref: datetime, future: bool) -> tuple[datetime, datetime]:
    """The season ``which`` ("last", "this", "next", "") names: with no word, the latest
    that has begun (looking ahead: the earliest that has not ended); "this" one not under
    way: this year's, or in the past tense the last one while the season after it is
    under way ("this winter has been mild", said in March)."""
    today = ref.date()
    ahead = cal.season_from(season, today, 0)  # under way, or the next to begin
    under_way = ahead[0] <= cal.utc_at(today)
    back = which == "last" or "past" in which or not (which or future or under_way)
    if which in ("this", "current"):
        last = cal.season_from(season, today, -1)
        just_over = (
            not (future or under_way) and cal.utc_at(cal.add_months(last[1].date(), 3)) > ref
        )
        return last if just_over else ahead if under_way else cal.month_range(today.year, season, 3)
    return cal.season_from(season, today, -1 if back else 1 if which else 0)


def _past_seasons(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the last two summers": the latest that many that have ended, first to last."""
    n, approximate = cal.number_of(m.group(1))
    season = cal.SEASONS[m.group(2).lower()]
    start, end = cal.season_from(season, ref.date(), -1)
    first = cal.month_range(start.year - n + 1, season, 3)[0]
    return first, end, "season", approximate


def _earlier_later(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "earlier this week": from the week's start up to the end of the day said;
    "later this month", "later in the year", "later in the summer": from the next day to
    the month's (the season's) end;
    approximate; "the rest of the week": from the day said to its end."""
    unit = m.group(3).lower()
    season = _season("this", cal.SEASONS[unit], ref, False) if unit in cal.SEASONS else None
    first, end, unit = (*season, "season") if season else cal.unit_window(ref.date(), unit, 0)[:3]
    tomorrow = cal.utc_at(ref.date() + timedelta(days=1))
    if m.group(2):
        return cal.utc_at(ref.date()), end, unit, False
    if m.group(1).lower() == "earlier":
        return first, min(tomorrow, end), unit, True
    return (tomorrow, end, unit, True) if tomorrow < end else None


def _this_time(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "this time last year", "around this time next month", "same time next week":
    the day one unit back or ahead, approximate."""
    step, unit = -1 if m.group(1).lower() == "last" else 1, m.group(2).lower()
    return cal.day_window(cal.move(ref.date(), unit, step)[0], unit, True)


def _ahead_span(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the next six weeks", "next few days", "the coming 3 days": from the day after
    the reference (months and years: from the next calendar one); "within two weeks":
    from the day said ("within the next fortnight": one); "in the coming days / weeks /
    months": the next few (three),
    from the day said, approximate."""
    today, count = ref.date(), m.group(1) or m.group(3)
    n, approximate = cal.number_of(count) if count else (1, False) if m.group(4) else (3, True)
    unit = cal.unit_name(m.group(2) or m.group(4) or m.group(5))
    start = today
    if m.group(1):
        whole = unit in ("month", "year")
        start = cal.unit_window(today, unit, 1)[0].date() if whole else today + timedelta(days=1)
    return cal.utc_at(start), cal.utc_at(cal.move(start, unit, n)[0]), unit, approximate


# "recently" / "lately": this many days up to the day said
RECENT_DAYS = 30


def _recently(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """The :data:`RECENT_DAYS` before the day said; "the other day": the week before;
    "the other week": the week before that."""
    said, today = m.group(0).lower(), ref.date()
    days = 7 if said.startswith("the") else RECENT_DAYS
    end = today - timedelta(days=7 if said.endswith("week") else 0)
    return cal.utc_at(end - timedelta(days=days)), cal.utc_at(end), RECENT, True


def _the_weekend(_m: re.Match[str], ref: datetime, future: bool) -> Resolved:
    """The weekend under way, else the last one (looking ahead: the coming one)."""
    today = ref.date()
    step = -1 if today.weekday() < 5 and not future else 0
    return (*cal.unit_after(today, "weekend", step), False)


def _counted_weekday(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "Friday after next" (the British "Friday week"; "a week on Friday" is a count
    from a day, :mod:`.temporal`): a week after
    next Friday; "Tuesday before last": a week before last Tuesday; "two Saturdays ago"
    (``back``): the Saturday before last, "3 Fridays from now": the third Friday after
    the day said; "March after next" ("before last"): a year after next March (before
    last March); "the summer before last", "two summers ago": the one before the last to
    have ended."""
    word, today = (m.group(1) or m.group(3) or m.group(5)).lower(), ref.date()
    back = (m.group(2) or m.group(6) or "").lower().startswith(("before", "ago", "back"))
    n, approximate = cal.number_of(m.group(4)) if m.group(4) else (2, False)
    years = (1 - n) if back else n - 1  # (weeks, for a weekday)
    if word in cal.WEEKDAYS:
        first = (cal.weekday_before if back else cal.weekday_after)(today, cal.WEEKDAYS[word])
        return cal.day_window(first + timedelta(weeks=years), approximate=approximate)
    if word in cal.SEASONS:
        start = cal.season_from(cal.SEASONS[word], today, -1 if back else 1)[0]
        return (*cal.month_range(start.year + years, start.month, 3), "season", approximate)
    month = cal.month_name(word)
    year = dates.year_of_month("last" if back else "next", month, ref, not back)
    return dates.whole_or_part("month", date(year + years, month, 1), "")


def _day_of_relative_month(m: re.Match[str], ref: datetime, _future: bool) -> Resolved:
    """ "the 20th of last month", "the first of next month": that day of the previous
    (this, next) month."""
    first = cal.month_of(ref.date(), cal.STEP[m.group(2).lower()])
    try:
        return cal.day_window(first.replace(day=cal.ordinal(m.group(1))))
    except ValueError:
        return None


_SEASONS = frozenset(cal.SEASONS)
# a hedge before a count: "just over a week ago", "in under a month", "some ten days ago"
_HEDGE = (
    r"about|around|almost|nearly|roughly|some|exactly|precisely|close\s+to|a\s+good|"
    r"getting\s+on\s+for|upwards\s+of|(?:(?:just|a\s+little|a\s+bit|well)\s+)?(?:over|under)|"
    r"(?:just\s+|a\s+little\s+|a\s+bit\s+)?(?:more|less)\s+than"
)
# the units of an age that dates a start ("three weeks old"; "33 years old" is who one is)
_YOUNG = "(?:day|week|fortnight|month)"
_CLOCK_UNITS = frozenset({"hour", "hours", "hr", "hrs", "minute", "minutes", "mins"})
PATTERNS: tuple[Rule, ...] = (
    (
        frozenset({"since", "old"}),
        rf"\b(?:(?:it'?s|it\s+has|it\s+had|it'd)\s+been\s+(?:(about|almost|nearly|over)\s+)?"
        rf"({NUMBER})\s+({UNIT})\s+since|(an?|{NUMBER}(?=\s+{_YOUNG}s))\s+({_YOUNG})s?\s+old)\b",
        _been_since,
    ),
    (
        frozenset({"earlier", "later", "rest"}),
        r"\b(?:(earlier|later)(?:\s+on)?\s+(?:this|in\s+the)|(?:the\s+)?(rest)\s+of\s+(?:the|this))\s+"
        rf"(week|month|year|{dates.SEASON})\b",
        _earlier_later,
    ),
    (
        frozenset({"time", "day"}),
        r"\b(?:(?:this|the\s+same|same)\s+time|(?:on\s+)?this\s+day)\s+(last|next)\s+"
        r"(week|month|year)\b",
        _this_time,
    ),
    (
        cal.UNIT_WORDS,
        rf"\b(?:(?:the\s+)?(?:next|upcoming|coming|following)\s+({NUMBER})\s+({UNIT})|within\s+"
        rf"(?:the\s+next\s+)?({NUMBER}\s+)?({UNIT})|the\s+coming\s+(days|weeks|months))\b",
        _ahead_span,
    ),
    (
        frozenset({"today", "tonight", "yesterday", "tomorrow", "now", "day", *cal.PARTS_OF_DAY}),
        rf"\b(?:(?:the\s+)?(?:{_SAID_DAYS})|^\s*now(?=\s*[.!?]?\s*$))\b",
        _relative_day,
    ),
    (
        cal.WEEKDAY_WORDS | frozenset(cal.WEEKDAY_ABBREVIATIONS),
        rf"\b(last|this\s+past|previous|this\s+coming|(?:the\s+)?(?:up)?coming|this|next)\s+"
        rf"({dates.WEEKDAY_ANY})(?!\w)(\s+but\s+one\b)?",
        _relative_weekday,
    ),
    (
        cal.WEEKDAY_WORDS | frozenset(cal.WEEKDAY_ABBREVIATIONS),
        rf"\b(?:on\s+)?({dates.WEEKDAY})\b(?!'s|(?:\s*(?:,|and|or|&)\s*{dates.WEEKDAY})*\s+(?:{cal.PART_OF_DAY})s\b)|"
        rf"^\s*(?:on\s+)?({dates.WEEKDAY_ANY})\s*[.!?]?\s*$|"
        # an abbreviation after "on" / "by" / "until", or ending a clause ("call you Wed.")
        rf"\b(?:on|by|until|till|since)\s+({_SHORT_WEEKDAY})\b|"
        rf"(?<=[a-z]\s)({_SHORT_WEEKDAY})\b(?=\.?\s*(?:[.!?,;]|$))",
        _bare_weekday,
    ),
    (
        cal.UNIT_WORDS,
        r"\b(?:(this\s+past|the\s+past(?=\s+week-?end)|(?:this|the)\s+(?:up)?coming|(?:up)?"
        r"coming|last|previous|this|next|all)\s+(week-?end|week|month|quarter|year|decade)"
        r"(\s+but\s+one)?|(?:the\s+)?(week-?end|week|month|year)\s+(before\s+last|after\s+next)"
        rf"(?!\s+(?:{dates.WEEKDAY}|{dates.MONTH}|{dates.SEASON}|week|month|year)))\b",
        _relative_unit,
    ),
    (
        frozenset({"end", "beginning", "start", "middle", "half"}),
        r"\b(?:at\s+)?(?:the\s+)?(?:back\s+)?(end|beginning|start|middle|"
        r"(?:first|1st|second|2nd|latter)\s+half)\s+of\s+(?:the\s+)?"
        rf"(?:(this|last|next|previous|following)\s+)?(week|month|year|{dates.SEASON}|{dates.MONTH}|"
        r"(?:19|20)\d{2})"
        rf"(?:,?\s+(?:of\s+)?{cal.SAID_YEAR})?",
        _part_of_unit,
    ),
    (
        frozenset({"early", "mid", "late", "midweek", "earlier", "later"}),
        r"\b(?:(early|mid|late|(?:earlier|later)(?=\s+(?:last|next)))[\s-]+(this|last|next)\s+|"
        r"mid-?(?=week))(week|month|year)\b()",
        _part_of_unit,
    ),
    (
        cal.UNIT_WORDS,
        rf"\b(?:the\s+)?(?:(?:past|last|previous)\s+({NUMBER})|past|(?:in\s+)?(recent)"
        rf"(?=\s+{cal.UNIT_PLURAL}\b))\s+({UNIT})\b(\s+and\s+a\s+half\b)?(?!\s+of\b)",
        _past_span,
    ),
    (
        _SEASONS,
        rf"\b(?:(this\s+past|last|this|next|current)|(?:in|over|during|for|since|throughout)(?:\s+the)?|"
        rf"all(?:\s+(?:of\s+)?the)?)\s+(?:(early|mid|late)[\s-]+)?({dates.SEASON})\b"
        r"(?!\s+(?:of\b|['’]?\d|(?:last|this|next)\s+year|before\s+last|after\s+next))",
        _relative_season,
    ),
    # a season that is the whole text ("Summer.") is read as after "in"
    (_SEASONS, rf"^\s*()(?:the\s+)?()({dates.SEASON})\s*[.!?]?\s*$", _relative_season),
    (
        frozenset(f"{season}s" for season in cal.SEASONS),
        rf"\b(?:the\s+)?(?:last|past)\s+({NUMBER})\s+({dates.SEASON})s\b",
        _past_seasons,
    ),
    (
        cal.UNIT_WORDS | _CLOCK_UNITS | {"half", "ago", "back"},
        rf"\b(?:(in)\s+)?(?:another\s+)?(?:({_HEDGE})\s+)?(?:(?:({NUMBER})\s+|(?<=another\s))"
        rf"(?:and\s+a\s+half\s+)?(?:(?:good|solid|whole|full)\s+)?"
        rf"({UNIT}|weekends?|nights?|hours?|hrs?|minutes?|mins)"
        rf"(?:\s+and\s+a\s+half)?|"
        rf"half\s+an?\s+({UNIT}))(?:\s+or\s+(?:so|two|three))?"
        r"(?:\s+(ago|back|from\s+(?:now|today)|hence))?\b",
        _count,
    ),
    (
        frozenset({"month"}),
        rf"\b(?:on\s+)?(?:the\s+)?{dates.DAY}\s+(?:of\s+)?(?:the\s+)?"
        r"(previous|last|this|next|following)\s+month\b",
        _day_of_relative_month,
    ),
    (
        frozenset({"recently", "lately", "late", "long", "other"}),
        r"\b(?:recently|lately|the\s+other\s+(?:day|night|week)|of\s+late(?=\s*(?:[.,;!?]|$))|"
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
        cal.WEEKDAY_WORDS | cal.MONTH_WORDS | _SEASONS | {"ago", "back", "now", "hence"},
        rf"\b(?:(?:the\s+)?({dates.WEEKDAY}|{dates.MONTH}|{dates.SEASON})\s+(after\s+next|before\s+last)|"
        rf"(?:on\s+)?({dates.WEEKDAY})\s+week(?!-?end|s)|"
        rf"({NUMBER})\s+({dates.WEEKDAY}|{dates.SEASON})s\s+(ago|back|from\s+now|hence))\b",
        _counted_weekday,
    ),
)
# all are counted from the reference
RELATIVE: frozenset[Handler] = frozenset(h for _, _, h in PATTERNS)
