"""A plain love that is a standing like all the same, read for :mod:`.detect_choices`:
a love with no intensifier ("I love X", not "I really love X": :mod:`.strong_likes`)
is a preference only, unless its grammar says it is a standard the speaker chooses by:

- its object is *specified*: the head is followed by a post-modifier, a prepositional
  phrase or a relative clause ("I love stews that simmer all afternoon", "I love trains
  with sleeper cabins", "I love cooking with seasonal vegetables"), or the sentence
  grades it ("I love a thick risotto, the cheesier the better") or bounds it by a
  clause of time ("I love paying bills the moment they arrive");
- or it is said under a condition ("When I'm on holiday I love exploring markets"):
  a rule by its frame, as a habit under a condition is (the caller passes the
  condition it read); so is a plain "like" or "enjoy" under one ("When I travel I like
  to stay in hostels", "After dinner I enjoy a small glass of port"), and only then.

A love of a bare object ("I love pasta", "I love cartoons") stays a preference only,
as the labelled sets keep it. Not one either: what :func:`.strong_likes.names_a_thing`
rejects (the conversation, the listener, a person, the speaker's own), a wish ("I'd
love to ..."), someone else's love, a love of the past. Nothing here names a topic: the
markers are the verb, English prepositions and relative words.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase
from cognimem.ingest.extract.strong_likes import liked_object, names_a_thing
from cognimem.text.tokens import tokens, words

__all__ = ["specified_love"]

_PLAIN_LOVE = icase(r"^(?:I|we)\s+(?P<verb>love|like|enjoy)\s+(?P<rest>.+)")
# the words that open a post-modifier: prepositions, "as", and the relative words
_RELATIVE = frozenset(words("that, which, who, whose, where"))
_PREPOSITIONS = frozenset(
    words(
        """with, without, in, on, at, by, from, about, through, under, near, along, after,
        before, during, for, as, to, across, around, beside, outside, inside, among"""
    )
)
# a clause of time or condition after the object: "paying bills the moment they arrive"
_WHEN = icase(r"\s(?:when|whenever|while|until|unless|once|the (?:moment|minute|second))\s")
# "as" that opens an adverb, not a modifier: "as well", "as much", "as ever"
_AS_ADVERB = frozenset(words("well, much, ever, always, usual, often"))
_DETERMINERS = frozenset(words("a, an, the, this, that, these, those, some, any"))
# a head the love is of the listener's words or a manner, not a thing chosen: "I love
# the way you ...", "I love the idea of ..."
_NOT_A_HEAD = frozenset(words("way, idea, fact, thought, sound, look, feeling, thing"))
# "X, the cheesier the better", "X, the more bitter the better"
_GRADED = icase(r",\s*the\s+(?:more\s+[a-z]+|[a-z]+er)\s+the\s+better\b")


def specified_love(said: str, condition: str | None = None) -> str | None:
    """The object of a plain love ``said`` that is a standing like by its grammar (see
    the module docstring), with its whole object; ``None`` otherwise. ``condition`` is
    the condition the sentence opens with, when one was read ("When I travel")."""
    if condition and said.lower().startswith(condition.lower()):
        said = said[len(condition) :].strip(" ,")
    m = _PLAIN_LOVE.match(said)
    if m is None or (m.group("verb").lower() != "love" and not condition):
        return None  # a plain "like" or "enjoy" is a rule only by its frame
    rest = m.group("rest")
    if rest.lower().startswith("to "):
        rest = rest[3:]  # "I love to bake bread at weekends"
    thing = liked_object(rest)
    if not names_a_thing(thing):
        return None
    said_words = tokens(thing)
    if not _NOT_A_HEAD.isdisjoint(said_words[:3]):
        return None
    if condition or _GRADED.search(rest) or _WHEN.search(thing) or _specified(said_words):
        return thing
    return None


def _specified(said_words: list[str]) -> bool:
    """Whether the object's head is followed by a post-modifier: a preposition or a
    relative word after the first word past a determiner ("trains with ...", "a flat
    white with ..."), but not "to" right after it ("going to the gym" is a bare
    activity, "path to the river" a bare noun), nor "that" after a preposition ("to
    that lake": a determiner), nor "as" of an adverb ("as well")."""
    while said_words and said_words[0] in _DETERMINERS:
        said_words = said_words[1:]
    for i, word in enumerate(said_words[1:], start=1):
        after = said_words[i + 1] if i + 1 < len(said_words) else ""
        if word == "as" and after in _AS_ADVERB:
            continue  # "Mexican food as well": an adverb, no modifier
        if word in _PREPOSITIONS and not (word == "to" and i == 1):
            return True
        if word in _RELATIVE and said_words[i - 1] not in _PREPOSITIONS:
            return True
    return False
