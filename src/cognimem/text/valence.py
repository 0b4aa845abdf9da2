"""How positive or negative a word is, by VADER's lexicon (C.J. Hutto; MIT licence, in
``text/data/NOTICE``). The table ships with the package (``text/data/valence.tsv.gz``,
built by ``scripts/build_valence.py`` from the ``vaderSentiment`` 3.3.2 wheel's
lexicon) and is read once, on first use; nothing is fetched."""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

__all__ = ["valence"]


@cache
def _table() -> dict[str, float]:
    raw = resources.files("cognimem.text").joinpath("data", "valence.tsv.gz").read_bytes()
    out: dict[str, float] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        word, mean = line.split("\t")
        out[word] = float(mean)
    return out


def valence(word: str) -> float:
    """VADER's mean valence of ``word`` (or of it without a plural or third-person
    "-s"), from -4 to +4; 0.0 when the lexicon does not rate it."""
    table = _table()
    low = word.lower()
    found = table.get(low)
    if found is None and low.endswith("s"):
        found = table.get(low[:-1])
    return found or 0.0
