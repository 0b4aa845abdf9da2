"""Exaggeration no one means, told by the size it claims: a count, a span of time or an
amount no life holds. A careful reader keeps no standing stance from "I've read this
chapter a hundred times", "I've been in meetings since the Stone Age", "I could sleep
for a hundred years", "I've cooked enough rice to feed an army" or "I have about a
zillion tabs open"; "I've been to Lisbon five times", "my house is a hundred years old"
and "I have a thousand followers" are no exaggeration.

What is read, by grammar and number words only (no topic):

- a number said as many times over: "a hundred / a thousand / a million times";
- an era no one has lived through as when a thing began: "since the Stone Age", "since
  the last ice age", "since the dinosaurs", "since forever";
- a span of a hundred years or more said of what a person does or will do: "for a
  hundred years", "in a million years" (not "a hundred years old", an age);
- "a million / a billion / a zillion ..." of anything but money or people counted
  ("a million dollars", "a million users" are numbers);
- "enough ... to feed" an army, a village, a country or a named place.

Read by the last reading of a sentence as a stance
(:mod:`cognimem.ingest.extract.detect_stances`): an overstated sentence is kept whole as
no constraint. What a detector reads from it still stands ("I've been vegetarian for
like a million years" is vegetarian).
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase

__all__ = ["overstates"]

_BIG = r"(?:hundred|thousand|million|billion|trillion|zillion|gazillion|bajillion|kajillion)"
_HUGE = r"(?:million|billion|trillion|zillion|gazillion|bajillion|kajillion)"
_OVERSTATED = icase(
    # "a hundred times", "ten thousand times", "like a million times"
    rf"\b(?:a|one|ten|a\s+few|several|like\s+a|about\s+a)\s+{_BIG}\s+times\b|"
    # an era as a beginning
    r"\bsince\s+(?:the\s+)?(?:(?:last|first)\s+)?(?:stone|ice|bronze|iron|dark)\s+ages?\b|"
    r"\bsince\s+the\s+(?:dinosaurs|pyramids|big\s+bang|middle\s+ages)\b|\bsince\s+forever\b|"
    # a span no life holds, not an age
    rf"\b(?:for|in|about)\s+(?:a|one|a\s+few|several|like\s+a)\s+{_BIG}\s+years\b(?!\s+old\b)|"
    # a huge number of anything but money or people counted
    rf"\b(?:a|one|like\s+a|about\s+a)\s+{_HUGE}\s+(?!(?:dollars|pounds|euros|bucks|yen|"
    r"rupees|people|users|followers|subscribers|views|downloads|customers|in\b|of\s+"
    r"(?:dollars|pounds|euros|people)\b))[a-z]+|"
    # "enough X to feed an army"
    r"\benough\b[^.;!?]{1,40}?\bto\s+feed\s+(?:(?:an?|the|a\s+small|the\s+whole)\s+"
    r"(?:army|village|town|city|country|nation|continent|planet|world|street)\b|(?-i:[A-Z]))"
)
# the words without one of which no pattern above can match
_GATE = ("hundred", "thousand", "illion", "since", "feed")


def overstates(text: str) -> bool:
    """Whether a tidied sentence exaggerates by a size no one means (see the module
    docstring)."""
    low = text.lower()
    return any(w in low for w in _GATE) and _OVERSTATED.search(text) is not None
