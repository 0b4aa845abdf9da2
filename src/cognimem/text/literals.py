"""What a regular expression cannot match without: a cheap test before a costly scan.

The rule extractor's patterns are case-insensitive and mostly open with ``\\b`` and a
long alternation, so Python's engine finds no prefix to skip ahead by and tries the
whole pattern at every position of a sentence (tens of microseconds for some). Most
sentences hold none of the words such a pattern is built around. :func:`needles`
reads a pattern's parse tree for strings one of which any match must contain
(lower-cased), and :class:`Gated` runs the pattern only on a text that holds one.

The test is exact, never a guess: a text without any needle has no match, so a gated
pattern answers as the pattern would. It applies to ASCII texts only (a text with any
other character is always scanned): under ``re.IGNORECASE`` some non-ASCII letters
match ASCII ones (the Kelvin sign and "k", the long s and "s", the dotless i and "i"),
which a lower-cased substring test would miss. A pattern character that is not ASCII
and has no case can never match in an ASCII text; one that has a case is taken as
matching anything. Back-references, conditionals and other constructs this reading
does not know are taken as matching anything too: the test then only loses its use,
never its truth.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["Gated", "WordGated", "forget_lowered", "kept_lowered", "needles"]

_parser: Any = importlib.import_module("re._parser")  # the engine's own parser: no stubs

_END = sys.maxsize  # the end of any text, as ``re`` takes it
_MAX = 48  # most needles a test holds (each is one substring search)

# needles: lower-case strings a text must hold one of; {""} when nothing is known
# (every text holds ""), the empty set when no ASCII text can match at all
_ANY: frozenset[str] = frozenset({""})
_NONE: frozenset[str] = frozenset()
# exact: every string a part can match (lower-cased), or None when too many or unknown
_Exact = frozenset[str] | None
_EMPTY: frozenset[str] = frozenset({""})  # a zero-width part (an anchor, a lookaround)


def _char(code: int) -> frozenset[str] | None:
    """The needles of one literal character: itself lower-cased; none at all for a
    character no ASCII text can match; ``None`` when it may match an ASCII one."""
    char = chr(code)
    if code < 128:
        return frozenset({char.lower()})
    return _NONE if char.lower() == char.upper() else None


def _fit(found: frozenset[str]) -> frozenset[str]:
    """``found`` cut to at most ``_MAX`` needles: each shortened to a prefix (a string
    holding a needle holds its prefixes) until few enough are left."""
    if "" in found:
        return _ANY
    size = max(map(len, found), default=0)
    while len(found) > _MAX and size > 1:
        size -= 1
        found = frozenset(n[:size] for n in found)
    if len(found) > _MAX:
        return _ANY
    # a needle holding another says nothing more ("likes" beside "like")
    return frozenset(n for n in found if not any(m != n and m in n for m in found))


def _better(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether needles ``a`` say more than ``b``: no match possible first, then the
    longest shortest needle (longer strings are rarer), then fewer needles."""
    if not a or not b:
        return not a and bool(b)
    return (min(map(len, a)), -len(a)) > (min(map(len, b)), -len(b))


def _joined(a: frozenset[str], b: frozenset[str]) -> frozenset[str] | None:
    """Every ``a`` followed by every ``b``; ``None`` when too many."""
    if len(a) * len(b) > 4 * _MAX:
        return None
    return frozenset(x + y for x in a for y in b)


def _in(items: Any) -> tuple[_Exact, frozenset[str]]:
    chars: set[str] = set()
    for op, av in items:
        one = _char(av) if op.name == "LITERAL" else None
        if one is None:  # a range, a class (\s, \w), a negation: anything
            return None, _ANY
        chars |= one
    found = frozenset(chars)
    return found, found


def _branch(options: Any) -> tuple[_Exact, frozenset[str]]:
    exact: set[str] | None = set()
    found: set[str] = set()
    for option in options:
        each, need = _sequence(option)
        found |= need
        exact = None if exact is None or each is None else exact | each
    if exact is not None and len(exact) > 4 * _MAX:
        exact = None
    return (None if exact is None else frozenset(exact)), _fit(frozenset(found))


def _repeat(low: int, high: int, inner: Any) -> tuple[_Exact, frozenset[str]]:
    exact, need = _sequence(inner)
    if low > 0:
        return (exact if low == high == 1 else None), need
    if high == 1 and exact is not None:  # optional: "s?"
        return _EMPTY | exact, _ANY
    return None, _ANY


def _node(op: Any, av: Any) -> tuple[_Exact, frozenset[str]]:
    """The exact strings and the needles of one node of a parse tree."""
    name = op.name
    if name == "LITERAL":
        one = _char(av)
        return (None, _ANY) if one is None else (one, one)
    if name in ("AT", "ASSERT", "ASSERT_NOT"):
        return _EMPTY, _ANY
    if name == "IN":
        return _in(av)
    if name == "BRANCH":
        return _branch(av[1])
    if name == "SUBPATTERN":
        return _sequence(av[3])
    if name == "ATOMIC_GROUP":
        return _sequence(av)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return _repeat(*av)
    return None, _ANY  # any character, a class, a back-reference, a conditional


def _sequence(items: Any) -> tuple[_Exact, frozenset[str]]:
    """The exact strings and the best needles of nodes matched one after another: each
    node's own needles, or a run of nodes with exact strings joined (zero-width nodes
    join their neighbours: a match consumes them side by side)."""
    best = _ANY
    run: frozenset[str] | None = _EMPTY
    whole: _Exact = _EMPTY

    def consider(found: frozenset[str]) -> None:
        nonlocal best
        found = _fit(found)
        if found != _ANY and (best == _ANY or _better(found, best)):
            best = found

    for op, av in items:
        exact, need = _node(op, av)
        consider(need)
        if exact is None:
            if run is not None:
                consider(run)
            run, whole = _EMPTY, None
            continue
        whole = None if whole is None else _joined(whole, exact)
        joined = None if run is None else _joined(run, exact)
        if joined is None:
            if run is not None:
                consider(run)
            run = exact
        else:
            run = joined
    if run is not None:
        consider(run)
    return whole, best


def needles(pattern: re.Pattern[str]) -> frozenset[str]:
    """Lower-case strings one of which an ASCII text holds, lower-cased, whenever
    ``pattern`` matches in it: ``{""}`` when none were found (any text may match), the
    empty set when no ASCII text can match."""
    return _sequence(_parser.parse(pattern.pattern, pattern.flags))[1]


# the text a gate tested last and its lower-cased form (``None``: not ASCII, always
# scanned). Several gates in a row test the same sentence or clause (the same object), so
# it is lowered once for all of them; the pair is one tuple, replaced whole, so a thread
# never reads one text with another's lower-cased form.
_last: list[tuple[str, str | None]] = [("", "")]


def forget_lowered() -> None:
    """Drop the text kept with its lower-cased form: after an erasure."""
    _last[0] = ("", "")


def kept_lowered() -> int:
    """1 while a text is kept with its lower-cased form, else 0."""
    return 0 if _last[0][0] == "" else 1


def _lowered(text: str) -> str | None:
    """``text`` lower-cased, ``None`` when it is not ASCII (kept for the next gate)."""
    last = _last[0]
    if last[0] is text:
        return last[1]
    low = text.lower() if text.isascii() else None
    _last[0] = (text, low)
    return low


class Gated:
    """``regex`` behind a test of its :func:`needles`: :meth:`search`, :meth:`sub`,
    :meth:`split` and :meth:`finditer` scan only an ASCII text that holds one (else
    they answer "no match" at once), and answer exactly as ``regex`` does.
    :meth:`match` scans every text unless ``gate_match``: a match at the start alone is
    mostly cheap, but not for a pattern that reads far before it can fail."""

    __slots__ = ("_gate_match", "_needles", "pattern", "regex")

    def __init__(self, regex: re.Pattern[str], *, gate_match: bool = False) -> None:
        self.regex = regex
        self.pattern = regex.pattern
        self._needles = tuple(needles(regex))
        self._gate_match = gate_match

    def may_match(self, text: str) -> bool:
        """Whether ``text`` may hold a match (``False``: it holds none)."""
        last = _last[0]  # ``_lowered`` written out: this runs ~60,000 times per 400 turns
        low = last[1] if last[0] is text else _lowered(text)
        if low is None:
            return True
        # a loop, not ``any``: ~30 % cheaper a call here (no generator or map object)
        for needle in self._needles:  # noqa: SIM110
            if needle in low:
                return True
        return False

    def search(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.regex.search(text, pos, endpos) if self.may_match(text) else None

    def match(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        if self._gate_match and not self.may_match(text):
            return None
        return self.regex.match(text, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.regex.sub(repl, text, count) if self.may_match(text) else text

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return self.regex.split(text, maxsplit) if self.may_match(text) else [text]

    def finditer(self, text: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text, pos, endpos) if self.may_match(text) else iter(())


class WordGated:
    """``regex`` scanned only in a text that is not ASCII or holds one of ``words`` (any
    case) as a word between white space, else answered "no match" at once: for a
    pattern each match of which holds such a word (``\\s+(?:really|so)\\s+``), which
    :func:`needles` cannot see (a literal test of "so" would pass nearly every text). The
    caller vouches for the words; the tests check every such pattern of the rule
    extractor on the labelled sentences."""

    __slots__ = ("pattern", "regex", "words")

    def __init__(self, regex: re.Pattern[str], words: Iterable[str]) -> None:
        self.regex = regex
        self.pattern = regex.pattern
        self.words = frozenset(w.lower() for w in words)

    def may_match(self, text: str) -> bool:
        """Whether ``text`` may hold a match (``False``: it holds none)."""
        low = _lowered(text)
        return low is None or not self.words.isdisjoint(low.split())

    def search(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.regex.search(text, pos, endpos) if self.may_match(text) else None

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.regex.sub(repl, text, count) if self.may_match(text) else text
