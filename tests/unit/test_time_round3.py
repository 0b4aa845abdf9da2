"""Forms the round-3 time-expression set's tune half found unread, each read as one
general rule: a count back from another time ("a week ago Monday", "a year ago this
week"), counted seasons ("two summers ago"), "earlier / later in the summer", "within
the next fortnight", an age ("three weeks old"), "the other week", "since sat", the
hedge "for like 4 yrs" and "for the first three days" of an event told before. Each
case is a sentence written for this test, read on Wednesday 12 June 2024."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one, told

d = date


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        # a count back from another time: from its day, or the same kind of period
        ("I started a week ago Monday.", False, d(2024, 6, 3), d(2024, 6, 4)),
        ("It arrived two weeks ago Saturday.", False, d(2024, 5, 25), d(2024, 5, 26)),
        ("We met a month ago yesterday.", False, d(2024, 5, 11), d(2024, 5, 12)),
        ("The shop opened a year ago this week.", False, d(2023, 6, 12), d(2023, 6, 19)),
        ("I moved here two years ago last month.", False, d(2022, 5, 1), d(2022, 6, 1)),
        # seasons counted back or ahead, as weekdays are
        ("We went to Crete two summers ago.", False, d(2022, 6, 1), d(2022, 9, 1)),
        ("The roof is due three winters from now.", True, d(2026, 12, 1), d(2027, 3, 1)),
        # earlier / later in a season: up to or from the day said, inside the season
        ("We'll go abroad later in the summer.", True, d(2024, 6, 13), d(2024, 9, 1)),
        ("It was colder earlier in the spring.", False, d(2024, 3, 1), d(2024, 6, 1)),
        # within a span ahead, the count "the next" or left out (one)
        ("We'll hear within the next fortnight.", True, d(2024, 6, 12), d(2024, 6, 26)),
        ("They'll decide within the next month.", True, d(2024, 6, 12), d(2024, 7, 12)),
        # an age: the span up to the day said
        ("The puppy is three weeks old.", False, d(2024, 5, 22), d(2024, 6, 13)),
        ("This bread is a day old.", False, d(2024, 6, 11), d(2024, 6, 13)),
        # "the other week": the week before the other day's
        ("I saw her the other week.", False, d(2024, 5, 29), d(2024, 6, 5)),
        # "sat" after "since" is the day, not the verb
        ("been off work since sat", False, d(2024, 6, 8), d(2024, 6, 13)),
        # the chat hedge "like" before a duration
        ("I've had it for like 4 yrs.", False, d(2020, 6, 12), d(2024, 6, 12)),
    ],
)
def test_a_round3_form_is_read(text: str, future: bool, start: date, end: date) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


@pytest.mark.parametrize(
    "text",
    [
        "My 3 week old puppy sleeps a lot.",  # attributive: an age is plural
        "I'm 33 years old.",  # an age in years is who one is, not a start
        "We lay on sun loungers all day long.",  # "sun" after "on" is a word
        "She sat down.",
    ],
)
def test_a_word_like_a_round3_form_is_no_time(text: str) -> None:
    assert find_times(text, WED) == []


def test_a_count_back_from_a_time_is_approximate_when_its_count_is() -> None:
    found = one("We moved a few years ago last spring.")
    assert found.approximate
    assert found.start.year == 2021


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("It poured for the first two days.", d(2024, 5, 3), d(2024, 5, 5)),
        ("For the first two weeks I barely slept.", d(2024, 5, 3), d(2024, 5, 17)),
    ],
)
def test_the_first_days_are_those_of_the_event_told_before(
    text: str, start: date, end: date
) -> None:
    assert days(one(text, **told(d(2024, 5, 3), d(2024, 5, 4)))) == (start, end)


def test_the_first_days_with_no_event_told_name_no_time() -> None:
    assert find_times("I was lost for the first few days.", WED) == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # "since" a period not yet over runs up to the end of the day said
        ("I've been running since the start of the year.", d(2024, 1, 1), d(2024, 6, 13)),
        # "all week / month" in the perfect: up to the day said
        ("It's been raining all week.", d(2024, 6, 10), d(2024, 6, 13)),
        ("My knee has hurt all month.", d(2024, 6, 1), d(2024, 6, 13)),
        # a count back from a season or a month: that period, that far back
        ("We married twenty years ago this summer.", d(2004, 6, 1), d(2004, 9, 1)),
        ("He left five years ago next month.", d(2019, 7, 1), d(2019, 8, 1)),
    ],
)
def test_a_round3_added_form_is_read(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


def test_all_week_told_ahead_is_the_whole_week() -> None:
    found = one("I'll be in London all week.", prefer_future=True)
    assert days(found) == (d(2024, 6, 10), d(2024, 6, 17))


@pytest.mark.parametrize("text", ["It broke a day or two ago.", "We met a week or so ago."])
def test_a_count_with_or_is_approximate(text: str) -> None:
    assert one(text).approximate
