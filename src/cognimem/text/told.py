"""Spans and times told from another event: durations ("I've had them for three years",
"we were there for ten days" after "I got back yesterday", "it took me three years",
"I finished the course last week after six months") and times counted from an event
told before ("two days later", "the next day", "a week after that", "three weeks into
the job", "shortly after the wedding", "the third day of the trip"); then "since 2019" as
an open interval, the times of a habit (no date) and two dates joined into a range. The
conventions are listed in ``docs/time.md``; :mod:`.temporal` runs these passes after its
patterns.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, timedelta

from cognimem.text import calendar as cal
from cognimem.text.calendar import NUMBER, UNIT
from cognimem.text.dates import SEASON, WEEKDAY, names_a_thing
from cognimem.text.holidays import HOLIDAY_NAMES, holiday_days
from cognimem.text.mention import TimeMention

# ----------------------------------------------------------------- durations

# words between a count and its unit: "nine consecutive days", "a whole month"
_FILLER = r"(?:consecutive|straight|solid|whole|full|long)"
# "about three years", "a year and a half", "half a year", "ten days before that",
# "(for the first) week"
_AMOUNT = (
    r"(?:(about|around|roughly|almost|nearly|over|more\s+than|less\s+than|(?:just|a\s+little|"
    r"a\s+bit)\s+(?:over|under|more\s+than|less\s+than)|close\s+to|at\s+least|a\s+good|like)\s+)?"
    rf"(?:(?:({NUMBER})(?:\s+and\s+a\s+half)?(?:\s+{_FILLER})?\s+|(?<=the\sfirst\s))({UNIT})"
    rf"(\s+and\s+a\s+half)?|(half)\s+an?\s+({UNIT}))"
    r"(?:\s+(now|before\s+that|after\s+that))?\b"
)
_DURATION = re.compile(
    r"\b(for|(?:it\s+)?took(?:\s+(?:me|us|him|her|them|you))?|spent|after|going\s+on)\s+"
    r"(the\s+first\s+)?" + _AMOUNT,
    re.IGNORECASE,
)
# with no word before it, a span ends its clause: "I've had my cat eight years."
_BARE = re.compile(rf"\b()(){_AMOUNT}(?=\s*(?:[.,;!?]|$))", re.IGNORECASE)
# (a cheap test first: a unit that ends a clause)
_UNIT_ENDS = re.compile(rf"{UNIT}(?:\s+now)?\s*(?:[.,;!?]|$)", re.IGNORECASE)
# the clause before a duration says it runs up to now: "I've had", "has been", "been"
# ("have" after a modal or "to" is not the perfect: "we'll have the party in a week")
_PERFECT = re.compile(
    r"(?<!'ll\s)(?<!will\s)(?<!\bto\s)(?<!\bwould\s)(?<!\bcan\s)(?<!\bmust\s)"
    r"\b(?:ha(?:ve|s)(?:n'?t)?|'ve|been)\b",
    re.IGNORECASE,
)
# ... or up to the event told before: "we had lived", "we'd been"
_PAST_PERFECT = re.compile(r"\bhad\b|'d\s+(?:been|\w+ed)\b", re.IGNORECASE)
# between a date and "after N units" in one clause: "finished it last week after a year"
_CLAUSE_BREAK = re.compile(r"[.;!?]|\b(?:and|but|then|so)\b", re.IGNORECASE)
_CLAUSE_START = re.compile(r"[.;!?]|,\s*(?:but|and|so)\b", re.IGNORECASE)
# "After a week, she was walking again": a count that opens a clause, from the event
_OPENS = re.compile(r"(?:^|[.;!?,])\s*$")
# a date a duration runs from: "for 10 days from 18th Dec", "18th Dec for 10 days"; a
# day told from today only after "from" and when it is still ahead ("for ten days from
# next Monday"): "for a week last month" says when, not where the week starts
_RUNS_FROM = re.compile(r"^\s*,?\s*(?:from\s+|starting\s+)?$", re.IGNORECASE)
_RUNS_FROM_SAID = re.compile(r"^\s*,?\s*(?:from|starting)\s+$", re.IGNORECASE)


def durations(
    text: str,
    ref: datetime,
    future: bool,
    after: tuple[datetime, datetime] | None,
    kept: list[TimeMention],
    ended: bool = False,
) -> list[TimeMention]:
    """The spans "for N units" dates in ``text``: from a date beside it ("for 10 days
    from 18 Dec": through ten days after it), up to the day said when the clause is in
    the perfect ("we've lived here for twelve years") or looks back without an event told
    before; else from the event told before (``after``): ending at it when "before that"
    follows, the clause is in the past perfect ("we had lived there for seven years")
    or that event ended the span (``ended``: "I got back yesterday" … "we were there
    for ten days"), starting at it otherwise ("he was in hospital for four days" after
    "he had a fall on 5 November"). "It took me three years", "we spent two weeks
    there" are read the same way, only after an event (ending at it for "took");
    "after six months" ends at a date of its clause ("I finished the course last week
    after six months"). A duration ahead with no date ("I'll be away for a week") names
    no period."""
    out: list[TimeMention] = []
    taken = [k.span for k in kept] + [h.span() for h in _HABIT.finditer(text)]
    for m in _said_spans(text):
        if any(lo < m.end() and m.start() < hi for lo, hi in taken):
            continue  # told as a date, or a habit's count ("every three months")
        word = _word(m)
        if m.re is _BARE and not runs_up_to_now(text, m.start()):
            continue  # "eight years" alone: a span only in the perfect
        bare = (m.group(1) or "").lower() == "took"
        if word in ("too", "spe") and (bare or _date_ending(text, m, kept) is not None):
            continue  # "I took 3 days off", "we spent a week there last May": no span
        # "a year and a half", "half a year": in months
        n, unit, approximate = cal.count_of(
            m.group(4), cal.unit_name(m.group(5) or m.group(8)), m.group(0)
        )
        approximate = approximate or m.group(3) is not None
        beside = _date_beside(text, m, kept, ref) if word == "for" else None
        span = (m.start(), m.end())
        if word == "aft":  # "after six months", ending at a date of its clause
            beside = _date_ending(text, m, kept)
            period = None if beside is None else _back(beside.start, unit, n)
            if beside is None and after is not None and _OPENS.search(text, 0, m.start()):
                day = cal.move(after[0].date(), unit, n)[0]
                period = cal.day_window(day)[:2]  # "After a week,"
        elif beside is not None:
            span = (min(span[0], beside.span[0]), max(span[1], beside.span[1]))
            period = beside.start, cal.utc_at(cal.move(beside.end.date(), unit, n)[0])
        else:
            period = _up_to_or_from(text, m, (unit, n), ref, future, after, ended)
        if period is None:
            continue
        anchor = None if beside is None else (beside.start, beside.end)
        resolved = (*period, unit, approximate)
        out.append(TimeMention.at(text, span, resolved, relative=False, anchor=anchor))
    return out


def _said_spans(text: str) -> list[re.Match[str]]:
    """The spans of ``text`` in order: after "for", "took", "spent", "after", "going
    on", or with no word before them in a text in the perfect or saying "now"."""
    found = list(_DURATION.finditer(text))
    if _UNIT_ENDS.search(text) and (" now" in text.lower() or _PERFECT.search(text)):
        found += [b for b in _BARE.finditer(text) if not any(_overlaps(b, m) for m in found)]
    return sorted(found, key=lambda m: m.start())


def _word(m: re.Match[str]) -> str:
    """What introduces a :data:`_DURATION`: "for", "too" (took), "spe" (spent), "aft"."""
    said = (m.group(1) or "for").lower()
    return "too" if "took" in said else said[:3]


def _back(end: datetime, unit: str, n: int) -> tuple[datetime, datetime]:
    """The ``n`` ``unit`` up to ``end``."""
    return cal.utc_at(cal.move(end.date(), unit, -n)[0]), end


def _up_to_or_from(
    text: str,
    m: re.Match[str],
    length: tuple[str, int],
    ref: datetime,
    future: bool,
    after: tuple[datetime, datetime] | None,
    ended: bool,
) -> tuple[datetime, datetime] | None:
    """A duration with no date beside it: up to the day said, or up to or from the
    event told before (:func:`durations`)."""
    word, tail = _word(m), (m.group(9) or "").lower()
    first = bool(m.group(2))  # "for the first three days": of the event told before
    clause = _CLAUSE_START.split(text[: m.start()])[-1]
    past_perfect = after is not None and _PAST_PERFECT.search(clause) is not None
    up_to_now = runs_up_to_now(text, m.start()) or (word == "for" and after is None and not future)
    if not first and (tail == "now" or (up_to_now and not past_perfect)):
        return _back(cal.utc_at(ref.date()), *length)
    if after is None:
        return None
    if not first and (tail == "before that" or ended or past_perfect or word == "too"):
        return _back(after[0], *length)
    return after[0], cal.utc_at(cal.move(after[0].date(), length[0], length[1])[0])


def runs_up_to_now(text: str, at: int, end: int | None = None) -> bool:
    """Whether the clause before ``at`` is in the perfect ("I've had", "has been"): a
    span told there runs up to the moment said. With ``end`` (where the span ends), the
    rest of its clause may say so ("Over the last two years I've moved twice")."""
    if _PERFECT.search(_CLAUSE_START.split(text[:at])[-1]) is not None:
        return True
    return end is not None and _PERFECT.search(_CLAUSE_START.split(text[end:])[0]) is not None


def _date_ending(text: str, m: re.Match[str], kept: list[TimeMention]) -> TimeMention | None:
    """The date in the clause of "after N units" ("last week after six months")."""
    for k in kept:
        lo, hi = (k.span[1], m.start()) if k.span[1] <= m.start() else (m.end(), k.span[0])
        if lo <= hi and not _CLAUSE_BREAK.search(text[lo:hi]):
            return k
    return None


def _date_beside(
    text: str, m: re.Match[str], kept: list[TimeMention], ref: datetime
) -> TimeMention | None:
    for k in [k for k in kept if not k.relative or k.start > ref]:
        runs_from = _RUNS_FROM_SAID if k.relative else _RUNS_FROM
        if k.span[1] <= m.start() and runs_from.match(text[k.span[1] : m.start()]):
            return k
        if k.span[0] >= m.end() and runs_from.match(text[m.end() : k.span[0]]):
            return k
    return None


# ----------------------------------------------------------------- told after an event

# "the third day of the trip": the stays and courses a day is counted in
_NTH = "|".join(list(cal.DAY_ORDINALS)[:7])
_STAYS = "trip holiday vacation visit stay course job tour camp honeymoon festival cruise"
_PART_UNITS = rf"day|{cal.PART_OF_DAY}|week-?end|week|month|year"
# "that summer", "the following spring": a season counted from the event told before
_TOLD_UNITS = rf"{_PART_UNITS}|{SEASON}"
# "the night we arrived", "the week they were here": the time of the event told before
_WHEN_TOLD = rf"the(?=\s+(?:{_PART_UNITS})\s+(?:i|we|he|she|they)\s)"
# "since then", "since the surgery,", "(ever) since we moved,", "since she was born": from
# the event told before, as is "ever since" ending a clause ("since I was 12", "since
# high school" name no time here)
_SINCE = (
    r"ever\s+since(?=\s*(?:[,.;!?]|$))|"
    r"(?:ever\s+)?since\s+(?:then|(?:the\s+[a-z]+|(?:i|we|he|she|they)\s+(?:[a-z]+ed|"
    r"(?:was|were)\s+born|left|met|got\s+[a-z]+))(?=\s*(?:[,.;!?]|$)))"
)
_LATER = re.compile(
    rf"\b(?:(?P<n>{NUMBER}|half\s+an?)(?:\s+and\s+a\s+half)?\s+(?P<n_unit>{UNIT}|week-?ends?|nights?|hours?|hrs?|"
    r"minutes?|mins?)(?P<half>\s+and\s+a\s+half)?(?P<or>\s+or\s+(?:two|three|so))?"
    r"(?:\s+to\s+the\s+day)?\s+"
    r"(?P<n_word>later|after(?:\s+that)?|afterwards|into|(?:in|on)(?=\s*(?:[,.;!?]|$))|"
    r"earlier|before(?:\s+that)?|prior)|(?P<soon>(?:shortly|soon)\s+after(?:wards)?)|the\s+"
    rf"(?P<nth>{_NTH})\s+(?P<nth_unit>day|night)\s+of\s+(?:the|our|my|his|her|their)\s+"
    rf"(?:{_STAYS.replace(' ', '|')})|the\s+(?P<word>next|following|previous|preceding)\s+"
    rf"(?P<unit>{_TOLD_UNITS}|{HOLIDAY_NAMES})|(?:the\s+)?(?P<unit_b>{_TOLD_UNITS})\s+"
    rf"(?P<word_b>after|before)(?!\s+(?:tomorrow|next|yesterday|last)\b)|(?P<that>that|the\s+same|"
    rf"{_WHEN_TOLD})"
    rf"\s+(?:same\s+|very\s+)?(?P<unit_c>{_TOLD_UNITS}|time)|(?P<since>{_SINCE})|(?:the\s+"
    rf"(?P<day_word>following|next)\s+|that\s+|on\s+the\s+|the\s+)(?P<weekday>{WEEKDAY})"
    r"(?:\s+(?P<day_after>after|before)(?:\s+that)?)?)\b",
    re.IGNORECASE,
)
# "the end of that week": a part of the unit told (:func:`.calendar.part_of`)
# ... and "later that month", "earlier that year": the part after or before the event
_PART_OF = re.compile(
    r"\b(?:(?:the\s+)?(beginning|start|middle|end)\s+of|(later|earlier))\s+$", re.IGNORECASE
)


def told_after(
    text: str, ref: datetime, after: tuple[datetime, datetime] | None, kept: list[TimeMention]
) -> list[TimeMention]:
    """``kept`` with the times told from an earlier event added: "two days later", "a
    week after that", "three days after the move", "the next day", "the following
    week", "the day before", "that evening", "the following Tuesday", "since then",
    "three weeks into the job", "shortly after the wedding", "the third day of the
    trip", "the night we arrived", "a day or two after" (approximate), "the end of that
    week" (its last part). Each counts from the time told just before it in ``text``,
    else from ``after`` (the event the previous turns told of); "the next/following
    day/week" with neither counts from the reference, and the others with neither name
    no date."""
    out: list[TimeMention] = []
    rest = list(kept)
    for m in _LATER.finditer(text):
        inside = [k for k in kept if k.span[0] < m.end() and m.start() < k.span[1]]
        counted = m.group("weekday") or m.group("unit")
        if inside and not (counted and all(_within(k, m) for k in inside)):
            continue  # "the next Tuesday", "the next spring" replace "next ..."; dates stay
        if m.group("n") and any(_overlaps(d, m) for d in _DURATION.finditer(text)):
            continue  # "for twenty years before that": a duration (:func:`durations`)
        if m.group("weekday") and names_a_thing(text, m.start("weekday"), m.end("weekday")):
            continue  # "this morning the Saturday market ...": a recurring thing
        while rest and rest[0].span[1] <= m.start():
            out.append(rest.pop(0))
        anchor = (out[-1].start, out[-1].end) if out else after
        ahead = m.group("word") in ("next", "following") if m.group("word") else False
        if anchor is None and not (ahead or (m.group("unit_b") or "").lower() == "day"):
            continue  # "two days later", "that day", "the Sunday": from no event
        if anchor is None and m.group("word_b") and m.group("word_b").lower() == "before":
            continue
        start, end, granularity, approximate = _from_event(m, anchor or (ref, ref), ref)
        rest = [k for k in rest if k not in inside]
        lo, part = m.start(), _PART_OF.search(text, 0, m.start())
        if part is not None and part.group(2) and anchor is not None:
            later = part.group(2).lower() == "later"
            if start < (anchor[1] if later else anchor[0]) < end:
                start, end = (anchor[1], end) if later else (start, anchor[0])
                lo, approximate = part.start(), True
        elif part is not None and granularity in ("week", "month", "year"):
            first, last = cal.part_of(granularity, start.date(), part.group(1).lower())
            lo, start, end, approximate = part.start(), cal.utc_at(first), cal.utc_at(last), True
        resolved = (start, end, granularity, approximate)
        out.append(
            TimeMention.at(text, (lo, m.end()), resolved, relative=anchor is None, anchor=anchor)
        )
    return sorted(out + rest, key=lambda k: k.span)


def _overlaps(a: re.Match[str], b: re.Match[str]) -> bool:
    return a.start() < b.end() and b.start() < a.end()


def _within(k: TimeMention, m: re.Match[str]) -> bool:
    """Whether ``k`` is a time counted from the reference inside ``m`` ("next year" in
    "the next year")."""
    return k.relative and m.start() <= k.span[0] and k.span[1] <= m.end()


def _from_event(
    m: re.Match[str], anchor: tuple[datetime, datetime], ref: datetime
) -> tuple[datetime, datetime, str, bool]:
    """The period a :data:`_LATER` match names, counted from ``anchor``: from its first
    day; "N units later" from an anchor no longer than a unit ("six months after the
    move", moved in August 2022): the anchor moved by N units (February 2023)."""
    first, last = anchor[0].date(), (anchor[1] - timedelta(microseconds=1)).date()
    if m.group("n"):
        return _counted(m, anchor)
    if m.group("soon"):  # "shortly after": the week after it, approximate
        start = last + timedelta(days=1)
        return cal.utc_at(start), cal.utc_at(start + timedelta(weeks=1)), "day", True
    if m.group("nth"):
        return cal.day_window(first + timedelta(days=cal.ordinal(m.group("nth")) - 1))
    if m.group("since"):
        return cal.utc_at(first), cal.utc_at(ref.date() + timedelta(days=1)), "day", False
    if m.group("weekday"):
        weekday = cal.WEEKDAYS[m.group("weekday").lower()]
        word = (m.group("day_word") or m.group("day_after") or "").lower()
        if word == "before":
            return cal.day_window(cal.weekday_before(first, weekday))
        ahead = (weekday - first.weekday()) % 7 or (7 if word else 0)
        return cal.day_window(first + timedelta(days=ahead))
    word = m.group("word") or m.group("word_b") or m.group("that")
    unit = (m.group("unit") or m.group("unit_b") or m.group("unit_c")).lower()
    if unit == "time":  # "around the same time": the event's own period
        days = (last - first).days
        return *anchor, "day" if days < 1 else "month" if days < 32 else "year", True
    step = cal.STEP[" ".join(word.lower().split())]
    if unit in cal.SEASONS:
        return (*cal.season_from(cal.SEASONS[unit], first, step), "season", False)
    if m.group("unit") and not re.fullmatch(_PART_UNITS, unit):
        return _named_from(m.group("unit"), first if step < 0 else last, step)
    return (*cal.unit_after(first, unit.replace("-", ""), step), False)


def _named_from(name: str, day: date, step: int) -> tuple[datetime, datetime, str, bool]:
    """The holiday ``name`` first after ``day`` (``step`` 1: "the following
    Christmas") or last before it (-1: "the previous Easter"); a holiday the table does
    not know for those years: ``day``, approximate."""
    years = range(day.year - 1, day.year + 3)
    found = [(cal.utc_at(a), cal.utc_at(b)) for y in years for a, b in holiday_days(name, y)]
    at = cal.utc_at(day)
    found = [p for p in found if p[0] > at] if step > 0 else [p for p in found if p[1] <= at][::-1]
    if not found:
        return cal.day_window(day, approximate=True)
    start, end = found[0]
    return start, end, "day" if end - start <= timedelta(days=1) else "month", False


def _counted(
    m: re.Match[str], anchor: tuple[datetime, datetime]
) -> tuple[datetime, datetime, str, bool]:
    """ "two days later", "half a year after that", "two months in": the day that far
    from the anchor's first day; from an anchor no longer than the unit, the anchor
    moved by that much (:func:`_from_event`)."""
    first, last = anchor[0].date(), (anchor[1] - timedelta(microseconds=1)).date()
    said = cal.unit_name(m.group("n_unit"))
    # "half a year later", "two and a half years on": in months
    n, unit, approximate = cal.count_of(m.group("n"), said, m.group(0))
    approximate = approximate or m.group("or") is not None  # "a day or two later"
    if said in ("hour", "minute"):  # "ten minutes later": the event's day
        return cal.day_window(first, approximate=approximate)
    if said.replace("-", "") == "weekend":  # "two weekends later": the event's own not one
        later = m.group("n_word").lower().startswith(("later", "after", "in", "on"))
        saturday = cal.weekday_after(last, 5) if later else cal.weekday_before(first, 5)
        saturday += timedelta(weeks=(n - 1) * (1 if later else -1))
        return cal.utc_at(saturday), cal.utc_at(saturday + timedelta(days=2)), "weekend", False
    later = m.group("n_word").lower().startswith(("later", "after", "in", "on"))
    n = n if later else -n
    if first < last and cal.utc_at(cal.move(first, unit, 1)[0]) >= anchor[1]:
        end = anchor[1].date()
        moved = cal.utc_at(cal.move(first, unit, n)[0]), cal.utc_at(cal.move(end, unit, n)[0])
        return (*moved, unit, approximate)
    return cal.day_window(cal.move(first, unit, n)[0], approximate=approximate)


# ----------------------------------------------------------------- since, habits, ranges


def open_since(text: str, mention: TimeMention, ref: datetime) -> TimeMention:
    """``mention`` after "since" runs on up to the end of the day said ("since 2019",
    said in June 2024: 2019-01-01 up to that day's end; "since the start of the year",
    said in February: up to that day's end too); a start after that day stays."""
    before = text[: mention.span[0]].rstrip().lower().removesuffix(" the")  # "since the new year"
    if not (mention.text.lower().startswith("since") or before.endswith("since")):
        return mention
    day_end = cal.utc_at(ref.date() + timedelta(days=1))
    if mention.start >= day_end:
        return mention
    return replace(mention, end=day_end)


_HABIT = re.compile(
    rf"\b(?:(?:every|each)\s+(?:other\s+|single\s+|second\s+|first\s+|last\s+)?(?:{WEEKDAY}"
    rf"(?:\s*(?:,|and|or|&)\s*{WEEKDAY})*(?:\s+(?:{cal.PART_OF_DAY}))?|"
    rf"week-?end|(?:{cal.NUMBER}\s+)?{cal.UNIT}|{cal.PART_OF_DAY}|{'|'.join(cal.SEASONS)})|"
    r"weekly|daily|monthly|yearly|annually|nightly)\b",
    re.IGNORECASE,
)
# "on Sundays", "we always / usually / used to": a habit too, told with no time to date
_HABIT_TOLD = re.compile(rf"\bon\s+{WEEKDAY}s\b|\b(?:always|usually|used\s+to)\b", re.IGNORECASE)


def tells_a_habit(text: str) -> bool:
    """Whether ``text`` tells of a habit ("every summer we went to the farm", "on
    Sundays we always went to church"), which is no event of one time."""
    return _HABIT.search(text) is not None or _HABIT_TOLD.search(text) is not None


# a date just after a habit ("every year in June", "weekly on Tuesday") or just before
# one ("on the 1st of each month", "the first weekend of December every year") is a
# habit's too
_AFTER_HABIT = re.compile(r"\s*(?:in|on|at|during)?\s*$", re.IGNORECASE)
_BEFORE_HABIT = re.compile(r"\s*(?:of\s+)?", re.IGNORECASE)
# "usually", "always", "tend to": the times after them in their clause are a habit's, and
# a time that opens the clause before its subject ("On Boxing Day we always go"), unless
# told from today or with a year ("we usually go in May, but last May ...")
_USUALLY = re.compile(
    r"\b(?:usually|normally|generally|typically|tends?\s+to|tended\s+to|"
    r"(?<!ve\s)(?<!has\s)(?<!had\s)always)\b",  # "I've always wanted to ... in May": no habit
    re.IGNORECASE,
)
_SAME_CLAUSE = re.compile(r"[^,;.!?]*?(?<!\bbut)", re.IGNORECASE)
_OPENS_CLAUSE = re.compile(r"(?:^|[,;.!?:]\s*)(?:(?:on|at|in|over|during)\s+)?$", re.IGNORECASE)
_SUBJECT = re.compile(r",?\s+(?:(?!(?:and|but|or|so|when|if)\b)[\w']+\s+){1,2}", re.IGNORECASE)
_DATED = re.compile(
    r"\b(?:this|last|next|coming|past|ago|today|tonight|yesterday|tomorrow|\d{4})\b",
    re.IGNORECASE,
)


def told_from_today(said: str) -> bool:
    """Whether the time expression ``said`` is dated from today or by a year ("this
    Sunday", "next month", "tonight", "Christmas this year", "May 2023"), not a day or a
    month that comes round again ("on Sunday", "in August", "at Christmas")."""
    return _DATED.search(said) is not None


HABIT_WORDS = frozenset({"every", "each", "weekly", "daily", "monthly", "yearly", "annually"})
HABIT_WORDS |= {"nightly", "usually", "normally", "generally", "typically", "tend", "tends"}
HABIT_WORDS |= {"tended", "always"}


def habits(text: str, kept: list[TimeMention]) -> list[TimeMention]:
    """``kept`` without the times inside a habit ("every Monday and Wednesday", "each
    summer", "every year in June", "on the 1st of each month"): a habit has no date."""
    found = [m.span() for m in _HABIT.finditer(text)]
    usual = [m.span() for m in _USUALLY.finditer(text)]
    out = []
    for k in kept:
        if any(lo < k.span[1] and k.span[0] < hi for lo, hi in found):
            continue
        if not told_from_today(k.text) and any(
            (hi <= k.span[0] and _SAME_CLAUSE.fullmatch(text, hi, k.span[0]))
            or (
                _SUBJECT.fullmatch(text, k.span[1], lo) and _OPENS_CLAUSE.search(text, 0, k.span[0])
            )
            for lo, hi in usual
        ):
            continue  # "we usually skip it at the weekend", "On Sundays we always ...": no date
        # a span "since" after a habit is the span it holds ("every week since May")
        if not k.text.lower().startswith("since") and any(
            hi <= k.span[0] and _AFTER_HABIT.fullmatch(text, hi, k.span[0]) for _, hi in found
        ):
            continue
        if any(_BEFORE_HABIT.fullmatch(text, k.span[1], lo) for lo, _ in found):
            continue
        out.append(k)
    return out


_BETWEEN = re.compile(rf"^\s*(?=(and)?){cal.RANGE_TO}\s*$", re.IGNORECASE)
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
