"""Phrasings the time parser reads that neither the time-expression set's tune half nor
the LoCoMo dev turns happen to hold (``benchmarks/time_ablation.py`` finds no reading of
theirs there): each is read here, so none is taken out as dead while people still say it.
Sentences written for these tests; read on Wednesday 12 June 2024 (``WED``)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from tests.unit.time_reading import days, one

d = date


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # "of late" is "lately": the last month up to the day said
        ("I've been so tired of late.", d(2024, 5, 13), d(2024, 6, 12)),
        ("Of late, work has been hectic.", d(2024, 5, 13), d(2024, 6, 12)),
        # a decade after an apostrophe alone, without "the"
        ("Fashion in '80s movies was wild.", d(1980, 1, 1), d(1990, 1, 1)),
        # "it'd been N since", as "it had been"
        ("It'd been three years since I saw her.", d(2021, 6, 12), d(2024, 6, 13)),
        ("It'd been about a month since the trip.", d(2024, 5, 12), d(2024, 6, 13)),
        # a year, in digits or spoken, opening a sentence inside a text
        ("We moved. 2019 was a hard year.", d(2019, 1, 1), d(2020, 1, 1)),
        ("I quit! 2020 was rough anyway.", d(2020, 1, 1), d(2021, 1, 1)),
        ("We met. Twenty nineteen was a big year.", d(2019, 1, 1), d(2020, 1, 1)),
    ],
)
def test_a_rare_form_is_read(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


@pytest.mark.parametrize(
    ("holiday", "day"),
    [
        ("April Fools' Day", d(2024, 4, 1)),
        ("Veterans Day", d(2023, 11, 11)),
        ("Ash Wednesday", d(2024, 2, 14)),
        ("Pentecost", d(2024, 5, 19)),
        ("Cyber Monday", d(2023, 11, 27)),
        ("Epiphany", d(2024, 1, 6)),
        ("Burns Night", d(2024, 1, 25)),
        ("Hogmanay", d(2023, 12, 31)),
        ("the early May bank holiday", d(2024, 5, 6)),
        ("the spring bank holiday", d(2024, 5, 27)),
        ("Groundhog Day", d(2024, 2, 2)),
        ("St David's Day", d(2024, 3, 1)),
        ("St George's Day", d(2024, 4, 23)),
        ("Earth Day", d(2024, 4, 22)),
        ("Cinco de Mayo", d(2024, 5, 5)),
        ("Canada Day", d(2023, 7, 1)),
        ("Bastille Day", d(2023, 7, 14)),
        ("All Saints' Day", d(2023, 11, 1)),
        ("All Souls' Day", d(2023, 11, 2)),
        ("Remembrance Day", d(2023, 11, 11)),
        ("St Andrew's Day", d(2023, 11, 30)),
        ("Remembrance Sunday", d(2023, 11, 12)),
        ("Maundy Thursday", d(2024, 3, 28)),
        ("Holy Saturday", d(2024, 3, 30)),
        ("Ascension Day", d(2024, 5, 9)),
        ("Whit Monday", d(2024, 5, 20)),
        ("Trinity Sunday", d(2024, 5, 26)),
        ("Corpus Christi", d(2024, 5, 30)),
        # lunar and lunisolar holidays, from the shipped table of their dates
        ("Purim", d(2024, 3, 24)),
        ("Islamic New Year", d(2023, 7, 19)),
        ("Mawlid", d(2023, 9, 27)),
        ("Dussehra", d(2023, 10, 24)),
        ("Vesak", d(2024, 5, 23)),
    ],
)
def test_a_holiday_is_its_latest_day_up_to_the_reference(holiday: str, day: date) -> None:
    assert days(one(f"We met up on {holiday}.")) == (day, day + timedelta(days=1))


def test_a_two_day_holiday_keeps_both_days() -> None:
    assert days(one("We met up on Shavuot.")) == (d(2024, 6, 12), d(2024, 6, 14))
