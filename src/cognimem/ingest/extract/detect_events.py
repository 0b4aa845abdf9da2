"""The event detector: what the user did, once ("we went to a jazz festival", "I ran my
first marathon", "I adopted a rescue dog"). An event starts at the clause's time
expression, if it has one.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.lexicon import alternation
from cognimem.ingest.extract.patterns import NAME, NAME1, PET, PLACE, REL, TRAILING_S, gated, icase
from cognimem.ingest.extract.work_phrases import promotion
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.tokens import PhraseIndex

__all__ = ["EventReader"]

_LEADING_PLACE = icase(rf"(?:the\s+)?({PLACE})")
_GERUND_START = icase(r"([a-z]+ing)\b")
_CALLED = icase(rf"\b(?:named|called)\s+({NAME1})")
_CALLED_TAIL = icase(r"\s+(?:named|called)\b.*")
_WHERE_TAIL = icase(rf"\s+(?:in|at|near|outside)\s+(?:the\s+)?{PLACE}$")
_KIND = icase(rf"\b({PET}|{REL})\b")
_EVENT_DET = icase(r"^(?:an?|the|my|our)\s+(?:\w+'s\s+)?")
_EVENT_LEAD = icase(r"^(?:\w+'s\s+|first\s+place\s+in\s+)")
_MY = icase(r"(?:my|our)\b")
_JOB_WORD = icase(r"\bjob\b")
_EVENT_ITEM = icase(
    r"\b(?:novel|book|degree|course|marathon|race|project|thesis|program|painting|class|"
    r"contest|competition|award|prize|tournament|championship|lottery|raffle|5k|10k|"
    r"half marathon|ultra|triathlon|blog|podcast|business|company|band|garden|diet)$"
)
_EVENT_VERBS = (
    ("went_to", r"went\s+(?:to|to see)"),
    ("went_to", r"took\s+(?:my|our|the)\s+\w+(?:\s+\w+)?\s+to"),
    ("visited", r"visited"),
    ("attended", r"attended"),
    ("started", r"started"),
    ("finished", r"finished|completed"),
    ("joined", r"joined"),
    ("traveled_to", r"(?:traveled|travelled|flew|drove|took a trip|went on a trip)\s+to"),
    ("volunteered", r"volunteered\s+(?:at|with|for)"),
    ("signed_up", r"signed\s+up\s+for"),
    ("won", r"won"),
    ("ran", r"ran"),
    ("graduated", r"graduated(?:\s+from)?"),
    ("met", r"met"),
    ("adopted", r"adopted"),
    ("visited", r"(?:got|came)\s+back\s+from|returned\s+from"),
    ("took", r"took"),
    ("celebrated", r"celebrated"),
)
# "I", "we", "me and my sister", "my husband and I"
_SUBJ = r"(?:I|we|(?:me|I)\s+and\s+(?:my|our)\s+[\w' ]{1,40}?|(?:my|our)\s+[\w' ]{1,40}?\s+and\s+I)"
_EVENT = icase(
    rf"\b{_SUBJ}\s+(?:"
    + "|".join(f"(?P<e{i}>{v})" for i, (_, v) in enumerate(_EVENT_VERBS))
    + r")\b\s*(?P<rest>[^.;!?]*)"
)
_WENT_GERUND = icase(rf"\b{_SUBJ}\s+went\s+(?P<v>{alternation(vocab.GERUND_OUTINGS)})\b")
_MET_WHOM = icase(
    rf"^(?:up\s+)?(?:with\s+)?(?:some\s+|a\s+few\s+|my\s+|our\s+|an?\s+)?(?P<v>(?:[a-z'-]+\s+)"
    rf"{{0,3}}?(?:friends?|family|cousins?|colleagues|coworkers|classmates|neighbou?rs|"
    rf"{REL}))\b"
)
_TITLE = re.compile(r"^(?:reading|watching|writing|listening to)?\s*['\"](?P<v>[^'\"]{2,60})['\"]")
_GOT_LIFE = icase(r"\b(?:I|we)\s+got\s+(?P<v>married|engaged|divorced|promoted)\b")
# a named third party's: "Sarah just got promoted" (a pronoun resolved to the name)
_THIRD_GOT_LIFE = gated(
    rf"^(?P<who>{NAME})\s+(?:just\s+|finally\s+|recently\s+)?got\s+"
    r"(?P<v>married|engaged|divorced|promoted)\b"
)
_EVENT_NOUNS = PhraseIndex(vocab.EVENT_NOUNS)


def _ends_with_event(text: str) -> bool:
    """Whether ``text`` ends with an event noun ("a pottery workshop")."""
    hits = _EVENT_NOUNS.find(text)
    return bool(hits) and text.lower().rstrip(" .!").endswith(hits[-1][1])


# kin said as a group, visited together ("my parents", "the in-laws"): no relation word
# of one person, so not in ``vocab.RELATIONS``
_KIN_GROUPS = frozenset({"parent", "grandparent", "in-law", "folk"})


class EventReader(Collector):
    """Reads events."""

    def _event(self, c: Clause) -> None:
        m = _WENT_GERUND.search(c.text)
        if m:
            self.add(c, Cat.EVENT, "went", m.group("v").lower(), timing="start")
        # "got promoted to head nurse": the new job is the fact (the occupation reader)
        promoted_to_job = promotion(c.text) is not None
        m = _GOT_LIFE.search(c.text)
        if m and not (promoted_to_job and m.group("v").lower() == "promoted"):
            what = m.group("v").lower()
            self.add(c, Cat.EVENT, f"got_{what}", what, timing="start")
        m = _THIRD_GOT_LIFE.search(c.text)
        who = phrases.name(m.group("who")) if m else None
        if promoted_to_job and m and m.group("v").lower() == "promoted":
            who = None
        if m and who and who.lower() not in {"i", "we"}:
            what = m.group("v").lower()
            self.add(c, Cat.EVENT, f"got_{what}", what, timing="start", subject=who)
        for m in _EVENT.finditer(c.text):
            index = next(i for i in range(len(_EVENT_VERBS)) if m.group(f"e{i}"))
            predicate = _EVENT_VERBS[index][0]
            self._event_object(c, predicate, m.group("rest"))

    def _event_object(self, c: Clause, predicate: str, rest: str) -> None:
        rest = rest.split(",")[0].strip()
        named = _LEADING_PLACE.match(rest)
        if predicate == "met":
            said = named or _CALLED.search(rest)  # "a woman called Lucia"
            name = phrases.name(said.group(1)) if said else None
            whom = _MET_WHOM.match(rest)
            if name:
                self.add(c, Cat.EVENT, "met", name, obj=name, obj_type=ET.PERSON, timing="start")
            elif whom and not phrases.refers(whom.group("v")):
                self.add(c, Cat.EVENT, "met", whom.group("v"), timing="start")
            return
        title = _TITLE.match(rest)
        if title and predicate in {"finished", "started"}:
            self.add(c, Cat.EVENT, predicate, title.group("v"), timing="start")
            return
        gerund = _GERUND_START.match(rest)
        if predicate == "started" and gerund and gerund.group(1).lower() not in vocab.CHORE_GERUNDS:
            phrase = phrases.bare(rest)
            what = phrase if phrase and not phrases.refers(phrase) else gerund.group(1)
            self.add(c, Cat.EVENT, "started", what.lower(), timing="start")
            return
        if predicate == "adopted":
            called = _CALLED.search(rest)
            what = (
                phrases.name(called.group(1))
                if called
                else phrases.bare(_CALLED_TAIL.sub("", rest))
            )
            if what:
                self.add(c, Cat.EVENT, "adopted", what, timing="start")
                kind = _KIND.search(what)
                if kind and not called:
                    self.unnamed = kind.group(1).lower()
            return
        place = phrases.name(named.group(1)) if named else None
        if place and predicate in {"went_to", "visited", "traveled_to"}:
            self.add(c, Cat.EVENT, predicate, place, obj=place, obj_type=ET.PLACE, timing="start")
            return
        what = phrases.bare(_EVENT_DET.sub("", rest))
        what = _EVENT_LEAD.sub("", what)
        if not what or phrases.refers(what) or len(what.split()) > 5:
            return
        who = _WHERE_TAIL.sub("", what)  # "my parents in Leeds": the parents
        one = TRAILING_S.sub("", who.lower())
        kin = one in vocab.RELATIONS or one in _KIN_GROUPS or who.lower() in vocab.RELATIONS
        if kin and predicate == "visited" and _MY.match(rest):
            self.add(c, Cat.EVENT, "visited", who, timing="start")
            return
        if (
            predicate == "graduated"
            or _ends_with_event(what)
            or (predicate in {"finished", "won", "ran", "started"} and _EVENT_ITEM.search(what))
        ):
            if predicate == "started" and _JOB_WORD.search(what):
                return
            self.add(c, Cat.EVENT, predicate, what, timing="start")
