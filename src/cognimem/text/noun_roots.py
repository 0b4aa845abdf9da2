"""Where a noun sits in WordNet 3.0's tree of kinds, for the few questions the
extractor asks of it: is a person so called first of all in a role the literal world
has (a worker, a relative, a teenager, a vegetarian), or is the word mostly a judgement
of people or a being of belief ("a saint", "a tyrant", "a genius", "a gremlin"); is a
thing first of all a field of knowledge ("math"), or a thing no one lives in, though
people say they do ("I live in my car", "in my sweatpants")? Is a word a language
("Spanish")? Is a thing first of all an ordeal no one wants to undergo ("a hangover",
"delays": a strong liking of one is sarcasm)?

"My brother is a marine" and "my brother is a genius" have one grammar; a careful reader
records the first and nothing from the second. The table ships with the package
(``text/data/noun_roots.tsv.gz``, built by ``scripts/build_noun_roots.py``, which says
which synsets each answer stands under; licence and provenance in ``text/data/NOTICE``)
and is read once, on first use; nothing is fetched.
"""

from __future__ import annotations

from cognimem.text.noun_tables import noun_letters

__all__ = [
    "is_field_of_knowledge",
    "is_language",
    "is_no_home",
    "is_ordeal",
    "is_person_judgement",
    "is_person_role",
    "is_person_work",
]


def _letters(noun: str) -> str:
    return noun_letters("noun_roots", noun) or ""


def is_person_role(noun: str) -> bool:
    """Whether ``noun``'s most frequent sense as a person is a role the literal world
    has: "marine", "teenager", "vegetarian", "widow" (not "genius", not "runner")."""
    return "r" in _letters(noun)


def is_person_judgement(noun: str) -> bool:
    """Whether at least half of ``noun``'s senses as a person are a judgement of people,
    a ruler or a being of belief or fiction: "saint", "tyrant", "genius", "clown",
    "control freak" (not "runner": one sense in four is "a smuggler")."""
    return "j" in _letters(noun)


def is_field_of_knowledge(noun: str) -> bool:
    """Whether ``noun``'s most frequent sense is a field of knowledge: "math",
    "chemistry" (not "history": first of all a time)."""
    return "k" in _letters(noun)


def is_no_home(noun: str) -> bool:
    """Whether ``noun``'s most frequent sense is a vehicle, a garment, furniture or a
    part of the body that WordNet does not say anyone lives in: "car", "sweatpants",
    "couch", "head" (not "motor home", "houseboat", "apartment")."""
    return "o" in _letters(noun)


def is_person_work(noun: str) -> bool:
    """Whether ``noun``'s most frequent sense as a kind of person (not one person:
    "Darwin") is a line of work: a worker, a professional, a clergyman, an entertainer,
    a businessperson, an officer of the law, an administrator, an official, a scientist
    or a civil authority ("marine", "hairdresser", "referee", "chemist", "mayor"; not
    "teenager", "widow", "runner")."""
    return "w" in _letters(noun)


def is_language(noun: str) -> bool:
    """Whether one of ``noun``'s senses is a natural language: "Spanish", "Mandarin",
    "Tagalog" (not "sarcasm", "dog")."""
    return "n" in _letters(noun)


def is_ordeal(noun: str) -> bool:
    """Whether ``noun``'s most frequent sense is an ordeal no one wants to undergo: ill
    health, a symptom, discomfort, a misfortune, a trouble, a nuisance, a wait or a
    delay, a levy or a debt ("hangover", "flu", "delay", "waiting", "taxes"; not
    "tragedy", also a play, nor an acronym)."""
    return "u" in _letters(noun)
