"""A thing wanted is no goal: "I want a Tesla so badly", "we really want a dog" say
what the speaker would like to have, which a careful reader does not record (what is
owned is: "I have a Kindle"). "I want a promotion", "I want a house by 2030" and "I
want to run a marathon" are goals: the thing's noun names no object or animal first of
all (WordNet's noun classes, :mod:`cognimem.text.noun_senses`), a deadline makes it a
plan, and an infinitive an aim.

A name in capitals that WordNet does not know as a common noun first ("a Tesla", "a
Rolex", "a Kindle") is a make: a thing.

Nor is a kind of person the speaker wishes they were ("I'd love to be the kind of
person who meditates every morning", "I want to be someone who reads more", "one of
those people who ..."): it describes a character, not an aim with an end.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase
from cognimem.text.noun_senses import first_class

__all__ = ["wants_a_character", "wants_a_thing"]

_WANT_THING = icase(
    r"^(?:I|we)\s+(?:(?:really|so|still|just|also)\s+)*want\s+(?:an?|one|another)\s+"
    r"(?:[\w-]+\s+){0,3}?(?P<head>[\w-]+)"
    # what may follow the thing: how much, when someday, or nothing
    r"(?:\s+(?:so\s+badly|so\s+much|badly|too|someday|one\s+day|at\s+some\s+point))?"
    r"\s*[.!]*$"
)
_THINGS = frozenset({"artifact", "animal"})
# "be the kind of person who", "be someone who", "be one of those people who"
_A_CHARACTER = icase(
    r"\bbe\s+(?:(?:the|a|that)\s+(?:kind|sort|type)\s+of\s+[\w-]+|someone|somebody|"
    r"(?:a|the)\s+person|one\s+of\s+those\s+[\w-]+)\s+(?:who|that)\b"
)


def wants_a_thing(text: str) -> bool:
    """Whether ``text`` only says the speaker wants a thing or an animal to have."""
    m = _WANT_THING.match(text.strip())
    if m is None:
        return False
    head = m["head"]
    kind = first_class(head.lower())
    return kind in _THINGS or (head[:1].isupper() and kind not in {"person", "act"})


def wants_a_character(text: str) -> bool:
    """Whether ``text`` wishes the speaker were a kind of person ("be someone who ...")."""
    return _A_CHARACTER.search(text) is not None
