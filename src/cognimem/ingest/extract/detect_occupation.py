"""Detectors for work and study: the speaker's job ("I work as a nurse", "I retired"),
employer ("I quit my job at Acme"; a person named there is a colleague), school and
studies, and a third party's employer and job ("my sister works at Deloitte"). The
phrases are :mod:`.work_phrases`.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.job_places import JobPlaceReader
from cognimem.ingest.extract.kinds import kind_of, works_for_person
from cognimem.ingest.extract.patterns import (
    JOB,
    JOB_PHRASE,
    ORG,
    THIRD,
    gated,
    icase,
    names_occupation,
)
from cognimem.ingest.extract.place_phrases import SPEAKER_FIRST
from cognimem.ingest.extract.third_person import FRONT
from cognimem.ingest.extract.work_phrases import (
    ACCEPTED,
    GOING_TO_SCHOOL,
    GOT_INTO,
    IM_THE,
    JOB_START,
    JOINING,
    JOINING_FOR_WORK,
    MY_JOB,
    MY_JOB_ENDED,
    MY_JOB_HOLDS,
    RUN_A,
    STILL_AT,
    TEACH,
    WORK_AFTER,
    WORK_AT,
    WORK_AT_PLACE,
    is_home_role,
    promotion,
    talks_of_school,
)
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.noun_senses import first_class
from cognimem.text.scope_tags import scope_tags

__all__ = ["OccupationReader"]

# a job with up to three words before it, in ``v`` ("senior software engineer"), and
# where, in ``org`` ("at Canva")
_JOB_V = rf"(?P<v>(?:[a-z-]+\s+){{0,3}}?(?:{JOB}))"
_AT_ORG = rf"(?:\s+(?:at|for)\s+(?P<org>{ORG}))?"
# ... also after where: "I work for a startup as a designer"
_WHERE_FIRST = r"(?:\s+(?:at|for)\s+(?:[\w&'.-]+\s+){1,4}?(?=as\s+an?\s))?"
_WORK_AS = icase(
    rf"\b(?:I|we)(?P<verb>\s+work|\s+worked|\s+have been working|\s+have worked|'m working|"
    rf"(?:\s+have)?(?:\s+just)?\s+started working|"
    rf"\s+freelance|'m freelancing|\s+moonlight){_WHERE_FIRST}\s*as\s+(?:an?\s+)?{_JOB_V}\b"
    rf"{_AT_ORG}"
)
# what follows an unnamed workplace when the job is said after it: "(a startup) as a"
_AS_A = icase(r"(?:\s+[a-z]+){0,2}?\s+as\s+an?\s")
_IM_A = icase(
    rf"\b(?P<verb>I'm|I was|I have been|I became|I've become|I have become)\s+(?:an?\s+)"
    rf"{_JOB_V}s?\b{_AT_ORG}"
)
# "I work as a long-haul trucker": a job the list lacks, by its head noun naming a
# person first of all (WordNet), not "as a team" or "as a side hustle"
_WORK_AS_NOUN = icase(
    r"\b(?:I|we)(?:\s+work|\s+worked|'m working|\s+have been working)\s+as\s+an?\s+"
    r"(?P<v>(?:[a-z-]+\s+){0,2}?(?P<head>[a-z]+))\s*(?:[,.!;]|$|\b(?:at|for|in|now)\b)"
)
# the workplace said first: "The NHS has been my employer for years", "Acme was my
# first employer"
_ORG_MY_EMPLOYER = icase(
    rf"^(?:the\s+)?(?P<v>{ORG})\s+(?P<verb>is|'s|has\s+been|was)\s+(?:also\s+)?my\s+"
    r"(?:(?:current|new|main|first|old|former|last)\s+)?employer\b"
)
_RETIRED = gated(r"\bI(?:'m| have| just)?\s+(?:retired|am retired)\b")
# the speaker's school ("I'm a grad student at NYU"; "She's a student at Yale" is hers)
_STUDENT_AT = icase(
    rf"\b(?:I'm|I am|I was)\s+(?:an?\s+)?(?:[a-z-]+\s+){{0,2}}?student at\s+(?P<v>{ORG})|"
    rf"\bI (?:go to|attend|study at)\s+(?P<w>{ORG})"
)
# a field is a noun phrase: a preposition or an adverb after the verb names none ("I study
# with music on", "at night", "late", "abroad")
_NO_FIELD = (
    r"(?!(?:for|hard|a lot|with|without|at|in|on|by|after|before|during|until|till|from|"
    r"together|alone|late|early|all|every|online|abroad|best|better|more|less)\b)"
)
_STUDIES = icase(
    rf"\bI(?:'m| am)?\s+(?:studying|majoring in|study|doing (?:a|my) (?:degree|masters|"
    rf"master's|PhD|phd|bachelor's|doctorate) in)\s+{_NO_FIELD}(?P<v>[a-z][a-z ]+?)"
    rf"(?=\s+(?:at|in)\b|[,.!;]|$)(?:\s+at\s+(?P<school>{ORG}))?"
)
_TO_BECOME = icase(r"to\s+(?:be|become)\s+(?P<role>.+)")
_THIRD_WORKS = gated(
    rf"{THIRD}(?:works|is working|now works|started working|just started working)\s+"
    rf"(?:at|for)\s+(?P<v>{ORG})"
)
# ... and where: "my aunt Joan is a surgeon at Mercy Hospital"
_THIRD_JOB = icase(
    rf"{THIRD}is\s+(?:an?\s+)(?P<v>{JOB_PHRASE})\b(?:\s+at\s+(?:the\s+)?(?P<org>{ORG}))?"
)


def _works_at(c: Clause) -> re.Match[str] | None:
    """Where the speaker says they work, started or are joining; "work at/for" after a
    statement whose subject the speaker was ("I live in Brooklyn and work for the
    Times")."""
    m = WORK_AT.search(c.text) or JOB_START.search(c.text) or JOINING.search(c.text)
    if m is None and SPEAKER_FIRST.match(c.evidence):
        return WORK_AFTER.search(c.text)
    return m


class OccupationReader(JobPlaceReader):
    """Reads occupation facts: job, employer, school, studies; a third party's work."""

    # the conversation window talked of school (``Discourse.about_school``)
    school_window = False

    def _occupation(self, c: Clause) -> None:
        start = len(self.facts)
        self._job(c)
        self._employer(c, start)
        self._my_job(c)
        self._school(c)
        self._others_work(c)
        self._job_place(c, start)  # "a paramedic in Leeds": the city too

    def _job(self, c: Clause) -> None:
        """The speaker's job ("I work as a nurse", "I'm a teacher", "I retired")."""
        m: re.Match[str] | None
        before = len(self.facts)
        for m in (*_WORK_AS.finditer(c.text), *_IM_A.finditer(c.text), *IM_THE.finditer(c.text)):
            if is_home_role(m.group("v").lower(), c.text[m.end("v") :]):
                continue  # "the unofficial therapist of my friend group"
            past = m.group("verb").strip().lower() in {"worked", "i was"}
            self.add(c, Cat.OCCUPATION, "job", m.group("v").lower(), holds=not past)
            org = phrases.org_name(m.group("org"), c.text[m.end() :])
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
        if len(self.facts) == before:
            m = _WORK_AS_NOUN.search(c.text)
            if m and first_class(m["head"].lower()) == "person":
                past = "worked" in m.group(0).lower()
                self.add(c, Cat.OCCUPATION, "job", m["v"].lower(), holds=not past)
        m = TEACH.search(c.text)
        if m:
            subject = f"{m.group('v')} " if m.group("v") else ""
            self.add(c, Cat.OCCUPATION, "job", f"{subject}teacher", confidence=0.7)
        m = RUN_A.search(c.text)
        if m:
            job = f"{m.group('verb').lower()} a {m.group('v').lower()}"
            self.add(c, Cat.OCCUPATION, "job", job, confidence=0.75)
        if (promoted := promotion(c.text)) is not None:
            m, job = promoted
            named = phrases.name(m.group("who") or "") or "user"
            holder = "user" if named.lower() in {"i", "we"} else named
            self.add(c, Cat.OCCUPATION, "job", job, timing="start", subject=holder)
        if _RETIRED.search(c.text):
            self.add(c, Cat.OCCUPATION, "job", "retired", timing="start")

    def _employer(self, c: Clause, start: int) -> None:
        """Where the speaker works or worked ("I work at Acme", "I quit my job at ...");
        a person named there is a colleague, not an employer."""
        m: re.Match[str] | None
        m = _works_at(c)
        if m is None and (m := STILL_AT.search(c.said)) is not None:
            m = None if kind_of(m.group("v")) in (ET.PLACE, ET.PERSON) else m
        org = phrases.org_name(m.group("v"), c.text[m.end() :]) if m else None
        # "Dr. Lee", "for Sarah"; but "at Morgan Stanley"
        person = m is not None and org is not None and works_for_person(org, c.text[: m.start("v")])
        verb = m.group("verb").lower() if m else ""
        joining = verb in {"joining", "starting"}
        for_work = JOINING_FOR_WORK.search(c.text) is not None or self.work_window
        if not person and verb == "joining" and not for_work:
            m = org = None  # "I'm joining a club": joined, but not as its employee
        if org and verb == "starting" and not for_work and self._school_talk(c):
            self.add(c, Cat.OCCUPATION, "school", org, obj=org, obj_type=ET.ORGANIZATION)
            return  # "starting at Tulane in the fall" after "she graduates next week"
        if (
            verb == "left"
            and org
            and (not self.work_window or person or kind_of(org) in (ET.PLACE, ET.PERSON))
        ):
            m = org = None  # "I left Paris": a place left, unless the window talks of work
        if m and org and person and (m.groupdict().get("prep") or "").lower() == "with":
            self.entity(org, ET.PERSON)  # "I work with Sarah": a colleague, no employer
        elif m and org and person and joining:
            self.entity(org, ET.PERSON)  # "I'm joining Sarah for lunch": no employer
        elif m and org:
            verb = m.group("verb").lower()
            ended = verb in {"worked", "quit my job", "left my job", "quit", "left"} or (
                verb.endswith(" from") or verb.startswith("taught")
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
        elif (m := _ORG_MY_EMPLOYER.match(c.text)) is not None and (org := phrases.name(m["v"])):
            ended = m["verb"].lower() == "was"
            self.add(c, Cat.OCCUPATION, "employer", org, holds=not ended, obj=org,
                     obj_type=kind_of(org, "workplace"))  # fmt: skip
        elif (m := WORK_AT_PLACE.search(c.text)) is not None and not self._as_a_job(
            c, m.end(), start
        ):
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

    def _as_a_job(self, c: Clause, place_end: int, start: int) -> bool:
        """Whether the job was read from what follows an unnamed workplace ("I work for a
        startup as a designer"): the job says the work, and "a startup" names no
        employer beside it."""
        return _AS_A.match(c.text[place_end:]) is not None and any(
            f.predicate == "job" and f.category is Cat.OCCUPATION for f in self.facts[start:]
        )

    def _my_job(self, c: Clause) -> None:
        """The job or employer in "my new job at Acme", "my old job at the bank" (ended),
        "my new job as a nurse"."""
        m = MY_JOB.search(c.text)
        said = c.evidence[:2000]
        # "I quit my job at the bank": read already, as ended
        if m is None or any(
            f.category is Cat.OCCUPATION and f.evidence == said for f in self.facts
        ):
            return
        before = FRONT.sub("", c.text[: m.start()].strip(" ,")).lower().split()
        verb = before[-1] if before else ""
        if verb not in MY_JOB_HOLDS and verb not in MY_JOB_ENDED:
            return  # "looking for my first job as a nurse"
        when = (m.group("when") or "").strip().lower()
        ended = verb in MY_JOB_ENDED or when in {"old", "last", "previous", "former"}
        if m.group("job"):
            self.add(c, Cat.OCCUPATION, "job", m.group("job").lower(), holds=not ended)
        elif (org := phrases.name(m.group("org"))) and not works_for_person(org, c.text):
            kind = kind_of(org, "workplace")
            self.add(c, Cat.OCCUPATION, "employer", org, holds=not ended, obj=org, obj_type=kind)
        elif m.group("place"):
            self.add(c, Cat.OCCUPATION, "employer", phrases.bare(m.group("place")), holds=not ended)

    def _school(self, c: Clause) -> None:
        """Where and what the speaker studies."""
        m = _STUDENT_AT.search(c.text)
        school = phrases.name(m.group("v") or m.group("w")) if m else None
        got_in = (ACCEPTED.search(c.text) or self._got_into(c)) if school is None else None
        if got_in:  # "I got accepted to Yale", "I got into Princeton!"
            school = phrases.name(got_in.group("v"))
            if school:
                self.add(c, Cat.OCCUPATION, "school", school, obj=school, obj_type=ET.ORGANIZATION)
                return
        if school and ((m and m.group("v")) or vocab.STUDY_PLACE.search(school)):
            self.add(c, Cat.OCCUPATION, "school", school, obj=school, obj_type=ET.ORGANIZATION)
        m = _STUDIES.search(c.text)
        # "studying to become a couch potato": a quip, unless it names a job
        aim = _TO_BECOME.match(m.group("v")) if m else None
        if aim and not names_occupation(aim.group("role")):
            return
        if m and not scope_tags(m.group("v")).count("fitness"):
            self.add(c, Cat.OCCUPATION, "studies", phrases.bare(m.group("v")))
            school = phrases.name(m.group("school"))
            if school:
                self.add(c, Cat.OCCUPATION, "school", school, obj=school, obj_type=ET.ORGANIZATION)

    def _got_into(self, c: Clause) -> re.Match[str] | None:
        """A school "got into" or "going to" in the fall, when the window or the sentence
        talks of school or the name says it is one ("got into Minecraft" is a liking,
        "going to Maui in the fall" a trip) and it is not a place."""
        m = GOT_INTO.search(c.said) or GOING_TO_SCHOOL.search(c.said)
        if m is None:
            return None
        cue = self._school_talk(c) or vocab.STUDY_PLACE.search(m["v"])
        return m if cue and kind_of(m["v"], "place") is not ET.PLACE else None

    def _school_talk(self, c: Clause) -> bool:
        """Whether the window read for a pronoun or the sentence talks of school."""
        return self.school_window or talks_of_school(c.said)

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
                org = phrases.org_name(m.group("org"), c.text[m.end() :])
                if org and "student" not in m.group("v").lower():
                    kind = kind_of(org, "workplace")
                    self.add(
                        c, Cat.OCCUPATION, "employer", org, subject=who, obj=org, obj_type=kind
                    )
