"""What kind of thing a noun names, from WordNet 3.0: the broad classes of its senses
(a person, an animal, an artifact, a part of the body ...), most frequent first.

"My coworker is a snake" and "my sister is a nurse" have one grammar; what tells a
figure of speech from a fact is that a snake is first of all an animal and a nurse a
person. The table ships with the package (``text/data/noun_senses.tsv.gz``, built by
``scripts/build_noun_senses.py``; licence and provenance in ``text/data/NOTICE``) and
is read once, on first use; nothing is fetched.
"""

from __future__ import annotations

from cognimem.text.noun_tables import noun_letters

__all__ = ["CLASSES", "first_class", "noun_classes"]

# WordNet's noun lexicographer files 3 .. 28, one letter each in the table
CLASSES = (
    "tops", "act", "animal", "artifact", "attribute", "body", "cognition",
    "communication", "event", "feeling", "food", "group", "location", "motive", "object",
    "person", "phenomenon", "plant", "possession", "process", "quantity", "relation",
    "shape", "state", "substance", "time",
)  # fmt: skip


def _letters(word: str) -> str | None:
    return noun_letters("noun_senses", word)


def noun_classes(word: str) -> tuple[str, ...]:
    """The classes of ``word``'s senses as a noun, most frequent sense first, each once;
    empty when WordNet has no such noun (a name, a new word, a typo)."""
    letters = _letters(word)
    return tuple(CLASSES[ord(c) - ord("a")] for c in letters) if letters else ()


def first_class(word: str) -> str | None:
    """The class of ``word``'s most frequent sense as a noun: ``"animal"`` for "snake",
    ``"person"`` for "nurse"; None when WordNet has no such noun."""
    classes = noun_classes(word)
    return classes[0] if classes else None
