"""Where someone lives, said with their job or studies: "My brother is a firefighter in
Leeds", "I'm an accountant at KPMG in Johannesburg", "My cousin studies medicine in
Porto" give the city of the job's holder beside the job.

Only a place the gazetteer knows (a country or a large city: "in Marketing", "in IT"
are no places) right after the job, or after its workplace, counts; and only when the
sentence says nothing of where anyone lives and the message has no other city for
the holder ("I work in Manchester but live in Stockport", "I'm a GP in Bristol, and we
live out in Bath": the place of work is not the home).
"""

from __future__ import annotations

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.detect_location import place_predicate
from cognimem.ingest.extract.patterns import ORG, PLACE, icase
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.gazetteer import is_known_place

__all__ = ["JobPlaceReader"]

# after the job: its workplace, if named, then "in" and the place
_IN_PLACE = icase(rf"^(?:\s+(?:at|for)\s+(?:the\s+)?{ORG})?\s+in\s+(?P<v>{PLACE})")
# the sentence says where someone lives, moved or is based
_LIVES = icase(r"\b(?:live|lives|lived|living|reside|resides|based|moved|relocated|home)\b")
_JOBS = frozenset({"job", "studies"})
# a business run or owned (``work_phrases.RUN_A``) is where it is, not its owner's home
_BUSINESS = icase(r"(?:runs?|owns?|manages?)\s")


class JobPlaceReader(Collector):
    """Reads the city said with a job ("a paramedic in Leeds")."""

    def _job_place(self, c: Clause, start: int) -> None:
        """The city of each job or field read from ``c`` since ``start``."""
        if _LIVES.search(c.evidence):
            return
        for fact in self.facts[start:]:
            if fact.category is not Cat.OCCUPATION or fact.predicate not in _JOBS:
                continue
            if _BUSINESS.match(fact.value):
                continue  # "she runs a bakery in Naples": where the business is
            at = c.text.lower().find(fact.value.lower())
            m = _IN_PLACE.match(c.text[at + len(fact.value) :]) if at >= 0 else None
            place = phrases.name(m["v"]) if m else None
            if place is None or not is_known_place(place):
                continue
            if any(
                f.category is Cat.LOCATION
                and f.predicate != "hometown"
                and f.subject == fact.subject
                for f in self.facts
            ):
                continue  # "I live in Leeds. I'm a nurse in York.": York is work
            self.add(
                c,
                Cat.LOCATION,
                place_predicate(place, "city"),
                place,
                holds=fact.holds,
                obj=place,
                obj_type=ET.PLACE,
                subject=fact.subject,
            )
