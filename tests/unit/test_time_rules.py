"""The time parser's rules that no other test reached (found with ``pytest --cov
--cov-branch`` over the time tests): each case is a sentence written for this test and
fails when its rule is deleted."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cognimem.text.calendar import utc_at
from cognimem.text.events import ends_a_span, event_period, tells_of_event
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


@pytest.mark.parametrize(
    ("text", "future", "said", "start", "end"),
    [
        # a day of the month after "by", "until", "till", "through", or ending the text
        ("Pay me back by the 20th.", True, "the 20th", date(2024, 6, 20), date(2024, 6, 21)),
        ("I'm away until the 14th.", True, "the 14th", date(2024, 6, 14), date(2024, 6, 15)),
        ("The sale runs through the 30th.", True, "the 30th", date(2024, 6, 30), date(2024, 7, 1)),
        ("I'm off till the 18th!", True, "the 18th", date(2024, 6, 18), date(2024, 6, 19)),
        ("I'm here until the 14th", True, "the 14th", date(2024, 6, 14), date(2024, 6, 15)),
        ("It was the afternoon of the 5th.", False, "the 5th", date(2024, 6, 5), date(2024, 6, 6)),
        ("It was the night of the 9th.", False, "the 9th", date(2024, 6, 9), date(2024, 6, 10)),
        # "it has been ... since"
        (
            "It has been three years since we met.",
            False,
            "It has been three years since",
            date(2021, 6, 12),
            date(2024, 6, 13),
        ),
        (
            "It had been two weeks since the fall.",
            False,
            "It had been two weeks since",
            date(2024, 5, 29),
            date(2024, 6, 13),
        ),
        # ahead and back from the day said
        (
            "Let's do it the same time next year.",
            True,
            "the same time next year",
            date(2025, 6, 12),
            date(2025, 6, 13),
        ),
        (
            "I'm busy the coming 3 days.",
            True,
            "the coming 3 days",
            date(2024, 6, 13),
            date(2024, 6, 16),
        ),
        (
            "I'm away the following two weeks.",
            True,
            "the following two weeks",
            date(2024, 6, 13),
            date(2024, 6, 27),
        ),
        ("I'll ring later today.", True, "later today", date(2024, 6, 12), date(2024, 6, 13)),
        (
            "We met the night before last.",
            False,
            "the night before last",
            date(2024, 6, 10),
            date(2024, 6, 11),
        ),
        (
            "It was quiet the previous 3 days.",
            False,
            "the previous 3 days",
            date(2024, 6, 9),
            date(2024, 6, 12),
        ),
        (
            "Around two weeks ago it broke.",
            False,
            "Around two weeks ago",
            date(2024, 5, 29),
            date(2024, 5, 30),
        ),
        (
            "Roughly a year ago we moved.",
            False,
            "Roughly a year ago",
            date(2023, 6, 12),
            date(2023, 6, 13),
        ),
        (
            "Nearly three months ago I quit.",
            False,
            "Nearly three months ago",
            date(2024, 3, 12),
            date(2024, 3, 13),
        ),
        # parts of a unit
        (
            "In the 1st half of 2023 I was away.",
            False,
            "the 1st half of 2023",
            date(2023, 1, 1),
            date(2023, 7, 1),
        ),
        (
            "Rent is due at the end of this month.",
            True,
            "at the end of this month",
            date(2024, 6, 21),
            date(2024, 7, 1),
        ),
        (
            "We start at the beginning of next month.",
            True,
            "at the beginning of next month",
            date(2024, 7, 1),
            date(2024, 7, 11),
        ),
        # seasons
        (
            "This past summer was hot.",
            False,
            "This past summer",
            date(2023, 6, 1),
            date(2023, 9, 1),
        ),
        (
            "It snowed during the winter.",
            False,
            "during the winter",
            date(2023, 12, 1),
            date(2024, 3, 1),
        ),
        ("We hiked all the fall.", False, "all the fall", date(2023, 9, 1), date(2023, 12, 1)),
    ],
)
def test_each_form_of_a_rule(text: str, future: bool, said: str, start: date, end: date) -> None:
    assert read(text, future=future) == [(said, start, end)]


def test_a_month_abbreviation_after_a_preposition_is_that_month() -> None:
    assert read("We went to Lisbon in Feb.") == [("in Feb", date(2024, 2, 1), date(2024, 3, 1))]
    assert read("We're moving in Sept.", future=True) == [
        ("in Sept", date(2024, 9, 1), date(2024, 10, 1))
    ]
    # "Jan" is a name as often as a month
    assert read("The painting is by Jan.") == []


def test_recent_units_are_the_past_few() -> None:
    # in the perfect: up to the day said; otherwise the whole days before it
    assert read("Prices have gone up in recent years.") == [
        ("in recent years", date(2021, 6, 12), date(2024, 6, 13))
    ]
    assert read("It got colder in recent days.") == [
        ("in recent days", date(2024, 6, 9), date(2024, 6, 12))
    ]
    assert read("I took a recent day trip.") == []


@pytest.mark.parametrize(
    ("text", "said", "start", "end"),
    [
        ("Soon after, we left.", "Soon after", date(2024, 5, 2), date(2024, 5, 9)),
        (
            "On the second night of our trip it rained.",
            "the second night of our trip",
            date(2024, 5, 2),
            date(2024, 5, 3),
        ),
        (
            "The third day of my holiday was best.",
            "The third day of my holiday",
            date(2024, 5, 3),
            date(2024, 5, 4),
        ),
        (
            "The preceding week was calm.",
            "The preceding week",
            date(2024, 4, 22),
            date(2024, 4, 29),
        ),
        ("That winter was cold.", "That winter", date(2024, 12, 1), date(2025, 3, 1)),
        ("We were fine a week on", "a week on", date(2024, 5, 8), date(2024, 5, 9)),
    ],
)
def test_each_form_told_from_an_event(text: str, said: str, start: date, end: date) -> None:
    # the event told before: Wednesday 1 May 2024
    after = (utc_at(date(2024, 5, 1)), utc_at(date(2024, 5, 2)))
    assert read(text, after=after) == [(said, start, end)]


_MAY_1 = (utc_at(date(2024, 5, 1)), utc_at(date(2024, 5, 2)))


@pytest.mark.parametrize(
    ("text", "event", "said", "start", "end"),
    [
        # a span's qualifiers: up to the day said (the perfect) or to the event ("took")
        (
            "I've lived here for more than ten years.",
            None,
            "for more than ten years",
            date(2014, 6, 12),
            date(2024, 6, 12),
        ),
        (
            "We've been married for at least five years.",
            None,
            "for at least five years",
            date(2019, 6, 12),
            date(2024, 6, 12),
        ),
        (
            "I've had this car for close to a decade.",
            None,
            "for close to a decade",
            date(2014, 6, 12),
            date(2024, 6, 12),
        ),
        (
            "I've worked there for just under two years.",
            None,
            "for just under two years",
            date(2022, 6, 12),
            date(2024, 6, 12),
        ),
        (
            "It took us a good three months.",
            _MAY_1,
            "It took us a good three months",
            date(2024, 2, 1),
            date(2024, 5, 1),
        ),
        (
            "It took them less than a fortnight.",
            _MAY_1,
            "It took them less than a fortnight",
            date(2024, 4, 17),
            date(2024, 5, 1),
        ),
        (
            "We've known each other a bit over a year now.",
            None,
            "a bit over a year now",
            date(2023, 6, 12),
            date(2024, 6, 12),
        ),
        (
            "I've had it half a year now.",
            None,
            "half a year now",
            date(2023, 12, 12),
            date(2024, 6, 12),
        ),
        (
            "We stayed there for ten days after that.",
            _MAY_1,
            "for ten days after that",
            date(2024, 5, 1),
            date(2024, 5, 11),
        ),
    ],
)
def test_each_form_of_a_span(
    text: str, event: tuple[datetime, datetime] | None, said: str, start: date, end: date
) -> None:
    assert read(text, after=event) == [(said, start, end)]


@pytest.mark.parametrize(
    "text",
    [
        "Every single Monday we ran.",
        "Every second Tuesday I volunteer.",
        "Every last Friday we meet.",
        "Every Monday, Wednesday & Friday I swim.",
        "Every Monday or Tuesday I swim.",
        "Every Sunday morning we hike.",
        "Every Friday night we go out.",
    ],
)
def test_each_form_of_a_habit_names_no_date(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("I never moved, but we adopted a cat.", True),
        ("We had twins!", True),
        ("She had surgery.", True),
        ("He had an accident.", True),
        ("I had my operation.", True),
    ],
)
def test_each_form_of_an_event(text: str, event: bool) -> None:
    assert tells_of_event(text) is event


@pytest.mark.parametrize(
    "text",
    [
        "She flew back on Monday.",
        "He drove home.",
        "I left the job.",
        "We moved out.",
        "I gave up.",
        "We wrapped up the project.",
        "They broke up.",
        "He was discharged.",
    ],
)
def test_each_event_that_ends_a_span(text: str) -> None:
    assert ends_a_span(text)
    assert not ends_a_span("I left for Paris.")


def test_a_plan_about_to_happen_looks_ahead() -> None:
    period = event_period("I'm about to see them on Friday.", WED)
    assert period is not None
    assert (period[0].date(), period[1].date()) == (date(2024, 6, 14), date(2024, 6, 15))


def test_the_week_prior_to_a_holiday() -> None:
    period = event_period("We met the week prior to Christmas.", WED)
    assert period is not None
    assert (period[0].date(), period[1].date()) == (date(2023, 12, 18), date(2023, 12, 25))
    period = event_period("The Christmas celebrations were fun.", WED)
    assert period is not None
    assert period[0].date() == date(2023, 12, 25)
