"""Whether a clause is a figure of speech said as what someone or something *is*:
"my coworker is a snake", "my inbox is a monster", "my cat is a diva", "this heat is
killing me". A careful reader records nothing from one; the same grammar with a literal
complement ("my sister is a nurse", "my dog is a poodle", "my back is killing me") is a
fact.

The evidence is what kind of thing each side names, from WordNet's broad classes of a
noun's most frequent sense (:mod:`cognimem.text.noun_senses`):

- a person (a relation word, or a noun that is first of all a person) said to be a
  thing that is first of all not a person ("a snake", "a machine", "my rock"): a
  figure, unless it is a job the rules know or is followed by what it is of ("a big
  fan of jazz");
- a person said to be a noun after a word that is true of every person ("a human
  GPS", "a walking encyclopedia", "a living legend"): a figure, unless it is a job the
  rules know ("a human rights lawyer");
- a person said to be a kind of person that is mostly a judgement of people, a ruler or
  a being of belief, and first of all no role the literal world has ("my boss is a
  dictator", "my mother-in-law is a saint", "my brother is a genius with computers";
  not "my brother is a marine", "my son is a teenager"): an epithet
  (:mod:`cognimem.text.noun_roots`);
- a pet said to be anything but an animal ("a diva", "a vacuum cleaner");
- a concrete thing or an act ("my laptop", "my job", "my inbox") said to be a creature,
  a force of nature or a state ("a dinosaur", "a tornado", "a nightmare");
- "X is killing me" where X is no part of the body and no illness ("my boss", "this
  heat", "the suspense");
- "I live in my X" where X is a vehicle, a garment, furniture or a part of the body
  ("I live in my car these days", "in my sweatpants", "in my head"; not "in my motor
  home", "in my apartment").

A name ("a Toyota", "a Siamese"), a noun WordNet does not hold, an adjective ("my sister
is pregnant") and a complement with no article after a single subject are no evidence:
the clause is read as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.text.noun_roots import (
    is_field_of_knowledge,
    is_no_home,
    is_person_judgement,
    is_person_role,
)
from cognimem.text.noun_senses import first_class, noun_classes
from cognimem.text.tokens import words
from cognimem.text.valence import valence

__all__ = ["Copula", "copula", "is_figure", "kind_owned", "no_allergen"]

# verbs that only say something is done: what follows is an act, no allergen
_LIGHT_ACTS = frozenset({"doing", "having", "getting", "being", "going", "making", "paying"})

_DET = r"(?:my|our|his|her|their|the|this|that|these|those)"
_BE = r"(?:\s+(?:is|are|was|were)|'s)"
_COPULA = re.compile(
    rf"^(?:(?:and|but|so|honestly|basically|seriously)\s+)*(?P<det>{_DET})\s+"
    rf"(?P<x>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){{0,2}}?){_BE}\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
_KILLING = re.compile(
    rf"^(?:(?:and|but|so|honestly)\s+)*(?:{_DET}\s+)?(?P<x>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)"
    rf"{{0,2}}?){_BE}\s+(?:\w+ly\s+|just\s+|really\s+)?killing\s+me\b",
    re.IGNORECASE,
)
_LIVES_IN = re.compile(
    r"^(?:(?:and|but|so|honestly|basically|practically|literally|pretty\s+much)\s+)*I"
    r"(?:\s+(?:\w+ly|just|pretty\s+much|kind\s+of|sort\s+of))*\s+(?:live|'m\s+living|am\s+"
    r"living)\s+in\s+(?P<rest>(?:my|our)\s+.+)$",
    re.IGNORECASE,
)
# words between the verb and the complement's article that say nothing of its kind
_HEDGE = re.compile(
    r"^(?:(?:such|just|basically|literally|totally|absolutely|truly|really|honestly|"
    r"like|kind of|sort of|pretty much|a bit of|always|still|now|also)\s+)*",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?P<art>an?|my|our|the|his|her|their|some)\s+", re.IGNORECASE)
# where the complement's noun phrase ends
_NP_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
_NP_STOPS = frozenset(
    words(
        """of, about, on, at, in, with, for, to, from, when, whenever, before, after, since,
        this, that, these, those, today, tonight, who, which, and, but, or, than, because,
        if, while, as, so, by, during, like, around, lately, now, again, sometimes"""
    )
)
_NOT_ANIMAL = frozenset({"person", "artifact", "object", "phenomenon", "food", "plant",
                         "substance", "state", "feeling", "location", "act", "communication",
                         "cognition", "event", "group", "shape", "body", "attribute"})  # fmt: skip
# what a thing or an act is not, said of it: a creature, a force, a state of things
_NOT_A_THING = frozenset({"tops", "person", "animal", "phenomenon", "state", "feeling"})
# what a person is not, even where the word has a sense for a kind of person too ("a
# snake", "a machine"): a creature, a made or a natural thing
_CREATED = frozenset({"animal", "artifact", "object", "phenomenon", "plant", "food", "tops"})
_CONCRETE = frozenset({"artifact", "object", "location", "act", "food", "substance", "time"})
# what every person is: said before a noun of a person, it makes the noun a figure
_TRUE_OF_ANYONE = frozenset({"human", "walking", "living", "breathing"})
_FAVOURITE = re.compile(r"\b(?:favou?rite|fave|fav|go-to)\b", re.IGNORECASE)


def _complement(rest: str) -> tuple[str, list[str], bool] | None:
    """The article (or possessive) and the nouns of the noun phrase after the verb, and
    whether what follows it says what it is of ("a big fan of jazz")."""
    rest = _HEDGE.sub("", rest.strip())
    m = _ARTICLE.match(rest)
    article = m.group("art").lower() if m else ""
    rest = rest[m.end() :] if m else rest
    nouns: list[str] = []
    of, end = False, 0
    for w in _NP_WORD.finditer(rest):
        if any(ch in ",;:!?.()" for ch in rest[end : w.start()]):
            break  # a time blanked out, or the clause's end
        word, end = w.group(0), w.end()
        if word.lower() in _NP_STOPS:
            of = word.lower() in {"of", "for"}
            break
        nouns.append(word)
        if len(nouns) == 4:
            break
    return (article, nouns, of) if nouns else None


def _kind_of_subject(x: str) -> str | None:
    """ "person", "pet", "thing" or None (no evidence) for the subject's head noun."""
    head = x.split()[-1].lower()
    phrase = x.lower()
    if phrase in vocab.RELATIONS or head in vocab.RELATIONS:
        return "person"
    if phrase in vocab.PETS or head in vocab.PETS:
        return "pet"
    kind = first_class(head)
    if kind == "person":
        return "person"
    if kind == "animal":
        return "pet"
    if kind is None or kind in _CONCRETE:
        return "thing"  # "my inbox": a noun WordNet does not hold is a thing
    return None  # "my biggest worry is my son": an abstract subject may be anyone


def _is_figure(x: str, article: str, nouns: list[str], of: bool) -> bool:
    subject = _kind_of_subject(x)
    head = nouns[-1]
    phrase = " ".join(nouns).lower()
    if phrase in vocab.JOBS or head.lower() in vocab.JOBS or phrase in vocab.RELATION_MODIFIERS:
        return False
    if subject == "person" and len(nouns) > 1 and nouns[0].lower() in _TRUE_OF_ANYONE:
        return True  # "a human GPS", "a walking encyclopedia": said of a person, a figure
    if subject is None or any(w[:1].isupper() or not w.islower() for w in nouns):
        return False  # a name: "a Toyota", "a Maine Coon", "an iPhone"
    classes = noun_classes(head)
    if not classes:
        return False
    if subject == "person":  # "a snake", "a machine", "my rock"; not "a model", "a fan of"
        return (
            classes[0] != "person"
            and ("person" not in classes or (classes[0] in _CREATED and not of))
        ) or (not of and _epithet(phrase, head.lower()))
    if subject == "pet":
        return classes[0] in _NOT_ANIMAL
    # a thing or an act said to be "my ..." is said to be one's own: "my job is my life"
    return classes[0] in _NOT_A_THING and article not in {"my", "our", "the"}


def _epithet(phrase: str, head: str) -> bool:
    """Whether a person called ``phrase`` (its last word ``head``) is called a name, not
    a role: the phrase as WordNet holds it ("control freak"), else its head."""
    for noun in (phrase, head) if " " in phrase else (head,):
        if is_person_role(noun):
            return False
        if is_person_judgement(noun):
            return True
    return False


def _killing_me(text: str) -> bool:
    m = _KILLING.match(text)
    if m is None:
        return False
    head = m.group("x").split()[-1].lower()
    if head in vocab.BODY_PARTS or head in vocab.CONDITIONS:
        return False
    classes = noun_classes(head)
    return not ("body" in classes or (classes and classes[0] == "state"))


def _lives_in_no_home(text: str) -> bool:
    m = _LIVES_IN.match(text)
    found = _complement(m.group("rest")) if m else None
    if found is None:
        return False
    nouns = [w.lower() for w in found[1]]
    # the longest run of its first words WordNet holds: "my truck right now" is a truck
    return any(is_no_home(" ".join(nouns[:n])) for n in range(len(nouns), 0, -1))


@dataclass(frozen=True)
class Copula:
    """What a clause says someone or something is: "my dog is a poodle"."""

    subject: str  # "dog"
    article: str  # "a", "an", "my", "" ...
    words: tuple[str, ...]  # ("poodle",), as written
    of: bool  # what it is of or for follows ("a big fan of jazz")


def copula(text: str) -> Copula | None:
    """The clause ``text`` read as "my X is a Y", or None when it is not one (no
    possessive or demonstrative subject, no noun after the verb, or a bare complement
    after a single subject: "my sister is pregnant")."""
    m = _COPULA.match(text)
    if m is None or _FAVOURITE.search(m.group("x")):
        return None
    found = _complement(m.group("rest"))
    if found is None:
        return None
    article, nouns, of = found
    plural = m.group("x").lower().endswith("s") or m.group("det").lower() in {"these", "those"}
    if not article and not plural:
        return None
    return Copula(m.group("x"), article, tuple(nouns), of)


def is_figure(text: str, said: Copula | None = None) -> bool:
    """Whether the clause ``text`` (read as ``said``, when given) says, by a figure of
    speech, what someone or something is (see the module docstring); False when nothing
    in it is evidence of one."""
    low = text.lower()
    if ("killing" in low and _killing_me(text)) or (" liv" in low and _lives_in_no_home(text)):
        return True
    said = said or copula(text)
    return said is not None and _is_figure(said.subject, said.article, list(said.words), said.of)


def kind_owned(said: Copula) -> str | None:
    """The make or breed a literal "my X is a Y" names of a thing or pet the speaker has:
    "Toyota" from "my car is a Toyota" (a thing the rules know people own, and a name),
    "poodle" from "my dog is a poodle" (a pet, and a name or a noun that WordNet knows
    only as an animal: not "a puppy", not "a male"); None otherwise."""
    if said.article not in {"a", "an"}:
        return None
    subject = said.subject.lower()
    head = subject.split()[-1]
    named = any(not w.islower() for w in said.words)
    value = " ".join(said.words)
    if subject in vocab.OWNABLES or head in vocab.OWNABLES:
        return value if named else None
    if (subject in vocab.PETS or head in vocab.PETS) and (
        named or (value.lower() not in vocab.PETS and noun_classes(said.words[-1]) == ("animal",))
    ):
        return value
    return None


# what an allergy may be to, by WordNet's classes: something of the body's world, or
# what is first of all a state ("anesthesia", "bee stings"). An allergy to what is first
# of all an act, a trait, a talk, a feeling, a group or a time, with no sense of the
# body's world, is a joke
# ("allergic to responsibility", "to paperwork", "to drama", "to people"), and so is one
# to a field of knowledge ("to math"); so is one to what WordNet knows as no food, plant,
# animal, substance or part of the body, said in words VADER's lexicon rates ("to bad
# vibes", "to stupidity"); another
# noun of the mind ("fragrance", first a smell) is left as read
_PHYSICAL = frozenset({"food", "plant", "animal", "substance", "artifact", "object", "phenomenon",
                       "body"})  # fmt: skip
_RATED = 1.0  # VADER: "bad" -2.5, "stupidity" -1.9; an allergen's name is rated by none
# what an allergen said in rated words must still be ("poison ivy", "nuts"; "vibes" is
# first of all a made thing, the vibraphone)
_MATTER = frozenset({"food", "plant", "animal", "substance", "body"})
_NO_ALLERGEN = frozenset({"act", "attribute", "communication", "event", "feeling", "group",
                          "motive", "relation", "time", "possession", "quantity"})  # fmt: skip


def no_allergen(item: str) -> bool:
    """Whether ``item`` ("responsibility", "group projects"), said to be what someone is
    allergic to, cannot be one (see above); False for a known allergen and for a noun
    WordNet does not hold."""
    low = item.lower().strip()
    head = low.split()[-1] if low else ""
    known = vocab.FOOD_ALLERGENS | vocab.DRUG_ALLERGENS | vocab.PETS
    if not head or low in known or head in known:
        return False
    if is_field_of_knowledge(head):  # "allergic to math", "to chemistry"
        return True
    if low.split()[0] in _LIGHT_ACTS:  # "allergic to doing dishes": an act
        return True
    classes = noun_classes(head)
    if _MATTER.isdisjoint(classes) and any(
        abs(valence(w)) >= _RATED for w in _NP_WORD.findall(low)
    ):
        return True  # "bad vibes", "stupidity": a judgement, no substance
    return bool(classes) and classes[0] in _NO_ALLERGEN and _PHYSICAL.isdisjoint(classes)
