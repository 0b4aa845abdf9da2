"""``round_places`` is ``round(value, digits)`` bit for bit (recall/rounding.py)."""

from __future__ import annotations

import math
import random
import struct

import pytest

from cognimem.recall.rounding import round_places


def _same(a: float, b: float) -> bool:
    return struct.pack("<d", a) == struct.pack("<d", b)


@pytest.mark.parametrize("digits", [0, 3, 4, 6])
def test_the_same_double_as_round_on_random_values(digits: int) -> None:
    rng = random.Random(digits)
    values = [rng.random() for _ in range(20_000)]
    values += [rng.uniform(0, 2_000) for _ in range(5_000)]
    values += [10 ** rng.uniform(-12, 0) for _ in range(5_000)]
    for value in values:
        assert _same(round_places(value, digits), round(value, digits)), (value, digits)


@pytest.mark.parametrize("digits", [4, 6])
def test_the_same_double_as_round_at_and_beside_the_halves(digits: int) -> None:
    """Decimal halves (``k.5`` in the last place), their neighbouring doubles, and
    values that are already short: where the scaled product's rounding matters."""
    rng = random.Random(100 + digits)
    scale = 10.0**digits
    values = []
    for _ in range(5_000):
        k = rng.randrange(0, 10_000_000)
        half = (k + 0.5) / scale
        short = k / scale
        for v in (half, short):
            values += [v, math.nextafter(v, 0.0), math.nextafter(v, math.inf)]
    for value in values:
        assert _same(round_places(value, digits), round(value, digits)), (value, digits)


@pytest.mark.parametrize(
    "value", [0.0, -0.0, -0.123456, -1e-9, 1e3, 5e3, 1e300, 5e-324, math.inf, -math.inf]
)
def test_values_outside_the_fast_range_are_round_s_own(value: float) -> None:
    assert _same(round_places(value, 4), round(value, 4))


def test_not_a_number_stays_one() -> None:
    assert math.isnan(round_places(math.nan, 4))


@pytest.mark.parametrize("value", [1, 7, True])
def test_an_int_stays_an_int(value: int) -> None:
    rounded = round_places(value, 4)
    assert type(rounded) is int
    assert rounded == value


def test_rows_are_round_places_of_each_value_and_zeros_are_kept() -> None:
    """``round_rows`` over a matrix: each value ``round_places``' double, halves and
    their neighbours (``round``'s own) too, ``0.0`` and ``-0.0`` as they are."""
    import numpy as np

    from cognimem.recall.rounding import round_rows

    rng = random.Random(7)
    values = [rng.random() for _ in range(3_000)]
    values += [rng.uniform(0, 2_000) for _ in range(600)]
    values += [(rng.randrange(0, 10_000_000) + 0.5) / 1e4 for _ in range(600)]
    values += [math.nextafter(v, math.inf) for v in values[-600:]]
    values += [0.0, -0.0, -0.25, 1e3, math.inf, 5e-324] * 10
    rng.shuffle(values)
    matrix = np.array(values[: len(values) // 12 * 12]).reshape(-1, 12)
    rows = round_rows(matrix, 4)
    for row, got in zip(matrix.tolist(), rows, strict=True):
        for v, r in zip(row, got, strict=True):
            assert type(r) is float
            assert _same(r, v if v == 0.0 else round_places(v, 4)), v


def test_rows_keep_not_a_number() -> None:
    import numpy as np

    from cognimem.recall.rounding import round_rows

    assert math.isnan(round_rows(np.array([[math.nan, 0.5]]), 4)[0][0])
