"""Whether a strong liking is sarcasm said with no marker: the speaker says they love
what no one wants to undergo. "I'm a huge fan of flight delays", "Oh, I love a good
hangover", "I just love waiting in line", "I adore doing my taxes" say the opposite of
their words; "I love horror movies", "I love the pain of a hard workout",
"I'm a huge fan of early morning runs" mean theirs.

A strong liking ("I (just / really / absolutely ...) love / adore / enjoy / live
for", "I'm a huge fan of", "nothing I love more than", "my favorite part of the day
is", "gotta love") is read as sarcasm when what it likes is, by the lexical resources
the package ships:

- an ordeal by WordNet: the head of what is liked, or of what a light verb does to it
  ("doing my taxes", "having the flu"), or the verb itself ("waiting in line"; not
  "waiting rooms", nor a wait chosen, "waiting until the last minute"), is a noun whose
  most frequent sense is ill health, a symptom, discomfort, a misfortune, a trouble, a
  nuisance, a wait or a delay, a levy or a debt
  (:func:`cognimem.text.noun_roots.is_ordeal`); not the head of "the X of Y" ("the
  pain of a hard workout": the liking is of Y);
- a clause after "it when" that holds a word VADER's lexicon rates clearly negative and
  none rated clearly positive ("I love it when my flight gets cancelled");
- or when the liking is marked as not meant: an eye-roll emoji after it, the verb
  in scare quotes ('I "love" my commute'), or a tag that leaves the listener to see
  through it with nothing to see it by ("..., as you can tell.", "..., as you can
  imagine.").

A liking the sentence goes on to explain, with a reason or words VADER rates clearly
positive ("I love doing my own taxes, it's like a puzzle"), is meant: sarcasm does not
explain itself. A state said of the speaker is no evidence, even one VADER rates
negative ("being alone", "getting lost", "being scared" are liked as often as "being
stuck" is not), nor is a name, a capitalised word ("a huge fan of Sting"); a word
before the head only describes it ("sad songs", "true crime podcasts"). Valence is
VADER's, from :mod:`cognimem.text.valence`.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.patterns import REASON_WORD, icase
from cognimem.text.noun_roots import is_ordeal
from cognimem.text.noun_senses import first_class
from cognimem.text.noun_tables import plural_stems
from cognimem.text.valence import valence

__all__ = ["likes_an_ordeal"]

_ADVERB = (
    r"(?:just|really|absolutely|simply|totally|truly|so+|do|genuinely|sure|certainly|"
    r"positively|reall+y|actually|always|still)"
)
_LIKE = icase(
    r"(?:^|[,;:(]\s*|\b(?:and|but|so)\s+)"
    r"(?:(?:oh|ah|wow|yeah|yes|sure|honestly|man|boy|god|because|cause|like|well)\W+)*"
    r"(?:I(?:\s+" + _ADVERB + r")*\s+(?:\"|“)?(?:love|adore|enjoy|live\s+for)(?:\"|”)?|"
    r"I'm\s+(?:(?:just|really|such|a|an|huge|big|massive|enormous|giant|great|total|"
    r"the\s+biggest)\s+)+fan\s+of|"
    r"nothing\s+I\s+(?:love|enjoy|like)\s+more\s+than|"
    r"nothing\s+(?:makes\s+me\s+(?:happier|happy)|beats)(?:\s+than)?|"
    r"my\s+favou?rite\s+(?:part|thing|time|pastime|hobby)(?:\s+(?:of|in)\s+(?:the|my)\s+"
    r"\w+)?\s+is|"
    r"(?:you\s+)?(?:gotta|got\s+to|have\s+to)\s+love|don't\s+you\s+(?:just\s+)?love)"
    r"\s+(?:to\s+)?(?P<object>[^.!?;]+)"
)
# a liking left to the listener to see through, with nothing to see it by: "I'm a big
# fan of paying rent, as you can tell." (not "..., as you can see from my shelves")
_AS_YOU_CAN_TELL = icase(
    r",\s*as\s+you\s+(?:can|could|might|may)\s+(?:probably\s+)?(?:tell|see|imagine|guess)"
    r"\s*[.!]*\s*$"
)
_SCARE_QUOTED = icase(r"[\"“](?:love|adore|enjoy)s?[\"”]")
_EYE_ROLL = re.compile(r"[\U0001F644\U0001F612\U0001F643]|\*\s*(?:eye\s*-?\s*roll|rolls\s+eyes)")
# where what is liked ends: a comma, or a word that starts another clause
_CLAUSE_END = icase(
    r",|\s(?:because|since|when|whenever|if|but|though|although|especially|except|unless|"
    r"while|cause|cuz|so|as\s+long\s+as|even)\b"
)
_WHEN = icase(r"^(?:it\s+)?(?:when|whenever|how)\s+")
# where a noun phrase ends inside what is liked
_RUN_BREAK = icase(
    r"\s(?:of|on|at|in|into|with|for|to|from|behind|before|after|during|about|through|"
    r"around|over|under|by|and|or|who|that|which|than|like)\s"
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# verbs that say nothing of whether what they act on is wanted: the liking is of it
_LIGHT = frozenset({"doing", "paying", "having", "getting", "catching", "filing", "sitting",
                    "being", "going", "waiting", "dealing", "handling"})  # fmt: skip
_CHOSEN_WAIT = frozenset({"until", "till", "to"})
_NEGATIVE = -1.0  # VADER: "cancelled" -1.0, "ignored" -1.3, "sick" -2.3
_POSITIVE = 1.0  # "good" 1.9, "fun" 2.3


def _head_is_ordeal(run: str, light: bool) -> bool:
    """Whether the head (last word) of a noun run names an ordeal; a run that opens with
    a verb counts only when the verb is light ("doing my taxes", not "treating
    migraines")."""
    found = _WORD.findall(run)
    if not found:
        return False
    if found[0].lower().endswith("ing") and len(found) > 1 and not light:
        return False
    head = found[-1]
    if not head.islower():
        return False
    # a compound WordNet holds as one noun: "jet lag", "hay fever"
    return (len(found) > 1 and is_ordeal(" ".join(found[-2:]))) or _ordeal(head)


def _ordeal(noun: str) -> bool:
    """:func:`is_ordeal`, with a plural read as its singular where WordNet holds both
    ("spots" is a disease, "remote spots" places; "taxes", "delays" stay ordeals)."""
    low = noun.lower()
    if not is_ordeal(low):
        return False
    for singular in plural_stems(low):
        if first_class(singular) is not None:
            return is_ordeal(singular)
    return True


def _clause_is_bad(clause: str) -> bool:
    scores = [valence(w) for w in _WORD.findall(clause)]
    return any(s <= _NEGATIVE for s in scores) and all(s < _POSITIVE for s in scores)


def _explained(tail: str) -> bool:
    """Whether what follows the liking says why, with a reason or words VADER rates
    clearly positive ("..., it's like a puzzle", "... because I get to read"): sarcasm
    does not explain itself."""
    return REASON_WORD.search(tail) is not None or any(
        valence(w) >= _POSITIVE for w in _WORD.findall(tail)
    )


def _is_ordeal_liked(liked: str) -> bool:
    if _WHEN.match(liked):
        return _clause_is_bad(liked)
    end = _CLAUSE_END.search(liked)
    if end is not None and _explained(liked[end.start() :]):
        return False
    liked = liked[: end.start()] if end else liked
    words = _WORD.findall(liked)
    if not words:
        return False
    run = _RUN_BREAK.search(f" {liked.strip()} ")
    first = f" {liked.strip()} "[: run.start()] if run else liked
    # "the pain of a hard workout", "the sting of cold water": the liking is of what
    # it is of
    of = run is not None and run.group(0).strip().lower() == "of"
    if not of and _head_is_ordeal(first, words[0].lower() in _LIGHT):
        return True
    # "waiting in line", "waiting for the plumber": the verb itself is the ordeal; not a
    # noun it qualifies ("waiting rooms") nor a wait chosen ("waiting until the last
    # minute to book", "waiting to buy")
    return (
        len(_WORD.findall(first)) == 1
        and words[0].lower().endswith("ing")
        and words[0].islower()
        and _ordeal(words[0])
        and not (len(words) > 1 and words[1].lower() in _CHOSEN_WAIT)
    )


def likes_an_ordeal(text: str) -> bool:
    """Whether a tidied sentence states a strong liking that it does not mean: of an
    ordeal, or marked as sarcasm by an eye-roll or scare quotes (see the module
    docstring)."""
    m = _LIKE.search(text)
    if m is None:
        return False
    if _SCARE_QUOTED.search(m.group(0)) or _EYE_ROLL.search(text[m.start() :]):
        return True
    if _AS_YOU_CAN_TELL.search(text[m.end("object") - len(m.group("object")) :]):
        return True
    return _is_ordeal_liked(m.group("object"))
