"""Likes said as what the speaker ranks first or holds to, read for :mod:`.like_forms`
into a stance for the whole object, beside the preference the preference detector
reads:

- a favourite with no kind after it, or a favourite time, place or way for something
  ("X is my absolute favourite", "X is my favourite time for Y": the object keeps
  what it is the favourite for, "X for Y");
- a favourite of a kind the preference detector does not know ("X is my favourite
  bake", "X is my favourite part of any trip", "X is my favourite thing to grow": the
  object keeps what it is the favourite for, "X to grow", not what it is part of);
- what the speaker enjoys most ("X is what I enjoy most", "What I love best is X");
- a practice the speaker likes to keep ("I like to keep X").

Not one: a favourite of a kind the preference detector knows ("X is my favourite
food": a single-valued preference, as :mod:`.detect_preferences` reads it), a plain
like ("I love X"), a question, someone else's ("My son's favourite is X"), and what
is not a lasting thing (checked by :func:`.strong_likes.names_a_thing`). Nothing here
names a topic: the markers are "favourite", "most", "best", "keep" and function words.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import gated, icase
from cognimem.ingest.extract.strong_likes import liked_object, names_a_thing
from cognimem.ingest.extract.vocabulary import FAVORITE_KINDS
from cognimem.text.tokens import words

__all__ = ["TOP_WORDS", "top_like"]

# the words without one of which no form here can match
TOP_WORDS = frozenset(words("favourite, favorite, keep, most, best"))
_SUBJECT = (
    r"(?P<rest>(?!(?:it|that|this|he|she|they|you|there|which|what|who)\b)[a-z][\w' ,&-]{1,80}?)"
)
_FAVOURITE = gated(
    rf"^{_SUBJECT}\s+(?:is|are|'s|'re)\s+(?:(?:definitely|always|still|easily|by\s+far)\s+)?"
    r"(?:my|our)\s+(?:(?:absolute|all[- ]time|very|total|number[- ]one)\s+)?favou?rite"
    r"(?:\s+(?:time|place|spot|day|season|way|kind|sort)\s+(?:of\s+(?:the\s+)?\w+\s+)?"
    r"(?P<aim>(?:for|to)\s+.+?))?\s*[.!]*$",
    gate_match=True,
)
# "X is my favourite bake", "X is my favourite part of any trip": a kind, then what it
# is the favourite for, kept, or of, dropped (the kind is checked against the
# preference detector's)
_KIND = gated(
    rf"^{_SUBJECT}\s+(?:is|are|'s|'re)\s+(?:(?:definitely|always|still|easily|by\s+far)\s+)?"
    r"(?:my|our)\s+(?:(?:absolute|all[- ]time|very|total|number[- ]one)\s+)?favou?rite\s+"
    r"(?P<kind>(?!(?:time|place|spot|day|season|way|kind|sort)\b)[a-z][\w-]*(?:\s+(?!(?:to|for|"
    r"of|in|on|at|with)\b)[a-z][\w-]*)?)(?:\s+(?:(?P<aim>(?:to|for)\s+.+?)|(?:of|in|on|at)\s+"
    r".+?))?\s*[.!]*$",
    gate_match=True,
)
_LIKED_MOST = r"what\s+(?:I|we)\s+(?:really\s+)?(?:enjoy|love|like)\s+(?:the\s+)?(?:most|best)"
# "X is what I enjoy most", "What I love best is X"
_MOST = gated(
    rf"^(?:{_SUBJECT}\s+(?:is|are|'s|'re)\s+{_LIKED_MOST}|{_LIKED_MOST}\s+(?:is|are)\s+"
    r"(?P<after>.+?))\s*[.!]*$",
    gate_match=True,
)
_KEEP = icase(
    r"^(?:I|we)\s+(?:(?:always|really|just|do)\s+)?(?:like|prefer)\s+to\s+"
    r"(?P<rest>keep\s+.+?)\s*[.!]*$"
)


def top_like(said: str) -> str | None:
    """The object of a like ``said`` in one of the voices of the module docstring, or
    ``None``."""
    if said.rstrip().endswith("?"):
        return None
    for pattern in (_FAVOURITE, _KIND, _MOST, _KEEP):
        m = pattern.match(said)
        if m is None or (pattern is _KIND and _known_kind(m.group("kind"))):
            continue
        rest = m.group("rest") if pattern is _KEEP else m.group("rest") or m.group("after")
        rest = rest if pattern is _KEEP else liked_object(rest)
        if not names_a_thing(rest) or _theirs(rest):
            return None
        aim = m.groupdict().get("aim")
        return f"{rest} {aim}" if aim else rest
    return None


def _theirs(rest: str) -> bool:
    """Whether the subject is someone else's ("My son's favourite ...")."""
    head = rest.split()[0].lower() if rest.split() else ""
    return head.endswith("'s") and head not in ("let's", "that's", "it's")


def _known_kind(kind: str) -> bool:
    """Whether a favourite's kind is one the preference detector reads ("my favourite
    food") or a thing ("my favourite thing"), whose aim :data:`_FAVOURITE` keeps."""
    kind = kind.lower()
    return kind in FAVORITE_KINDS or kind.split()[-1] in FAVORITE_KINDS
