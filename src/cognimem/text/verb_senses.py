"""What kind of doing a verb names, from WordNet 3.0: the broad classes of its senses (a
verb of feeling, of eating, of moving ...), most frequent first, and its *kin* — the
other verbs of its most frequent sense and of that sense's hypernyms ("detest": "hate",
then "dislike"; "shun": "eschew", then "avoid").

"I abhor X" and "I shun X" tell a stance by the verb alone; which verbs do is what
WordNet's classes and hypernyms say, not a hand list. The table ships with the package
(``text/data/verb_senses.tsv.gz``, built by ``scripts/build_verb_senses.py``; licence
and provenance in ``text/data/NOTICE``) and is read once, on first use, by the reader of
the noun tables (:mod:`cognimem.text.noun_tables`); nothing is fetched.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cognimem.text.noun_tables import entry, table

__all__ = ["CLASSES", "VerbSenses", "phrasal_verbs", "phrase_heads", "verb_senses"]

# WordNet's verb lexicographer files 29 .. 43, one letter each in the table
CLASSES = (
    "body", "change", "cognition", "communication", "competition", "consumption",
    "contact", "creation", "emotion", "motion", "perception", "possession", "social",
    "stative", "weather",
)  # fmt: skip
_NAME = "verb_senses"


@dataclass(frozen=True)
class VerbSenses:
    """A verb's classes (most frequent sense first, each once) and its kin."""

    verb: str
    classes: tuple[str, ...]
    kin: tuple[str, ...]

    @property
    def first_class(self) -> str:
        return self.classes[0]


def verb_senses(verb: str) -> VerbSenses | None:
    """The senses of ``verb`` (lower-cased, spaces collapsed; "shy away from" is one
    verb), found under its base form when it is a third-person "-s" form ("horrifies",
    "irritates", "dreads") or an irregular form WordNet lists ("ate"); None when WordNet
    has no such verb (a typo, a noun)."""
    low = " ".join(verb.lower().split())
    head, _, tail = low.partition(" ")
    forms = [head]
    if len(head) > 3 and head.endswith("s") and not head.endswith("ss"):
        forms += [head[:-1], head[:-2] if head.endswith("es") else "", head[:-3] + "y"]
    for form in forms:
        word = f"{form} {tail}".strip() if form else ""
        found = entry(_NAME, word) if word else None
        if found is not None:
            letters, *kin = found.split(" ")
            stored = table(_NAME)[word]
            base = stored[1:] if stored.startswith(">") else word
            classes = tuple(CLASSES[ord(c) - ord("a")] for c in letters)
            return VerbSenses(base, classes, tuple(kin))
    return None


@cache
def phrasal_verbs() -> frozenset[str]:
    """The verbs of more than one word ("shy away from", "care for")."""
    return frozenset(w for w in table(_NAME) if " " in w)


@cache
def phrase_heads() -> frozenset[str]:
    """The first words of the verbs of more than one word ("shy" of "shy away from")."""
    return frozenset(w.split(" ", 1)[0] for w in phrasal_verbs())
