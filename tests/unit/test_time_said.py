"""The year said after a date ("March 3rd, '94", "the 3rd of March last year", "the
spring of last year"), a weekday before its date, times told from an earlier event in
forms the earlier tests do not hold ("the next year", "around the same time", "since
the surgery,", "ten minutes later", "After a week,", "the following Christmas") and
"the other day", in sentences written for these tests."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.events import tells_of_event
from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one, told

d = date


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("I was born on March 3rd, '94.", d(1994, 3, 3), d(1994, 3, 4)),
        ("I started on the 3rd of March last year.", d(2023, 3, 3), d(2023, 3, 4)),
        ("We went to Crete in the spring of last year.", d(2023, 3, 1), d(2023, 6, 1)),
        ("We went to Crete in the spring last year.", d(2023, 3, 1), d(2023, 6, 1)),
        ("She moved out in May of last year.", d(2023, 5, 1), d(2023, 6, 1)),
        ("We were in Rome at Easter '19.", d(2019, 4, 21), d(2019, 4, 22)),
        ("We host Thanksgiving of next year.", d(2025, 11, 27), d(2025, 11, 28)),
        ("The wedding was on Saturday, June 1st.", d(2024, 6, 1), d(2024, 6, 2)),
        ("Sales fell in the third quarter of last year.", d(2023, 7, 1), d(2023, 10, 1)),
        ("We moved at the end of March last year.", d(2023, 3, 21), d(2023, 4, 1)),
        # a half counted in the smaller unit, whole days: ten and a half days back
        ("I left a week and a half ago.", d(2024, 6, 2), d(2024, 6, 3)),
    ],
)
def test_a_year_said_after_a_date_is_read_with_it(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


@pytest.mark.parametrize(
    ("text", "event", "start", "end"),
    [
        # a unit after "the next": counted from the event, not from the day said
        (
            "The next year we did it again.",
            (d(2022, 1, 1), d(2023, 1, 1)),
            d(2023, 1, 1),
            d(2024, 1, 1),
        ),
        (
            "The following month she walked.",
            (d(2024, 1, 1), d(2024, 2, 1)),
            d(2024, 2, 1),
            d(2024, 3, 1),
        ),
        # the event's own period
        (
            "Around the same time, my dad retired.",
            (d(2019, 9, 1), d(2019, 12, 1)),
            d(2019, 9, 1),
            d(2019, 12, 1),
        ),
        (
            "At that time I lived in Leeds.",
            (d(2020, 5, 3), d(2020, 5, 4)),
            d(2020, 5, 3),
            d(2020, 5, 4),
        ),
        # minutes and hours after it: its day
        (
            "Ten minutes later the power came back.",
            (d(2024, 6, 9), d(2024, 6, 10)),
            d(2024, 6, 9),
            d(2024, 6, 10),
        ),
        (
            "An hour later we were home.",
            (d(2024, 6, 9), d(2024, 6, 10)),
            d(2024, 6, 9),
            d(2024, 6, 10),
        ),
        # a count that opens a clause
        (
            "After a week, she was walking again.",
            (d(2024, 6, 3), d(2024, 6, 4)),
            d(2024, 6, 10),
            d(2024, 6, 11),
        ),
        # a holiday first after the event
        (
            "The following Christmas we got married.",
            (d(2019, 3, 1), d(2019, 4, 1)),
            d(2019, 12, 25),
            d(2019, 12, 26),
        ),
    ],
)
def test_times_told_from_an_event(
    text: str, event: tuple[date, date], start: date, end: date
) -> None:
    assert days(one(text, **told(*event))) == (start, end)


@pytest.mark.parametrize(
    "text",
    [
        "Since the surgery, I haven't been able to run.",
        "Ever since we moved, she's been happier.",
        "She's been a happy baby since she was born.",
    ],
)
def test_since_an_event_told_before_runs_from_it_to_the_day_said(text: str) -> None:
    mention = one(text, **told(d(2024, 1, 20), d(2024, 1, 21)))
    assert days(mention) == (d(2024, 1, 20), d(2024, 6, 13))


@pytest.mark.parametrize(
    "text",
    [
        "I've been playing piano since I was 12.",
        "We've been friends since high school.",
        "Since the surgery, I haven't been able to run.",
    ],
)
def test_since_a_time_the_text_does_not_give_is_no_date(text: str) -> None:
    # with no event told before (the last one), nor an age or a school year known
    assert find_times(text, WED) == []


def test_the_other_day_is_the_week_before_the_day_said() -> None:
    mention = one("I bumped into Tom the other day.")
    assert days(mention) == (d(2024, 6, 5), d(2024, 6, 12))
    assert mention.approximate


def test_seeing_and_eating_are_events() -> None:
    assert tells_of_event("We saw the Bean and ate deep-dish pizza.")
    assert tells_of_event("We ate at the new Thai place.")


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        ("We met couple years ago.", False, d(2022, 6, 12), d(2022, 6, 13)),
        ("We planted the roses in early spring.", False, d(2024, 3, 1), d(2024, 4, 1)),
        ("We're hoping to move in late summer.", True, d(2024, 8, 1), d(2024, 9, 1)),
        ("The pipes froze in mid-winter.", False, d(2024, 1, 1), d(2024, 2, 1)),
        ("The morning of the 5th I got the call.", False, d(2024, 6, 5), d(2024, 6, 6)),
        ("I'm off the week of the 17th.", True, d(2024, 6, 17), d(2024, 6, 24)),
        ("We're away the weekend of the 22nd.", True, d(2024, 6, 22), d(2024, 6, 24)),
    ],
)
def test_counts_without_a_parts_of_seasons_and_the_week_of_a_day(
    text: str, future: bool, start: date, end: date
) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


def test_an_event_told_before_a_question_tag_is_an_event() -> None:
    assert tells_of_event("We played the harbour gig on Friday, did you catch it?")
    assert tells_of_event("I adopted a lurcher, did I tell you?")
    assert not tells_of_event("Did you adopt a lurcher, or did you buy one?")
