"""Sentence splitting and token-bounded chunking.

Both functions work on spans of the original text, so a chunk is always a verbatim
slice of its input: no word is lost, reordered or rewritten, and only the whitespace
*between* chunks disappears.

Sentence boundaries are deliberately conservative. A wrongly merged pair of sentences
costs nothing downstream (the chunker still honours its token limit), while a wrong
split in "Dr. Smith" or "3.14" would cut a fact in half.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cognimem.errors import UsageError

__all__ = ["chunk_text", "split_sentences"]

# Lines are always separate sentences; any of these ends a line.
_LINE = re.compile(r"[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")

# A run of terminators, then any closing quotes or brackets, then whitespace.
_TERMINATOR = re.compile(r"[.!?…]+[\"'”’»)\]}]*(?=\s)")

# The first non-space character after a terminator.
_NEXT_CHAR = re.compile(r"\s*(\S)")

# The word just before a full stop: letters, digits and inner dots ("e.g", "U.S", "St").
_LAST_WORD = re.compile(r"([\w.]+)$")

# Abbreviations after which a full stop does not end a sentence, compared lower-cased
# and without their final dot. Some can close a sentence ("... at 7 a.m. Then"); those
# merge two sentences, which is harmless, where a split would cut a fact in two.
_ABBREVIATIONS = frozenset(
    {
        "mr", "mrs", "ms", "dr", "prof", "st", "mt", "sr", "jr", "rev", "gen", "col",
        "lt", "sgt", "capt", "vs", "cf", "viz", "approx", "fig", "etc", "inc",
        "ltd", "co", "corp", "e.g", "i.e", "a.m", "p.m", "u.s", "u.k",
    }
)  # fmt: skip

# A dotted abbreviation such as "U.S.A" or "i.e" (the last dot is the terminator).
_DOTTED = re.compile(r"^(?:[A-Za-z]\.)+[A-Za-z]$")

# A list marker: "1." or "a." alone at the start of a line or sentence.
_LIST_MARKER = re.compile(r"^(?:\d{1,3}|[A-Za-z])$")


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, each stripped and never empty.

    Every non-whitespace character of ``text`` appears in exactly one sentence, in
    order. Newlines always separate sentences; ``.``, ``!``, ``?`` and ``…`` (with
    any closing quotes or brackets) do when whitespace follows, except after common
    abbreviations, initials, list markers and before a lower-case word.
    """
    return [text[start:end] for start, end in _sentence_spans(text)]


def chunk_text(text: str, max_tokens: int, count_tokens: Callable[[str], int]) -> list[str]:
    """Group the sentences of ``text`` into chunks of at most ``max_tokens`` tokens.

    A text that fits is returned whole (stripped). Otherwise consecutive sentences are
    packed greedily; a sentence that alone is too long is split between words, and a
    word that alone is too long is split between characters. Chunks are verbatim
    slices of ``text``: none is empty, they do not overlap and they keep their order.

    Raises :class:`~cognimem.errors.UsageError` if ``max_tokens`` is below 1, or if a
    single character already counts as more than ``max_tokens`` tokens.
    """
    if max_tokens < 1:
        raise UsageError(f"max_tokens must be at least 1, got {max_tokens}")
    stripped = text.strip()
    if not stripped:
        return []
    if count_tokens(stripped) <= max_tokens:
        return [stripped]

    def fits(start: int, end: int) -> bool:
        return count_tokens(text[start:end]) <= max_tokens

    pieces: list[tuple[int, int]] = []
    for start, end in _sentence_spans(text):
        if fits(start, end):
            pieces.append((start, end))
        else:
            pieces.extend(_split_long(text, start, end, fits))

    chunks: list[str] = []
    current: tuple[int, int] | None = None
    for start, end in pieces:
        if current is None:
            current = (start, end)
        elif fits(current[0], end):
            current = (current[0], end)
        else:
            chunks.append(text[current[0] : current[1]])
            current = (start, end)
    if current is not None:
        chunks.append(text[current[0] : current[1]])
    return chunks


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for line in _LINE.finditer(text):
        start = line.start()
        for term in _TERMINATOR.finditer(text, line.start(), line.end()):
            if _is_boundary(text, start, term):
                spans.append((start, term.end()))
                start = term.end()
        spans.append((start, line.end()))
    return [trimmed for span in spans if (trimmed := _strip_span(text, *span)) is not None]


def _is_boundary(text: str, sentence_start: int, term: re.Match[str]) -> bool:
    """Decide whether the terminator run ``term`` really ends a sentence."""
    marks = term.group().rstrip("\"'”’»)]}")
    if not set(marks) <= {".", "…"}:
        return True  # "!", "?" and runs such as "?!" always end a sentence
    following = _NEXT_CHAR.match(text, term.end())
    if following is not None and following.group(1).islower():
        return False  # "approx. five", "Wait… what"
    if marks != ".":
        return True  # an ellipsis before a capital
    # A bounded window keeps this linear even on a long run of "Mr. X Mr. Y ...".
    before = text[max(sentence_start, term.start() - 32) : term.start()]
    found = _LAST_WORD.search(before)
    if found is None:
        return True
    word = found.group(1)
    if word.lower() in _ABBREVIATIONS or _DOTTED.match(word):
        return False
    if len(word) == 1 and word.isupper() and word != "I":
        return False  # an initial: "J. R. R. Tolkien"
    if _LIST_MARKER.match(word) and term.start() - sentence_start <= 16:
        return text[sentence_start : term.start()].strip() != word  # "1. Buy milk"
    return True


def _strip_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


_WORD = re.compile(r"\S+")


def _split_long(
    text: str, start: int, end: int, fits: Callable[[int, int], bool]
) -> list[tuple[int, int]]:
    """Split an over-long span between words, and over-long words between characters."""
    units: list[tuple[int, int]] = []
    for word in _WORD.finditer(text, start, end):
        if fits(word.start(), word.end()):
            units.append((word.start(), word.end()))
        else:
            units.extend(_split_chars(word.start(), word.end(), fits))
    pieces: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    for unit_start, unit_end in units:
        if current is None:
            current = (unit_start, unit_end)
        elif fits(current[0], unit_end):
            current = (current[0], unit_end)
        else:
            pieces.append(current)
            current = (unit_start, unit_end)
    if current is not None:
        pieces.append(current)
    return pieces


def _split_chars(start: int, end: int, fits: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """Cut a word into the longest prefixes that fit (binary search per piece)."""
    pieces: list[tuple[int, int]] = []
    while start < end:
        if not fits(start, start + 1):
            raise UsageError(
                "max_tokens is smaller than the token count of a single character; "
                "raise chunk_tokens"
            )
        low, high = start + 1, end  # invariant: fits(start, low)
        while low < high:
            middle = (low + high + 1) // 2
            if fits(start, middle):
                low = middle
            else:
                high = middle - 1
        pieces.append((start, low))
        start = low
    return pieces
