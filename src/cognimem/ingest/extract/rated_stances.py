"""Stances whose polarity is the valence of their judging word in VADER's lexicon (the
table :func:`cognimem.text.valence.valence` reads), not a hand-written list of such words:

- a judgement of how the thing is for the speaker, "I find X ADJ" with the adjective
  last in its clause: against X when the lexicon rates it negative ("I find crowded
  markets stressful"), for X when it rates it positive ("I find long walks calming");
  the words VADER rates too weakly or not at all stay in ``stance_forms``' hand list
  ("boring", "distracting", "tedious", "draining", "overwhelming" ...);
- what the thing does to the speaker, "X makes me (feel) ADJ" / "X leaves me (feeling)
  ADJ": against or for X by the adjective ("Early flights make me miserable");
- a liking denied, "I'm not ADJ on / of / in / with / about X" with a positively rated
  adjective ("I'm not fond of X", "I'm not keen on X"): against X;
- a liking had not at all, "I have no NOUN in / for X" with a positively rated noun
  ("I have no interest in X", "I've no love for X"): against X; the nouns VADER does
  not rate ("patience", "appetite") stay in ``detect_choices``' hand list.

The negation is the extractor's own: the pattern says where "not" / "no" stands; the
lexicon rates only the one word that judges. A word rated weakly (|valence| below
:data:`RATED`, "sure" 1.3, "nervous" -1.1) decides nothing. The object must name a
thing (:func:`.strong_likes.names_a_thing`): "I'm not happy with you" is no stance; a
symptom a thing gives ("Dairy makes me feel sick") is a causal fact, not a stance.
"""

from __future__ import annotations

from cognimem.ingest.extract.body_reactions import is_symptom
from cognimem.ingest.extract.patterns import gated, icase
from cognimem.ingest.extract.strong_likes import names_a_thing
from cognimem.text.valence import valence

__all__ = ["RATED", "rated_hint", "rated_stance"]

RATED = 1.5  # VADER: "keen" 1.5, "stressful" -2.3; "boring" -1.3 and "sure" 1.3 too weak
_DEGREE = (
    r"(?:(?:really|so|pretty|quite|a\s+bit|incredibly|super|very|kind\s+of|sort\s+of|"
    r"absolutely|rather|extremely|deeply|genuinely|honestly|just|totally|always|still|"
    r"particularly|especially|that|too|all\s+that)\s+)*"
)
_PRONOUN = r"(?:it|that|this|them|him|her|you|me|us|myself|yourself)\b"
_END = r"(?=\s*(?:[,.;!]|$|\s+(?:because|since|as|when|whenever|and|but|so|though)\b))"
_FIND = icase(
    rf"^(?:I|we)\s+{_DEGREE}find\s+(?!{_PRONOUN})(?P<rest>[a-z].+?)\s+{_DEGREE}"
    rf"(?P<word>[a-z][a-z-]+){_END}"
)
_BE = r"(?:I'm|I\s+am|we're|we\s+are|I've\s+(?:always\s+)?been|I\s+get|we\s+get)"
_NOT_FOR = gated(
    rf"^{_BE}\s+{_DEGREE}(?:not|never)\s+{_DEGREE}(?P<word>[a-z][a-z-]+)\s+"
    r"(?:(?:on|of|in|with|about|for|around)\s+|(?=[a-z]+ing\b))(?P<rest>[a-z].+)",
    gate_match=True,
)
_NO_NOUN = gated(
    r"^(?:I|we)\s+(?:(?:really|just|honestly|genuinely)\s+)*(?:have|'ve\s+got|'ve|have\s+got|"
    r"got)\s+(?:no|zero|absolutely\s+no|little)\s+(?P<word>[a-z]+)\s+(?:in|for)\s+"
    r"(?P<rest>[a-z].+)",
    gate_match=True,
)
# "Crowded trains make me anxious", "Long hikes leave me feeling great": not a person,
# a pronoun or what someone did once ("made")
_MAKES_ME = gated(
    r"^(?!(?:my|our|his|her|their|your|it|it's|this|that|these|those|he|she|they|you|we|I|"
    r"there|what|which|who|when|if|no)\b)(?P<rest>[a-z][\w' &-]{1,80}?)\s+"
    r"(?:(?:always|really|just|usually|generally|tend\s+to|tends\s+to)\s+)*"
    rf"(?:makes?|leaves?)\s+(?:me|us)\s+(?:feel(?:ing)?\s+)?{_DEGREE}(?P<word>[a-z][a-z-]+){_END}",
    gate_match=True,
)
# the words one of which a form needs, besides a rated word
_FORM_WORDS = frozenset(
    {"find", "not", "never", "no", "zero", "little", "make", "makes", "leave", "leaves"}
)


def rated_hint(words: frozenset[str]) -> bool:
    """Whether a clause with these (lower-case) words may hold a form of this module."""
    return not words.isdisjoint(_FORM_WORDS) and any(abs(valence(w)) >= RATED for w in words)


def rated_stance(said: str) -> tuple[str, bool] | None:
    """The object of a stance ``said`` in a form of the module docstring and its
    polarity (false: the speaker is against it), or ``None``."""
    if said.rstrip().endswith("?"):
        return None
    read = _read(said)
    if read is None or not names_a_thing(read[0]):
        return None
    return read


def _read(said: str) -> tuple[str, bool] | None:
    m = _FIND.match(said)
    if m and abs(rating := valence(m["word"])) >= RATED:
        return m["rest"], rating > 0
    m = _MAKES_ME.match(said)
    if m and not is_symptom(m["word"]) and abs(rating := valence(m["word"])) >= RATED:
        return m["rest"], rating > 0
    m = _NOT_FOR.match(said) or _NO_NOUN.match(said)
    if m and valence(m["word"]) >= RATED:
        return m["rest"], False
    return None
