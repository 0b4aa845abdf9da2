"""Counts past twelve in words, halves, seasons of a two-digit year, seasons and counts
told from an earlier event ("that summer", "two months in,", "five years on"), and
"last Friday but one", in sentences written for these tests."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one, told

d = date


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("We have been married for forty-two years.", d(1982, 6, 12)),
        ("I've lived in this street for nineteen years.", d(2005, 6, 12)),
        ("He has worked there for a dozen years now.", d(2012, 6, 12)),
        ("She's been in the choir for twenty five years.", d(1999, 6, 12)),
        ("I've been learning the cello for three and a half years.", d(2020, 12, 12)),
    ],
)
def test_spans_with_counts_past_twelve_and_halves_run_up_to_the_day_said(
    text: str, start: date
) -> None:
    assert days(one(text)) == (start, d(2024, 6, 12))


def test_a_count_past_twelve_ago_is_that_day() -> None:
    assert days(one("I got the bike thirteen days ago.")) == (d(2024, 5, 30), d(2024, 5, 31))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("We met in the winter of '19.", d(2019, 12, 1), d(2020, 3, 1)),
        ("They married in the summer of '08.", d(2008, 6, 1), d(2008, 9, 1)),
    ],
)
def test_a_season_of_a_two_digit_year(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


@pytest.mark.parametrize(
    ("text", "event", "start", "end"),
    [
        # the season under way at the event, or the next to begin
        (
            "That winter we went skiing.",
            (d(2019, 11, 1), d(2019, 12, 1)),
            d(2019, 12, 1),
            d(2020, 3, 1),
        ),
        (
            "That autumn we painted the barn.",
            (d(2021, 10, 2), d(2021, 10, 3)),
            d(2021, 9, 1),
            d(2021, 12, 1),
        ),
        # the next to begin after it; the last to end before it
        (
            "The following autumn we moved.",
            (d(2021, 9, 5), d(2021, 9, 6)),
            d(2022, 9, 1),
            d(2022, 12, 1),
        ),
        (
            "We sold the boat the next spring.",
            (d(2019, 10, 1), d(2019, 11, 1)),
            d(2020, 3, 1),
            d(2020, 6, 1),
        ),
        (
            "The previous summer had been dry.",
            (d(2020, 2, 10), d(2020, 2, 11)),
            d(2019, 6, 1),
            d(2019, 9, 1),
        ),
    ],
)
def test_a_season_told_from_an_earlier_event(
    text: str, event: tuple[date, date], start: date, end: date
) -> None:
    assert days(one(text, **told(*event))) == (start, end)


@pytest.mark.parametrize(
    ("text", "event", "start", "end"),
    [
        (
            "Three weeks in, the novelty wore off.",
            (d(2024, 3, 4), d(2024, 3, 5)),
            d(2024, 3, 25),
            d(2024, 3, 26),
        ),
        (
            "Ten years on, the town had changed.",
            (d(2005, 1, 1), d(2006, 1, 1)),
            d(2015, 1, 1),
            d(2016, 1, 1),
        ),
        # from an event known to a month, a count in months is known to a month
        (
            "Half a year later the roof leaked.",
            (d(2022, 4, 1), d(2022, 5, 1)),
            d(2022, 10, 1),
            d(2022, 11, 1),
        ),
        (
            "A year and a half later we sold it.",
            (d(2020, 2, 3), d(2020, 2, 4)),
            d(2021, 8, 3),
            d(2021, 8, 4),
        ),
    ],
)
def test_counts_in_and_on_and_halves_told_from_an_earlier_event(
    text: str, event: tuple[date, date], start: date, end: date
) -> None:
    assert days(one(text, **told(*event))) == (start, end)


def test_a_count_in_a_place_is_no_time_told_from_an_event() -> None:
    assert (
        find_times("Two weeks in Spain was plenty.", WED, **told(d(2024, 3, 4), d(2024, 3, 5)))
        == []
    )  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("We ate there last Friday but one.", d(2024, 5, 31)),
        ("The plumber comes next Monday but one.", d(2024, 6, 24)),
    ],
)
def test_a_weekday_but_one_is_a_week_further(text: str, day: date) -> None:
    assert days(one(text))[0] == day


@pytest.mark.parametrize(
    ("text", "event", "start", "end"),
    [
        (
            "Later that week the parcel came.",
            (d(2024, 3, 5), d(2024, 3, 6)),
            d(2024, 3, 6),
            d(2024, 3, 11),
        ),
        (
            "Earlier that month I had moved.",
            (d(2024, 3, 20), d(2024, 3, 21)),
            d(2024, 3, 1),
            d(2024, 3, 20),
        ),
    ],
)
def test_later_or_earlier_in_the_unit_of_an_earlier_event(
    text: str, event: tuple[date, date], start: date, end: date
) -> None:
    assert days(one(text, **told(*event))) == (start, end)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("She moved out in late March 2019.", d(2019, 3, 21), d(2019, 4, 1)),
        ("We married in summer '09.", d(2009, 6, 1), d(2009, 9, 1)),
        ("I worked the last two summers at a camp.", d(2022, 6, 1), d(2023, 9, 1)),
        ("The past three winters were mild.", d(2021, 12, 1), d(2024, 3, 1)),
    ],
)
def test_parts_of_a_month_of_a_year_and_counted_seasons(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)
