"""What a time expression resolves to: :class:`TimeMention`, and the shape every
resolver of :mod:`.temporal`, :mod:`.dates`, :mod:`.holidays` and :mod:`.told`
returns."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

__all__ = ["DIGIT", "DIGIT_OR", "RECENT", "Handler", "Resolved", "Rule", "TimeMention", "precision"]


@dataclass(frozen=True)
class TimeMention:
    """One time expression: the words, where they are in the text, and the interval
    ``[start, end)`` (UTC) they name."""

    text: str
    start: datetime
    end: datetime
    granularity: str
    span: tuple[int, int]
    approximate: bool = False
    # counted from the reference ("last Friday", "two weeks ago"), not a date it names
    relative: bool = False
    # "the week before 16 November", "two days later": the period it counts from
    anchor: tuple[datetime, datetime] | None = None

    @classmethod
    def at(
        cls,
        text: str,
        span: tuple[int, int],
        resolved: tuple[datetime, datetime, str, bool],
        *,
        relative: bool,
        anchor: tuple[datetime, datetime] | None = None,
    ) -> TimeMention:
        """The words ``text[span]``, naming the interval a resolver returned."""
        start, end, granularity, approximate = resolved
        return cls(
            text[span[0] : span[1]], start, end, granularity, span, approximate, relative, anchor
        )


# the granularity of "recently" / "lately": a vague window, not a period a read asks for
RECENT = "recent"
# granularities from the finest; "three years ago" names a day but is known to a year
_FINEST_FIRST: tuple[str, ...] = ("part_of_day", "day", "weekend", "week", "fortnight")
_FINEST_FIRST += ("month", "quarter", "season", "year")


def precision(mention: TimeMention) -> tuple[int, float]:
    """A sort key, most precise first: the granularity the words are known to (a day for
    "on 3 May", a year for "three years ago"), then the length of the interval."""
    rank = _FINEST_FIRST.index(mention.granularity) if mention.granularity in _FINEST_FIRST else 9
    return rank, (mention.end - mention.start).total_seconds()


# a resolved time expression: start, end (UTC, end exclusive), granularity, approximate;
# None when the words do not name a real date ("30 February")
Resolved = tuple[datetime, datetime, str, bool] | None
# resolves a match against the reference, reading forwards when the flag says so
Handler = Callable[[re.Match[str], datetime, bool], Resolved]
# a pattern, the handler of its matches, and the words a text needs for the pattern to
# be tried at all (any one of them; None: a digit), which keeps most texts cheap
Rule = tuple[frozenset[str] | None, str, Handler]
# the word a text holds, for the gates of the rules, when it holds a digit
DIGIT = "0"
DIGIT_OR = frozenset({DIGIT})
