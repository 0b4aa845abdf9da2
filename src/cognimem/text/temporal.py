"""Time expressions in chat text, resolved against when the message was written.

Every expression resolves against ``reference`` (a message's ``occurred_at``), never
against the wall clock, so re-reading an old conversation gives the same answer. The
result is a half-open interval ``[start, end)`` in UTC with a ``granularity``. Calendar
dates are read by :mod:`.dates` (holidays: :mod:`.holidays`; quarters, decades:
:mod:`.periods`), the times counted from the reference by :mod:`.relative`, spans and
times told from another event by :mod:`.told`; this module assembles them all.
Conventions, chosen so that every expression has one reading:

- Calendar arithmetic runs in UTC. Weeks are ISO weeks, Monday to Sunday; a weekend is
  the Saturday and Sunday of a week; seasons are meteorological, northern hemisphere.
- ``today`` / ``yesterday`` / ``tomorrow``: that whole day. Parts of a day: morning
  06-12h, afternoon 12-18h, evening and night 18-24h (``last night``: the day before's).
- ``last`` / ``this`` / ``next`` (``this past``, ``previous``) + week, weekend, month,
  year: the previous, current or following calendar unit; ``the coming`` /
  ``upcoming`` one is the next (``this coming weekend``: this week's until Saturday),
  ``the past weekend`` the last. ``the week before last`` / ``the weekend after
  next``: two units back or ahead. ``the beginning / middle / end of`` a week,
  month or year: its first, middle or last part (:func:`.calendar.part_of`), approximate;
  ``the first / second (latter) half of`` one: days 1-15 and 16-end, January-June and
  July-December.
- ``next Friday``: the first Friday strictly after the reference date; ``last Friday``
  the latest strictly before; ``this Friday`` the Friday of the reference's week. A bare
  ``Friday`` / ``on Friday``: the latest one before, or the first after when the caller
  says the sentence looks ahead (``prefer_future``); ``on Fridays`` (a habit) is ignored.
  ``two Saturdays ago``, ``Friday after next``, ``Wednesday of next week`` (``next week
  Wednesday``): as said; ``last Friday but one``: the Friday before last Friday.
  Abbreviations (``Thu``, ``tues``) are read beside a day number, after last / this /
  next / on / by / until, or ending a clause ("see you Thurs!"); lower-case ``sat``,
  ``sun``, ``wed`` are words
  but after next (``next sat``). Chat spellings of the days (``tmrw``, ``yday``,
  ``2nite``) are the days; ``the day after next`` is the day after tomorrow.
- ``N days/weeks/months/years ago`` (``back``), ``in N units``, ``N units from now``
  (``from today``, ``hence``): the day N units back or ahead; ``a few`` / ``several``
  count as 3 and ``a couple (of)`` as 2, approximate, as are ``about`` / ``almost``;
  a unit may be written short, as in chat (``2 wks``, ``3 mos``, ``5 yrs``, ``3 hrs``);
  counts in words run to ninety-nine (``forty-two``, ``twenty five``), with ``a dozen``
  and ``a hundred``.
  ``half a year ago``, ``a year and a half ago``, ``in two and a half weeks``: that many
  halves of the unit, approximate. ``in 2 hours``, ``an hour ago``: the day they reach.
- ``the past/last N units``: the N whole units before the reference's (days before
  its day, ISO weeks before its week, calendar months, years); in a clause in the
  perfect ("I've been ill for the past two weeks") and without a count ("the past
  week"): from that far back to the end of the reference's day; ``in recent weeks``:
  as ``the past few weeks`` (three, approximate). ``the next N units``:
  from the next day (months, years: the next calendar one); ``within N units``: from
  the day said; ``the coming days / weeks``: three of them, approximate. ``earlier
  this week``: from its start to the end of the day said; ``later this month``: from
  the next day to its end; ``this time last year``: the day a year back; all
  approximate.
- Dates without a year: the latest that has begun (looking ahead: the earliest that has
  not ended); ``early / mid / late May``: days 1-10, 11-20, 21-end, approximate;
  ``early spring``, ``mid-winter``, ``late summer``: the season's first, middle or last
  month, approximate. ``couple years ago`` counts as ``a couple``. A month's
  abbreviation after a preposition or last / this / next (``in Feb.``, ``since Aug``)
  is read as the month (not ``Jan``, a name as often), as is a month a plan is set for
  (``planned / booked / scheduled for June``; ``for June`` alone is not), ahead whatever
  the tense when the plan is in the present (``is planned for June``). Numeric dates
  (``3/4/2024``, ``3.4.2024``; :func:`.numeric_dates.numeric_patterns`) are read only
  when the caller gives ``date_order``; ``2024/04/03``, ``2024.04.03`` everywhere. A
  year in digits that opens a sentence before ``was`` or ends a clause after it or a
  hedge (``2019 was rough``, ``it was 1998,``, ``like 2019.``, ``in like 2012``), or
  qualifies a noun after a determiner (``the 2020 trip``; not a plural: ``the 2000
  people``) is that year; ``15-Mar-2024``
  a date. A month (or its abbreviation), a year, a day
  (``the 3rd``), a season or a weekday abbreviation that is the whole text is read as
  one (a day in words alone only as a compound: ``twenty-second``, not ``second``);
  ``on the twenty-first`` (a day as a word) only before the end of its clause; ``back in
  '19``, ``the spring of '21``: the latest such year not ten years ahead. ``late March
  2019``: its days 21 to the end, approximate. ``the last two summers``: the latest two
  that have ended. ``between March 3 and 5``, ``the 10th through the 14th`` (no month:
  both in the month the first is read in): the range (``and`` joins days only after
  ``between``). ``the whole of May``, ``all of May``: that month.
  A day may be an ordinal word (``the third of March``; a word day before its month
  needs ``of``). ``the 5th of last month``: that day of that month
  (``the 1st of the month`` is a habit's as often: no date). A year said after a
  date, a month, a season or a holiday (``March 3rd, '94``, ``the 3rd of March last
  year``, ``the spring of last year``, ``Easter '19``) is its year. ``May 3-7``, ``from
  May to July``: the first day or month to the end of the last. ``Q3 2023``, ``the third
  quarter`` (no year: as a date without one); ``the 90s``, ``the nineties`` (``in my
  20s`` is an age: a two-digit or word decade needs ``the`` or an apostrophe);
  ``the early / mid / late 90s``: its first, middle or last four years; ``early /
  mid / late 2019``: its first quarter, May-August, September-December; ``from 2015
  until 2018``, ``2010-2014``: the first year to the end of the last. Holidays of
  lunar calendars come from a table of their dates (:mod:`.holidays`).
- ``for N units``: a span, dated by :func:`.told.durations` (after an event told before:
  from it, or up to it when that event ended the span — "I got back yesterday" … "we
  were there for ten days" — or the clause is in the past perfect; ``it took me three
  years``: up to it; ``I finished it last week after six months``: up to the date of
  its clause); with no ``for`` ("we've lived here a decade now", "I've had my cat eight
  years.", "going on five years"): a count that ends a clause in the perfect or comes
  before "now", up to the day said; ``since X`` (``since spring``): from X up to
  the end of the day said; ``recently`` / ``lately`` / ``not long ago``: the 30 days
  before the day said, approximate (``the other day``: the 7 days before); ``the
  weekend`` (``your weekend``): the one under way or the last one (ahead: the coming).
- ``the week/day before`` or ``after`` a date, ``the Friday before`` it: counted from
  that date; ``the weekend of`` (``the week of``) a date: the Saturday and Sunday of its week (that
  week); ``the morning of the 5th``: the 5th; ``N units
  before/after/from`` it: the day that far (a date without a year is the one that puts
  that day on the side the tense says: "a year after Christmas", said in February
  looking ahead, counts from the last Christmas); kept as the mention's ``anchor``.
  ``two days later``, ``a week after that``, ``three days after the move``, ``the next
  day``, ``the day before``, ``that evening``, ``the same week``, ``that summer`` (the
  season under way or the next to begin; ``the following`` / ``next spring``: the next
  to begin after it), ``two months in,`` / ``five years on,`` (before a comma or the
  end), ``half a year later``, ``the following Tuesday``, ``that Saturday`` (the first
  on or after it), ``the next year`` / ``the following Christmas`` / ``the previous
  March`` (the first after it, the last before), ``around the same time`` (the event's
  own period), ``ten minutes later`` (its day), ``After a week,`` (a count that opens a
  clause), ``since then`` / ``since the surgery,`` / ``since we moved,``, ``three
  weeks into the job``, ``shortly after the wedding`` (the week after it,
  approximate), ``the third day of the trip``, ``the morning after``, ``the night we
  arrived`` (the event's), ``a day or two later``
  (approximate), ``the end of that week`` (its last part), ``later that month`` /
  ``earlier that year`` (its part after or before the event): counted from the time
  told just before in the text, else from ``after`` (the event the conversation told
  of last); ``N units later`` from a time known only to a month or a year ("six months
  after the move", in August 2022) is known to one too (February 2023), as is one from
  a season ("two years later", after the summer of 2015: the summer of 2017);
  ``relative`` marks the mentions counted from the reference. ``it's been two years
  since`` and ``I haven't smoked in three years`` (the perfect): the span from that far
  back up to the day said. Times in a habit ("every year in June", "on the 1st of
  each month", "weekly on Tuesday") are no date.

Not resolved: clock times, durations ahead with no date ("I'll be
away for a week").
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from cognimem.models.clock import to_utc
from cognimem.text import calendar as cal
from cognimem.text import dates, numeric_dates, periods, relative, told
from cognimem.text.dates import (
    WEEKDAY,
    DateOrder,
)
from cognimem.text.mention import DIGIT_OR, Handler, Resolved, Rule, TimeMention

__all__ = ["DateOrder", "TimeMention", "find_times"]

_PATTERNS: tuple[Rule, ...] = (
    *dates.PATTERNS,
    *periods.PATTERNS,
    *relative.PATTERNS,
)
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
# "a week from", just ahead of a date
_BEFORE_AFTER = re.compile(
    rf"(?<!for\s)\b(?:(?:the|last)\s+)?(?:({cal.NUMBER})\s+({cal.UNIT})|(day|week|weekend|month|year)|"
    rf"({WEEKDAY}))\s+(before|after|prior\s+to|from|(?<=week\s)of|(?<=weekend\s)of)\s+$",
    re.IGNORECASE,
)


def _counted_from(m: re.Match[str], anchor: TimeMention) -> Resolved:
    """The period ``m`` ("the week before", "two days after", "the weekend of") names
    from ``anchor``."""
    before = m.group(5).lower() not in ("after", "from")
    first, last = anchor.start.date(), (anchor.end - timedelta(microseconds=1)).date()
    if m.group(5).lower() == "of":  # the week, or its Saturday and Sunday, of the date
        return (*cal.unit_after(first, m.group(3).lower(), 0), False)
    if m.group(1):  # "a week from Friday", "three days after Easter": the day
        n, approximate = cal.number_of(m.group(1))
        day = cal.move(first if before else last, m.group(2), -n if before else n)[0]
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
    m: re.Match[str], mention: TimeMention, ref: datetime, future: bool
) -> TimeMention:
    """``mention`` (a date a count starts from) read again so that the count, not the
    date, falls on the side of ``ref`` the tense says: "a year after Christmas", said
    in February looking ahead, is the coming Christmas, counted from the last one."""
    if mention.relative:
        return mention
    n = cal.number_of(m.group(1))[0] if m.group(1) else 1
    unit = m.group(2) or m.group(3) or "day"
    sign = 1 if m.group(5).lower() in ("after", "from") else -1
    moved = cal.utc_at(cal.move(ref.date(), "week" if unit == "weekend" else unit, -sign * n)[0])
    again = find_times(mention.text, moved + (ref - cal.utc_at(ref.date())), prefer_future=future)
    if len(again) != 1 or again[0].span != (0, len(mention.text)):
        return mention
    return replace(mention, start=again[0].start, end=again[0].end)


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
        if m is not None and mention.relative and mention.granularity != "day":
            m = None  # "two days after tomorrow", "a week from Friday": from a relative day
        if m is not None and not m.group(4) and m.group(5).lower() != "of":
            mention = _counted_year(m, mention, ref, future)
        resolved = None if m is None else _counted_from(m, mention)
        if m is None or resolved is None:
            out.append(mention)
            continue
        if out and m.start() < out[-1].span[1]:
            out.pop()
        span = (m.start(), mention.span[1])
        anchor = (mention.start, mention.end)
        out.append(TimeMention.at(text, span, resolved, relative=mention.relative, anchor=anchor))
    return out


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
    found = _find(text, reference, prefer_future, after, date_order, ended)
    return [m for m in found if m.start < m.end]


def _find(
    text: str,
    reference: datetime,
    prefer_future: bool,
    after: tuple[datetime, datetime] | None,
    date_order: DateOrder | None,
    ended: bool,
) -> list[TimeMention]:
    """:func:`find_times` before empty readings are left out."""
    words = frozenset(_WORD.findall(text.lower()))
    if _DIGIT.search(text) is not None:
        words |= DIGIT_OR
    elif _TIME_WORDS.isdisjoint(words):
        return []
    ref = to_utc(reference)
    kept = _read(text, words, ref, prefer_future, date_order)
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
