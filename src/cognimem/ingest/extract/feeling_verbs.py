"""Stances said with a verb of feeling or of avoiding that no phrase list names, found by
what WordNet says of the verb (:mod:`cognimem.text.verb_senses`), with the polarity
VADER's lexicon gives it (:func:`cognimem.text.valence.valence`):

- the speaker feels it about the thing, "I VERB X" ("I cherish X", "I abhor X", "I
  dread X"): a verb whose most frequent sense is a verb of feeling (WordNet's
  ``verb.emotion``);
- the speaker keeps away from the thing, "I VERB X" ("I shun X", "I shy away from X"):
  a verb whose most frequent sense is a kind of avoiding (its hypernym is WordNet's
  ``avoid``);
- the thing stirs the feeling in the speaker, "X VERBs me" ("Self-help books irritate
  me", "Needles terrify me"): a verb of feeling.

The polarity is the valence of the verb when VADER rates it, else of its first kin
VADER rates ("detest" by "hate", "relish" by "enjoy", "shun" by "avoid"); a verb VADER
rates weakly (below :data:`.rated_stances.RATED`: "resent", "miss", "want") decides
nothing. A verb of avoiding is against its object; "don't" or "never" before the verb
turns the polarity over. The object is the whole phrase after the verb (the caller cuts
it before a reason or a new clause), after "in" for a verb of liking ("I delight in X").

Not read: the verbs of liking the preference detector reads (:data:`LIKING_VERBS`: "I
love X" stays a preference); a verb in the past ("I dreaded the review", a one-off); a
wish or a worry said with a clause or a preposition ("I hope the train is on time", "I
worry about money"); someone else's feeling ("My husband detests olives"); what is felt
about a person, the listener or the speaker's own (:func:`.strong_likes.names_a_thing`);
a question.
"""

from __future__ import annotations

from functools import cache

from cognimem.ingest.extract.detect_preferences import LIKING_VERBS
from cognimem.ingest.extract.patterns import icase
from cognimem.ingest.extract.rated_stances import RATED
from cognimem.ingest.extract.strong_likes import names_a_thing
from cognimem.text.valence import valence
from cognimem.text.verb_senses import VerbSenses, phrasal_verbs, phrase_heads, verb_senses

__all__ = ["feeling_hint", "feeling_stance"]

_FEELING = "emotion"
_AVOID = "avoid"  # WordNet's avoid.v.01, "stay clear from; keep away from"
_LONGEST = 3  # words of a verb read as one ("shy away from")
_DEGREE = (
    r"(?:(?:really|truly|just|so|totally|genuinely|honestly|simply|absolutely|utterly|"
    r"deeply|quite|rather|always|still|also|generally|usually|tend\s+to)\s+)*"
)
_SPEAKER = icase(
    rf"^(?:I|we)\s+{_DEGREE}(?P<neg>(?:don't|do\s+not|never)\s+{_DEGREE})?"
    r"(?P<words>[a-z][a-z-]*(?:\s+[a-z][a-z'-]*)*.*)$"
)
# "Self-help books irritate me": not a person, a pronoun or a clause as the subject
_STIRS_ME = icase(
    r"^(?!(?:my|our|his|her|their|your|it|it's|this|that|these|those|he|she|they|you|we|I|"
    r"there|what|which|who|when|if|no)\b)(?P<rest>[a-z][\w' &-]{1,80}?)\s+"
    r"(?:(?:always|really|just|usually|generally|truly|absolutely)\s+)*"
    r"(?P<verb>[a-z]+s?)\s+(?:me|us)\s*(?:[,.;!]|$|\s+(?:because|since|as|and|but|so)\b)"
)
# an object that is no thing: a clause, a preposition's phrase ("I care a lot about
# X"), an infinitive
_NOT_OBJECT = icase(
    r"^(?:(?:a\s+lot|a\s+great\s+deal|so\s+much|very\s+much|deeply|greatly)\s+)?(?:to|about|of|on|in|at|for|with|from|over|that|if|whether|how|what|when|where|why|"
    r"I|we|he|she|they|I'm|we're|I'd|it's|there)\b"
)
_PAST = icase(r"^[a-z]+ed$")
# "in" after a verb of liking takes its object ("I delight in X"); after one against it
# says where or when ("I despair in the mornings") and stays no object
_FEELING_IN = icase(r"^in\s+")
# a clause, not a thing: "the train is on time" (a relative clause is the thing's own)
_CLAUSE = icase(
    r"^(?:(?!that\b|which\b|who\b)[\w'-]+\s+){0,4}?(?:is|are|was|were|will|won't|would|can|"
    r"could|should|has|have|had|does|did|gets|goes)\b"
)


def _polarity(senses: VerbSenses) -> bool | None:
    """For (true) or against (false) by the verb's rating, else its first rated kin's;
    None when the deciding rating is weak."""
    for word in (senses.verb, *senses.kin):
        if " " in word:
            continue
        rating = valence(word)
        if rating:
            return rating > 0 if abs(rating) >= RATED else None
    return None


def _feeling(senses: VerbSenses) -> bool:
    return senses.first_class == _FEELING and senses.verb not in LIKING_VERBS


def _speaker_verb(words: list[str]) -> tuple[VerbSenses, int] | None:
    """The longest verb of feeling or avoiding the speaker's words open with, and how
    many words it takes."""
    for size in range(min(_LONGEST, len(words)), 0, -1):
        said = " ".join(words[:size])
        if size > 1 and words[0].lower() not in phrase_heads():
            continue
        if size == 1 and _PAST.match(said):
            return None  # "I dreaded ...": one occasion
        senses = verb_senses(said)
        if senses is None or (size > 1 and senses.verb != said.lower()):
            continue
        if _read(senses):
            return senses, size
        if size == 1:
            return None
    return None


def feeling_stance(said: str) -> tuple[str, bool] | None:
    """The object of a stance ``said`` in a form of the module docstring and its
    polarity (false: the speaker is against it), or ``None``."""
    if said.rstrip().endswith("?"):
        return None
    m = _SPEAKER.match(said)
    if m and (read := _speaker_stance(m["words"].split(), negated=bool(m["neg"]))):
        return read
    m = _STIRS_ME.match(said)
    return _stirred_stance(m["rest"], m["verb"]) if m else None


def _speaker_stance(words: list[str], *, negated: bool) -> tuple[str, bool] | None:
    """ "I VERB X": the speaker feels it about X or keeps away from it."""
    found = _speaker_verb(words)
    if found is None:
        return None
    senses, size = found
    rest = " ".join(words[size:])
    polarity = False if _AVOID in senses.kin else _polarity(senses)
    if polarity and _FEELING_IN.match(rest):
        rest = rest[3:]  # "I delight in X", "I rejoice in X"
    if polarity is None or not rest or _NOT_OBJECT.match(rest) or _CLAUSE.match(rest):
        return None
    return (rest, polarity != negated) if names_a_thing(rest) else None


def _stirred_stance(rest: str, verb: str) -> tuple[str, bool] | None:
    """ "X VERBs me": X stirs the feeling in the speaker."""
    senses = verb_senses(verb)
    if senses is None or not _feeling(senses) or _PAST.match(verb):
        return None
    polarity = _polarity(senses)
    return (rest, polarity) if polarity is not None and names_a_thing(rest) else None


@cache
def _phrase_words() -> tuple[frozenset[str], ...]:
    """The words of each verb of more than one word read here ("shy away from")."""
    read = (s for v in phrasal_verbs() if (s := verb_senses(v)) is not None and _read(s))
    return tuple(frozenset(s.verb.split()) for s in read)


def _read(senses: VerbSenses) -> bool:
    return _feeling(senses) or _AVOID in senses.kin


def feeling_hint(words: frozenset[str]) -> bool:
    """Whether a clause with these (lower-case) words may hold a form of this module."""
    if any(phrase <= words for phrase in _phrase_words()):
        return True
    return any(
        (s := verb_senses(w)) is not None and (_feeling(s) or _AVOID in s.kin) for w in words
    )
