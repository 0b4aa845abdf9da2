"""Detectors for the people and pets around the speaker: relatives, partners, friends and
pets, named ("my sister Anna", "Oliver, my neighbor, ...") or not ("I have two kids"),
and a named person's relatives ("Linda's husband Mark"). A relative's job said in few
words ("my brother is a marine") is read here too, as theirs.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause, prepare_clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.kinds import is_person_name
from cognimem.ingest.extract.patterns import MODS, NAME, NAME1, NUMBER, PET, REL, gated, icase
from cognimem.ingest.extract.work_nouns import spouse_work, their_work
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.noun_senses import first_class

__all__ = ["RelationshipReader"]

_PLURAL_S = re.compile(r"(?<=[^s])s$")
_ENDED_REL = icase(r"\b(?:ex-?|late)\s*(?=\w)")  # "my ex-wife", "my late husband"
_ADOPTED = icase(r"\badopted\b")
_PLURAL_RELATIONS = {
    "boys": "son",
    "sons": "son",
    "girls": "daughter",
    "daughters": "daughter",
    "twins": "child",
    "kids": "child",
    "children": "child",
}
# a relation or a pet of the speaker's, in ``rel``: "my little sister", "our dog"
_MY_KIN = rf"(?:my|our)\s+{MODS}(?P<rel>{REL}|{PET})"
_MY_REL_NAME = icase(
    rf"\b{_MY_KIN}(?:\s*,\s*|\s+)(?P<v>{NAME}"
    rf"(?:\s*(?:,|and|&)\s*{NAME1})*)\b"
)
_REL_NAME_IS = icase(rf"\b{_MY_KIN}'s\s+name\s+is\s+(?P<v>{NAME})")
_NAME_MY_REL = icase(rf"^(?P<v>{NAME1})\s*,\s*{_MY_KIN}\b")
_PARENT_OF = icase(
    rf"\bI'm\s+an?\s+(?:[a-z-]+\s+)?(?:mom|mother|dad|father|parent|mum)\s+(?:of|to)\s+"
    rf"(?P<v>{NUMBER}\s+(?:[a-z-]+\s+)?(?P<rel>boys|girls|kids|children|sons|daughters))\b"
)
_NAMED = gated(
    rf"\b(?:an?|my|our|one|two)\s+{MODS}(?:[a-z]+\s+)?(?P<rel>{REL}|{PET})\s+(?:named|"
    rf"called)\s+(?P<v>{NAME1})|"
    rf"\b(?:my|our)\s+{MODS}(?P<pet>{PET})\s+is\s+(?:named|called)\s+(?P<w>{NAME})"
)
# "I have two dogs, Rufus and Bean", "I have three kids: Noah, Ella and Finn": the
# animals or relatives named after the comma or colon
_HAVE_NAMED = icase(
    rf"\b(?:I|we)\s+(?:have|got)\s+{NUMBER}\s+(?:[a-z]+\s+)?(?P<rel>{PET}|dogs|cats|{REL}|"
    rf"kids|children|sisters|brothers|sons|daughters)\s*"
    rf"(?:,|:|—|-)\s*(?P<v>{NAME1}(?:\s*(?:,|and|&)\s*{NAME1})*)\b"
)
_IS_MY_REL = gated(rf"(?:^|\b)(?P<v>{NAME1})\s+is\s+my\s+{MODS}(?P<rel>{REL}|{PET})\b")
# "my partner is Christopher Lee" (not "my wife is Japanese": ``vocab.NOT_A_NAME_AFTER_IM``)
_MY_REL_IS = icase(rf"\b{_MY_KIN}\s+is\s+(?P<v>{NAME})(?=\s*(?:[,.!;]|$|\band\b))")
_HAVE_REL = gated(
    rf"\b(?:I|we)\s+(?:have|got)\s+(?P<v>{NUMBER}\s+{MODS}(?P<rel>{REL}|{PET}|kids|"
    rf"children|sisters|brothers|sons|daughters|dogs|cats|grand(?:kids|children|sons|daughters)))"
    rf"\b(?!\s+(?:named|called|who))"
)
# "I have a pet iguana": a pet the list lacks, by its noun naming an animal first of all
_A_PET = icase(r"\b(?:I|we)\s+(?:have|own|got|adopted)\s+an?\s+pet\s+(?P<v>[a-z]+)\b")
# "We've got a beagle called Biscuit": a pet the list lacks, named, by its noun naming
# an animal first of all (WordNet)
_ANIMAL_NAMED = icase(
    rf"\b(?:I|we)(?:'ve|\s+have)?\s+(?:have|got|adopted|rescued|own)\s+an?\s+(?:[a-z-]+\s+)?"
    rf"(?P<noun>[a-z]+)\s+(?:named|called)\s+(?P<v>{NAME1})"
)
# "my friend Jamal and his wife Nia": the second is the first one's relative
_AND_THEIR_REL = icase(
    rf"\b(?P<who>{NAME1})\s+and\s+(?:his|her)\s+{MODS}(?P<rel>{REL})\s*,?\s+(?P<v>{NAME1})\b"
)
# a named person's relative: "Linda's husband Mark ...", "Beth's son was just born" (what
# "her son" is once "her" is resolved)
_THEIR_REL = icase(
    rf"^(?P<who>{NAME1}(?:\s+{NAME1})?)'s\s+{MODS}(?P<rel>{REL})\b"
    rf"(?:\s*,?\s+(?P<v>{NAME1})\b(?!'))?"
)
# who has the pet or relative "a ... named X" names, when the sentence opens with them:
# "My brother Tom has a cat named Pip" (Tom's), not the speaker's
_OWNS = (
    r"(?:just\s+|also\s+|now\s+)?(?:has|has got|got|adopted|bought|rescued|owns|keeps|had)\s+"
    r"(?:an?|one|two)\b"
)
_OWNER = icase(rf"^(?:my\s+{MODS}(?:{REL})\s*,?\s+)?(?P<who>{NAME1}(?:\s+{NAME1})?)\s+{_OWNS}")
# "My neighbour has a dog named Max": someone's pet, unnamed owner, not the speaker's
_UNNAMED_OWNER = icase(rf"^(?:my|our)\s+{MODS}(?:{REL})\s+{_OWNS}")
_PRONOUN_NAME = icase(rf"^(?:his|her|its|their)\s+name(?:'s|\s+is)\s+(?P<v>{NAME1})")
# ... "to a firefighter named Dan": a partner said first by what they are
_MARRIED = icase(
    rf"\b(?:I'm|I got)\s+(?:married|engaged)\s+to\s+(?:an?\s+(?:[a-z-]+\s+){{1,3}}?"
    rf"(?:named|called)\s+)?(?P<v>{NAME})"
)
# a relative described, unnamed: "My wife is Japanese", "My sister is a nurse" (not
# where they are: "My mom is in the hospital")
_MY_REL_SAYS = icase(rf"^my\s+{MODS}(?P<rel>{REL})\s+(?:is|was)\s+(?:an?\s+[a-z]|(?-i:[A-Z])[a-z])")

# a relative said with no name after it: "my sister lives ...", "my ex-wife is ..."
_MY_UNNAMED = icase(rf"\bmy\s+{MODS}(?P<rel>{REL})\b(?!')(?!\s*,?\s+{NAME1}\b)")


def _predicate(word: str) -> tuple[str, bool]:
    """The relation a relative's word names ("kids": child, "sisters": sister) and
    whether it is a pet's."""
    word = _PLURAL_RELATIONS.get(word, word)
    singular = _PLURAL_S.sub("", word) if word not in vocab.RELATIONS else word
    pet = singular in vocab.PETS or word in vocab.PETS or word == "pet"
    return ("pet" if pet else vocab.RELATIONS.get(singular, vocab.RELATIONS.get(word, word))), pet


class RelationshipReader(Collector):
    """Reads relationship facts: relatives, partners, friends and pets."""

    def _relationship(self, c: Clause) -> None:
        m: re.Match[str] | None
        patterns = (_MY_REL_NAME, _NAMED, _IS_MY_REL, _MARRIED, _REL_NAME_IS, _MY_REL_IS,
                    _HAVE_NAMED)  # fmt: skip
        named_after = False
        for pattern in patterns:
            for m in pattern.finditer(c.text):
                groups = m.groupdict()
                word = (groups.get("rel") or groups.get("pet") or "partner").lower()
                named_after = named_after or pattern is _HAVE_NAMED
                owner = _OWNER.match(c.text) if pattern is _NAMED else None
                whose = phrases.name(owner.group("who")) if owner else None
                if pattern is _NAMED and whose is None and _UNNAMED_OWNER.match(c.text):
                    continue  # someone's pet, no one to give it to
                for part in phrases.LIST_SPLIT.split(groups.get("v") or groups.get("w") or ""):
                    name = phrases.name_not_label(part)
                    if name:
                        self._relative(c, word, name, named=True, text=m.group(0),
                                       subject=whose or "user")  # fmt: skip
        for m in _AND_THEIR_REL.finditer(c.text):
            who, name = phrases.name(m.group("who")), phrases.name(m.group("v"))
            if who and name and who.lower() not in {"i", "me"}:
                self._relative(c, m.group("rel").lower(), name, named=True, text="", subject=who)
        self._their_relative(c)
        m = _PRONOUN_NAME.search(c.text)
        if m and self.unnamed and phrases.name(m.group("v")):
            self._relative(c, self.unnamed, phrases.name(m.group("v")) or "", named=True, text="")
        for m in () if c.may("occupation") else their_work(c.text):  # "... is a marine"
            who = phrases.name(m.group("who")) or vocab.RELATIONS[m.group("rel").lower()]
            self.add(c, Cat.OCCUPATION, "job", m.group("v").lower(), subject=who)
        if (spouse := spouse_work(c.text)) and (who := phrases.name(spouse[0])):
            self.add(c, Cat.OCCUPATION, "job", spouse[1], subject=who)  # "married to a vet"
        m = _MY_REL_SAYS.match(c.text)  # "My wife is Japanese": a wife, unnamed
        if m and not self.facts_about_relation(m.group("rel")):
            self._relative(c, m.group("rel").lower(), m.group("rel").lower(), named=False, text="")
        m = _A_PET.search(c.text)
        if m and first_class(m["v"].lower()) == "animal" and not self.facts_about_relation("pet"):
            noun = m["v"].lower()
            self._relative(c, "pet", f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}", named=False,
                           text=m.group(0))  # fmt: skip
        self._named_animal(c)
        unnamed = () if named_after else _HAVE_REL.finditer(c.text)  # named: each by name
        for m in (*unnamed, *_PARENT_OF.finditer(c.text)):
            if self._named_in(c, m.group("rel")):  # "three kids: Noah, Ella and Finn"
                continue
            value = phrases.clean(m.group("v"))  # a description keeps its article: "a dog"
            self._relative(c, m.group("rel").lower(), value, named=False, text=m.group(0))

    def _named_animal(self, c: Clause) -> None:
        """A named animal the pet list lacks ("We've got a beagle called Biscuit")."""
        m = _ANIMAL_NAMED.search(c.text)
        name = phrases.name_not_label(m["v"]) if m else None
        if m is None or name is None or first_class(m["noun"].lower()) != "animal":
            return
        if not any(f.category is Cat.RELATIONSHIP and f.value == name for f in self.facts):
            self._relative(c, "pet", name, named=True, text=m.group(0))

    def facts_about_relation(self, word: str) -> bool:
        """Whether a relationship fact of the speaker's already names this relation."""
        rel = vocab.RELATIONS.get(word.lower(), word.lower())
        return any(f.category is Cat.RELATIONSHIP and f.predicate == rel for f in self.facts)

    def _their_relative(self, c: Clause) -> None:
        """A named person's relative, by name or unnamed ("Beth's son"): theirs."""
        m = _THEIR_REL.match(c.text)
        who = phrases.name(m.group("who")) if m else None
        if m is None or who is None or not is_person_name(who):
            return
        word, name = m.group("rel").lower(), phrases.name_not_label(m.group("v"))
        if name:
            self._relative(c, word, name, named=True, text="", subject=who)
        else:
            self._relative(c, word, word, named=False, text="", subject=who)

    def _named_in(self, c: Clause, word: str) -> bool:
        """Whether the sentence of ``c`` already named the relatives ``word`` counts
        (read whole, since a colon splits it into clauses)."""
        predicate = _predicate(word.lower())[0]
        return any(
            f.category is Cat.RELATIONSHIP and f.predicate == predicate and f.object_entity
            and f.evidence == c.evidence
            for f in self.facts
        )  # fmt: skip

    def _relative(
        self, c: Clause, word: str, value: str, *, named: bool, text: str, subject: str = "user"
    ) -> None:
        if not named:
            self.unnamed = word
        predicate, pet = _predicate(word)
        ended = _ENDED_REL.search(text) is not None
        tags = vocab.RELATION_TAGS.get(predicate, ("family",))
        self.add(
            c,
            Cat.RELATIONSHIP,
            predicate,
            value,
            holds=not ended,
            multi=predicate not in vocab.SINGLE_RELATIONS,
            tags=tags,
            confidence=0.85 if named else 0.7,
            obj=value if named else None,
            obj_type=ET.PET if pet else ET.PERSON,
            timing="start" if _ADOPTED.search(c.text) else None,
            subject=subject,
        )

    def unnamed_relatives(self, sentence: str, since: int) -> None:
        """A relative left unnamed that a fact read from ``sentence`` (from fact
        ``since`` on) is about ("My sister lives in Berlin": sister's city) is the
        speaker's relative, as "My sister is a nurse" says."""
        about = {f.subject for f in self.facts[since:] if f.subject != "user"}
        for m in _MY_UNNAMED.finditer(sentence):
            word = m.group("rel").lower()
            if vocab.RELATIONS[word] not in about or self.facts_about_relation(word):
                continue
            whole = prepare_clause(sentence, sentence, self.ref)
            if whole is not None:
                self._relative(whole, word, word, named=False, text=m.group(0))

    def _appositive(self, text: str, evidence: str) -> None:
        """A relative named in apposition ("Oliver, my neighbor, ...") or after a colon
        ("I have three kids: Noah, Ella and Finn"): read from the whole sentence, since
        the commas and the colon split it into clauses."""
        for m in _HAVE_NAMED.finditer(text) if ":" in text else ():  # split at the colon
            whole = prepare_clause(text, evidence, self.ref)
            if whole is None:
                break
            for part in phrases.LIST_SPLIT.split(m.group("v")):
                if name := phrases.name_not_label(part):
                    self._relative(whole, m.group("rel").lower(), name, named=True, text="")
        appositive = _NAME_MY_REL.match(text)
        whole = prepare_clause(text, evidence, self.ref) if appositive else None
        if appositive and whole and phrases.name(appositive.group("v")):
            name = phrases.name(appositive.group("v")) or ""
            self._relative(whole, appositive.group("rel").lower(), name, named=True, text="")
