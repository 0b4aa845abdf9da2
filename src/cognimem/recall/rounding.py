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
