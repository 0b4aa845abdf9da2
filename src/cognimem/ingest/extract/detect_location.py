"""Detectors for where people live: the speaker's city or country, hometown and moves
("I moved to Berlin from Paris"), and a third party's home ("my sister Anna lives in
Oslo", with the person as the fact's subject). The phrases are :mod:`.place_phrases`.
"""

from __future__ import annotations

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.patterns import MODS, NAME, PLACE, REL, THIRD, gated, icase
from cognimem.ingest.extract.place_phrases import (
    BEEN_IN,
    HOME,
    HOMETOWN,
    LIVE,
    LIVE_AFTER,
    LIVE_NOT,
    MOVED,
    MOVED_FROM,
    SPEAKER_FIRST,
)
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.gazetteer import is_city
from cognimem.text.scope_tags import COUNTRIES

__all__ = ["LocationReader", "place_predicate"]

_THIRD_LIVES = icase(
    rf"{THIRD}(?:lives|is living|now lives|currently lives|has lived|resides|moved|has "
    rf"moved|just moved|relocated)\s+(?:in|to)\s+(?P<v>{PLACE})"
)

# two people who live in one place: "My brother Ivan and my sister Nadia both live in
# Krakow" (each of them; the first as in ``THIRD``, the second named)
_PAIR_LIVES = gated(
    rf"{THIRD}and\s+(?:my\s+{MODS}(?:{REL})\s*,?\s+)?(?P<who2>{NAME})\s*,?\s+"
    rf"(?:(?:both|also|now|currently|still)\s+)*(?:live|are living|have lived|moved|have "
    rf"moved|just moved|relocated)\s+(?:in|to)\s+(?P<v>{PLACE})"
)


def place_predicate(place: str, predicate: str) -> str:
    """``country`` for a city said of a country, unless it is a city as well
    ("Singapore"); ``predicate`` otherwise."""
    if predicate == "city" and place.lower() in COUNTRIES and not is_city(place):
        return "country"
    return predicate


class LocationReader(Collector):
    """Reads location facts: city or country, hometown, moves; a third party's home."""

    def _place(
        self,
        c: Clause,
        raw: str | None,
        *,
        holds: bool,
        timing: str | None,
        subject: str = "user",
        predicate: str = "city",
    ) -> None:
        place = phrases.name(raw)
        if not place:
            return
        self.add(
            c,
            Cat.LOCATION,
            place_predicate(place, predicate),
            place,
            holds=holds,
            obj=place.split(",")[0],
            obj_type=ET.PLACE,
            subject=subject,
            timing=timing,
        )

    def _location(self, c: Clause) -> None:
        m = LIVE.search(c.text)
        if m:
            verb = m.group("verb").strip().lower()
            past = verb == "lived"
            self._place(c, m.group("v"), holds=not past, timing="end" if past else None)
        elif (m := LIVE_AFTER.search(c.text)) is not None and SPEAKER_FIRST.match(c.evidence):
            self._place(c, m.group("v"), holds=True, timing=None)
        elif (m := BEEN_IN.search(c.timed)) is not None:
            self._place(c, m.group("v") or m.group("w"), holds=True, timing=None)
        elif (m := HOME.search(c.text)) is not None and not c.past:
            said = next(g for g in m.groups() if g)
            self._place(c, said, holds=True, timing=None)
        m = LIVE_NOT.search(c.base)
        if m and c.anymore:
            self._place(c, m.group("v"), holds=False, timing=None)
        m = MOVED.search(c.text)
        if m:
            if m.group("old"):
                self._place(c, m.group("old"), holds=False, timing=None)
            self._place(c, m.group("v"), holds=True, timing="start")
        m = MOVED_FROM.search(c.text)
        if m and not (MOVED.search(c.text)):
            self._place(c, m.group("v"), holds=False, timing="end")
        m = HOMETOWN.search(c.text)
        if m:
            self._place(c, m.group("v"), holds=True, timing=None, predicate="hometown")
        for m in _THIRD_LIVES.finditer(c.text):
            who = self._third_party(m)
            if who:
                self._place(c, m.group("v"), holds=True, timing=None, subject=who)
        # the sentence, since "and my ..." opens a clause: read by the clause holding the
        # verb and the place
        for m in _PAIR_LIVES.finditer(c.evidence):
            if m.group("who2") not in c.text or m.group("v") not in c.text:
                continue
            first, second = self._third_party(m), phrases.name(m.group("who2"))
            for who in (first, second) if first and second else ():
                self.entity(who, ET.PERSON)
                self._place(c, m.group("v"), holds=True, timing=None, subject=who)
