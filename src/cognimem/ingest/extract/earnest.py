"""Whether a sentence means what it says, by the words that tell a reader it does not:
a careful reader records nothing from sarcasm, from a claim the speaker takes back, from
a question asked inside a statement or from others' words about the speaker.

- sarcasm, by its markers: "/s", "said no one ever", "yeah right", "oh great, ...",
  "yeah, because I'm totally ...", a retort that opens the sentence ("because
  obviously I ...", "cause, of course, I'm ...");
- a claim taken back in the same sentence ("I'm dating a prince, not really") or by
  the next one, when that sentence says nothing else ("Kidding!", "Just kidding.",
  "Ha, I wish.", "Not.", "jk"): :func:`takes_back`;
- a question inside a statement: "trying to figure out if I'm allergic to gluten",
  "can't decide if I want to live in Austin", "thinking about whether to ..." (not "not
  sure if I mentioned it, but ...", which asks nothing about what follows);
- a wish or a daydream said without "I wish": "wishing I was in Hawaii", "my dream job
  would be ...", "oh to be a cat", "would be nice to ...";
- others' words and beliefs beyond "she said": "my wife keeps telling everyone I'm a
  chef", "my son told his class ...", "my landlord seems to think ...";
- a denial said as "not that I'm ...", and exaggeration no one means ("since the dawn
  of time", "my whole life is spreadsheets", "I could eat a horse right now");
- a claim reversed at its own end ("I'm a huge fan of waiting on hold... not", "...,
  yeah right", "... yeah no", "..., said nobody"), placed in a dream ("I'm a rock
  star in my dreams") or put in others' word ("..., according to my wife");
- a strong liking of what no one wants to undergo, or one marked by an eye-roll or
  scare quotes ("I absolutely love being stuck in traffic": :mod:`.ordeals`), or said
  with assent and an intensifier and no reason ("Oh yeah, I'm a huge fan of Mondays":
  :mod:`.mock_praise`);
- first-person words in quotation marks that are not the speaker's: a sign, a song,
  someone else's line ('my T-shirt says "I'm with stupid"'), when the speaker says no
  "I" of their own outside them (a title in title case is no one's words: 'my favorite
  song is "I Will Survive"').

Read by :func:`cognimem.ingest.extract.clauses.is_statement`; a sentence these match
gives no fact and no constraint.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.kinds import kind_of
from cognimem.ingest.extract.mock_praise import mocks
from cognimem.ingest.extract.ordeals import likes_an_ordeal
from cognimem.ingest.extract.patterns import icase
from cognimem.models.extraction import ExtractedFact
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat

__all__ = ["is_unmeant", "laughed_off", "takes_back"]

_SARCASM = icase(
    r"(?<![\w/])/s\b|\bsaid (?:no ?one|nobody) ever\b|^\W*(?:oh\s+)?yeah,?\s+right\b|"
    # ("yeah, like I said, ..." only says it again)
    r"^\W*(?:oh\s+)?(?:yeah|sure|right),?\s+(?:because|cause|cuz|like)\s+(?:I|I'm|I'd|my)\b"
    r"(?!\s+(?:said|say|mentioned|told))|"
    # a retort that opens the sentence: "Because obviously I work at ..."
    r"^\W*(?:because|cause|cuz),?\s+(?:obviously|clearly|of course|naturally)\b,?\s+"
    r"(?:I|I'm|I'd|my)\b|"
    r"^\W*oh\s+(?:great|joy|goody|wonderful|fantastic)\b\s*[,!.]"
)
# a claim taken back at the end of its own sentence: "..., not really", "(not really)";
# after a denial "not really" only says it again ("I don't like it, not really")
_NOT_REALLY = icase(r"(?:,|\(|\s-)\s*not\s+really\s*\)?\s*[.!]*\s*$")
_NEGATED = icase(r"\b(?:not|never|no)\b|n't\b")
# a sentence that takes back the one before it and says nothing else
_TAKES_BACK = icase(
    r"^\W*(?:(?:ha|haha+|lol|lmao|jk),?\s+)?(?:(?:just|only)\s+)?(?:kidding|joking|jk|j/k|"
    r"I'm\s+(?:just\s+|only\s+)?(?:kidding|joking)|I\s+wish|not\s+really|not|yeah,?\s+right|"
    r"/s)(?:,?\s+(?:of\s+course|obviously|though|lol|haha+|ha))*\s*[.!]*\s*$"
)
# an embedded question: what the speaker does not know or has not decided
_EMBEDDED_QUESTION = icase(
    # "whether" after what asks or weighs (not "I run every day, whether it rains or not")
    r"\b(?:about|into|on|over|wonder(?:ing|ed)?|sure|unsure|know|idea|decid(?:e|ing)|"
    r"debating|curious|check(?:ing)?|ask(?:ing|ed)?|out|see|tell|question|deciding)\s+"
    r"(?:\w+\s+)?whether\b|"
    r"\b(?:figur(?:e|ing)|find(?:ing)?)\s+out\s+if\b|"
    r"\b(?:wonder(?:ing|ed)?|sure|unsure|know|idea|decide|deciding|debating|curious|"
    r"check(?:ing)?|torn\s+on)(?:\s+(?:out\s+loud|aloud|again|now))?\s+if\b"
    # not "not sure if I mentioned it, ...", "don't know if you remember, ...": they ask
    # nothing about what follows
    r"(?!\s+(?:I|I've|I\s+have|you|you've|you\s+have)\s+(?:ever\s+|already\s+)?"
    r"(?:mentioned|told|said|remember|recall|knew|heard))"
)
_WISH = icase(
    r"\bwishing\b|^\W*oh,?\s+to\s+be\b|\bI'd\s+kill\s+for\b|"
    # what would be, said by the sentence's own verb ("my dream job would be ...", "it'd
    # be nice to ..."), not by a clause inside it ("working with them would be cool")
    r"^\W*(?:(?:my|our|the|it|that|this|he|she|they)\b[^,;:.!?]{0,40}?\s+(?:would|could)|"
    r"(?:it|that|this|he|she|they)'d|would|could)(?:\s+\w+ly)?\s+(?:be|have\s+been)\b"
)
_OTHERS_WORDS = icase(
    r"\b(?:he|she|they|people|everyone|everybody|my\s+[\w-]+)\s+(?:(?:always|keeps?|kept|"
    r"still|also)\s+)?(?:told|tells|telling)\s+(?!me\b)\w+|"
    r"\b(?:seems?|seemed)\s+to\s+(?:think|believe)\b"
)
_NOT_THAT = icase(r"^\W*not\s+that\b")
# exaggeration no one means: a time no one lives through, a whole life said to be one thing
_HYPERBOLE = icase(
    r"\b(?:since|from)\s+the\s+(?:dawn|beginning)\s+of\s+time\b|\ban\s+eternity\b|"
    r"\b(?:my|our)\s+(?:whole|entire)\s+(?:life|world|existence)\s+(?:is|revolves|consists)\b"
)

# a claim reversed at its own end, after a pause: "... not", ", yeah right", "... yeah no"
_REVERSED = icase(
    r"(?:\.{2,}|…|,|\s[-–—]+)\s*(?:not|yeah,?\s+right|yeah,?\s+no|as\s+if|"
    r"said\s+(?:no\s?one|nobody))\s*[.!]*\s*$|"
    # a claim placed in a dream at its own end: "I'm an astronaut in my dreams"
    r"\bin\s+my\s+(?:dreams|wildest\s+dreams|imagination|fantasies)"
    r"(?:,?\s+(?:lol|haha+|ha))?\s*[.!]*\s*$|"
    # others' word at its own end: "I'm a terrible driver, according to my wife"
    r",\s*according\s+to\s+[^,.;:!?]+[.!]*\s*$"
)
# a momentary urge said as what the speaker could do ("I could eat a horse right now",
# "I could sleep for a week"): no fact about them
_COULD_NOW = icase(
    r"^\W*(?:(?:honestly|man|god|ugh|oh),?\s+)*I\s+could\s+(?!not\b|never\b)(?:\w+ly\s+)?"
    r"\w+\b.*?\b(?:right\s+now|at\s+this\s+point|for\s+(?:a\s+|an\s+)?(?:week|month|year|"
    r"days|weeks|months|years|hours|decade|century))\b"
)
# a quotation that opens with a first-person word, and a speaker's own "I" outside it,
# ... said as a sentence, not a title in title case ("I Will Survive", "My Way")
_QUOTED_I = re.compile(r"[\"“]\s*(?:I|I'm|I'd|I've|I'll|[Mm]y|me)\s+[a-z][^\"”]*[\"”]?")
_OWN_I = re.compile(r"\bI\b")
_LIKING = ("love", "adore", "enjoy", "fan of", "live for", "favorite", "favourite", "nothing")

# each pattern with the words without which it cannot match: most sentences hold none,
# and a substring test costs far less than a regex scan
_GATED = (
    (
        _SARCASM,
        (
            "/s",
            "said no",
            "yeah",
            "sure",
            "right",
            "oh ",
            "oh,",
            "obviously",
            "clearly",
            "of course",
            "naturally",
        ),
    ),
    (_EMBEDDED_QUESTION, ("whether", " if ")),
    (_WISH, ("wish", "oh ", "oh,", "kill", "would", "could", "'d be")),
    (_OTHERS_WORDS, ("told", "tell", "seem")),
    (_NOT_THAT, ("not that",)),
    (_HYPERBOLE, ("of time", "eternity", "whole", "entire")),
    (_REVERSED, ("not", "right", "yeah", "as if", "said no", "in my ", "according")),
    (_COULD_NOW, ("could",)),
)
# any word of any pattern above, in one scan: a sentence with none is meant
_ANY_GATE = re.compile("|".join(re.escape(w) for _, words in _GATED for w in words))
_TAKE_BACK_LEN = 40  # longer sentences say something else too


def takes_back(sentence: str) -> bool:
    """Whether ``sentence`` only takes back the one before it ("Kidding!", "Ha, I
    wish.", "Not.")."""
    text = sentence.strip()
    return len(text) <= _TAKE_BACK_LEN and _TAKES_BACK.match(text) is not None


def is_unmeant(text: str) -> bool:
    """Whether a tidied sentence does not mean what it says (see the module
    docstring)."""
    low = text.lower()
    if (
        "really" in low
        and _NOT_REALLY.search(text)
        and not _NEGATED.search(_NOT_REALLY.split(text)[0])
    ):
        return True
    if ('"' in text or "“" in text) and _quotes_others(text):
        return True
    if any(w in low for w in _LIKING) and (likes_an_ordeal(text) or mocks(text)):
        return True
    if _ANY_GATE.search(low) is None:
        return False
    return any(any(w in low for w in words) and p.search(text) is not None for p, words in _GATED)


def _quotes_others(text: str) -> bool:
    """Whether the first-person words of ``text`` are all inside a quotation ('the sign
    says "I run on coffee"'), so none is the speaker's own claim."""
    quoted = _QUOTED_I.search(text)
    return quoted is not None and _OWN_I.search(_QUOTED_I.sub(" ", text)) is None


def laughed_off(fact: ExtractedFact) -> bool:
    """Whether a fact read from a sentence that laughs at itself is likely its joke: a
    constraint (it would steer every later answer), or a partner, relative or friend
    named by a name that is no one's first name ("I'm married to Netflix lol")."""
    if fact.category in CONSTRAINT_CATEGORIES:
        return True
    return (
        fact.category is Cat.RELATIONSHIP
        and fact.object_type is ET.PERSON
        and fact.object_entity is not None
        and kind_of(fact.object_entity) is not ET.PERSON
    )
