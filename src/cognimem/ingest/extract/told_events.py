"""A past event told as a cause or a state, read for :mod:`.passing`: what happened
once is news, not a standing cause ("I dropped my phone last week because my hands were
full", "The frost killed my tomatoes last night", "The new detergent ruined my
jumper").

Only a sentence kept whole (a cause and its effect, or a state read as the sentence) is
read, so a stance said in it keeps its own fact ("I gave up sugar last month because it
made me tired" keeps the stance on sugar). The sentence tells one event when its subject
and first verb are in the simple past ("I dropped", "the frost killed"; not "I'd", a
modal, nor the perfect) and a time of its clause lies wholly in the past ("last week",
"last night", "in May", said on a later day), or its subject is one thing pointed at
("the new detergent", "that ladder"; not a kind: "Dairy gave me a rash" tells what dairy
does), or the speaker's reason is in the simple past too ("We cancelled the trip because
my mum was ill").

Not a stance begun then: a bare noun or a gerund after the speaker's verb ("I gave up
sugar", "I stopped eating meat", by WordNet's nouns), or a plural ("I stopped the
tablets because they made me dizzy"); not what a thing did to the speaker, which may
last, unless it is dated to one day ("The crash left me with a stiff neck" stands, "The
soup gave me heartburn last night" does not); not a habit in the past ("I always walked
to school"; :func:`.passing.past_habit` reads those).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from cognimem.ingest.extract.one_off_forms import reads_plural
from cognimem.ingest.extract.patterns import IRREGULAR_PAST, NOT_PAST_ED, icase
from cognimem.models.clock import to_utc
from cognimem.text.mention import RECENT, TimeMention
from cognimem.text.noun_senses import first_class
from cognimem.text.told import tells_a_habit

__all__ = ["tells_one_event"]

_PAST_VERB = rf"(?:{IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed)"
# the verb's particles, then its object up to a reason, a time or another clause
_OBJECT = (
    r"(?:\s+(?:up|out|down|off|back|on|in|to|into|with))*\s+(?P<next>[a-z']+)"
    r"(?P<object>(?:\s+(?!(?:because|since|as|so|and|but|once|when|last|yesterday|this|on|"
    r"in|at)\b)[a-z'-]+)*)"
)
# the subject and its verb in the simple past, the speaker or a thing
_SPEAKER_DID = icase(
    rf"^\W*(?:I|we)\s+(?:just\s+|accidentally\s+|finally\s+)?{_PAST_VERB}{_OBJECT}"
)
_THING_DID = icase(
    rf"^\W*(?P<det>the|that|this|my|our)\s+(?:[a-z-]+\s+){{0,2}}?[a-z-]+\s+{_PAST_VERB}" + _OBJECT
)
# the sentence goes on to now: "so now we stop every two hours", "nobody has said a word
# since", "I've had it ever since"
_GOES_ON = icase(
    r"\b(?:now|still|ever\s+since|since\s+then|these\s+days|anymore|any\s+more)\b|"
    rf"\bsince\W*$|(?:\b(?:have|has)|'ve|'s)\s+(?:not\s+|never\s+)?(?:{IRREGULAR_PAST}|"
    r"[a-z]+(?:ed|en|wn|ne))\b"
)
_POINTED = frozenset({"the", "that", "this"})
_ONE_DAY = timedelta(days=1)
# a reason in the simple past, after the event it explains: "... because my mum was ill"
_PAST_REASON = icase(
    rf"\s(?:because|since|as)\s+(?:[a-z']+\s+){{0,3}}?(?:was|were|{IRREGULAR_PAST}|"
    rf"{NOT_PAST_ED}[a-z]+ed)\b"
)
_THE_SPEAKER = frozenset({"me", "us"})
# what opens the object of one event: a thing pointed at or owned, or one of a kind ("I
# dropped my phone", "forgot the milk", "got a ticket"); a bare noun or a gerund is what a
# stance begun then is about ("I gave up sugar", "I stopped eating meat")
_ONE_THING = frozenset(
    {"the", "my", "our", "a", "an", "his", "her", "their", "your", "that", "this", "it"}
)


def tells_one_event(clause: str, times: Sequence[TimeMention], reference: datetime | None) -> bool:
    """Whether ``clause``, kept whole as a cause or a state, tells one past event (see
    the module docstring); ``times`` are its time expressions resolved against
    ``reference``."""
    said = clause.strip()
    if tells_a_habit(said) or _GOES_ON.search(said):
        return False
    thing = _THING_DID.match(said)
    if thing is not None:
        if thing.group("next").lower() in _THE_SPEAKER:
            # "The accident left me ...": what it did to the speaker may last, unless it
            # is dated to one day ("The soup gave me heartburn last night")
            return _dated_in_the_past(times, reference, within=_ONE_DAY)
        if _of_a_kind(thing):
            # "The purifier stopped my sneezing fits": what it does, unless dated ("The
            # frost killed my tomatoes last night")
            return _dated_in_the_past(times, reference)
        # "The new detergent ruined my jumper"
        return thing.group("det").lower() in _POINTED or _dated_in_the_past(times, reference)
    speaker = _SPEAKER_DID.match(said)
    if speaker is None or _of_a_kind(speaker):
        return False  # "I gave up sugar", "I stopped the tablets because ..."
    if _PAST_REASON.search(said):
        return True  # "We cancelled the trip because my mum was ill"
    return _dated_in_the_past(times, reference)


def _of_a_kind(did: re.Match[str]) -> bool:
    """Whether the object after the verb is a kind or a doing, not one thing: a bare noun
    or a gerund first ("sugar", "eating"), or a plural or a gerund last, before a reason
    or a time ("the tablets", "my night coughing"; "I dropped my phone last week" is one
    thing)."""
    head = (did.group("next") + did.group("object")).split()[-1].lower()
    return _names_a_kind(did.group("next")) or reads_plural(head) or head.endswith("ing")


def _names_a_kind(word: str) -> bool:
    """Whether ``word``, the first after the speaker's verb, opens an object that is a
    kind or a doing: a gerund or a noun with no determiner ("sugar", "eating")."""
    low = word.lower()
    if low in _ONE_THING:
        return False
    return low.endswith("ing") or first_class(low) is not None


def _dated_in_the_past(
    times: Sequence[TimeMention], reference: datetime | None, *, within: timedelta | None = None
) -> bool:
    """Whether one of ``times`` lies wholly before ``reference`` (and spans no more than
    ``within``, when given)."""
    if not times:
        return False
    if reference is None:
        raise ValueError("the times of a clause are read against a reference time")
    ref = to_utc(reference)
    return any(
        m.granularity != RECENT and m.end <= ref and (within is None or m.end - m.start <= within)
        for m in times
    )
