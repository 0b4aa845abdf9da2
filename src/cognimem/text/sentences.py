"""Sentence splitting: the one splitter of every part of cognimem that reads sentences
(the chunker, the rule extractor, consolidation's claims).

Boundaries are deliberately conservative. A wrongly merged pair of sentences costs
little downstream, while a wrong split in "Dr. Smith", "J. K. Rowling" or "3.14"
would cut a fact in half.
"""

from __future__ import annotations

import functools
import re

__all__ = ["forget_spans", "inner_stops", "kept_texts", "sentence_spans", "split_sentences"]

# Lines are always separate sentences; any of these ends a line.
_LINE = re.compile(r"[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")

# A run of terminators, then any closing quotes or brackets, then whitespace.
_TERMINATOR = re.compile(r"[.!?…]+[\"'”’»)\]}]*(?=\s)")

# The first non-space character after a terminator.
_NEXT_CHAR = re.compile(r"\s*(\S)")

# The word just before a full stop: letters, digits and inner dots ("e.g", "U.S", "St").
_LAST_WORD = re.compile(r"([\w.]+)$")

# A word that a sentence typed in lower case can end with: letters, at least two.
_WORD_ENDING = re.compile(r"^[A-Za-z]{2,}$")

# Abbreviations after which a full stop does not end a sentence, compared lower-cased
# and without their final dot. Some can close a sentence ("... at 7 a.m. Then"); those
# merge two sentences, which is harmless, where a split would cut a fact in two.
_ABBREVIATIONS = frozenset(
    {
        "mr", "mrs", "ms", "dr", "prof", "st", "mt", "sr", "jr", "rev", "gen", "col",
        "lt", "sgt", "capt", "vs", "cf", "viz", "approx", "fig", "etc", "inc", "ltd",
        "co", "corp", "e.g", "i.e", "a.m", "p.m", "u.s", "u.k", "jan", "feb", "mar",
        "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    }
)  # fmt: skip

# A dotted abbreviation such as "U.S.A" or "i.e" (the last dot is the terminator).
_DOTTED = re.compile(r"^(?:[A-Za-z]\.)+[A-Za-z]$")

# A full stop after a word, and the word: "Dr." in "Dr. Lee", "J." in "J.K. Rowling".
_WORD_STOP = re.compile(r"\b(\w+)\.")

# Letters each followed by a full stop: "e.g.", "a.m.", "U.S.".
_DOTTED_RUN = re.compile(r"\b(?:[A-Za-z]\.){2,}")

# A decimal point: "3.5", "1,500.50".
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")

# A list marker: "1." or "a." alone at the start of a line or sentence.
_LIST_MARKER = re.compile(r"^(?:\d{1,3}|[A-Za-z])$")


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, each stripped and never empty.

    Every non-whitespace character of ``text`` appears in exactly one sentence, in
    order. Newlines always separate sentences; ``.``, ``!``, ``?`` and ``…`` (with
    any closing quotes or brackets) do when whitespace follows, except after common
    abbreviations, initials and list markers; before a lower-case word only a full stop
    after a whole word does ("... budget chat. rent's gone up").
    """
    return [text[start:end] for start, end in _spans(text)]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where the sentences of ``text`` are, as ``(start, end)`` offsets (see
    :func:`split_sentences`)."""
    return list(_spans(text))


# A write splits each turn several times (the gate's event time and its event test, then
# the extractor, after the whole batch passed the gate): the spans of the last
# ``_KEPT`` short texts are kept (a batch of ``cognimem import``'s default 200 turns
# fits), as an immutable tuple each caller copies. A long text (a document to chunk) is
# split anew each time, so the cache never holds much. The cache is keyed by the texts
# themselves, so an erasure empties it (``forget_spans``): the texts split are raw and
# stored turns, chunks and claims, which the erased rows' hashes do not all name, and
# splitting 256 LoCoMo turns again costs ~3.5 ms of CPU once.
_KEPT, _KEPT_CHARS = 256, 4096


def _spans(text: str) -> tuple[tuple[int, int], ...]:
    return _kept_spans(text) if len(text) <= _KEPT_CHARS else _find_spans(text)


@functools.lru_cache(maxsize=_KEPT)
def _kept_spans(text: str) -> tuple[tuple[int, int], ...]:
    return _find_spans(text)


def kept_texts() -> int:
    """How many texts' spans are kept now (an erasure leaves none)."""
    return _kept_spans.cache_info().currsize


def forget_spans() -> None:
    """Drop the kept spans, and with them the texts they are keyed by: after an erasure
    (no erased user's turn stays in this process's cache), or in a benchmark timing one
    pass of texts a pass before split."""
    _kept_spans.cache_clear()


def _find_spans(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    for line in _LINE.finditer(text):
        start = line.start()
        for term in _TERMINATOR.finditer(text, line.start(), line.end()):
            if _is_boundary(text, start, term):
                spans.append((start, term.end()))
                start = term.end()
        spans.append((start, line.end()))
    return tuple(trimmed for span in spans if (trimmed := _trimmed(text, *span)) is not None)


def _is_boundary(text: str, sentence_start: int, term: re.Match[str]) -> bool:
    """Decide whether the terminator run ``term`` really ends a sentence."""
    marks = term.group().rstrip("\"'”’»)]}")
    if not set(marks) <= {".", "…"}:
        return True  # "!", "?" and runs such as "?!" always end a sentence
    following = _NEXT_CHAR.match(text, term.end())
    lower = following is not None and following.group(1).islower()
    if lower and marks != ".":
        return False  # "Wait… what"
    # A bounded window keeps this linear even on a long run of "Mr. X Mr. Y ...".
    before = text[max(sentence_start, term.start() - 32) : term.start()]
    found = _LAST_WORD.search(before)
    if marks != "." or found is None:
        return not lower  # an ellipsis before a capital
    word = found.group(1)
    if _abbreviated(word):
        return False
    if lower:
        # "ok so budget chat. rent's gone up": typed in lower case, a full stop after a
        # whole word still ends a sentence ("approx. five" is an abbreviation)
        return _WORD_ENDING.match(word) is not None
    if _LIST_MARKER.match(word) and term.start() - sentence_start <= 16:
        return text[sentence_start : term.start()].strip() != word  # "1. Buy milk"
    return True


def inner_stops(sentence: str) -> list[int]:
    """Where ``sentence`` has a full stop that ends nothing: inside a number ("3.5",
    "$1,500.50"), or after an initial ("J. K. Rowling", "J.K."), a title ("Dr. Lee",
    "St. Louis") or another abbreviation ("e.g.", "a.m.", "Feb."), with more of the
    sentence after it. A sentence's own last full stop is none of them."""
    last = len(sentence.rstrip().rstrip("\"'”’»)]}"))
    if "." not in sentence[: max(last - 1, 0)]:
        return []  # each kind below is a full stop before the sentence's last character
    names = [
        m.end() - 1
        for m in _WORD_STOP.finditer(sentence)
        if m.end() < last and _abbreviated(m.group(1))
    ]
    dotted = [
        at
        for m in _DOTTED_RUN.finditer(sentence)
        for at in range(m.start() + 1, m.end(), 2)
        if at < last - 1
    ]
    numbers = [m.start() for m in _DECIMAL_POINT.finditer(sentence)]
    return sorted(set(names + dotted + numbers))


def _abbreviated(word: str) -> bool:
    """Whether a full stop after ``word`` shortens it rather than ending a sentence: an
    abbreviation ("Dr", "e.g", "U.S.A") or an initial ("J" in "J. R. R. Tolkien")."""
    if word.lower() in _ABBREVIATIONS or _DOTTED.match(word):
        return True
    return len(word) == 1 and word.isupper() and word != "I"


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None
