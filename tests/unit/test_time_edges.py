"""The edges of the time patterns that no other test reached: days a month does not
have, ranges that run backwards, counts from a relative unit or a numeric date, halves
of a decade, spans not in the perfect, and the decades of this century, in sentences
written for these tests."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cognimem.text.calendar import utc_at
from cognimem.text.holidays import holiday_days
from cognimem.text.temporal import TimeMention, find_times

d = date
# a Wednesday, mid-afternoon
WED = datetime(2024, 6, 12, 15, 0, tzinfo=UTC)


def read(text: str, **options: object) -> list[tuple[str, date, date]]:
    found: list[TimeMention] = find_times(text, WED, **options)  # type: ignore[arg-type]
    return [(m.text, m.start.date(), m.end.date()) for m in found]


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # May 2025 ends on a Saturday: its last whole weekend is the one before
        ("We camped the last weekend of May 2025.", d(2025, 5, 24), d(2025, 5, 26)),
        # no year puts 29 February on a Monday near the day said: the date alone
        ("It was Monday, Feb 29.", d(2024, 2, 29), d(2024, 3, 1)),
        ("It was Thursday, Feb 29.", d(2024, 2, 29), d(2024, 3, 1)),
        ("Prices went up half a decade ago.", d(2019, 6, 12), d(2019, 6, 13)),
        # a range of relative weekdays runs as far as it says
        ("I was away from last Friday to next Monday.", d(2024, 6, 7), d(2024, 6, 18)),
        ("That was in the twenties.", d(2020, 1, 1), d(2030, 1, 1)),
    ],
)
def test_one_period(text: str, start: date, end: date) -> None:
    assert [(s, e) for _, s, e in read(text)] == [(start, end)]


@pytest.mark.parametrize(
    "text",
    [
        "We stayed 30-31 Feb.",  # a first day the month does not have
        "Keep it on the 31st of this month.",  # June has 30 days
        "Take it as you may 3-7 times.",  # "may" in lower case before a range: the verb
        "The course lasted eight years.",  # a bare span outside the perfect
    ],
)
def test_no_date_where_the_words_name_none(text: str) -> None:
    assert [m for m in read(text) if m[1].month in (2, 5, 7) or "year" in m[0]] == []


def test_a_range_whose_last_day_the_month_lacks_is_no_february_range() -> None:
    assert all(start.month != 2 for _, start, _ in read("from the 28th to the 30th of February"))


def test_two_dates_out_of_order_stay_two() -> None:
    found = read("from May 2024 to March 2020")
    assert [(s, e) for _, s, e in found] == [
        (d(2024, 5, 1), d(2024, 6, 1)),
        (d(2020, 3, 1), d(2020, 4, 1)),
    ]


def test_two_years_joined_by_and_need_between() -> None:
    assert read("In 2010 and 2014 we went back.")[0][1:] == (d(2010, 1, 1), d(2011, 1, 1))


def test_a_count_from_a_relative_unit_is_not_counted() -> None:
    assert read("a week from next month") == [("next month", d(2024, 7, 1), d(2024, 8, 1))]


def test_a_count_from_a_numeric_date_counts_from_it() -> None:
    found = read("She left a week after 3/4/2024.", date_order="day_first")
    assert [(s, e) for _, s, e in found] == [(d(2024, 4, 10), d(2024, 4, 11))]


def test_a_month_number_past_twelve_is_no_month() -> None:
    assert read("Ticket 13/2024 was closed.", date_order="month_first") == []


def test_a_week_of_a_stay_told_from_the_event_is_not_read() -> None:
    after = (utc_at(d(2024, 3, 4)), utc_at(d(2024, 3, 5)))
    assert read("On the second week of the trip it rained.", after=after) == []


def test_a_name_the_table_does_not_hold_has_no_days() -> None:
    assert holiday_days("Arbor Day", 2024) == []


_TIME_WORDS = "at on for over during since until till before after by around from of about"
_TIME_WORDS += " through in spent celebrated hosting hosted host"


@pytest.mark.parametrize("word", _TIME_WORDS.split())
def test_a_holiday_after_a_word_of_time_is_a_time(word: str) -> None:
    assert read(f"We were busy {word} Christmas with the kids.")[0][1] == d(2023, 12, 25)


_OCCASIONS = "party parties dinner lunch brunch parade celebration celebrations service market"
_OCCASIONS += " fair concert feast fireworks get-together"


@pytest.mark.parametrize("occasion", _OCCASIONS.split())
def test_a_holiday_before_an_occasion_is_a_time(occasion: str) -> None:
    assert read(f"Loved the Christmas {occasion} this time.")[0][1] == d(2023, 12, 25)


def test_a_holiday_named_as_a_thing_is_no_time() -> None:
    assert read("Honestly I love Christmas songs.") == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("It rained in the second half of July.", d(2023, 7, 16), d(2023, 8, 1)),
        ("Sales fell in the first half of 2021.", d(2021, 1, 1), d(2021, 7, 1)),
        ("It got better in the latter half of the year.", d(2024, 7, 1), d(2025, 1, 1)),
        ("We were in Rome between July 8 and 11.", d(2023, 7, 8), d(2023, 7, 12)),
        ("We met the weekend of 13 April.", d(2024, 4, 13), d(2024, 4, 15)),
        ("Winter.", d(2023, 12, 1), d(2024, 3, 1)),
    ],
)
def test_halves_ranges_between_a_dates_weekend_and_a_season_alone(
    text: str, start: date, end: date
) -> None:
    assert [(s, e) for _, s, e in read(text)] == [(start, end)]


def test_two_days_joined_by_and_without_between_stay_one_day_then_another() -> None:
    assert read("We hiked on July 8 and 11.")[0][1:] == (d(2023, 7, 8), d(2023, 7, 9))


def test_a_month_told_from_an_event_is_not_read() -> None:
    after = (utc_at(d(2019, 1, 5)), utc_at(d(2019, 1, 6)))
    assert read("The previous March we had moved.", after=after) == []
