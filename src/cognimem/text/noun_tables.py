"""The WordNet noun tables the package ships (``text/data/*.tsv.gz``: a noun, a tab, a
string of one-letter answers), read once on first use, and one lookup that finds a
regular or irregular plural under its singular. Nothing is fetched.
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

__all__ = ["noun_letters"]


@cache
def _table(name: str) -> dict[str, str]:
    raw = resources.files("cognimem.text").joinpath("data", f"{name}.tsv.gz").read_bytes()
    out: dict[str, str] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        word, letters = line.split("\t")
        out[word] = letters
    return out


def noun_letters(name: str, noun: str) -> str | None:
    """The letters table ``name`` holds for ``noun`` (lower-cased, spaces collapsed), or
    for its singular when ``noun`` is a plural ("cats", "boxes", "puppies"; an irregular
    plural such as "feet" is stored as ``>foot``); None when the table lacks it."""
    table = _table(name)
    noun = " ".join(noun.lower().split())
    found = table.get(noun)
    if found is None and len(noun) > 3 and noun.endswith("s"):
        stems = (noun[:-1], noun[:-2] if noun.endswith("es") else "", noun[:-3] + "y")
        found = next((table[s] for s in stems if s in table), None)
    if found is not None and found.startswith(">"):
        found = table.get(found[1:])
    return found
