"""Spans, holidays, numeric dates, weekends, counted weekdays and times told after an
earlier event, in conversational sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from cognimem.text.events import ends_a_span
from cognimem.text.holidays import easter, holiday_date
from cognimem.text.temporal import TimeMention, find_times
from tests.unit.time_reading import days
from tests.unit.time_reading import one as one_at

# a Monday, at noon
MON = datetime(2024, 6, 17, 12, 0, tzinfo=UTC)


def one(text: str, reference: datetime = MON, **options: object) -> TimeMention:
    return one_at(text, reference, **options)


def at(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


# -- durations that date a start -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "approximate"),
    [
        ("I've had them for three years.", date(2021, 6, 17), False),
        ("I've been playing for a month now.", date(2024, 5, 17), False),
        ("We have lived in this flat for about five years.", date(2019, 6, 17), True),
        ("She has been my neighbour for nearly two decades, no, for twelve years.", None, False),
    ],
)
def test_a_duration_up_to_now_dates_its_start(
    text: str, start: date | None, approximate: bool
) -> None:
    found = [m for m in find_times(text, MON) if m.text.startswith("for")]
    if start is None:  # a correction: both spans are read, each up to the day said
        assert [days(m)[0] for m in found] == [date(2004, 6, 17), date(2012, 6, 17)]
        return
    assert len(found) == 1
    assert days(found[0]) == (start, date(2024, 6, 17))
    assert found[0].approximate is approximate


def test_a_duration_told_after_an_event_runs_from_it_or_up_to_it() -> None:
    fall = (at(2023, 11, 5), at(2023, 11, 6))
    said = at(2023, 11, 13)
    stay = one("He was in hospital for four days.", said, after=fall)
    assert days(stay) == (date(2023, 11, 5), date(2023, 11, 9))
    before = one("I smoked for twenty years before that.", said, after=fall)
    assert days(before) == (date(2003, 11, 5), date(2023, 11, 5))


def test_a_duration_beside_a_date_runs_from_that_date() -> None:
    for text in ("We're away for 10 days from 18 December", "from 18 December for 10 days"):
        trip = one(text, prefer_future=True)
        assert days(trip) == (date(2024, 12, 18), date(2024, 12, 29))
        assert trip.anchor is not None


def test_a_duration_ahead_with_no_date_names_no_period() -> None:
    assert find_times("I'll be away for a week.", MON, prefer_future=True) == []


def test_since_is_open_up_to_the_day_said() -> None:
    job = one("I've been at the hospital job since 2019.")
    assert days(job) == (date(2019, 1, 1), date(2024, 6, 18))
    gran = one("I haven't seen my gran since Christmas 2022.")
    assert days(gran) == (date(2022, 12, 25), date(2024, 6, 18))


def test_the_next_few_units_start_tomorrow() -> None:
    assert days(one("Physio for the next six weeks")) == (date(2024, 6, 18), date(2024, 7, 30))
    assert days(one("the next two months")) == (date(2024, 7, 1), date(2024, 9, 1))


# -- vague windows ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Recently I've been cooking more.",
        "I've been tired lately.",
        "Not long ago we bought a tent.",
        "I hurt my knee not too long ago.",
    ],
)
def test_recently_is_the_month_before_the_day_said(text: str) -> None:
    mention = one(text)
    assert days(mention) == (date(2024, 5, 18), date(2024, 6, 17))
    assert mention.approximate
    assert mention.relative


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("I relapsed around mid-February.", date(2024, 2, 11), date(2024, 2, 21)),
        ("We moved in early March.", date(2024, 3, 1), date(2024, 3, 11)),
        ("It rained all of late April.", date(2024, 4, 21), date(2024, 5, 1)),
        ("at the end of 2022", date(2022, 9, 1), date(2023, 1, 1)),
        ("at the beginning of January", date(2024, 1, 1), date(2024, 1, 11)),
    ],
)
def test_parts_of_a_month_or_year(text: str, start: date, end: date) -> None:
    mention = one(text)
    assert days(mention) == (start, end)
    assert mention.approximate


# -- holidays -----------------------------------------------------------------------------


def test_easter_follows_the_computus() -> None:
    known = {2010: (4, 4), 2013: (3, 31), 2019: (4, 21), 2024: (3, 31), 2025: (4, 20)}
    for year, (month, day) in known.items():
        assert easter(year) == date(year, month, day)


@pytest.mark.parametrize(
    ("name", "year", "day"),
    [
        ("New Year's Eve", 2023, date(2023, 12, 31)),
        ("valentines day", 2024, date(2024, 2, 14)),
        ("St Paddy's Day", 2024, date(2024, 3, 17)),
        ("Good Friday", 2024, date(2024, 3, 29)),
        ("Easter Monday", 2024, date(2024, 4, 1)),
        ("Palm Sunday", 2013, date(2013, 3, 24)),
        ("MLK day", 2014, date(2014, 1, 20)),
        ("Mother's Day", 2024, date(2024, 5, 12)),
        ("Memorial Day", 2024, date(2024, 5, 27)),
        ("Labor Day", 2024, date(2024, 9, 2)),
        ("Thanksgiving", 2014, date(2014, 11, 27)),
        ("Black Friday", 2017, date(2017, 11, 24)),
        ("Bonfire Night", 2023, date(2023, 11, 5)),
        ("Boxing Day", 2023, date(2023, 12, 26)),
        ("Ramadan", 2024, date(2024, 3, 11)),
        ("Ramadan", 2070, None),  # lunar holidays: a table of 1990-2050
    ],
)
def test_the_holiday_table(name: str, year: int, day: date | None) -> None:
    assert holiday_date(name, year) == day


def test_a_holiday_in_a_sentence_takes_the_year_by_the_tense() -> None:
    assert days(one("We did an egg hunt at Easter.")) == (date(2024, 3, 31), date(2024, 4, 1))
    ahead = one("We'll have a big dinner at Christmas.", prefer_future=True)
    assert days(ahead)[0] == date(2024, 12, 25)
    assert days(one("I quit smoking on New Year's Day."))[0] == date(2024, 1, 1)
    assert days(one("last Easter"))[0] == date(2024, 3, 31)
    assert days(one("next Easter"))[0] == date(2025, 4, 20)
    assert days(one("thanksgiving of next year"))[0] == date(2025, 11, 27)
    assert days(one("Halloween 2021"))[0] == date(2021, 10, 31)
    # a holiday as a thing liked or named is no time
    assert find_times("I love Christmas and Easter eggs.", MON) == []


def test_a_holiday_hosted_or_named_by_its_occasion_is_a_time() -> None:
    hosted = one("We're hosting Thanksgiving at our place.", prefer_future=True)
    assert days(hosted) == (date(2024, 11, 28), date(2024, 11, 29))
    party = one("We went to a New Year's Eve party at Sam's.", at(2025, 1, 5))
    assert days(party) == (date(2024, 12, 31), date(2025, 1, 1))
    assert days(one("Our Christmas dinner was lovely."))[0] == date(2023, 12, 25)
    # a holiday before another noun names no time
    assert find_times("She loves Christmas films.", MON) == []


# -- numeric dates --------------------------------------------------------------------


def test_numeric_dates_follow_the_date_order_given() -> None:
    us = one("Her birthday is on 5/6, so cake then.", date_order="month_first")
    assert days(us)[0] == date(2024, 5, 6)
    europe = one("Her birthday is on 5/6, so cake then.", date_order="day_first")
    assert days(europe)[0] == date(2024, 6, 5)
    assert days(one("born 10/31/74", date_order="month_first"))[0] == date(1974, 10, 31)
    assert days(one("due 3/3/2015", date_order="day_first"))[0] == date(2015, 3, 3)
    assert days(one("since 2/2013", date_order="day_first")) == (
        date(2013, 2, 1),
        date(2024, 6, 18),
    )


def test_numeric_dates_need_an_order_and_a_date_shape() -> None:
    # without an order a numeric date is ambiguous and is left alone
    assert find_times("Her birthday is on 5/6.", MON) == []
    # ratings, fractions, an impossible month
    for text in ("I'd rate it 9/10", "add 1/2 cup of milk", "on 3/4 of the days", "on 13/25"):
        assert find_times(text, MON, date_order="month_first") == [], text
    for text in ("since 13/2019", "in 0/2013"):  # a month and a year: no month 13 or 0
        assert find_times(text, MON, date_order="day_first") == [], text
    assert find_times("the 2015-3-3 release", MON)[0].start.date() == date(2015, 3, 3)


# -- weekends, weekdays, ranges ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reference", "future", "saturday"),
    [
        ("We went hiking on the weekend.", MON, False, date(2024, 6, 15)),
        ("Over the weekend I painted the fence.", MON, False, date(2024, 6, 15)),
        ("We're going camping at the weekend.", MON, True, date(2024, 6, 22)),
        # said on a Sunday: the weekend under way
        ("The weekend has been lovely.", at(2024, 6, 16), False, date(2024, 6, 15)),
        ("this week-end", MON, False, date(2024, 6, 22)),
        ("How was your weekend?", MON, False, date(2024, 6, 15)),
        ("Our weekend was so relaxing.", MON, False, date(2024, 6, 15)),
    ],
)
def test_the_weekend(text: str, reference: datetime, future: bool, saturday: date) -> None:
    mention = one(text, reference, prefer_future=future)
    assert days(mention) == (saturday, date.fromordinal(saturday.toordinal() + 2))
    assert mention.granularity == "weekend"


@pytest.mark.parametrize(
    ("text", "day", "future"),
    [
        ("I saw her two Saturdays ago.", date(2024, 6, 8), False),
        ("three Sundays ago", date(2024, 6, 2), False),
        ("The trip is Friday after next.", date(2024, 6, 28), True),
        ("Wednesday of next week", date(2024, 6, 26), True),
        ("Wednesday next week", date(2024, 6, 26), True),
        ("last week's Sunday", date(2024, 6, 16), False),
        ("A week from Friday there's a school trip.", date(2024, 6, 28), True),
        ("We meet on Tuesday the 25th.", date(2024, 6, 25), True),
        ("Sunday, Feb 10", date(2019, 2, 10), False),
        ("the last Saturday of July", date(2024, 7, 27), True),
        ("the third Tuesday of September 2014", date(2014, 9, 16), False),
        ("the last weekend of October", date(2024, 10, 26), True),
        ("the 20th of last month", date(2024, 5, 20), False),
    ],
)
def test_counted_weekdays_and_days(text: str, day: date, future: bool) -> None:
    assert days(one(text, prefer_future=future))[0] == day


def test_ranges_of_days() -> None:
    assert days(one("We're off 23rd to 26th Oct", prefer_future=True)) == (
        date(2024, 10, 23),
        date(2024, 10, 27),
    )
    assert days(one("Aug 8 - Aug 12", prefer_future=True)) == (date(2024, 8, 8), date(2024, 8, 13))


def test_habits_have_no_date() -> None:
    for text in (
        "Physio is every Monday and Wednesday.",
        "I call her every Sunday evening.",
        "We have a family call every other Sunday.",
        "They have swimming lessons on Saturday mornings.",
    ):
        assert find_times(text, MON) == [], text


def test_the_summer_by_the_tense() -> None:
    assert days(one("Over the summer they learned to swim.", at(2024, 9, 9)))[0] == date(2024, 6, 1)
    ahead = one("We hope to visit in the summer.", at(2024, 3, 10), prefer_future=True)
    assert days(ahead)[0] == date(2024, 6, 1)


# -- told after an earlier event --------------------------------------------------------


def test_times_told_after_an_event_in_the_same_text() -> None:
    text = "My mother-in-law arrived on the 2nd and left twelve days later."
    arrived, left = find_times(text, at(2024, 4, 22))
    assert days(arrived)[0] == date(2024, 4, 2)
    assert days(left) == (date(2024, 4, 14), date(2024, 4, 15))
    assert left.anchor == (arrived.start, arrived.end)


def test_times_told_after_the_event_of_an_earlier_turn() -> None:
    moved = (at(2022, 10, 1), at(2022, 10, 2))
    said = at(2022, 10, 17)
    broke = one("Two days later the boiler broke.", said, after=moved)
    assert days(broke) == (date(2022, 10, 3), date(2022, 10, 4))
    fixed = one("The landlord fixed it a week after that.", said, after=(broke.start, broke.end))
    assert days(fixed)[0] == date(2022, 10, 10)
    assert days(one("The next day we unpacked.", said, after=moved))[0] == date(2022, 10, 2)
    assert days(one("The following week was calm.", said, after=moved)) == (
        date(2022, 10, 3),
        date(2022, 10, 10),
    )


def test_a_count_said_loosely_is_approximate() -> None:
    told = (at(2024, 4, 3), at(2024, 4, 4))
    walked = one("A day or two after the surgery I was walking again.", MON, after=told)
    assert days(walked) == (date(2024, 4, 4), date(2024, 4, 5))
    assert walked.approximate
    assert days(one("A week or so later it healed.", MON, after=told))[0] == date(2024, 4, 10)


def test_later_with_no_event_before_names_no_date() -> None:
    assert find_times("Two days later the boiler broke.", MON) == []
    assert find_times("I still remember the day we met.", MON) == []
    # "the following week" with nothing before counts from when it was said
    assert days(one("the following week")) == (date(2024, 6, 24), date(2024, 7, 1))


# -- spans an event ended, and times counted only from another event --------------------

SUNDAY = (at(2024, 6, 16), at(2024, 6, 17))


def test_a_span_told_after_an_event_that_ended_it_ends_there() -> None:
    stay = one("We were there for ten days.", MON, after=SUNDAY, ended=True)
    assert days(stay) == (date(2024, 6, 6), date(2024, 6, 16))
    started = one("We were there for ten days.", MON, after=SUNDAY)
    assert days(started) == (date(2024, 6, 16), date(2024, 6, 26))


def test_a_span_in_the_past_perfect_ends_at_the_event_told_before() -> None:
    lived = one("We'd lived there for seven years.", MON, after=SUNDAY)
    assert days(lived) == (date(2017, 6, 16), date(2024, 6, 16))
    been = one("She had been in there for two weeks.", MON, after=SUNDAY)
    assert days(been) == (date(2024, 6, 2), date(2024, 6, 16))
    # "now" still runs up to the day said
    now = one("I had it for three years now.", MON, after=SUNDAY)
    assert days(now) == (date(2021, 6, 17), date(2024, 6, 17))


def test_what_took_or_was_spent_counts_from_the_event_told_before() -> None:
    took = one("It took me three years.", MON, after=SUNDAY)
    assert days(took) == (date(2021, 6, 16), date(2024, 6, 16))
    spent = one("We spent two weeks there.", MON, after=SUNDAY)
    assert days(spent) == (date(2024, 6, 16), date(2024, 6, 30))
    assert find_times("It took me three years.", MON) == []
    # a thing taken is no span; a date of the clause dates what was spent there
    assert find_times("I took 3 days off.", MON, after=SUNDAY) == []
    [week] = find_times("We spent 3 days in bed last week.", MON, after=SUNDAY)
    assert week.text == "last week"


def test_after_a_span_ends_at_the_date_of_its_clause() -> None:
    text = "I finished the course last week after six months."
    [course] = [m for m in find_times(text, MON) if m.text.startswith("after")]
    assert days(course) == (date(2023, 12, 10), date(2024, 6, 10))
    # another clause: "after two weeks" ends at no date of it
    found = find_times("We moved in on 1 May and after two weeks the boiler broke.", MON)
    assert [m.text for m in found if "weeks" in m.text] == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("We left for the honeymoon two days after the wedding.", date(2024, 5, 19), None),
        ("Three weeks into the job, my manager quit.", date(2024, 6, 7), None),
        ("Shortly after the engagement we told our parents.", date(2024, 5, 18), date(2024, 5, 25)),
        ("On the third day of the trip I lost my passport.", date(2024, 5, 19), None),
        ("The morning after the wedding we had brunch.", date(2024, 5, 18), None),
        ("The night we arrived we went out for dinner.", date(2024, 5, 17), None),
        # a Friday's week: its last three days
        ("By the end of that week the kitchen was done.", date(2024, 5, 17), date(2024, 5, 20)),
    ],
)
def test_a_time_counted_only_from_an_event_told_before(
    text: str, start: date, end: date | None
) -> None:
    told = (at(2024, 5, 17), at(2024, 5, 18))
    assert days(one(text, MON, after=told)) == (start, end or start + timedelta(days=1))
    assert find_times(text, MON) == []


def test_a_count_from_an_event_known_to_a_month_is_known_to_a_month() -> None:
    august = (at(2022, 8, 1), at(2022, 9, 1))
    later = one("Six months after the move I found a job there.", MON, after=august)
    assert (days(later), later.granularity) == ((date(2023, 2, 1), date(2023, 3, 1)), "month")
    day = one("Six months after the move I found a job there.", MON, after=SUNDAY)
    assert days(day) == (date(2024, 12, 16), date(2024, 12, 17))


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("We got back from Lisbon yesterday.", True),
        ("Tom retired in June.", True),
        ("I finished the course last week.", True),
        ("We left for Crete on Saturday.", False),
        ("I started the new job on Monday.", False),
    ],
)
def test_an_event_that_ends_a_span(text: str, ends: bool) -> None:
    assert ends_a_span(text) is ends


def test_since_then_before_the_time_told_of_names_no_time() -> None:
    # said on 9 May after a turn that told of June: "since then" would be [1 Jun, 10 May)
    june = (at(2024, 6, 1), at(2024, 7, 1))
    said = datetime(2024, 5, 9, 23, 28, tzinfo=UTC)
    assert find_times("So much has been happening since then!", said, after=june) == []
    may = (at(2024, 5, 1), at(2024, 5, 2))
    (since,) = find_times("So much has been happening since then!", said, after=may)
    assert days(since) == (date(2024, 5, 1), date(2024, 5, 10))
