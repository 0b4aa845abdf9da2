"""A kind of thing judged by a noun and a relative clause of the speaker's: "Ironing
shirts is a chore I can't stand", "Flashcards are a method I swear by", "Fast fashion
is a habit I refuse to support", "Stadium concerts are an experience I can do without".
The noun only names what the thing is to the speaker; the stance is the relative
clause's, so the sentence is put back in the usual order ("I can't stand ironing
shirts") and :mod:`.detect_choices` reads that, as it reads a cleft
(:func:`.verdict_forms.fronted`). Read this way, the clause's last verb is no longer
taken for its object (the first reading recorded "Ironing shirts is a chore I can't
stand" as a stance against "stand").

The subject is a kind of thing (not a person, a pronoun, a possessive or an occasion:
:func:`.judged_kinds.kind_judged`); the noun has a determiner and at most three words
before it, and an "of" phrase at most ("a way of working I really enjoy"); the clause
is the speaker's ("I", "we", after "that" or "which" at times), at most six words, and
ends the sentence. Not read: someone else's clause ("Burpees are an exercise he can't
stand"), a question.
"""

from __future__ import annotations

from cognimem.ingest.extract.judged_kinds import NOT_A_KIND, kind_judged
from cognimem.ingest.extract.patterns import icase

__all__ = ["judged_relative"]

# no linking word inside the noun phrase: "a must for every app I use" is no relative
# clause of "must"
_NOT_NOUN = (
    r"(?!(?:I|we|that|which|who|only|of|for|to|in|on|at|with|about|from|than|and|or|but|"
    r"not)\b)"
)
# no second clause inside the relative one ("a habit I stick to when I travel")
_NOT_CLAUSE = r"(?!(?:when|whenever|if|because|since|while|as|and|but|so|I|we)\b)"
# a time said after the gap goes after the object: "a thing I won't do anymore"
_TIME = r"(?:these\s+days|nowadays|now|anymore|any\s+more|at\s+all|ever|again)"
_JUDGED_BY_CLAUSE = icase(
    rf"^(?!(?:{NOT_A_KIND})\b)(?P<rest>[a-z][\w' ,&-]{{1,80}}?)\s+(?P<be>is|are)\s+"
    r"(?:(?:just|really|simply|always|definitely|truly|quite)\s+)*(?:an?|the|my|our)\s+"
    rf"(?:{_NOT_NOUN}[a-z][\w-]*\s+){{0,3}}"
    rf"{_NOT_NOUN}[a-z][\w-]*(?:\s+of\s+[a-z][\w-]*)?\s+"
    r"(?:(?:that|which)\s+)?(?P<stance>(?:I|we)(?:'ll|'d|'ve|'m)?"
    rf"(?:\s+{_NOT_CLAUSE}[a-z][a-z'-]*){{1,6}}?)(?P<time>\s+{_TIME})?\s*[.!]*$"
)


def judged_relative(said: str) -> str | None:
    """``said`` put back in the usual order when it judges a kind of thing by a noun and
    the speaker's relative clause ("I can't stand ironing shirts"), else ``None``."""
    found = kind_judged(_JUDGED_BY_CLAUSE, said)
    if found is None:
        return None
    m, rest = found
    return f"{m['stance']} {rest}{m['time'] or ''}"
