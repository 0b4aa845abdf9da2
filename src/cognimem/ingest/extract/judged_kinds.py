"""A kind of thing judged by what it is to the speaker, "X is / are <judgement>": "Long
layovers are the worst", "Horror films are an absolute no-go", "Crowded gyms are a
headache for me", "Night trains are a real joy for me", "Pilates is right up my
street". Read for :mod:`.like_forms` into a stance on the whole subject.

The judgement is a noun phrase with its determiner ("a", "an", "the", "my", "our"),
at most three words before its head, and nothing after it but "for me" / "to me"; its
head word decides the polarity, by a table, not a hand list:

- VADER's valence of the head (:func:`cognimem.text.valence.valence`, at least
  :data:`.rated_stances.RATED`): "the worst", "a disaster", "a torture" against; "the
  best", "a joy", "a treat", "a real comfort" for;
- else WordNet: a head whose most frequent sense is an ordeal no one wants to undergo
  (:func:`cognimem.text.noun_roots.is_ordeal`: "a nightmare", "a headache", "a
  nuisance") is against;
- else, after "the" and with "for me", a word before the head that VADER rates ("the
  best gadget for me");
- a "no-" compound ("a no-go", "an absolute no-no") refuses; "right up my street /
  alley" is the one idiom of liking read here.

Only the head judges: "Paris is a beautiful city" and "Smoking is a bad habit" classify
their subject (the head "city", "habit" is rated by nothing) and give nothing.

Not read: a one-off ("The traffic was a nightmare today", "That film was the worst":
only "is" / "are", and a subject opening with an article of one known thing, a
demonstrative, a possessive, a pronoun or a day is no kind); a judgement followed by
more than "for me" ("Rabbits are the best pets for children"); people ("Teachers are
the worst": WordNet's first sense of the plural subject's last word is a person; not
"Pilates is ..."); the speaker
inside the subject; a question.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.patterns import HAS_SPEAKER, icase
from cognimem.ingest.extract.rated_stances import RATED
from cognimem.ingest.extract.strong_likes import names_a_thing
from cognimem.text.noun_roots import is_ordeal
from cognimem.text.noun_senses import first_class
from cognimem.text.tokens import words
from cognimem.text.valence import valence

__all__ = ["judged_hint", "judged_kind"]

# a subject that is one known thing or an occasion, not a kind of thing
_NOT_A_KIND = (
    r"the|this|that|these|those|my|our|your|his|her|their|its|it|it's|there|here|what|which|"
    r"who|he|she|they|you|we|I|I'm|today|tonight|tomorrow|yesterday|last|next|everything|"
    r"everyone|everybody|nothing|something|someone|anything|anyone|each|every|both|all|some|"
    r"such|so|and|but|or|if|when|whenever|because|why|how|no|yes|well|oh|one"
)
_ADV = (
    r"(?:(?:just|really|honestly|simply|always|absolutely|definitely|truly|genuinely|quite|"
    r"such|easily|still|by\s+far)\s+)*"
)
# no preposition or linking word inside the judgement: "the best pets for children"
_LINK = r"(?!(?:of|for|to|in|on|at|with|than|about|from|and|or|but|not|if|when)\b)"
_JUDGED = icase(
    rf"^(?!(?:{_NOT_A_KIND})\b)(?P<rest>[a-z][\w' ,&-]{{1,80}}?)\s+(?P<be>is|are)\s+{_ADV}"
    rf"(?P<judge>(?P<det>an?|the|my|our)\s+(?P<mods>(?:{_LINK}[a-z][\w-]*\s+){{0,3}}){_LINK}"
    r"(?P<head>[a-z][\w-]*)|right\s+up\s+(?:my|our)\s+(?:street|alley))"
    r"(?P<me>\s+(?:for|to)\s+(?:me|us))?\s*[.!]*$"
)
_LIKING_IDIOM = frozenset(words("street, alley"))
_JUDGE_WORDS = frozenset(words("is, are"))


def _rated(word: str) -> bool | None:
    """For (true) or against (false) by VADER's rating of ``word``; None when weak."""
    rating = valence(word)
    return rating > 0 if abs(rating) >= RATED else None


def _polarity(m: re.Match[str]) -> bool | None:
    """For (true) or against (false) by the judgement's head word, or by a rated word
    before it after "the" when the judgement is said to be the speaker's ("the best
    gadget for me"); None when nothing rates it."""
    head = m["head"]
    if head is None:
        return True  # "right up my street"
    if head.lower().startswith("no-"):
        return False
    if (rated := _rated(head)) is not None:
        return rated
    if is_ordeal(head):
        return False
    if m["det"].lower() == "the" and m["me"]:
        found = {r for w in m["mods"].split() if (r := _rated(w)) is not None}
        return found.pop() if len(found) == 1 else None
    return None


def _people(noun: str) -> bool:
    """Whether WordNet's first sense of a plural ``noun`` is a person, its singular
    looked up first ("sessions" is not Roger Sessions)."""
    low = noun.lower()
    singulars = (low[:-3] + "y", low[:-2], low[:-1]) if low.endswith("s") else ()
    for word in (*singulars, low):
        if len(word) > 2 and (kind := first_class(word)) is not None:
            return kind == "person"
    return False


def judged_kind(said: str) -> tuple[str, bool] | None:
    """The kind of thing ``said`` judges (see the module docstring) and whether the
    speaker is for it (false: against), or ``None``."""
    if said.rstrip().endswith("?"):
        return None
    m = _JUDGED.match(said.strip())
    if m is None:
        return None
    rest = m["rest"].strip(" ,")
    polarity = _polarity(m)
    if polarity is None or HAS_SPEAKER.search(rest) or not names_a_thing(rest):
        return None
    people = m["be"].lower() == "are" and _people(rest.split()[-1].strip(","))
    return None if people else (rest, polarity)


def judged_hint(found: frozenset[str]) -> bool:
    """Whether a clause with these (lower-case) words may hold the form of this module."""
    if found.isdisjoint(_JUDGE_WORDS):
        return False
    if not found.isdisjoint(_LIKING_IDIOM):
        return True
    return any(w.startswith("no-") or abs(valence(w)) >= RATED or is_ordeal(w) for w in found)
