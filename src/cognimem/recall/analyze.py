"""Query analysis: the terms lexical search should look for, and the period a query
asks about."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cognimem.errors import InvalidInput
from cognimem.ingest.extract.temporal import find_times

# English function words and question words: they match nearly every turn of a
# conversation and only dilute BM25.
_STOP_WORDS_TEXT = """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do
    does doesn't doing don't down during each few for from further had hadn't has hasn't
    have haven't having he he'd he'll he's her here here's hers herself him himself his
    how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more
    most mustn't my myself no nor not of off on once only or other ought our ours
    ourselves out over own same shan't she she'd she'll she's should shouldn't so some
    such than that that's the their theirs them themselves then there there's these they
    they'd they'll they're they've this those through to too under until up very was
    wasn't we we'd we'll we're we've were weren't what what's when when's where where's
    which while who who's whom why why's with won't would wouldn't you you'd you'll
    you're you've your yours yourself yourselves also just will would like likely s t d
    ll re ve m
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())

_WORD = re.compile(r"[\w']+", re.UNICODE)


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


_PAST = re.compile(
    r"\b(?:did|was|were|happened|had|went|got|made|saw|met|said|told|ago|yesterday|last)\b",
    re.IGNORECASE,
)


def asks_about_past(query: str) -> bool:
    """Whether the query is about what already happened ("what did I do this week?")."""
    return bool(_PAST.search(query))


def query_time_range(
    query: str, reference_time: datetime, timezone: str | None = None
) -> tuple[datetime, datetime] | None:
    """The period a query asks about ("what did I do last week?"), as a UTC interval
    ``[start, end)`` resolved in the caller's ``timezone`` against ``reference_time``
    ("yesterday" in Tokyo is not yesterday in UTC); ``None`` when it names no time.

    Several mentions: the span from the earliest start to the latest end.
    """
    zone = zone_of(timezone)
    # the temporal resolver does calendar arithmetic on the clock it is given: give it
    # the user's wall clock, then read its answers back as that zone's times
    wall = reference_time.astimezone(zone).replace(tzinfo=UTC)
    mentions = find_times(query, wall)
    if not mentions:
        return None
    start = min(m.start for m in mentions).replace(tzinfo=zone).astimezone(UTC)
    end = max(m.end for m in mentions).replace(tzinfo=zone).astimezone(UTC)
    return start, end


def zone_of(name: str | None) -> tzinfo:
    if name is None or name.upper() == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidInput(f"unknown timezone {name!r}", field="timezone") from exc
