"""``round(value, digits)`` bit for bit, at about half its cost for the signals a read
rounds (a few hundred a read: the rerank's, the packet items').

``round(v, d)`` writes ``v``'s exact binary value as a decimal correctly rounded to ``d``
places (half to even) and reads that decimal back: the double nearest ``n / 10**d`` for
the integer ``n`` so rounded. When ``v * 10**d``, computed in floating point, lies clear
of a half (farther from it than that product's rounding error, under 1e-7 for the values
taken here), the exact product rounds to the same integer ``n`` as the computed one, and
``n / 10**d`` (``n`` and ``10**d`` exact doubles, the quotient correctly rounded) is that
double. Every other value (not a float, not positive, 1,000 or more, near a half, not
finite) is ``round``'s own: an int stays an int, as ``round`` leaves it.
"""

from __future__ import annotations

import numpy as np

_SCALES = (1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6)  # exact doubles
# taken below 1e3 with at most 6 places: the product is under 1e9, its rounding error
# under 2**-24 (6e-8), well inside this margin from a half
_CLEAR_OF_HALF = 0.5 - 1e-6
_BELOW = 1e3


def round_places(value: float, digits: int) -> float:
    """``round(value, digits)`` (``digits`` 0 to 6), the same double."""
    if type(value) is float and 0.0 < value < _BELOW:
        scale = _SCALES[digits]
        scaled = value * scale
        n = round(scaled)
        if abs(scaled - n) < _CLEAR_OF_HALF:
            return n / scale
    return round(value, digits)


def round_rows(values: np.ndarray, digits: int) -> list[list[float]]:
    """``[[round_places(v, digits) for v in row] for row in values]`` for a 2-D float64
    array, a zero (``0.0`` or ``-0.0``) left as it is: the same doubles, with the test
    for a half done on the whole array at once (the rerank's ~190 rounds a read, one
    call each). A value outside the fast range, or near a half, is ``round``'s own."""
    scale = _SCALES[digits]
    scaled = values * scale
    nearest = np.rint(scaled)  # half to even, as ``round`` of a float
    with np.errstate(invalid="ignore"):  # an infinite value: inf - inf, not fast
        off = np.abs(scaled - nearest)
    fast = (values > 0.0) & (values < _BELOW) & (off < _CLEAR_OF_HALF)
    rows: list[list[float]] = np.where(fast, nearest / scale, values).tolist()
    for i, j in zip(*np.nonzero(~fast & (values != 0.0)), strict=True):
        rows[i][j] = round(rows[i][j], digits)
    return rows
