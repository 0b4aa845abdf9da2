"""The time parser's rules that no other test reached (found with ``pytest --cov
--cov-branch`` over the time tests): each case is a sentence written for this test and
fails when its rule is deleted."""

from __future__ import annotations

from datetime import UTC, date, datetime

from cognimem.text.calendar import utc_at
from cognimem.text.temporal import find_times

from .time_reading import WED


def read(
    text: str, reference: datetime = WED, *, future: bool = False, **options: object
) -> list[tuple[str, date, date]]:
    found = find_times(text, reference, prefer_future=future, **options)  # type: ignore[arg-type]
    return [(m.text, m.start.date(), m.end.date()) for m in found]


def test_a_month_before_of_every_year_is_a_habit() -> None:
    assert read("We go camping in June.") == [("in June", date(2024, 6, 1), date(2024, 7, 1))]
    assert read("We go camping in June of every year.") == []


def test_a_holiday_the_table_does_not_know_is_the_event_day_approximately() -> None:
    ref = datetime(2060, 6, 1, tzinfo=UTC)
    after = (datetime(2060, 3, 1, tzinfo=UTC), datetime(2060, 3, 2, tzinfo=UTC))
    found = find_times("The following Ramadan we fasted together.", ref, after=after)
    assert [(m.start.date(), m.end.date(), m.approximate) for m in found] == [
        (date(2060, 3, 1), date(2060, 3, 2), True)
    ]


def test_a_span_does_not_run_from_a_relative_day_beside_it() -> None:
    assert read("I was away for ten days from yesterday.") == [
        ("for ten days", date(2024, 6, 2), date(2024, 6, 12)),
        ("yesterday", date(2024, 6, 11), date(2024, 6, 12)),
    ]


def test_a_bare_count_outside_the_perfect_is_no_span() -> None:
    # "now" lets a bare count be tried; its own clause is not in the perfect
    assert read("We stayed ten days. I have a dog now.") == []
    assert read("We've stayed ten days now.") == [
        ("ten days now", date(2024, 6, 2), date(2024, 6, 12))
    ]


def test_later_that_week_after_a_whole_week_is_that_week() -> None:
    after = (utc_at(date(2024, 5, 6)), utc_at(date(2024, 5, 13)))
    assert read("Later that week we met.", after=after) == [
        ("that week", date(2024, 5, 6), date(2024, 5, 13))
    ]


def test_a_date_outside_the_habit_is_kept() -> None:
    assert read("Every Monday we run, but last Friday I skipped it.") == [
        ("last Friday", date(2024, 6, 7), date(2024, 6, 8))
    ]


def test_a_span_runs_from_the_date_beside_it_not_an_earlier_one() -> None:
    found = read("Back in March, I stayed for ten days from 3 May")
    assert found == [
        ("in March", date(2024, 3, 1), date(2024, 4, 1)),
        ("for ten days from 3 May", date(2024, 5, 3), date(2024, 5, 14)),
    ]


def test_the_whole_of_a_month_is_that_month() -> None:
    assert read("We were there the whole of May.") == [
        ("the whole of May", date(2024, 5, 1), date(2024, 6, 1))
    ]
    assert read("It rained all of March.") == [("all of March", date(2024, 3, 1), date(2024, 4, 1))]


def test_a_range_of_days_with_no_month_is_read_in_one_month() -> None:
    # said on 12 June: the 10th has begun, the 14th not; both are this June's
    assert read("I was off the 10th through the 14th.") == [
        ("the 10th through the 14th", date(2024, 6, 10), date(2024, 6, 15))
    ]
    assert read("We're booked for the 20th to the 22nd.", future=True) == [
        ("the 20th to the 22nd", date(2024, 6, 20), date(2024, 6, 23))
    ]
    # "and" joins two days only after "between"
    assert read("I saw him on the 3rd and the 5th.")[0] == (
        "the 3rd",
        date(2024, 6, 3),
        date(2024, 6, 4),
    )
