"""``FactTime.admitted`` (every fact judged at once, as arrays) answers as
``FactTime.admits`` does fact by fact, for every status, every time set or not, and
every filter: valid time, recorded time, both, or neither."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import numpy as np

from cognimem.models import Scope
from cognimem.models.knowledge import Fact, FactCategory, FactStatus
from cognimem.recall.fact_time import FactTime, FactTimes, instant, times_of

T = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
# the points the facts' times and the filters' bounds are drawn from: a microsecond
# either side of a bound included, where a strict and a loose comparison part
POINTS = [T + timedelta(days=d) for d in (-30, 0, 30)] + [
    T + timedelta(microseconds=m) for m in (-1, 1)
]


def facts() -> list[Fact]:
    out = []
    choices = [None, *POINTS]
    for n, (status, valid_from, valid_to, recorded_to) in enumerate(
        itertools.product(list(FactStatus), choices, choices, choices)
    ):
        out.append(
            Fact(
                id=f"fact_{n}",
                scope=Scope(user_id="u"),
                key="user:lives_in",
                subject="user",
                predicate="lives_in",
                category=FactCategory.PREFERENCE,
                value=str(n),
                text=f"the user lives in {n}",
                status=status,
                valid_from=valid_from,
                valid_to=valid_to,
                recorded_at=POINTS[n % len(POINTS)],
                last_validated_at=T,
                recorded_to=recorded_to,
            )
        )
    return out


def filters() -> list[FactTime]:
    periods = [(a, b) for a, b in itertools.product(POINTS, POINTS) if a < b]
    out = [FactTime(None, at) for at in POINTS]
    for period in [*periods, *(instant(p) for p in POINTS)]:
        out += [FactTime(period, None, "question")]
        out += [FactTime(period, at, "question") for at in POINTS]
    return out


def test_the_arrays_admit_what_each_fact_is_admitted_by() -> None:
    known = facts()
    times = FactTimes.of(known)
    for at in filters():
        expected = [at.admits(f) for f in known]
        assert at.admitted(times).tolist() == expected, at


def test_some_facts_are_seen_and_some_not() -> None:
    # the grid above judges both answers under most filters (not all True, not all False)
    known = facts()
    times = FactTimes.of(known)
    mixed = [at for at in filters() if 0 < int(at.admitted(times).sum()) < len(known)]
    assert len(mixed) > len(filters()) // 2


def test_a_list_of_facts_is_read_into_arrays_once() -> None:
    known = facts()
    assert times_of(known) is times_of(known)
    other = list(known)  # the same facts in another list: its own arrays
    assert times_of(other) is not times_of(known)
    grown = facts()
    before = times_of(grown)
    grown.append(grown[0])
    after = times_of(grown)
    assert after is not before
    assert len(after.live) == len(grown)


def test_no_facts() -> None:
    times = FactTimes.of([])
    assert FactTime(instant(T), T).admitted(times).tolist() == []
    assert np.asarray(FactTime(None, T).admitted(times)).size == 0
