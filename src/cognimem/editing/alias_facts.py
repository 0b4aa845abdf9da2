"""Which facts a name split moves, as a pure decision (``editing/aliases.py``).

A fact written about an entity through one of its names ("Lizzie works at Acme Corp."
once "Lizzie" was an alias of Elizabeth Smith) is keyed and linked by the entity's own
name: what was said is not kept as such. Two things stored with the fact tell the name
it was read through: the references its sentence resolved (its provenance's
``coreference``: "She" read as "Lizzie"), and its statement (``text``, the sentence it
was read from, with the names a pronoun stood for written in). When the entity's role in
the fact (subject or object, not both) was read through the split-off name and through
no other name of the entity, the role moves to the split-off entity: its id, and for
the subject the key's and ``subject``'s slug. A fact that names the entity by another
name too, by none (a pronoun whose reading was not kept, an LLM's subject), or that is
the user's own, stays where it is: what is stored cannot tell whom it meant.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from typing import Any

from cognimem.models.knowledge import Entity, Fact
from cognimem.models.references import COREFERENCE
from cognimem.text.names import SELF_SUBJECT, normalize_name, subject_slug

_WORD = re.compile(r"\w+")


def moved(
    entity_id: str, alias: str, twin: Entity, fact: Fact, names: Collection[str]
) -> Fact | None:
    """``fact`` once the name ``alias`` (normalised) is split off ``entity_id`` into
    ``twin``, when its role of ``entity_id`` was read through that name alone (``names``:
    the entity's names left, normalised); ``None`` when it stays."""
    subject = fact.subject_entity_id == entity_id
    if subject == (fact.object_entity_id == entity_id):
        return None  # not the entity's fact, or the entity on both sides
    if subject and fact.subject == SELF_SUBJECT:
        return None
    if read_as(fact, {alias, *names}) != {alias}:
        return None
    revision = fact.revision + 1
    if not subject:
        return fact.model_copy(update={"object_entity_id": twin.id, "revision": revision})
    slug = subject_slug(twin.name)
    key = fact.key
    if key == fact.subject or key.startswith(fact.subject + ":"):
        key = slug + key[len(fact.subject) :]
    update: dict[str, Any] = {
        "subject": slug, "subject_entity_id": twin.id, "key": key, "revision": revision,
    }  # fmt: skip
    return fact.model_copy(update=update)


def read_as(fact: Fact, names: Collection[str]) -> set[str]:
    """Which of ``names`` (normalised) the fact was read through: those its resolved
    references name, and those its statement says in words."""
    links = fact.provenance.get(COREFERENCE)
    said = {
        normalize_name(x["name"])
        for x in (links if isinstance(links, list) else [])
        if isinstance(x, dict) and isinstance(x.get("name"), str)
    }
    words = _words(fact.text)
    return {n for n in names if n in said or _says(words, _words(n))}


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _says(words: list[str], name: list[str]) -> bool:
    """Whether ``name``'s words come one after another in ``words``."""
    n = len(name)
    return n > 0 and any(words[i : i + n] == name for i in range(len(words) - n + 1))
