"""What a name is, from evidence in the name itself: a known place (countries and the
cities of at least 500,000 people), an organisation by its suffix ("Acme Corp",
"Mercy Hospital"), an event by its head word ("the Boston Marathon"), and the pronoun
a first name's bearer most often uses.

The lists ship with the package (``text/data``, their licences and provenance in
``text/data/NOTICE``) and are read once, on first use; nothing is fetched.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib import resources
from typing import Literal

from cognimem.text.scope_tags import COUNTRIES

__all__ = [
    "Gender",
    "first_name_gender",
    "is_city",
    "is_event_name",
    "is_first_name",
    "is_known_place",
    "is_org_name",
]

Gender = Literal["f", "m"]

_THE = re.compile(r"^the\s+")  # a leading "the", which place lookups ignore
_ORG_SUFFIX = re.compile(
    r"\b(?:inc|llc|ltd|plc|corp|corporation|co|company|gmbh|ag|sa|bank|university|college|"
    r"school|academy|hospital|clinic|labs?|group|foundation|institute|technologies|tech|"
    r"systems|software|solutions|airlines?|agency|studios?|partners|holdings|motors|"
    r"pharmaceuticals|consulting|capital|ventures|media|network|restaurant|cafe|bakery|"
    r"hotel|store|shop|firm|department|council|ministry|association|society|club)\.?$",
    re.IGNORECASE,
)
_EVENT_HEAD = re.compile(
    r"\b(?:festival|conference|summit|marathon|expo|olympics|world cup|cup|championship|"
    r"tournament|concert|wedding|gala|fair|carnival|parade|hackathon|convention|retreat|"
    r"reunion|tour|games|week|day)$",
    re.IGNORECASE,
)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _lines(name: str) -> list[str]:
    text = resources.files("cognimem.text").joinpath("data", name).read_text("utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


@cache
def _cities() -> frozenset[str]:
    return frozenset(_lines("cities.txt"))


@cache
def _first_names() -> dict[str, Gender | None]:
    out: dict[str, Gender | None] = {}
    # the census list first, so the hand-written list (names given to anyone left out)
    # overrides it
    for line in _lines("census_first_names.tsv") + _lines("first_names.tsv"):
        name, gender = line.split("\t")
        out[name] = "f" if gender == "f" else "m" if gender == "m" else None
    return out


def is_known_place(name: str) -> bool:
    """A country or a large city ("Seattle", "São Paulo", "Japan"); "the" is ignored."""
    key = _THE.sub("", name.strip().lower())
    return key in COUNTRIES or key in _cities() or _fold(key) in _cities()


def is_city(name: str) -> bool:
    """A large city, also one that is a country too ("Singapore", "Djibouti")."""
    key = _THE.sub("", name.strip().lower())
    return key in _cities() or _fold(key) in _cities()


def is_org_name(name: str) -> bool:
    """Whether the name ends in an organisation's suffix ("Acme Corp", "Mercy Hospital")."""
    return len(name.split()) > 1 and _ORG_SUFFIX.search(name.strip()) is not None


def is_event_name(name: str) -> bool:
    """Whether the name is headed by an event word ("Boston Marathon", "Web Summit")."""
    return len(name.split()) > 1 and _EVENT_HEAD.search(name.strip()) is not None


def first_name_gender(name: str) -> Gender | None:
    """The pronoun a bearer of the name's first word most often uses ("f": she, "m":
    he), or ``None`` for a name the list does not hold or gives to anyone."""
    return _first_names().get(_first_word(name))


def is_first_name(name: str) -> bool:
    """Whether the name's first word is a first name the lists hold, whoever bears it."""
    return _first_word(name) in _first_names()


def _first_word(name: str) -> str:
    return _fold(name.strip().split()[0]) if name.strip() else ""
