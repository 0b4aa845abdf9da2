"""The WordNet tables the package ships (``text/data/*.tsv.gz``: a word, a tab, a string
of answers, or ``>`` and the word an irregular form stands for), read once on first use;
an exact lookup that follows such a pointer, and one that finds a regular or irregular
plural under its singular. Nothing is fetched.
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

__all__ = ["entry", "noun_letters", "plural_stems", "table"]


@cache
def table(name: str) -> dict[str, str]:
    """Table ``name`` whole: each word (lower-case, words of a phrase one space apart)
    and its answer string as stored."""
    raw = resources.files("cognimem.text").joinpath("data", f"{name}.tsv.gz").read_bytes()
    out: dict[str, str] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        word, letters = line.split("\t")
        out[word] = letters
    return out


def entry(name: str, word: str) -> str | None:
    """The answer table ``name`` holds for ``word`` exactly (lower-cased, spaces
    collapsed), or for the word an irregular form stands for (stored as ``>word``);
    None when the table lacks it."""
    found = table(name).get(" ".join(word.lower().split()))
    if found is not None and found.startswith(">"):
        found = table(name).get(found[1:])
    return found


def noun_letters(name: str, noun: str) -> str | None:
    """The letters table ``name`` holds for ``noun`` (lower-cased, spaces collapsed), or
    for its singular when ``noun`` is a plural ("cats", "boxes", "puppies"; an irregular
    plural such as "feet" is stored as ``>foot``); None when the table lacks it."""
    found = entry(name, noun)
    if found is None:
        stems = plural_stems(" ".join(noun.lower().split()))
        found = next((e for s in stems if (e := entry(name, s)) is not None), None)
    return found


def plural_stems(noun: str) -> tuple[str, ...]:
    """The singulars a regular plural ``noun`` (lower-case, longer than three letters,
    ending in "s") may stand for, most likely first: "cats" "cat"; "boxes" "boxe", "box";
    "puppies" "puppie", "puppi", "puppy" (so "cookies" is "cookie" before "cooky").
    Empty for any other word."""
    if len(noun) <= 3 or not noun.endswith("s"):
        return ()
    stems = [noun[:-1]]
    if noun.endswith("es"):
        stems.append(noun[:-2])
    if noun.endswith("ies"):
        stems.append(noun[:-3] + "y")
    return tuple(stems)
