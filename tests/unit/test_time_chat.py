"""Issue 31's fourth parser round: events told with no time word in any regular past,
spans with no "for" that date a start ("a decade now", "I've had my cat eight years"),
"since spring", a day as an ordinal word alone ("on the twenty-first"), a year with an
apostrophe ("back in '19") and a numeric date after "is". Each case is a sentence
written for this test, resolved against a Saturday."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cognimem.text.events import SAID, event_period, tells_of_event
from cognimem.text.temporal import find_times

# a Saturday, at noon
REF = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def span(text: str, *, future: bool = False, order: str | None = None) -> tuple[date, date]:
    found = find_times(text, REF, prefer_future=future, date_order=order)  # type: ignore[arg-type]
    assert len(found) == 1, found
    return found[0].start.date(), found[0].end.date()


def d(year: int, month: int, day: int) -> date:
    return date(year, month, day)


@pytest.mark.parametrize(
    "text",
    [
        "We finally repainted the nursery!",
        "My daughter learned to ride her bike.",
        "She gave birth to a healthy baby boy.",
        "Grandma turned ninety and the whole family came over.",
        "My brother and I drove up to the cabin.",
        "Just finished my first pottery class!",
    ],
)
def test_an_event_in_any_regular_past_is_dated_when_said(text: str) -> None:
    assert tells_of_event(text)
    assert event_period(text, REF) == (REF, REF + SAID)


@pytest.mark.parametrize(
    "text",
    [
        "We were so excited about it.",
        "I loved the food there.",
        "It made me think about my dad.",
        "Glad you enjoyed it!",
        "I felt relieved afterwards.",
        "They keep me motivated.",
        "I really wanted a dog.",
    ],
)
def test_a_past_of_state_or_feeling_tells_of_no_event(text: str) -> None:
    assert not tells_of_event(text)
    assert event_period(text, REF) is None


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("We've lived here a decade now.", d(2014, 6, 15)),
        ("I've had my cat eight years.", d(2016, 6, 15)),
        ("She's been sober six months now.", d(2023, 12, 15)),
        ("We've been together going on five years.", d(2019, 6, 15)),
        ("I've known her a good ten years.", d(2014, 6, 15)),
    ],
)
def test_a_span_with_no_for_runs_up_to_the_day_said(text: str, start: date) -> None:
    assert span(text) == (start, d(2024, 6, 15))


@pytest.mark.parametrize(
    "text",
    [
        "My son is eight years old.",
        "Eight years later we met again.",
        "I work three days a week.",
    ],
)
def test_a_count_of_units_outside_the_perfect_is_no_span(text: str) -> None:
    assert not [m for m in find_times(text, REF) if m.end.date() == d(2024, 6, 15)]


def test_since_a_season_alone_is_open_from_its_start() -> None:
    assert span("I've been at it since spring.") == (d(2024, 3, 1), d(2024, 6, 16))
    # a season before a year stays that year's
    assert span("We went there in summer 2021.") == (d(2021, 6, 1), d(2021, 9, 1))


def test_a_day_as_an_ordinal_word_alone() -> None:
    assert span("The party was on the twenty-first.") == (d(2024, 5, 21), d(2024, 5, 22))
    assert span("Rent is due on the first.", future=True) == (d(2024, 7, 1), d(2024, 7, 2))
    assert find_times("We won on the first try.", REF) == []


def test_a_year_with_an_apostrophe() -> None:
    assert span("We moved here back in '19.") == (d(2019, 1, 1), d(2020, 1, 1))
    assert span("We met in '98.") == (d(1998, 1, 1), d(1999, 1, 1))


def test_a_numeric_date_after_is_or_was() -> None:
    assert span("His birthday is 11/4.", future=True, order="month_first") == (
        d(2024, 11, 4),
        d(2024, 11, 5),
    )
    assert span("The wedding was 11/4.", order="day_first") == (d(2024, 4, 11), d(2024, 4, 12))
