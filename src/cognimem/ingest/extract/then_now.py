"""Places lived and employers said as a list, and the one said to hold now: "I've worked
at Oracle and SAP, and now I'm at Salesforce" is three employers, the first two no longer
held; "I've lived in Leeds, and now I'm in Hull" keeps Hull, not Leeds, as the city.

Read once the sentence's clauses are read (:mod:`.sentence_reader`), from the speaker's
employer and city facts they gave: the words after each value may name more members of
the same list ("and Bergen", ", Turin and ...") and then the current one ("and now I'm
at ...", "these days I work for ...", "before moving to ...", "before joining ...").
With a current one, every member before it no longer holds; without one, the members
keep what the clause said of the first ("I worked at Siemens and Bosch": both ended).

A name written with "and" inside ("Marks and Spencer") is one employer unless the
sentence goes on to a current one or the list has commas; one with "&" ("Procter &
Gamble") is never split.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.detect_location import place_predicate
from cognimem.ingest.extract.kinds import kind_of
from cognimem.ingest.extract.patterns import INNER_STOP, icase
from cognimem.models.extraction import ExtractedFact
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.gazetteer import is_city, is_first_name, is_known_place

__all__ = ["ThenNowReader"]

# one member: capitalised words, "of" or "de" between them ("Bank of America")
_WORD = rf"[A-Z][\w'&{INNER_STOP}-]*"
_MEMBER = rf"(?-i:(?!I\b|I'|We\b){_WORD}(?:\s+(?:of\s+|de\s+)?{_WORD}){{0,3}})"
# more members of the list after the first: ", Turin", " and Bergen" (not "and now ...")
_MORE = icase(
    rf"^(?:\s*,\s*(?!and\b|now\b|but\b){_MEMBER})*(?:\s*,?\s+and\s+(?!now\b|then\b){_MEMBER})"
)
# the member said to hold now, after the list
_NOW = icase(
    r"^\s*[,;]?\s*(?:(?:and|but|so)\s+)?(?:"
    r"(?:now|these days|nowadays|currently|today)\s*,?\s*(?:(?P<verb>(?:I|we)(?:'m|'re|\s+am|"
    r"\s+are)\s+(?:now\s+)?(?:back\s+)?(?:at|in|with|based in|living in|working at|working "
    r"for)|(?:I|we)\s+(?:now\s+)?(?:live|work)\s+(?:in|at|for))\s+)?|"
    r"(?P<before>before\s+(?:moving|relocating)\s+to|before\s+joining)\s+)"
    rf"(?P<v>{_MEMBER})(?P<end>(?=\s*(?:[.,;!?]|$)))?"
)
# members inside one captured value: "Oracle and SAP", "Milan, Turin"
_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
_LISTED = {(Cat.OCCUPATION, "employer"), (Cat.LOCATION, "city"), (Cat.LOCATION, "country")}


def _is_list(fact: ExtractedFact, said: str, now: bool) -> bool:
    """Whether the members are a list and not one name. Places are when they no longer
    hold or a current one follows ("I live in Trinidad and Tobago" is one country) and
    "and" or a comma before a city parts them ("Portland, Oregon" is one city). An
    employer with "and" inside is one name when a member is a first name ("Marks and
    Spencer"), unless a current one follows or commas part it too."""
    members = [m for m in _SPLIT.split(said) if m]
    if len(members) < 2 or is_known_place(said):
        return False
    if fact.category is Cat.LOCATION:
        # "Milan, Turin": two cities, "Portland, Oregon": a city in its state
        parts = said != fact.value or is_city(members[1])
        return (now or not fact.holds) and parts
    if now or "," in said:
        return True
    return len({m.casefold() for m in members}) == len(members) and not any(
        is_first_name(m) for m in members
    )


def _same_kind(fact: ExtractedFact, now: re.Match[str]) -> bool:
    """Whether what ``now`` says holds is of the list's kind: a place ("in", "moving
    to") after places, a workplace ("at", "with", "for", "joining") after employers, a
    bare name ("and now Bologna") after either; not someone after "now" ("and now Tom
    lives there")."""
    said = (now["verb"] or now["before"] or "").lower()
    if not said:
        return now["end"] is not None
    place = said.endswith((" in", " to"))
    return place is (fact.category is Cat.LOCATION)


def _listed(value: str, rest: str) -> tuple[str, str]:
    """The list from the value on (the value and the members after it), and what follows
    it."""
    more = _MORE.match(rest)
    return (value + more.group(0), rest[more.end() :]) if more else (value, rest)


class ThenNowReader(Collector):
    """Splits a list of employers or places lived into its members and ends the ones
    before the member said to hold now."""

    def _then_now(self, text: str, start: int) -> None:
        for fact in list(self.facts[start:]):
            if fact.subject != "user" or (fact.category, fact.predicate) not in _LISTED:
                continue
            at = text.find(fact.value)
            if at < 0:
                continue
            said, rest = _listed(fact.value, text[at + len(fact.value) :])
            now = _NOW.match(rest)
            if now is not None and not _same_kind(fact, now):
                now = None  # "and now Tom lives there", "and now I'm in Rome": not the list's
            is_list = _is_list(fact, said, now is not None)
            if not is_list and now is None:
                continue
            kept = [m for m in _SPLIT.split(said) if m] if is_list else [fact.value]
            news = [self._member(fact, m, holds=fact.holds and now is None) for m in kept]
            if now is not None:
                news.append(self._member(fact, now["v"], holds=True))
            others = {(f.predicate, f.value.casefold()) for f in self.facts if f is not fact}
            i = next(n for n, f in enumerate(self.facts) if f is fact)
            self.facts[i : i + 1] = [
                f for f in news if (f.predicate, f.value.casefold()) not in others
            ]
            if len(kept) > 1:
                self.entities.pop(fact.value.casefold(), None)

    def _member(self, fact: ExtractedFact, name: str, *, holds: bool) -> ExtractedFact:
        """``fact`` about one member of its list."""
        if fact.category is Cat.LOCATION:
            predicate, kind = place_predicate(name, "city"), ET.PLACE
        else:
            predicate, kind = fact.predicate, kind_of(name, "workplace")
        self.entity(name, kind)
        ended = fact.valid_to if not holds else None
        return fact.model_copy(
            update={
                "value": name,
                "predicate": predicate,
                "holds": holds,
                "object_entity": name,
                "object_type": kind,
                "valid_from": fact.valid_from if holds else None,
                "valid_to": ended,
            }
        )
