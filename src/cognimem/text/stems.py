"""The form a word is indexed under for lexical search, on both backends.

A word is cut to its Snowball English stem (PyStemmer's ``english``, Porter's revised
algorithm: "running", "runs" → "run"; "carefully" → "care"), which undoes inflection
and most derivation ("adoption" → "adopt", "happiness" → "happi"). It leaves two
suffixes alone that make a noun of a noun: *-ship* and *-hood* ("mentorship",
"friendship", "childhood"), so "when did she join a mentorship program?" never met "I
got mentored yesterday". Such a stem is indexed as the noun it is made of when WordNet
has that noun (``text/noun_senses.py``) and the whole word is not first of all a thing
(a spaceship is no kind of space, a warship no kind of war). The suffix rule is written
from English morphology, not from any data set's words; measured on the LoCoMo dev
five against Porter, Snowball English alone and WordNet's derivation links (which
joined too much: "significant" with "sign") in ``docs/benchmarks.md``.

Words shorter than three or longer than 64 characters are left whole, as SQLite
FTS5's ``porter`` tokenizer leaves them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import Stemmer

from cognimem.text.noun_senses import first_class, noun_classes

__all__ = ["index_stem", "index_stems"]

STEM_MIN, STEM_MAX = 3, 64
_NOUN_SUFFIXES = ("ship", "hood")
_MIN_NOUN = 3  # letters left before the suffix
_MEMO_MAX = 200_000

_local = threading.local()  # a Stemmer object is not safe to share between threads
_memo: dict[str, str] = {}  # word -> index form, shared by all threads


def _stemmer() -> Stemmer.Stemmer:
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer


def _index_form(word: str) -> str:
    if not STEM_MIN <= len(word) <= STEM_MAX:
        return word
    stemmer = _stemmer()
    stem: str = stemmer.stemWord(word)
    for suffix in _NOUN_SUFFIXES:
        noun = stem.removesuffix(suffix)
        if (
            noun != stem
            and len(noun) >= _MIN_NOUN
            and noun_classes(noun)
            and first_class(stem) != "artifact"
        ):
            return str(stemmer.stemWord(noun))
    return stem


def index_stem(word: str) -> str:
    """The index form of one lower-cased, folded word ("mentorship" → "mentor")."""
    return index_stems((word,))[word]


def index_stems(words: Iterable[str]) -> dict[str, str]:
    """Each distinct word of ``words`` (lower-cased, folded) → its index form."""
    out: dict[str, str] = {}
    for word in set(words):
        form = _memo.get(word)
        if form is None:
            form = _index_form(word)
            if len(_memo) < _MEMO_MAX:  # full: work the rest out each time
                _memo[word] = form
        out[word] = form
    return out
