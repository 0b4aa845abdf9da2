"""Token-bounded chunking.

A chunk is always a verbatim slice of its input: no word is lost, reordered or
rewritten, and only the whitespace *between* chunks disappears. Chunks are made of
whole sentences (:mod:`cognimem.text.sentences`) where they fit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cognimem.errors import UsageError
from cognimem.text.sentences import sentence_spans

__all__ = ["chunk_text"]


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
    for start, end in sentence_spans(text):
        if fits(start, end):
            pieces.append((start, end))
        else:
            pieces.extend(_split_long(text, start, end, fits))

    return [text[start:end] for start, end in _pack(pieces, fits)]


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
    return _pack(units, fits)


def _pack(spans: list[tuple[int, int]], fits: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """Consecutive spans joined greedily, each run as long as it ``fits``."""
    packed: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    for start, end in spans:
        if current is None:
            current = (start, end)
        elif fits(current[0], end):
            current = (current[0], end)
        else:
            packed.append(current)
            current = (start, end)
    if current is not None:
        packed.append(current)
    return packed


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
