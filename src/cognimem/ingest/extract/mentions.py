"""Names worth an entity even when no fact is read from their sentence: people after a
greeting or in object position ("Hi Sarah!", "met Sarah"), places after a preposition
of place ("back from Lisbon"), workplaces after a verb of working or studying and "at"
("lectures at Cornell": never a person, whoever it is named after), products by the
words before them ("bought a Kindle"), and any name past a sentence's first word led by
a first name the shipped lists hold. They are noted as the message is read and
registered after its facts (:mod:`.message_reader`), where a fact's typing of a name
wins.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import shield_stops
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.kinds import Cue, kind_of
from cognimem.ingest.extract.patterns import NAME, NAME1, PLACE, TITLE, gated, icase
from cognimem.models.knowledge import EntityType as ET

__all__ = ["MentionReader"]

# names worth an entity even when no fact is read: people greeted or in object position,
# places after a preposition of place
_PERSON_MENTION = icase(
    rf"^(?:hi|hey|hello|thanks|thank you|congrats|congratulations|good morning|morning|"
    rf"wow|oh|yay|aw+)[,!\s]+(?P<v>{NAME1})\b|,\s*(?P<w>{NAME1})\s*[!.?]*$|"
    rf"\b(?:with|met|saw|told|asked|texted|called|hugged|thanked|and|(?:talked|spoke|"
    rf"talking|speaking)\s+(?:to|with))\s+(?P<x>(?:{TITLE}\s+)?{NAME})\b|"
    rf"^(?P<y>{NAME1})\s+and\s+(?:I|me)\b|"
    rf"^(?P<z>{NAME1})\s+from\s+(?:the\s+|my\s+|our\s+)?(?-i:[a-z])"  # "Sarah from accounting"
)
# where one works or studies ("teaches at Stanford", "interned at Cornell"): a workplace,
# whoever it is named after, never a person "he" may point back to
_WORK_VERB = (
    r"(?:work|teach|study|intern|lectur|research|volunteer)(?:s|es|ed|ing|e)?|taught|"
    r"studie[sd]|lecture[sd]?|employed|based"
)
_PLACE_MENTION = icase(
    rf"(?:\b(?P<motion>went|go|going|moved|moving|flew|flying|drove|driving|traveled|"
    rf"travelled|traveling|travelling|trip|back|headed|heading|been)\s+to|"
    rf"\b(?P<work>{_WORK_VERB})\s+at|\bin|\bfrom|\bnear|\baround|\bat)\s+(?:the\s+)?"
    rf"(?P<v>{PLACE})"
)
# any capitalised name past a sentence's first word: a person when its first word is a
# first name the shipped lists hold ("lunch with my old roommate Priya") and nothing
# else typed it
_NAME_INSIDE = re.compile(rf"(?<=[\w,;:]\s)(?P<v>{NAME})")
# a product by the words before it: "bought a Kindle", "my new Pixel", "I use Notion"
_PRODUCT_MENTION = gated(
    rf"\b(?:(?:bought|ordered|got|getting|buying|love|returned)\s+(?:a|an|the|my)\s+"
    rf"(?:new\s+)?|my\s+new\s+|I\s+(?:use|am using|'m using|switched to|upgraded to)\s+)"
    rf"(?P<v>{NAME1}(?:\s+{NAME1})?)"
)


class MentionReader(Collector):
    """Notes the people, places and products a sentence names (``mentioned``)."""

    def _mentions(self, sentence: str) -> None:
        sentence, mentions = shield_stops(sentence), len(self.mentioned)
        for m in _PERSON_MENTION.finditer(sentence):
            name = phrases.name(
                m.group("v") or m.group("w") or m.group("x") or m.group("y") or m.group("z")
            )
            if name and name.lower() not in vocab.NATIONALITIES:
                kind = kind_of(name)  # "met Sarah", but "with Acme Corp", "and London"
                self.mentioned.append((name, ET.PERSON if kind is ET.OTHER else kind))
        for m in _PLACE_MENTION.finditer(sentence):
            place = phrases.name(m.group("v"))
            if place and m.start("v") > 0 and place.lower() not in vocab.NATIONALITIES:
                place = place.split(",")[0]
                cue: Cue = (
                    "motion" if m.group("motion") else "workplace" if m.group("work") else "place"
                )
                kind = kind_of(place, cue)
                self.mentioned.append((place, kind))
        for m in _PRODUCT_MENTION.finditer(sentence):
            product = phrases.name(m.group("v"))
            if product and product.lower() not in vocab.NATIONALITIES:
                self.mentioned.append((product, kind_of(product, "product")))
        self._first_names(sentence, len(self.mentioned) - mentions)

    def _first_names(self, sentence: str, typed: int) -> None:
        """People named with nothing else around them to tell what they are: a name led
        by a known first name that no other evidence typed."""
        seen = {n.split()[0] for n, _ in self.mentioned[len(self.mentioned) - typed :]}
        for m in _NAME_INSIDE.finditer(sentence):
            name = phrases.name(m.group("v"))
            if name and name.split()[0] not in seen and kind_of(name) is ET.PERSON:
                self.mentioned.append((name, ET.PERSON))
