"""Porter stems of words, memoised: one stemmer for everything that compares words.

The SQLite lexical index (``store/sqlite/lexical.py``) stems its terms with it, as
FTS5's ``porter`` tokenizer does, and the read path's evidence check
(``recall/evidence.py``) asks whether a memory's own words meet the query's by the
same stems ("researching" meets "research").
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import Stemmer

STEM_MIN, STEM_MAX = 3, 64  # FTS5's porter leaves shorter and longer tokens alone
_STEM_MEMO_MAX = 200_000

_local = threading.local()  # a Stemmer object is not safe to share between threads
_memo: dict[str, str] = {}  # word -> stem, shared by all threads


def stems(words: Iterable[str]) -> dict[str, str]:
    """Each distinct word of ``words`` (already lower-cased) -> its Porter stem; words
    shorter than 3 or longer than 64 characters stay as they are."""
    out: dict[str, str] = {}
    for word in set(words):
        stem = _memo.get(word)
        if stem is None:
            stem = word
            if STEM_MIN <= len(word) <= STEM_MAX:
                stemmer = getattr(_local, "stemmer", None)
                if stemmer is None:
                    stemmer = _local.stemmer = Stemmer.Stemmer("porter")
                stem = stemmer.stemWord(word)
            if len(_memo) < _STEM_MEMO_MAX:  # full: stem the rest each time
                _memo[word] = stem
        out[word] = stem
    return out
