"""Detectors for who the speaker is: their name and nickname (and a third party's other
names, kept as aliases), age, pronouns, birth year and the languages they speak. Where
they live is :mod:`.detect_location`, their work :mod:`.detect_occupation`, the people
and pets around them :mod:`.detect_relationships`.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.age_phrases import AGE, AGE_FIGURE, BIRTH_YEAR, PRONOUNS
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.kinds import is_person_name
from cognimem.ingest.extract.language_phrases import spoken
from cognimem.ingest.extract.patterns import MODS, NAME, NAME1, REL, TITLE, gated, icase
from cognimem.ingest.extract.work_nouns import own_work
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat

__all__ = ["IdentityReader"]

_MY_NAME = icase(
    rf"\bmy (?:full |real |first |legal |given )?name(?:'s| is)\s+(?P<v>{NAME})|"
    rf"^(?:it's|this is)\s+(?P<w>{NAME1})\s+here\b"
)
_TITLE_ONLY = re.compile(rf"^{TITLE}$")  # "calls me Mr. Fix-It": no name read
_IM_NAME = icase(rf"^I'm\s+(?P<v>{NAME1})(?=\s*(?:[,.!;—-]|$|\band\b|\bby the way\b))")
_NICKNAME = gated(
    rf"\b(?:call me|calls me|called me|go by|my nickname is|my nickname's)\s+(?P<v>{NAME1})"
)
# a third party's other name: "Sarah goes by Sally", "Robert, known as Bob",
# "Elizabeth aka Liz" (the speaker's own: ``_NICKNAME``)
_THIRD_NICKNAME = gated(
    rf"(?:^|\b(?:my|our)\s+{MODS}(?:{REL})\s*,?\s+)(?P<who>{NAME})\s*,?\s+(?:\(\s*)?(?:goes by|"
    rf"also goes by|is called|is known as|known as|also known as|aka|a\.k\.a\.)\s+"
    rf"(?P<v>{NAME1})"
)
# "everyone calls Sarah Sally" ("calls her" read as her name first, ``coref.py``)
_CALLED_BY_OTHERS = gated(
    rf"\b(?:everyone|everybody|people|we|they|friends|(?:all\s+)?(?:his|her|their|our|my)\s+"
    rf"(?:friends|family|kids|colleagues|coworkers|teammates|students|patients|parents))\s+"
    rf"(?:all\s+)?(?:just\s+)?(?:call|calls|called)\s+(?P<who>{NAME})\s+(?P<v>{NAME1})"
    rf"(?=\s*(?:[,.!;]|$|for short\b))"
)
# "Niko is Nikolai's nickname", "Nikolai's nickname is Niko", "Alex is short for Alexander"
_NICKNAME_OF = icase(
    rf"^(?P<v>{NAME1})\s+is\s+(?:(?P<who>{NAME})'s\s+(?:nick)?name|short\s+for\s+"
    rf"(?P<full>{NAME}))\b|^(?P<own>{NAME})'s\s+nickname\s+is\s+(?P<nick>{NAME1})\b"
)


class IdentityReader(Collector):
    """Reads identity facts: name, nickname, age, pronouns, birth year, languages."""

    def _nicknames(self, c: Clause) -> None:
        """Another name of a third party ("Sarah goes by Sally") is an alias of their
        entity, not a fact: the speaker's own nickname ("call me Sam") is one."""
        found = [(m.group("who"), m.group("v")) for m in _THIRD_NICKNAME.finditer(c.text)]
        found += [(m.group("who"), m.group("v")) for m in _CALLED_BY_OTHERS.finditer(c.text)]
        m = _NICKNAME_OF.search(c.text)
        if m:
            found.append(
                (m.group("who") or m.group("full"), m.group("v"))
                if m.group("v")
                else (m.group("own"), m.group("nick"))
            )
        for who_said, nick_said in found:
            who, nickname = phrases.name(who_said), phrases.name(nick_said)
            if who and nickname and who.lower() not in {"i", "we", "me"} and nickname != who:
                kind = ET.PERSON if is_person_name(who) else ET.OTHER
                self.entity(who, kind, alias=nickname)

    def _identity(self, c: Clause) -> None:
        for pattern, predicate in ((_MY_NAME, "name"), (_NICKNAME, "nickname")):
            m = pattern.search(c.text)
            name = phrases.name(m.group("v") or m.groupdict().get("w")) if m else None
            if name and name.lower() not in vocab.NATIONALITIES and not _TITLE_ONLY.match(name):
                self.add(c, Cat.IDENTITY, predicate, name, multi=False)
        self._nicknames(c)
        m = _IM_NAME.match(c.text)
        if m and not _MY_NAME.search(c.text):
            name = phrases.name_not_label(m.group("v"))
            if name:
                self.add(c, Cat.IDENTITY, "name", name, multi=False, confidence=0.75)
        m = AGE.search(c.text)
        if (
            m
            and (m.group("w") or 1 <= int(m.group("v")) <= 120)
            and not AGE_FIGURE.search(c.evidence)
        ):
            self.add(c, Cat.IDENTITY, "age", m.group("w") or m.group("v"), multi=False)
        m = PRONOUNS.search(c.text)
        if m:
            self.add(c, Cat.IDENTITY, "pronouns", m.group("v").lower(), multi=False)
        m = BIRTH_YEAR.search(c.timed)
        if m:
            self.add(c, Cat.IDENTITY, "birth_year", m.group("v"), multi=False)
        for job in () if c.may("occupation") else own_work(c.text):  # one the list lacks
            self.add(c, Cat.OCCUPATION, "job", job)
        for language in spoken(c.text):  # "I speak fluent Spanish"
            self.add(c, Cat.IDENTITY, "language", language)
