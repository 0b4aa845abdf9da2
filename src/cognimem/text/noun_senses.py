"""What kind of thing a noun names, from WordNet 3.0: the broad classes of its senses
(a person, an animal, an artifact, a part of the body ...), most frequent first.

"My coworker is a snake" and "my sister is a nurse" have one grammar; what tells a
figure of speech from a fact is that a snake is first of all an animal and a nurse a
person. The table ships with the package (``text/data/noun_senses.tsv.gz``, built by
``scripts/build_noun_senses.py``; licence and provenance in ``text/data/NOTICE``) and
is read once, on first use; nothing is fetched.
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

__all__ = ["CLASSES", "first_class", "noun_classes"]

# WordNet's noun lexicographer files 3 .. 28, one letter each in the table
CLASSES = (
    "tops", "act", "animal", "artifact", "attribute", "body", "cognition",
    "communication", "event", "feeling", "food", "group", "location", "motive", "object",
    "person", "phenomenon", "plant", "possession", "process", "quantity", "relation",
    "shape", "state", "substance", "time",
)  # fmt: skip


@cache
def _table() -> dict[str, str]:
    raw = resources.files("cognimem.text").joinpath("data", "noun_senses.tsv.gz").read_bytes()
    out: dict[str, str] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        word, letters = line.split("\t")
        out[word] = letters
    return out


def _letters(word: str) -> str | None:
    table = _table()
    word = word.lower()
    found = table.get(word)
    if found is None and len(word) > 3 and word.endswith("s"):  # cats, boxes, puppies
        stems = [word[:-1], word[:-2] if word.endswith("es") else "", word[:-3] + "y"]
        found = next((table[s] for s in stems if s in table), None)
    if found is not None and found.startswith(">"):  # an irregular plural: "feet"
        found = table.get(found[1:])
    return found


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
