"""Time expressions in chat text, resolved against when the message was written.

Every expression resolves against ``reference`` (a message's ``occurred_at``), never
against the wall clock, so re-reading an old conversation gives the same answer. The
result is a half-open interval ``[start, end)`` in UTC with a ``granularity``. Calendar
dates are read by :mod:`.dates` (holidays: :mod:`.holidays`; quarters, decades:
:mod:`.periods`), the times counted from the reference by :mod:`.relative`, spans and
times told from another event by :mod:`.told`; this module assembles them all. The
conventions, chosen so that every expression has one reading, are listed in
``docs/time.md``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from cognimem.models.clock import to_utc
from cognimem.text import calendar as cal
from cognimem.text import dates, numeric_dates, periods, relative, told
from cognimem.text.dates import WEEKDAY, DateOrder
from cognimem.text.mention import DIGIT_OR, Handler, Resolved, Rule, TimeMention

__all__ = ["DateOrder", "TimeMention", "find_times"]

_PATTERNS: tuple[Rule, ...] = (*dates.PATTERNS, *periods.PATTERNS, *relative.PATTERNS)
_RELATIVE: frozenset[Handler] = relative.RELATIVE
_COMPILED = {
    order: tuple(
        (needs or DIGIT_OR, re.compile(pattern, re.IGNORECASE), handler)
        for needs, pattern, handler in (
            *_PATTERNS,
            *(numeric_dates.numeric_patterns(order) if order else ()),
        )
    )
    for order in (None, "month_first", "day_first")
}
# "the week before" / "two days after" / "the Sunday before" / "last weekend before" /
# "a week from" / "a week ago", just ahead of a date
_BEFORE_AFTER = re.compile(
    rf"(?<!for\s)(?<!for\sa\s)(?<!every\s)\b(?:(?:the|last)\s+)?(?:({cal.NUMBER})\s+({cal.UNIT})|(day|week|weekend|month|year)|"
    rf"({WEEKDAY}))(?:\s+(before|after|prior\s+to|from|ago|(?<=week\s)of|(?<=weekend\s)of))?"
    r"(?:(?<=ago)\s+(?:at|in|on))?\s+$",
    re.IGNORECASE,
)


# units from the shortest: a count moves a period told from today only if as long
_RANKS = ("day", "weekend", "week", "fortnight", "month", "quarter", "season", "year", "decade")


def _connective(m: re.Match[str], mention: TimeMention, ref: datetime) -> str | None:
    """The word that joins a count to the date it counts from. The British "a week on
    Friday", "two weeks tomorrow", "a week last Friday" say none: a count from a day
    told from today runs on away from today (ahead only after "on")."""
    if m.group(5) or not (m.group(1) and mention.relative and mention.granularity == "day"):
        return m.group(5) and m.group(5).lower()
    past, rest = mention.start < cal.utc_at(ref.date()), m.string[mention.span[1] :].lower()
    # "two years on Friday since Dad died" is that Friday; "I worked two days on Saturday"
    if rest.lstrip().startswith("since") or (past and mention.text[:3].lower() == "on "):
        return None
    return "ago" if past else "from"


def _counted_from(m: re.Match[str], word: str, anchor: TimeMention, ref: datetime) -> Resolved:
    """The period ``m`` ("the week before", "two days after", "the weekend of") names
    from ``anchor``; ``word`` joins them."""
    before = word not in ("after", "from")
    first, last = anchor.start.date(), (anchor.end - timedelta(microseconds=1)).date()
    if word == "of":  # the week, or its Saturday and Sunday, of the date
        return (*cal.unit_after(first, m.group(3).lower(), 0), False)
    if m.group(1):  # "a week from Friday", "three days after Easter": the day
        n, approximate = cal.number_of(m.group(1))
        day = cal.move(first if before else last, m.group(2), -n if before else n)[0]
        if word == "ago" and anchor.granularity.startswith("week"):
            # "a year ago this week": the week of the day a year before today
            day = cal.move(min(max(ref.date(), first), last), m.group(2), -n)[0]
            return (*cal.unit_window(day, anchor.granularity, 0)[:3], approximate)
        if anchor.relative and anchor.granularity != "day":  # "this summer", "next month"
            step = -n if before else n
            start, end = (cal.move(x, m.group(2), step)[0] for x in (first, last + timedelta(1)))
            return cal.utc_at(start), cal.utc_at(end), anchor.granularity, approximate
        return cal.day_window(day, approximate=approximate)
    if m.group(4):
        weekday = cal.WEEKDAYS[m.group(4).lower()]
        return cal.day_window(
            cal.weekday_before(first, weekday) if before else cal.weekday_after(last, weekday)
        )
    unit = m.group(3).lower()
    if unit == "weekend":  # the one that ends by the anchor's first day, or after its last
        return (*cal.unit_after(first if before else last, unit, -1 if before else 1), False)
    edge = first if before else last + timedelta(days=1)  # one unit up to it, or from it
    start, end = sorted((edge, cal.move(edge, unit, -1 if before else 1)[0]))
    return cal.utc_at(start), cal.utc_at(end), unit, False


def _counted_year(
    m: re.Match[str], word: str, mention: TimeMention, ref: datetime, future: bool
) -> TimeMention:
    """``mention`` (a date a count starts from) read again so that the count, not the
    date, falls on the side of ``ref`` the tense says: "a year after Christmas", said
    in February looking ahead, is the coming Christmas, counted from the last one.
    After "ago" the date is the one nearest the day counted back: "two years ago in
    June" is the June of two years ago, "a year ago last Christmas" the Christmas before
    last (the caller counts no further)."""
    if mention.relative:
        return mention
    n = cal.number_of(m.group(1))[0] if m.group(1) else 1
    unit = m.group(2) or m.group(3) or "day"
    sign = 1 if word in ("after", "from", "ago") else -1
    moved = cal.utc_at(cal.move(ref.date(), "week" if unit == "weekend" else unit, -sign * n)[0])
    moved += ref - cal.utc_at(ref.date())
    ways = (future, not future) if word == "ago" else (future,)
    readings = [find_times(mention.text, moved, prefer_future=way) for way in ways]
    whole = [r[0] for r in readings if len(r) == 1 and r[0].span == (0, len(mention.text))]
    if not whole:
        return mention
    again = min(whole, key=lambda r: abs(r.start - moved))
    return replace(mention, start=again.start, end=again.end)


def _moves_period(m: re.Match[str], word: str, mention: TimeMention) -> bool:
    """Whether ``m`` counts from ``mention``, a period told from today: "a year ago this
    week", "a year from next month", "the day before last weekend" move it; a count
    shorter than the period does not ("a week from next month" is next month). ("two
    days after tomorrow", "a week from Friday": a day told from today is counted from.)"""
    if word == "ago":
        return True
    if word not in ("from", "after", "before"):
        return False
    if not m.group(1):
        return m.group(3) is not None
    size = mention.granularity if mention.granularity in _RANKS else "day"
    return _RANKS.index(cal.unit_name(m.group(2))) >= _RANKS.index(size)


def _count_from_dates(
    text: str, kept: list[TimeMention], ref: datetime, future: bool
) -> list[TimeMention]:
    """Each date that a "the week before" / "two days after" counts from, replaced by
    the period counted from it (with the date as its ``anchor``)."""
    out: list[TimeMention] = []
    for mention in kept:
        # "last weekend before 10 April": the count may start with a relative mention
        lo = out[-1].span[0 if out[-1].relative else 1] if out else 0
        m = _BEFORE_AFTER.search(text, lo, mention.span[0])
        word = m and _connective(m, mention, ref)
        if m and word and mention.relative and mention.granularity != "day":
            word = word if _moves_period(m, word, mention) else None
        if m is not None and word and not m.group(4) and word != "of":
            mention = _counted_year(m, word, mention, ref, future)
        resolved = None if m is None or not word else _counted_from(m, word, mention, ref)
        if resolved is not None and word == "ago" and not mention.relative:
            resolved = mention.start, mention.end, mention.granularity, False  # read back
        if m is None or resolved is None:
            out.append(mention)
            continue
        if out and m.start() < out[-1].span[1]:
            out.pop()
        span = (m.start(), mention.span[1])
        anchor = (mention.start, mention.end)
        out.append(TimeMention.at(text, span, resolved, relative=mention.relative, anchor=anchor))
    return out


# a time told inside a period beside it: "last year in March", "next month on the 3rd",
# "last week's Sunday" (the period first), "on Friday next week", "Wednesday of next
# week" (the period last)
_PERIOD = re.compile(
    r"(?:this|last|next|previous|this\s+past|(?:this\s+)?coming)\s+(?:week-?end|week|month|year)",
    re.IGNORECASE,
)
_PART = re.compile(rf"(?:on\s+)?{WEEKDAY}", re.IGNORECASE)
_PERIOD_FIRST = re.compile(r"^(?:'s)?\s*,?\s*(?:(?:in|on|at|around|during)\s+)?$", re.IGNORECASE)
_PERIOD_LAST = re.compile(r"^\s*,?\s*(?:(?:of|from)\s+)?(?:the\s+)?$", re.IGNORECASE)


def _inside_periods(text: str, kept: list[TimeMention]) -> list[TimeMention]:
    """``kept`` with each time told beside a period told from today ("next week", "last
    year") read inside that period, as one mention."""
    out: list[TimeMention] = []
    for mention in kept:
        prev = out[-1] if out else None
        between = text[prev.span[1] : mention.span[0]] if prev else ""
        pair = None
        if prev and _is_pair(prev, mention) and _PERIOD_FIRST.match(between):
            pair = prev, mention
        elif prev and _is_pair(mention, prev) and _PERIOD_LAST.match(between):
            pair = mention, prev
        inside = pair and _read_inside(*pair)
        if prev is None or not inside:
            out.append(mention)
            continue
        span = (prev.span[0], mention.span[1])
        out[-1] = TimeMention.at(text, span, inside, relative=True)
    return out


def _is_pair(period: TimeMention, part: TimeMention) -> bool:
    """Whether ``period`` is a unit told from today and ``part`` a date or a weekday."""
    told = _PART.fullmatch(part.text) is not None or not part.relative
    return told and _PERIOD.fullmatch(period.text) is not None


def _read_inside(period: TimeMention, part: TimeMention) -> Resolved | None:
    """``part`` read forwards from the day before ``period`` starts, if what it names
    lies inside ``period``."""
    eve = period.start - timedelta(hours=12)
    again = find_times(part.text, eve, prefer_future=True)
    if len(again) != 1 or not (period.start <= again[0].start and again[0].end <= period.end):
        return None
    return again[0].start, again[0].end, again[0].granularity, again[0].approximate


# chat spellings, read as the words they stand for ("see u nxt wk", "2moro", "3wks ago")
_CHAT = dict.fromkeys(("tmrw", "tmr", "tmrow", "2moro", "2morrow", "tomoz"), "tomorrow")
_CHAT |= dict.fromkeys(("yday", "ystdy"), "yesterday") | {"2day": "today", "nxt": "next"}
_CHAT |= dict.fromkeys(("tonite", "2nite", "2night"), "tonight") | {"lst": "last"}
_CHAT |= dict.fromkeys(("wknd", "wkend", "wkd"), "weekend") | {"fortnite": "fortnight"}
_CHAT |= {"wk": "week", "wks": "weeks", "mth": "month", "mths": "months", "yr": "year"}
_CHAT |= {"yrs": "years"}
# ... and a count written against its unit ("2days", "3wks"): a space after the digit
_GLUED = r"\d(?=(?:day|week|wk|month|mth|year|yr)s?\b)"
_CHAT_WORDS = re.compile(rf"\b(?:{cal.alt(_CHAT)})\b|{_GLUED}", re.IGNORECASE)
# (a cheap test first: the letters of a spelling, or a unit a digit may be glued to)
_CHAT_HINTS = frozenset("".join(filter(str.isalpha, word)) for word in _CHAT)
_CHAT_HINTS |= {
    f"{unit}{s}" for unit in ("day", "week", "wk", "month", "mth", "year", "yr") for s in ("", "s")
}


def _spelled_out(text: str) -> tuple[str, list[int]] | None:
    """``text`` with its chat spellings written out, and for each of its characters
    (and its end) the position in ``text`` it comes from; None when it has none."""
    if _CHAT_WORDS.search(text) is None:
        return None
    out, where, last = [], [], 0
    for m in _CHAT_WORDS.finditer(text):
        said = m.group(0)
        word = _CHAT.get(said.lower(), said + " ")  # (a digit glued to its unit)
        out += [text[last : m.start()], word]
        where += [
            *range(last, m.start()),
            *[m.start()] * min(len(said), len(word)),
            *[m.end()] * (len(word) - len(said)),
        ]
        last = m.end()
    out.append(text[last:])
    where += [*range(last, len(text) + 1)]
    return "".join(out), where


# cheap pre-check: a text with no digit and none of these words has no time expression:
# every word a pattern is gated on (a pattern with no word gate needs a digit; the gates
# hold every month, weekday, season, part of a day, unit and holiday word), and the words
# of "shortly / soon after" an event, which the passes after the patterns read
_TIME_WORDS = frozenset(
    {"shortly", "soon"} | {word for needs, _, _ in _PATTERNS if needs is not None for word in needs}
)
_WORD = re.compile(r"[a-z]+")
_DIGIT = re.compile(r"\d")


def find_times(
    text: str,
    reference: datetime,
    *,
    prefer_future: bool = False,
    after: tuple[datetime, datetime] | None = None,
    date_order: DateOrder | None = None,
    ended: bool = False,
) -> list[TimeMention]:
    """Every time expression in ``text``, in order, resolved against ``reference``.

    Overlapping readings keep the one that starts first, then the longest ("on 7 May
    2023" wins over "May 2023"). ``prefer_future`` resolves the year-less and bare-weekday
    forms forwards instead of backwards (the caller knows the tense). ``after`` is the
    period of the event the conversation told of just before ("two days later" counts
    from it); ``ended``: that event ended a span told after it ("I got back yesterday"
    … "we were there for ten days": the ten days up to it). ``date_order`` reads
    numeric dates ("3/4/2024"), which are otherwise left alone (they read differently
    in the US and elsewhere). A reading that comes out empty names no time: "since then"
    said before the time the previous turn told of ([June, 10 May)) is left out.
    """
    words = frozenset(_WORD.findall(text.lower()))
    spelled = None if _CHAT_HINTS.isdisjoint(words) else _spelled_out(text)
    said, where = spelled or (text, [])
    if spelled:
        words = frozenset(_WORD.findall(said.lower()))
    found = _find(said, words, reference, prefer_future, after, date_order, ended)
    if spelled:  # each mention's words as written
        found = [
            replace(m, span=span, text=text[slice(*span)])
            for m in found
            for span in [(where[m.span[0]], where[m.span[1]])]
        ]
    return [m for m in found if m.start < m.end]


def _find(
    text: str,
    words: frozenset[str],
    reference: datetime,
    prefer_future: bool,
    after: tuple[datetime, datetime] | None,
    date_order: DateOrder | None,
    ended: bool,
) -> list[TimeMention]:
    """:func:`find_times` before empty readings are left out."""
    if _DIGIT.search(text) is not None:
        words |= DIGIT_OR
    elif _TIME_WORDS.isdisjoint(words):
        return []
    ref = to_utc(reference)
    kept = _inside_periods(text, _read(text, words, ref, prefer_future, date_order))
    kept = [
        told.open_since(text, k, ref) for k in _count_from_dates(text, kept, ref, prefer_future)
    ]
    kept = told.join_ranges(text, kept)
    if not told.HABIT_WORDS.isdisjoint(words):
        kept = told.habits(text, kept)
    kept = told.told_after(text, ref, after, kept)
    if cal.UNIT_WORDS.isdisjoint(words):  # a span counts units
        return kept
    return _merge(kept, told.durations(text, ref, prefer_future, after, kept, ended))


def _read(
    text: str,
    words: frozenset[str],
    ref: datetime,
    future: bool,
    date_order: DateOrder | None,
) -> list[TimeMention]:
    """What the patterns read in ``text``; of overlapping readings the one that starts
    first, then the longest."""
    found: list[tuple[int, int, TimeMention]] = []
    for needs, pattern, handler in _COMPILED[date_order]:
        if needs.isdisjoint(words):
            continue
        for m in pattern.finditer(text):
            resolved = handler(m, ref, future)
            if resolved is None:
                continue
            mention = TimeMention.at(text, m.span(), resolved, relative=handler in _RELATIVE)
            found.append((m.start(), -(m.end() - m.start()), mention))
    found.sort(key=lambda item: (item[0], item[1]))
    kept: list[TimeMention] = []
    for _, _, mention in found:
        if kept and mention.span[0] < kept[-1].span[1]:
            continue
        kept.append(mention)
    return kept


def _merge(kept: list[TimeMention], spans_: list[TimeMention]) -> list[TimeMention]:
    """``kept`` with the durations, each replacing the dates it runs from."""
    out = [
        k
        for k in kept
        if not any(d.span[0] <= k.span[0] and k.span[1] <= d.span[1] for d in spans_)
    ]
    return sorted(out + spans_, key=lambda k: k.span)
