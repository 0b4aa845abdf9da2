"""What chat says of other people in fewer words than the identity detectors read (issue
32): a pet someone named ("She named it Pepper", "we called the dog Biscuit"), a job
said as where someone is ("She's at Intel", in a window that talks of work), and a
child's age in words ("He's five", "my son is five").

Each runs on the sentence as :mod:`.coref` rewrote it ("Ruth named it Pepper", "Dana is
at Intel", "Max is five"), so the subject is a name, a relation word, or the speaker.
"""

from __future__ import annotations

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.detect_relationships import RelationshipReader
from cognimem.ingest.extract.kinds import is_person_name, kind_of
from cognimem.ingest.extract.patterns import NAME1, ORG, PET, THIRD, icase
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat

__all__ = ["OthersReader"]

# "Ruth named it Pepper", "we called the dog Biscuit", "Clara named Clara's puppy Bo"
_NAMED_IT = icase(
    rf"^(?P<who>I|we|{NAME1})\s+(?:just\s+|finally\s+)?(?:named|called)\s+"
    rf"(?:(?P<it>it)|(?:the|our|my|his|her|their|{NAME1}'s)\s+(?:new\s+)?"
    rf"(?P<pet>{PET}))\s+(?P<v>{NAME1})(?=\s*(?:[,.!;]|$|\band\b|\bafter\b))"
)
# "Dana is at Intel", "my sister is now at Deloitte" (not "at the gym", "at Heathrow")
_IS_AT = icase(rf"{THIRD}(?:is|'s)\s+(?:now\s+|still\s+)?at\s+(?P<v>{ORG})")
_AGE_WORDS = "|".join(vocab.NUMBER_WORDS)
_AGE_WORD_SET = frozenset(vocab.NUMBER_WORDS)
# "Max is five", "my son is almost three" (not "is five minutes away")
_THEIR_AGE = icase(
    rf"{THIRD}(?:is|'s|just turned|turned)\s+(?:only\s+|just\s+|now\s+|almost\s+)?"
    rf"(?P<w>{_AGE_WORDS})(?:\s+(?:years?|yrs?)\s+old)?(?=\s*(?:[,.!;]|$|\band\b|\bnow\b))"
)


class OthersReader(RelationshipReader):
    """Reads the pet someone named, where someone works and a child's age in words."""

    def _others(self, c: Clause) -> None:
        if "named" in c.words or "called" in c.words:
            self._pet_named(c)
        if "at" in c.words:
            self._works_at(c)
        if not c.words.isdisjoint(_AGE_WORD_SET):
            m = _THEIR_AGE.search(c.text)
            who = self._third_party(m) if m else None
            if m and who and who != "user":
                self.add(c, Cat.IDENTITY, "age", m.group("w").lower(), multi=False, subject=who)

    def _works_at(self, c: Clause) -> None:
        """ "Dana is at Intel" in a window that talks of work (her job, a company)."""
        if not self.work_window:
            return
        m = _IS_AT.search(c.text)
        org = phrases.name(m.group("v")) if m else None
        who = self._third_party(m) if m and org else None
        if m and org and who and who != "user" and kind_of(org, "workplace") is not ET.PLACE:
            self.add(c, Cat.OCCUPATION, "employer", org, subject=who, obj=org,
                     obj_type=kind_of(org, "workplace"))  # fmt: skip

    def _pet_named(self, c: Clause) -> None:
        """A pet named by someone: "the dog", or "it" when the window spoke of a pet
        ("My neighbor got a puppy. She named it Pepper"): not a boat; and "him" / "her"
        may be a baby or a toy, so they name nothing."""
        m = _NAMED_IT.match(c.text)
        if m is None or (m.group("it") and not self.pet_window):
            return
        who, name = m.group("who"), phrases.name(m.group("v"))
        subject = "user" if who.lower() in {"i", "we"} else phrases.name(who)
        if name is None or subject is None or name.lower() in vocab.NOT_NAMES:
            return
        # a name no evidence types, who named "it" in a window about a pet, is its owner
        # ("He named it Comet", "he" resolved to "Omari")
        owner = is_person_name(subject) or bool(m.group("it") and kind_of(subject) is ET.OTHER)
        if subject == "user" or owner:
            word = (m.group("pet") or "pet").lower()
            self._relative(c, word, name, named=True, text="", subject=subject)
