"""Time expressions resolve against the message's own time, one reading per expression."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from cognimem.text.temporal import TimeMention, find_times

# a Saturday, at noon
REF = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def one(text: str, reference: datetime = REF, *, prefer_future: bool = False) -> TimeMention:
    found = find_times(text, reference, prefer_future=prefer_future)
    assert len(found) == 1, found
    return found[0]


def days(mention: TimeMention) -> tuple[date, date]:
    return mention.start.date(), mention.end.date()


def at(year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("today", date(2024, 6, 15), date(2024, 6, 16)),
        ("yesterday", date(2024, 6, 14), date(2024, 6, 15)),
        ("tomorrow", date(2024, 6, 16), date(2024, 6, 17)),
        ("the day before yesterday", date(2024, 6, 13), date(2024, 6, 14)),
        ("the day after tomorrow", date(2024, 6, 17), date(2024, 6, 18)),
        ("earlier today", date(2024, 6, 15), date(2024, 6, 16)),
    ],
)
def test_relative_days(text: str, start: date, end: date) -> None:
    mention = one(f"I saw it {text}.")
    assert days(mention) == (start, end)
    assert mention.granularity == "day"
    assert mention.text == text


def test_parts_of_the_day() -> None:
    morning = one("We talked this morning")
    assert (morning.start, morning.end) == (at(2024, 6, 15, 6), at(2024, 6, 15, 12))
    assert morning.granularity == "part_of_day"
    tonight = one("See you tonight")
    assert (tonight.start, tonight.end) == (at(2024, 6, 15, 18), at(2024, 6, 16))
    last_night = one("I slept badly last night")
    assert (last_night.start, last_night.end) == (at(2024, 6, 14, 18), at(2024, 6, 15))
    assert one("tomorrow evening").start == at(2024, 6, 16, 18)
    assert one("yesterday afternoon").start == at(2024, 6, 14, 12)


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        ("last week", date(2024, 6, 3), date(2024, 6, 10), "week"),
        ("this week", date(2024, 6, 10), date(2024, 6, 17), "week"),
        ("next week", date(2024, 6, 17), date(2024, 6, 24), "week"),
        ("last month", date(2024, 5, 1), date(2024, 6, 1), "month"),
        ("this month", date(2024, 6, 1), date(2024, 7, 1), "month"),
        ("next month", date(2024, 7, 1), date(2024, 8, 1), "month"),
        ("last year", date(2023, 1, 1), date(2024, 1, 1), "year"),
        ("this year", date(2024, 1, 1), date(2025, 1, 1), "year"),
        ("next year", date(2025, 1, 1), date(2026, 1, 1), "year"),
        ("last weekend", date(2024, 6, 8), date(2024, 6, 10), "weekend"),
        ("this weekend", date(2024, 6, 15), date(2024, 6, 17), "weekend"),
        ("this past weekend", date(2024, 6, 8), date(2024, 6, 10), "weekend"),
    ],
)
def test_last_this_next_calendar_units(text: str, start: date, end: date, granularity: str) -> None:
    mention = one(text)
    assert days(mention) == (start, end)
    assert mention.granularity == granularity


def test_units_roll_over_year_ends() -> None:
    january = at(2024, 1, 10)
    assert days(one("last month", january)) == (date(2023, 12, 1), date(2024, 1, 1))
    december = at(2023, 12, 20)
    assert days(one("next month", december)) == (date(2024, 1, 1), date(2024, 2, 1))
    assert days(one("next week", december)) == (date(2023, 12, 25), date(2024, 1, 1))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # the reference is a Saturday: "next"/"last" Saturday are a week away, never today
        ("next Friday", date(2024, 6, 21)),
        ("next Saturday", date(2024, 6, 22)),
        ("next Monday", date(2024, 6, 17)),
        ("last Friday", date(2024, 6, 14)),
        ("last Saturday", date(2024, 6, 8)),
        ("last Sunday", date(2024, 6, 9)),
        ("this Friday", date(2024, 6, 14)),
        ("this Sunday", date(2024, 6, 16)),
    ],
)
def test_weekdays(text: str, day: date) -> None:
    assert days(one(text)) == (day, day + timedelta(days=1))


def test_a_bare_weekday_looks_back_unless_the_caller_looks_ahead() -> None:
    assert one("I went on Friday").start.date() == date(2024, 6, 14)
    assert one("I'll go on Friday", prefer_future=True).start.date() == date(2024, 6, 21)
    assert find_times("I go swimming on Fridays", REF) == []


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity", "approximate"),
    [
        ("three days ago", date(2024, 6, 12), date(2024, 6, 13), "day", False),
        ("2 days ago", date(2024, 6, 13), date(2024, 6, 14), "day", False),
        ("a few days ago", date(2024, 6, 12), date(2024, 6, 13), "day", True),
        ("several days ago", date(2024, 6, 12), date(2024, 6, 13), "day", True),
        # "N units ago" / "in N units": the day that far back or ahead, known to the unit
        ("a week ago", date(2024, 6, 8), date(2024, 6, 9), "week", False),
        ("a couple of weeks ago", date(2024, 6, 1), date(2024, 6, 2), "week", True),
        ("six months ago", date(2023, 12, 15), date(2023, 12, 16), "month", False),
        ("two years ago", date(2022, 6, 15), date(2022, 6, 16), "year", False),
        ("two years back", date(2022, 6, 15), date(2022, 6, 16), "year", False),
        ("a few days back", date(2024, 6, 12), date(2024, 6, 13), "day", True),
        ("a month or so ago", date(2024, 5, 15), date(2024, 5, 16), "month", True),
        ("almost a year ago", date(2023, 6, 15), date(2023, 6, 16), "year", True),
        ("a fortnight ago", date(2024, 6, 1), date(2024, 6, 2), "fortnight", False),
        ("in a fortnight", date(2024, 6, 29), date(2024, 6, 30), "fortnight", False),
        ("in 3 days", date(2024, 6, 18), date(2024, 6, 19), "day", False),
        ("in two weeks", date(2024, 6, 29), date(2024, 6, 30), "week", False),
        ("a month from now", date(2024, 7, 15), date(2024, 7, 16), "month", False),
        ("two weeks from today", date(2024, 6, 29), date(2024, 6, 30), "week", False),
        ("a week hence", date(2024, 6, 22), date(2024, 6, 23), "week", False),
        # spans up to now, two units back, parts of a unit (REF is Saturday 15 June 2024)
        # "the last N units": the whole units before the reference's (its ISO week here)
        ("over the past two weeks", date(2024, 5, 27), date(2024, 6, 10), "week", False),
        ("for the past year", date(2023, 6, 15), date(2024, 6, 16), "year", False),
        ("the past week", date(2024, 6, 8), date(2024, 6, 16), "week", False),
        ("in the last 3 months", date(2024, 3, 1), date(2024, 6, 1), "month", False),
        ("past 2 days", date(2024, 6, 13), date(2024, 6, 15), "day", False),
        ("the last two years", date(2022, 1, 1), date(2024, 1, 1), "year", False),
        # ... but up to the day said in a clause in the perfect
        (
            "I've been ill for the past two weeks",
            date(2024, 6, 1),
            date(2024, 6, 16),
            "week",
            False,
        ),
        ("the week before last", date(2024, 5, 27), date(2024, 6, 3), "week", False),
        ("the weekend before last", date(2024, 6, 1), date(2024, 6, 3), "weekend", False),
        # parts of a unit: a week's first / last three days, a month's thirds, a year's
        # first quarter / last four months
        ("by the end of the year", date(2024, 9, 1), date(2025, 1, 1), "year", True),
        ("at the beginning of next month", date(2024, 7, 1), date(2024, 7, 11), "month", True),
        ("the end of this week", date(2024, 6, 14), date(2024, 6, 17), "week", True),
        ("the beginning of the following week", date(2024, 6, 17), date(2024, 6, 20), "week", True),
        ("the middle of the month", date(2024, 6, 11), date(2024, 6, 21), "month", True),
        ("the rest of the week", date(2024, 6, 15), date(2024, 6, 17), "week", False),
        ("this quarter", date(2024, 4, 1), date(2024, 7, 1), "quarter", False),
    ],
)
def test_periods_counted_from_the_reference(
    text: str, start: date, end: date, granularity: str, approximate: bool
) -> None:
    mention = one(text)
    assert days(mention) == (start, end)
    assert (mention.granularity, mention.approximate, mention.relative) == (
        granularity,
        approximate,
        True,
    )


def test_a_coming_weekday_and_a_month_of_a_relative_year() -> None:
    assert days(one("this coming Friday")) == (date(2024, 6, 21), date(2024, 6, 22))
    assert days(one("in May last year")) == (date(2023, 5, 1), date(2023, 6, 1))
    assert days(one("May of next year")) == (date(2025, 5, 1), date(2025, 6, 1))
    assert one("they may last year").text == "last year"


def test_what_is_no_span_up_to_now() -> None:
    assert find_times("the last two years of school", REF) == []
    assert one("I came back last week").text == "last week"


def test_month_arithmetic_clamps_to_the_last_day() -> None:
    assert one("a month ago", at(2024, 3, 31)).start.date() == date(2024, 2, 29)
    assert one("a year ago", at(2024, 2, 29)).start.date() == date(2023, 2, 28)


@pytest.mark.parametrize(
    "text",
    ["on 7 May 2023", "7th May 2023", "the 7th of May 2023", "May 7, 2023", "May 7th 2023"],
)
def test_explicit_dates(text: str) -> None:
    mention = one(f"We met {text}.")
    assert days(mention) == (date(2023, 5, 7), date(2023, 5, 8))
    assert mention.granularity == "day"


def test_iso_dates_and_impossible_dates() -> None:
    assert days(one("on 2023-05-07")) == (date(2023, 5, 7), date(2023, 5, 8))
    assert find_times("on 2023-02-30", REF) == []


def test_a_date_without_a_year_is_the_latest_one_not_after_the_reference() -> None:
    assert one("on May 7").start.date() == date(2024, 5, 7)
    assert one("on December 25").start.date() == date(2023, 12, 25)
    assert one("on December 25", prefer_future=True).start.date() == date(2024, 12, 25)
    assert one("on the 15th of June").start.date() == date(2024, 6, 15)


def test_years_need_a_preposition() -> None:
    year = one("I moved in 2019")
    assert days(year) == (date(2019, 1, 1), date(2020, 1, 1))
    assert year.granularity == "year"
    assert year.text == "in 2019"
    assert one("I've lived here since 2018").text == "since 2018"
    assert find_times("I ran 2019 meters", REF) == []


def test_months() -> None:
    may = one("We went in May")
    assert days(may) == (date(2024, 5, 1), date(2024, 6, 1))
    assert may.granularity == "month"
    # a month later in the year than the reference is last year's, unless looking ahead
    assert one("in July").start.date() == date(2023, 7, 1)
    assert one("in July", prefer_future=True).start.date() == date(2024, 7, 1)
    assert one("in June").start.date() == date(2024, 6, 1)
    assert one("last May").start.date() == date(2024, 5, 1)
    assert one("last June").start.date() == date(2023, 6, 1)
    assert one("next June").start.date() == date(2025, 6, 1)
    assert one("this March").start.date() == date(2024, 3, 1)
    assert days(one("in May 2023")) == (date(2023, 5, 1), date(2023, 6, 1))
    assert one("mid-May").approximate


def test_a_month_with_its_year_keeps_the_year_after_any_preposition() -> None:
    # "since January" alone is this year's January: the year said after it wins
    since = one("I've lived in Berlin since January 2020")
    # "since": open up to the day said
    assert (since.text, days(since)) == (
        "since January 2020",
        (date(2020, 1, 1), date(2024, 6, 16)),
    )
    assert days(one("until Dec 2025")) == (date(2025, 12, 1), date(2026, 1, 1))
    assert days(one("in Jan. 2020")) == (date(2020, 1, 1), date(2020, 2, 1))
    assert one("early March 2021").approximate
    assert not one("in March 2021").approximate
    assert find_times("they may 2024 be late", REF) == []


def test_the_modal_verb_may_is_not_a_month() -> None:
    assert find_times("I may 2 times a week", REF) == []


@pytest.mark.parametrize(
    ("text", "reference", "start"),
    [
        ("last summer", REF, date(2023, 6, 1)),
        ("last spring", REF, date(2024, 3, 1)),
        ("this summer", REF, date(2024, 6, 1)),
        ("this winter", REF, date(2024, 12, 1)),
        ("this winter", at(2024, 1, 10), date(2023, 12, 1)),
        ("next spring", REF, date(2025, 3, 1)),
        ("next summer", REF, date(2025, 6, 1)),
        ("next summer", at(2024, 1, 10), date(2024, 6, 1)),
        ("the summer of 2019", REF, date(2019, 6, 1)),
        ("fall 2021", REF, date(2021, 9, 1)),
    ],
)
def test_seasons(text: str, reference: datetime, start: date) -> None:
    mention = one(text, reference)
    assert mention.start.date() == start
    assert mention.granularity == "season"
    assert (mention.end - mention.start).days in {90, 91, 92}


def test_several_mentions_come_in_order_and_the_longest_reading_wins() -> None:
    text = "I moved here on 7 May 2023 and started work last week."
    found = find_times(text, REF)
    assert [m.text for m in found] == ["on 7 May 2023", "last week"]
    for mention in found:
        assert text[mention.span[0] : mention.span[1]] == mention.text


def test_the_reference_is_converted_to_utc() -> None:
    # 01:00 on the 16th in UTC+2 is still the 15th in UTC
    local = datetime(2024, 6, 16, 1, 0, tzinfo=timezone(timedelta(hours=2)))
    assert one("yesterday", local).start == at(2024, 6, 14)
    naive = datetime(2024, 6, 15, 12, 0)
    assert one("yesterday", naive).start == at(2024, 6, 14)


@pytest.mark.parametrize(
    "text",
    [
        "I love Italian food.",
        "My daughter turns 7 on 8/5/2023, can you believe it?",
        "This is great!",
        "We should do this again sometime.",
    ],
)
def test_text_without_a_resolvable_time(text: str) -> None:
    assert find_times(text, REF) == []


def test_every_result_is_timezone_aware_utc() -> None:
    for mention in find_times("yesterday, last week, in May and two years ago", REF):
        assert mention.start.tzinfo is UTC
        assert mention.end.tzinfo is UTC
        assert mention.start < mention.end


@pytest.mark.parametrize(
    ("text", "start", "end", "anchor"),
    [
        ("the week before 21 March 2024", date(2024, 3, 14), date(2024, 3, 21), 21),
        ("two weeks before September 19, 2024", date(2024, 9, 5), date(2024, 9, 6), 19),
        ("the day after 3 May 2023", date(2023, 5, 4), date(2023, 5, 5), 3),
        # 16 November 2022 is a Wednesday; 3 June 2022 a Friday; 13 March 2023 a Monday
        ("the Sunday before November 16, 2022", date(2022, 11, 13), date(2022, 11, 14), 16),
        ("the weekend after 3 June, 2022", date(2022, 6, 4), date(2022, 6, 6), 3),
        ("last weekend before March 13, 2023", date(2023, 3, 11), date(2023, 3, 13), 13),
        ("the month before 7 May 2023", date(2023, 4, 7), date(2023, 5, 7), 7),
    ],
)
def test_a_period_counted_from_a_date(text: str, start: date, end: date, anchor: int) -> None:
    found = one(text)
    assert days(found) == (start, end)
    assert found.anchor is not None
    assert found.anchor[0].day == anchor
    assert not found.relative


def test_relative_mentions_say_so() -> None:
    assert one("last Friday").relative
    assert one("two weeks ago").relative
    assert not one("on 7 May 2023").relative


def test_a_day_of_the_month_alone() -> None:
    # REF is Saturday 15 June 2024
    assert days(one("we met on the 12th")) == (date(2024, 6, 12), date(2024, 6, 13))
    assert days(one("we met on the 20th")) == (date(2024, 5, 20), date(2024, 5, 21))
    ahead = one("I'll go on the 20th", prefer_future=True)
    assert days(ahead) == (date(2024, 6, 20), date(2024, 6, 21))
    # a month without that day is passed over
    assert days(one("paid on the 31st")) == (date(2024, 5, 31), date(2024, 6, 1))
    # with a month it is that month's day
    assert days(one("on the 3rd of May")) == (date(2024, 5, 3), date(2024, 5, 4))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # ISO weeks, counted from the one the month's first day is in
        ("the first week of May", date(2024, 4, 29), date(2024, 5, 6)),
        ("the second week of November", date(2023, 11, 6), date(2023, 11, 13)),
        ("the third week of March 2022", date(2022, 3, 14), date(2022, 3, 21)),
        # the last Monday-to-Sunday week with four of its days in the month (29 February
        # 2024 is a Thursday; 30 November 2025 a Sunday; 30 June 2026 a Tuesday)
        ("the last week of February 2024", date(2024, 2, 26), date(2024, 3, 4)),
        ("the last week of November 2025", date(2025, 11, 24), date(2025, 12, 1)),
        ("the last week of June 2026", date(2026, 6, 22), date(2026, 6, 29)),
        ("the last week of March 2024", date(2024, 3, 25), date(2024, 4, 1)),
        ("the fourth week of next January", date(2025, 1, 20), date(2025, 1, 27)),
    ],
)
def test_a_week_of_a_month(text: str, start: date, end: date) -> None:
    found = one(text)
    assert days(found) == (start, end)
    assert found.granularity == "week"
