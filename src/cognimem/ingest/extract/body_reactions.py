"""What the speaker's body reacts to, read for :mod:`.like_forms` into a stance against
it (what a careful reader records as the speaker's health constraint):

- a thing that hurts or sets off a part of the body or a condition ("Kneeling hurts my
  knees", "Bright screens strain my eyes", "Loud bars set off my tinnitus");
- a symptom the speaker gets from, on or in a thing ("I get carsick on ferries", "I
  break out in a rash from nickel", "I get dizzy above ten thousand feet": a height or
  depth keeps its "above" or "below").

Not one here: a thing that gives the speaker a symptom ("Cheap wine gives me a
headache"), a causal fact of its own (``detect_constraints``). Not one: an injury of
the moment ("Walking still hurts my hip": a state, which the state detector reads), a
question, a condition ("If a climb hurts my knees ..."), the past ("The hike hurt my
knees": one occasion), something said of the conversation or of someone ("It hurts my
back", "My son gets carsick"). Nothing here names a topic: the markers are verbs of
hurting and getting, and the shared lists of conditions and parts of the body.
"""

from __future__ import annotations

from cognimem.ingest.extract.lexicon import alternation
from cognimem.ingest.extract.patterns import gated, icase
from cognimem.ingest.extract.vocabulary import BODY_PARTS, CONDITIONS
from cognimem.text.tokens import words

__all__ = ["BODY_WORDS", "body_reaction", "is_symptom"]

# the words without one of which no form here can match
BODY_WORDS = frozenset(
    words(
        """hurts, hurt, strains, strain, irritates, irritate, blisters, blister, triggers,
        trigger, sets, set, aggravates, aggravate, get, break, come"""
    )
)
_BODY = alternation(BODY_PARTS)
_SICK = (
    r"(?:car|sea|air|travel|motion|altitude)[\s-]?sick(?:ness)?|sick|ill|nauseous|queasy|"
    r"dizzy|itchy|bloated|breathless|wheezy|hay\s+fever|blisters|cramps?|a\s+rash"
)
_SYMPTOM = rf"(?:(?:a|an)\s+)?(?:{alternation(CONDITIONS)}|{_SICK})"
_HOW = r"(?:(?:always|really|just|badly|quickly|usually|often|instantly|terribly|so)\s+)*"
# what reacts: not a pronoun, the speaker's or someone's ("My son ..."), nor a condition
_THING = (
    r"(?P<rest>(?!(?:it|that|this|these|those|he|she|they|you|there|which|what|who|I|we|"
    r"my|our|his|her|their|if|when|whenever|does|do|why|how|sometimes)\b)[a-z][\w' ,&-]{1,80}?)"
)
# an injury of the moment: "still", "now", "today" in what hurts
_MOMENT = icase(r"\b(?:still|now|currently|today|again|at the moment|right now|lately)\b")
# "Kneeling really hurts my knees", "Strobe lighting sets off my migraines"
_HURTS = gated(
    rf"^{_THING}\s+{_HOW}(?P<v>hurts?|strains?|irritates?|blisters?|triggers?|sets?\s+off|"
    rf"aggravates?)\s+my\s+(?:\w+\s+)?(?:{_BODY}|{alternation(CONDITIONS)})\b",
    gate_match=True,
)
# "I get carsick on winding roads", "I break out in hives from wool"
_GET = gated(
    rf"^I\s+{_HOW}(?:get|break\s+out\s+in|come\s+out\s+in)\s+{_HOW}(?:(?:bad|terrible|awful)\s+)?"
    rf"{_SYMPTOM}\s+(?:(?P<keep>above|below)|from|on|in|under|around|near|with|after|at|"
    r"during|by)\s+(?P<what>.+)$",
    gate_match=True,
)


def body_reaction(said: str) -> str | None:
    """The thing the speaker's body reacts to in ``said`` (its whole rest, cut by the
    caller), or ``None`` when ``said`` says no reaction in a form of the module
    docstring."""
    if said.rstrip().endswith("?"):
        return None
    m = _HURTS.match(said)
    if m:
        rest = str(m.group("rest"))
        # "The hike hurt my knees" is the past: a bare "hurt" after a thing, not things
        past = m.group("v").lower() in {"hurt", "set off"} and not rest.endswith("s")
        return None if past or _MOMENT.search(rest) else rest
    m = _GET.match(said)
    if m is None:
        return None
    what = m.group("what")
    return f"{m.group('keep').lower()} {what}" if m.group("keep") else what


_A_SYMPTOM = icase(rf"^{_SYMPTOM}$")


def is_symptom(word: str) -> bool:
    """Whether ``word`` names a symptom or a condition ("sick", "dizzy", "asthma")."""
    return _A_SYMPTOM.match(word) is not None
