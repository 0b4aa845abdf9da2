"""Detectors for who the user is and who is around them: identity (name, nickname, age,
pronouns, birth year), location (city or country, hometown, moves), occupation (job,
employer, school, studies) and relationships (relatives, partners, friends and pets,
named or not). A named third party's home or work is read too ("my sister Anna lives in
Oslo"), with the person as the fact's subject.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.age_phrases import AGE, AGE_FIGURE, BIRTH_YEAR, PRONOUNS
from cognimem.ingest.extract.clauses import Clause, prepare_clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.kinds import is_person_name, kind_of, works_for_person
from cognimem.ingest.extract.language_phrases import spoken
from cognimem.ingest.extract.patterns import (
    JOB,
    MODS,
    NAME,
    NAME1,
    NUMBER,
    ORG,
    PET,
    PLACE,
    REL,
    TITLE,
    icase,
)
from cognimem.ingest.extract.place_phrases import (
    BEEN_IN,
    HOME,
    HOMETOWN,
    LIVE,
    LIVE_NOT,
    MOVED,
    MOVED_FROM,
)
from cognimem.ingest.extract.work_nouns import own_work, their_work
from cognimem.ingest.extract.work_phrases import (
    IM_THE,
    JOB_START,
    JOINING,
    JOINING_FOR_WORK,
    PROMOTED_TO,
    RUN_A,
    TEACH,
    WORK_AT,
    WORK_AT_PLACE,
    is_home_role,
)
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.scope_tags import COUNTRIES, scope_tags

__all__ = ["IdentityReader"]

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
_NOT_A_NAME_AFTER_IM = (
    vocab.NATIONALITIES | frozenset(vocab.RELIGIONS) | frozenset(vocab.DIET_LABELS)
)

_MY_NAME = icase(
    rf"\bmy (?:full |real |first |legal |given )?name(?:'s| is)\s+(?P<v>{NAME})|"
    rf"^(?:it's|this is)\s+(?P<w>{NAME1})\s+here\b"
)
_TITLE_ONLY = re.compile(rf"^{TITLE}$")  # "calls me Mr. Fix-It": no name read
_IM_NAME = icase(rf"^I'm\s+(?P<v>{NAME1})(?=\s*(?:[,.!;—-]|$|\band\b|\bby the way\b))")
_NICKNAME = icase(
    rf"\b(?:call me|calls me|called me|go by|my nickname is|my nickname's)\s+(?P<v>{NAME1})"
)
# a third party's other name: "Sarah goes by Sally", "Robert, known as Bob",
# "Elizabeth aka Liz" (the speaker's own: ``_NICKNAME``)
_THIRD_NICKNAME = icase(
    rf"(?:^|\b(?:my|our)\s+{MODS}(?:{REL})\s*,?\s+)(?P<who>{NAME})\s*,?\s+(?:\(\s*)?(?:goes by|"
    rf"also goes by|is called|is known as|known as|also known as|aka|a\.k\.a\.)\s+"
    rf"(?P<v>{NAME1})"
)
# "everyone calls Sarah Sally" ("calls her" read as her name first, ``coref.py``)
_CALLED_BY_OTHERS = icase(
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
_WORK_AS = icase(
    rf"\b(?:I|we)(?P<verb>\s+work|\s+worked|\s+have been working|\s+have worked|'m working|"
    rf"\s+freelance|'m freelancing|\s+moonlight)"
    rf"\s+as\s+(?:an?\s+)?(?P<v>(?:[a-z-]+\s+){{0,3}}?(?:{JOB}))\b(?:\s+(?:at|for)\s+"
    rf"(?P<org>{ORG}))?"
)
_IM_A = icase(
    rf"\b(?P<verb>I'm|I was|I have been)\s+(?:an?\s+)(?P<v>(?:[a-z-]+\s+){{0,3}}?(?:{JOB}))s?"
    rf"\b(?:\s+(?:at|for)\s+(?P<org>{ORG}))?"
)
_RETIRED = icase(r"\bI(?:'m| have| just)?\s+(?:retired|am retired)\b")
_STUDENT_AT = icase(rf"\bstudent at\s+(?P<v>{ORG})|\bI (?:go to|attend|study at)\s+(?P<w>{ORG})")
_STUDIES = icase(
    rf"\bI(?:'m| am)?\s+(?:studying|majoring in|study|doing (?:a|my) (?:degree|masters|"
    rf"master's|PhD|phd|bachelor's|doctorate) in)\s+(?!for\b|hard\b|a lot\b)(?P<v>[a-z][a-z ]+?)"
    rf"(?=\s+(?:at|in)\b|[,.!;]|$)(?:\s+at\s+(?P<school>{ORG}))?"
)
_MY_REL_NAME = icase(
    rf"\b(?:my|our)\s+{MODS}(?P<rel>{REL}|{PET})(?:\s*,\s*|\s+)(?P<v>{NAME}"
    rf"(?:\s*(?:,|and|&)\s*{NAME1})*)\b"
)
_REL_NAME_IS = icase(rf"\b(?:my|our)\s+{MODS}(?P<rel>{REL}|{PET})'s\s+name\s+is\s+(?P<v>{NAME})")
_NAME_MY_REL = icase(rf"^(?P<v>{NAME1})\s*,\s*(?:my|our)\s+{MODS}(?P<rel>{REL}|{PET})\b")
_PARENT_OF = icase(
    rf"\bI'm\s+an?\s+(?:[a-z-]+\s+)?(?:mom|mother|dad|father|parent|mum)\s+(?:of|to)\s+"
    rf"(?P<v>{NUMBER}\s+(?:[a-z-]+\s+)?(?P<rel>boys|girls|kids|children|sons|daughters))\b"
)
_NAMED = icase(
    rf"\b(?:an?|my|our|one|two)\s+{MODS}(?:[a-z]+\s+)?(?P<rel>{REL}|{PET})\s+(?:named|"
    rf"called)\s+(?P<v>{NAME1})|"
    rf"\b(?:my|our)\s+{MODS}(?P<pet>{PET})\s+is\s+(?:named|called)\s+(?P<w>{NAME})"
)
# "I have two dogs, Rufus and Bean": the animals named after the comma
_HAVE_NAMED_PETS = icase(
    rf"\b(?:I|we)\s+(?:have|got)\s+{NUMBER}\s+(?:[a-z]+\s+)?(?P<rel>{PET}|dogs|cats)\s*"
    rf"(?:,|:|—|-)\s*(?P<v>{NAME1}(?:\s*(?:,|and|&)\s*{NAME1})*)\b"
)
_IS_MY_REL = icase(rf"(?:^|\b)(?P<v>{NAME1})\s+is\s+my\s+{MODS}(?P<rel>{REL}|{PET})\b")
# "my partner is Christopher Lee" (not "my wife is Japanese": ``_NOT_A_NAME_AFTER_IM``)
_MY_REL_IS = icase(
    rf"\b(?:my|our)\s+{MODS}(?P<rel>{REL}|{PET})\s+is\s+(?P<v>{NAME})(?=\s*(?:[,.!;]|$|\band\b))"
)
_HAVE_REL = icase(
    rf"\b(?:I|we)\s+(?:have|got)\s+(?P<v>{NUMBER}\s+{MODS}(?P<rel>{REL}|{PET}|kids|"
    rf"children|sisters|brothers|sons|daughters|dogs|cats|grand(?:kids|children|sons|daughters)))"
    rf"\b(?!\s+(?:named|called|who))"
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
_PRONOUN_NAME = icase(rf"^(?:his|her|its|their)\s+name(?:'s|\s+is)\s+(?P<v>{NAME1})")
_MARRIED = icase(rf"\b(?:I'm|I got)\s+(?:married|engaged)\s+to\s+(?P<v>{NAME})")
_THIRD = (
    rf"(?:^|\bmy\s+{MODS}(?P<rel>{REL})\s*,?\s+|\bour\s+{MODS}(?P<rel2>{REL})\s*,?\s+)"
    rf"(?:(?P<who>{NAME})\s*,?\s+)?"  # unnamed: "my brother lives in Oslo"
)
# a relative described, unnamed: "My wife is Japanese", "My sister is a nurse" (not
# where they are: "My mom is in the hospital")
_MY_REL_SAYS = icase(rf"^my\s+{MODS}(?P<rel>{REL})\s+(?:is|was)\s+(?:an?\s+[a-z]|(?-i:[A-Z])[a-z])")
_THIRD_LIVES = icase(
    rf"{_THIRD}(?:lives|is living|now lives|currently lives|has lived|resides|moved|has "
    rf"moved|just moved|relocated)\s+(?:in|to)\s+(?P<v>{PLACE})"
)
_THIRD_WORKS = icase(
    rf"{_THIRD}(?:works|is working|now works|started working|just started working)\s+"
    rf"(?:at|for)\s+(?P<v>{ORG})"
)
_THIRD_JOB = icase(rf"{_THIRD}is\s+(?:an?\s+)(?P<v>(?:[a-z-]+\s+){{0,2}}?(?:{JOB}))\b")


class IdentityReader(Collector):
    """Reads identity, location, occupation and relationship facts."""

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
            name = phrases.name(m.group("v"))
            if name and name.lower() not in _NOT_A_NAME_AFTER_IM:
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
        if predicate == "city" and place.lower() in COUNTRIES:
            predicate = "country"
        self.add(
            c,
            Cat.LOCATION,
            predicate,
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
        elif (m := BEEN_IN.search(c.timed)) is not None:
            self._place(c, m.group("v") or m.group("w"), holds=True, timing=None)
        elif (m := HOME.search(c.text)) is not None and not c.past:
            self._place(c, m.group("v") or m.group("w") or m.group("x"), holds=True, timing=None)
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

    def _third_party(self, m: re.Match[str]) -> str | None:
        """The subject of a third-party statement: the name, or the relation word."""
        rel = m.group("rel") or m.group("rel2")
        who = phrases.name(m.group("who"))
        if who:
            self.entity(who, ET.PERSON)
            return who
        return vocab.RELATIONS[rel.lower()] if rel else None

    def _occupation(self, c: Clause) -> None:
        self._job(c)
        self._employer(c)
        self._school(c)
        self._others_work(c)

    def _job(self, c: Clause) -> None:
        """The speaker's job ("I work as a nurse", "I'm a teacher", "I retired")."""
        m: re.Match[str] | None
        for m in (*_WORK_AS.finditer(c.text), *_IM_A.finditer(c.text), *IM_THE.finditer(c.text)):
            if is_home_role(m.group("v").lower(), c.text[m.end("v") :]):
                continue  # "the unofficial therapist of my friend group"
            past = m.group("verb").strip().lower() in {"worked", "i was"}
            self.add(c, Cat.OCCUPATION, "job", m.group("v").lower(), holds=not past)
            org = phrases.name(m.group("org"))
            if org and "student" not in m.group("v").lower():
                self.add(
                    c,
                    Cat.OCCUPATION,
                    "employer",
                    org,
                    holds=not past,
                    obj=org,
                    obj_type=ET.ORGANIZATION,
                )
        m = TEACH.search(c.text)
        if m:
            subject = f"{m.group('v')} " if m.group("v") else ""
            self.add(c, Cat.OCCUPATION, "job", f"{subject}teacher", confidence=0.7)
        m = RUN_A.search(c.text)
        if m:
            job = f"{m.group('verb').lower()} a {m.group('v').lower()}"
            self.add(c, Cat.OCCUPATION, "job", job, confidence=0.75)
        m = PROMOTED_TO.search(c.text)
        if m and phrases.clean(m.group("v")):
            named = phrases.name(m.group("who") or "") or "user"
            holder = "user" if named.lower() in {"i", "we"} else named
            job = phrases.clean(m.group("v"))
            self.add(c, Cat.OCCUPATION, "job", job, timing="start", subject=holder)
        if _RETIRED.search(c.text):
            self.add(c, Cat.OCCUPATION, "job", "retired", timing="start")

    def _employer(self, c: Clause) -> None:
        """Where the speaker works or worked ("I work at Acme", "I quit my job at ...");
        a person named there is a colleague, not an employer."""
        m: re.Match[str] | None
        m = WORK_AT.search(c.text) or JOB_START.search(c.text) or JOINING.search(c.text)
        org = phrases.name(m.group("v")) if m else None
        # "Dr. Lee", "for Sarah"; but "at Morgan Stanley"
        person = m is not None and org is not None and works_for_person(org, c.text[: m.start("v")])
        verb = m.group("verb").lower() if m else ""
        joining = verb in {"joining", "starting"}
        for_work = JOINING_FOR_WORK.search(c.text) is not None or self.work_window
        if not person and verb == "joining" and not for_work:
            m = org = None  # "I'm joining a club": joined, but not as its employee
        if m and org and person and (m.groupdict().get("prep") or "").lower() == "with":
            self.entity(org, ET.PERSON)  # "I work with Sarah": a colleague, no employer
        elif m and org and person and joining:
            self.entity(org, ET.PERSON)  # "I'm joining Sarah for lunch": no employer
        elif m and org:
            verb = m.group("verb").lower()
            ended = verb in {"worked", "quit my job", "left my job", "quit"} or (
                verb.endswith(" from")
            )
            self.add(
                c,
                Cat.OCCUPATION,
                "employer",
                org,
                holds=not ended,
                obj=org,
                obj_type=ET.PERSON if person else kind_of(org, "workplace"),
                timing="end" if ended else "start",
            )
        elif (m := WORK_AT_PLACE.search(c.text)) is not None:
            verb = m.group("verb").lower()
            ended = verb in {"worked", "quit my job", "left my job", "lost my job", "quit"}
            self.add(
                c,
                Cat.OCCUPATION,
                "employer",
                phrases.bare(m.group("v")),
                holds=not ended,
                timing="end" if ended else "start",
            )

    def _school(self, c: Clause) -> None:
        """Where and what the speaker studies."""
        m = _STUDENT_AT.search(c.text)
        school = phrases.name(m.group("v") or m.group("w")) if m else None
        if school and ((m and m.group("v")) or vocab.STUDY_PLACE.search(school)):
            self.add(c, Cat.OCCUPATION, "school", school, obj=school, obj_type=ET.ORGANIZATION)
        m = _STUDIES.search(c.text)
        if m and not scope_tags(m.group("v")).count("fitness"):
            self.add(c, Cat.OCCUPATION, "studies", phrases.bare(m.group("v")))
            school = phrases.name(m.group("school"))
            if school:
                self.add(c, Cat.OCCUPATION, "school", school, obj=school, obj_type=ET.ORGANIZATION)

    def _others_work(self, c: Clause) -> None:
        """Another person's employer and job ("my sister works at ...")."""
        for m in _THIRD_WORKS.finditer(c.text):
            who, org = self._third_party(m), phrases.name(m.group("v"))
            if who and org:
                self.add(
                    c,
                    Cat.OCCUPATION,
                    "employer",
                    org,
                    subject=who,
                    obj=org,
                    obj_type=ET.PERSON
                    if works_for_person(org, c.text[: m.start("v")])
                    else kind_of(org, "workplace"),
                )
        for m in _THIRD_JOB.finditer(c.text):
            who = self._third_party(m)
            if who and who != "user":
                self.add(c, Cat.OCCUPATION, "job", m.group("v").lower(), subject=who)

    def _relationship(self, c: Clause) -> None:
        m: re.Match[str] | None
        patterns = (_MY_REL_NAME, _NAMED, _IS_MY_REL, _MARRIED, _REL_NAME_IS, _MY_REL_IS,
                    _HAVE_NAMED_PETS)  # fmt: skip
        named_pets = False
        for pattern in patterns:
            for m in pattern.finditer(c.text):
                groups = m.groupdict()
                word = (groups.get("rel") or groups.get("pet") or "partner").lower()
                named_pets = named_pets or pattern is _HAVE_NAMED_PETS
                for part in phrases.LIST_SPLIT.split(groups.get("v") or groups.get("w") or ""):
                    name = phrases.name(part)
                    if name and name.lower() not in _NOT_A_NAME_AFTER_IM:
                        self._relative(c, word, name, named=True, text=m.group(0))
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
        m = _MY_REL_SAYS.match(c.text)  # "My wife is Japanese": a wife, unnamed
        if m and not self.facts_about_relation(m.group("rel")):
            self._relative(c, m.group("rel").lower(), m.group("rel").lower(), named=False, text="")
        unnamed = () if named_pets else _HAVE_REL.finditer(c.text)  # named: each by name
        for m in (*unnamed, *_PARENT_OF.finditer(c.text)):
            value = phrases.clean(m.group("v"))  # a description keeps its article: "a dog"
            self._relative(c, m.group("rel").lower(), value, named=False, text=m.group(0))

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
        word, name = m.group("rel").lower(), phrases.name(m.group("v") or "")
        if name and name.lower() not in _NOT_A_NAME_AFTER_IM:
            self._relative(c, word, name, named=True, text="", subject=who)
        else:
            self._relative(c, word, word, named=False, text="", subject=who)

    def _relative(
        self, c: Clause, word: str, value: str, *, named: bool, text: str, subject: str = "user"
    ) -> None:
        if not named:
            self.unnamed = word
        word = _PLURAL_RELATIONS.get(word, word)
        singular = _PLURAL_S.sub("", word) if word not in vocab.RELATIONS else word
        pet = singular in vocab.PETS or word in vocab.PETS or word == "pet"
        predicate = "pet" if pet else vocab.RELATIONS.get(singular, vocab.RELATIONS.get(word, word))
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

    def _appositive(self, text: str, evidence: str) -> None:
        """A relative named in apposition ("Oliver, my neighbor, ..."): read from the
        whole sentence, since the commas split it into clauses."""
        appositive = _NAME_MY_REL.match(text)
        whole = prepare_clause(text, evidence, self.ref) if appositive else None
        if appositive and whole and phrases.name(appositive.group("v")):
            name = phrases.name(appositive.group("v")) or ""
            self._relative(whole, appositive.group("rel").lower(), name, named=True, text="")
