"""What kind of entity a name is, by evidence: a title ("Dr. Lee": a person), an
organisation's suffix ("Acme Corp"), an event's head word ("Boston Marathon"), the
gazetteer of countries and large cities, a first name the shipped list knows, and the
words around it ("works at" an organisation, "flew to" a place, "bought a" a product).

Position alone decides nothing: a capitalised word after "in" or "at" that no evidence
types stays ``other`` ("at Google" is not a place).
"""

from __future__ import annotations

import re
from typing import Literal

from cognimem.ingest.extract.patterns import TITLE
from cognimem.models.knowledge import EntityType as ET
from cognimem.text.gazetteer import (
    is_event_name,
    is_first_name,
    is_known_place,
    is_org_name,
)

__all__ = ["Cue", "is_person_name", "kind_of", "works_for_person"]

# the words around a name: after a place preposition, a verb of going, "works at/for",
# where one works that is no person ("works at Morgan Stanley"), "works with", a verb of
# buying or using, or none
Cue = Literal["place", "motion", "work", "workplace", "with", "product", "none"]
_TITLED = re.compile(rf"^{TITLE}\s")


def is_person_name(name: str) -> bool:
    """A title before it, or one or two words led by a known first name."""
    if _TITLED.match(name):
        return True
    return len(name.split()) <= 2 and is_first_name(name)


def works_for_person(name: str, said: str) -> bool:
    """Whether the one someone works at, for or with (``said``: the words up to the
    name) is a person: a title, or a first name after "for" or "with"; one works *at* a
    workplace ("at Morgan Stanley"), whoever it is named after."""
    if _TITLED.match(name):
        return True
    at = re.search(r"\bat\s+(?:the\s+)?$", said, re.IGNORECASE) is not None
    return not at and is_person_name(name)


def kind_of(name: str, cue: Cue = "none") -> ET:
    """The entity type ``name`` has evidence for, ``other`` when it has none."""
    if _TITLED.match(name):
        return ET.PERSON
    if is_org_name(name):
        return ET.ORGANIZATION
    if is_event_name(name):
        return ET.EVENT
    place, person = is_known_place(name), is_person_name(name)
    if place and (cue in ("place", "motion") or not person):  # "in Charlotte"
        return ET.PLACE
    if person and cue != "workplace":  # a workplace named after someone is the workplace
        return ET.PERSON
    if cue == "motion":
        return ET.PLACE
    if cue in ("work", "workplace"):
        return ET.ORGANIZATION
    if cue == "product":  # "product" is left to the domain layer's own types (docs/domain.md)
        return ET.THING
    return ET.OTHER
