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
    first_name_gender,
    is_event_name,
    is_known_place,
    is_org_name,
)

__all__ = ["Cue", "is_person_name", "kind_of"]

# the words around a name: after a place preposition, a verb of going, "works at/for",
# "works with", a verb of buying or using, or none
Cue = Literal["place", "motion", "work", "with", "product", "none"]
_TITLED = re.compile(rf"^{TITLE}\s")


def is_person_name(name: str) -> bool:
    """A title before it, or one or two words led by a known first name."""
    if _TITLED.match(name):
        return True
    return len(name.split()) <= 2 and first_name_gender(name) is not None


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
    if person:
        return ET.PERSON
    if cue == "motion":
        return ET.PLACE
    if cue == "work":
        return ET.ORGANIZATION
    if cue == "product":  # "product" is left to the domain layer's own types (docs/domain.md)
        return ET.THING
    return ET.OTHER
