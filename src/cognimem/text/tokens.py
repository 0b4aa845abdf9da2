"""The words of a text as the lexicons see them, and phrase lookup over word lists.

:func:`tokens` splits lower-cased text into words ("don't", "i'm", "k-pop" are one word
each); :func:`query_terms` keeps a query's content words (no function words) and
:func:`word_key` is how such words are compared across forms; :func:`words` reads a
comma-separated word list written as prose; a :class:`PhraseIndex` finds the phrases of
a list in a text with one dictionary probe per word, much cheaper than one regex
alternation over hundreds of phrases.

"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cognimem.text.stopwords import STOP_WORDS

__all__ = ["PhraseIndex", "query_terms", "tokens", "word_key", "words"]

_TOKEN = re.compile(r"[a-z0-9&]+(?:['.-][a-z0-9&]+)*")
_WORD = re.compile(r"[\w']+", re.UNICODE)


def words(text: str) -> tuple[str, ...]:
    """A comma-separated list as a tuple of lower-case phrases."""
    return tuple(" ".join(w.split()).lower() for w in text.split(",") if w.strip())


def tokens(text: str) -> list[str]:
    """Lower-case words as the phrase index and the triggers see them ("don't", "i'm",
    "k-pop" are one word each)."""
    return _TOKEN.findall(text.lower())


def query_terms(query: str) -> list[str]:
    """Lower-cased content words of ``query``, in order, without duplicates."""
    seen: dict[str, None] = {}
    for raw in _WORD.findall(query.lower()):
        word = raw.strip("'")
        if word.endswith("'s"):
            word = word[:-2]
        if len(word) < 2 and not word.isdigit():
            continue
        if word in STOP_WORDS or not word:
            continue
        seen.setdefault(word, None)
    return list(seen)


def word_key(word: str) -> str:
    """A content word as words are compared across forms: its first five letters
    ("researching" and "research" share ``resea``), a shorter word whole."""
    return word[:5]


class PhraseIndex:
    """Finds known phrases of one to a few words in a text by dictionary lookup: one
    pass over the words, longest phrase first at each word. Much cheaper than one
    regex alternation over hundreds of phrases."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self.phrases = frozenset(" ".join(_TOKEN.findall(p.lower())) for p in phrases)
        longest: dict[str, int] = {}
        for phrase in self.phrases:
            words = phrase.split(" ")
            longest[words[0]] = max(longest.get(words[0], 0), len(words))
        self._longest = longest

    def find(self, text: str) -> list[tuple[int, str]]:
        """``(word index, phrase)`` for each phrase found, left to right, not overlapping."""
        words = _TOKEN.findall(text.lower())
        found: list[tuple[int, str]] = []
        i = 0
        while i < len(words):
            span = self._longest.get(words[i], 0)
            for n in range(min(span, len(words) - i), 0, -1):
                phrase = " ".join(words[i : i + n])
                if phrase in self.phrases:
                    found.append((i, phrase))
                    i += n
                    break
            else:
                i += 1
        return found


def trigger_terms(text: str) -> list[str]:
    """The features of a request: its content words' keys (``query_terms``,
    each cut by ``word_key``), in order, once each. The read matches
    procedures by them (``recall/procedures.py``), detection groups requests by them
    (``lifecycle/procedures.py``)."""
    return list(dict.fromkeys(word_key(w) for w in query_terms(text)))


def similarity(a: Iterable[str], b: Iterable[str]) -> float:
    """Jaccard similarity of two sets of trigger words (0 when either is empty)."""
    x, y = set(a), set(b)
    if not x or not y:
        return 0.0
    return len(x & y) / len(x | y)
