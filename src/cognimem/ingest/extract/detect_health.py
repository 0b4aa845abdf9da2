"""A condition of the speaker's body said as what it does or how long it lasts, not as
"I have X": "This migraine just won't go away", "Still fighting this cold", "My back
has been bad for weeks", "The swelling in my ankle hasn't gone down", "My eyes are
itchy", "I keep getting headaches", "I can't shake this cough".

The reading is by grammar over two closed word lists, an illness or symptom noun
(:data:`~.vocabulary.CONDITIONS`) and a body part (:data:`~.vocabulary.BODY_PARTS`):
a condition that persists, worsens or comes back; "still" with a verb of being ill or
getting better; a body part with a symptom word. It runs before the stances
(:mod:`.detect_choices`), so that "I can't shake this cold" is a state, not something
the speaker refuses, and a state it reads ends the clause. A negated state ("my back
doesn't hurt anymore", "my cold is gone") and someone else's body ("my mom's back")
read nothing: every pattern starts at the speaker's own condition and none of its
verbs says that it ended.
"""

from __future__ import annotations

import re
from datetime import datetime

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.feelings import FEELS
from cognimem.ingest.extract.lexicon import alternation
from cognimem.ingest.extract.patterns import gated, icase
from cognimem.models.extraction import ExtractedFact
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.noun_roots import is_ordeal
from cognimem.text.noun_senses import noun_classes

__all__ = ["HealthReader"]

_COND = rf"(?:{alternation(vocab.CONDITIONS)})"
_CONDITIONS = frozenset(vocab.CONDITIONS)
_PARTS = alternation(vocab.BODY_PARTS)
# one word may say which one: "my lower back", "my wisdom tooth", "my big toe"
_BODY = rf"(?:[a-z]+\s+(?=(?:{_PARTS})\b))?(?:{_PARTS})"
_DEGREE = (
    r"(?:(?:still|really|so|super|very|pretty|a bit|a little|kind of|kinda|incredibly|"
    r"badly|totally|all|constantly|always|just|getting|even)\s+)*"
)
_LASTS = (
    r"(?:\s+(?:just\s+|still\s+|really\s+)*(?:won't|will not|doesn't|does not|isn't|is not|"
    r"hasn't|has not|haven't|have not|aren't|are not)\s+(?:\w+\s+)?(?:go(?:ne|ing)? away|"
    r"let(?:ting)? up|quit|stop(?:ped)?|budge|clear(?:ed|ing)? up|go(?:ne|ing)? down|"
    r"ease(?:d)? up|die(?:d)? down|improv(?:e|ed|ing)|get(?:ting)? better|got better|"
    r"heal(?:ed|ing)?|leave me alone|gotten better|broken|broke)|"
    r"(?:'s|\s+is|\s+are|'re|\s+has been|\s+have been|'s been|\s+keeps?|\s+has|'s)\s+"
    + _DEGREE
    + r"(?:hanging on|lingering|dragging on|"
    r"getting worse|worse|back|coming back|killing me|acting up|flaring up|bad|terrible|"
    r"awful|brutal|unbearable|driving me (?:crazy|nuts)|knocking me out|relentless|"
    r"there|here|not better|no better|gotten worse|got worse|knocked me out|spreading|"
    r"getting old|not right|"
    # "this migraine is still pounding": what the condition still does
    r"(?<=still )(?:pounding|throbbing|aching|hurting|itching|burning|stinging|nagging|raging)"
    r"))\b"
)
_SYMPTOM = (
    r"(?:itchy|sore|stiff|tight|swollen|numb|tingling|tingly|puffy|red|irritated|inflamed|"
    r"bruised|tender|throbbing|burning|aching|achy|cramping|scratchy|raw|watery|blocked|"
    r"stuffed up|stuffy|congested|upset|bloated|queasy|bad|worse|killing me|acting up|"
    r"bothering me|flaring up|hurting|in pain|out|messed up|wrecked|locked up|hurts?|aches?|"
    r"giving me trouble|not right|throbs?|itch(?:es|ing)?|(?:won't|doesn't|will not|does not) stop "
    r"(?:hurting|aching|itching|throbbing)|(?:hasn't|has not|haven't|have not) (?:healed|"
    r"gone down|stopped (?:hurting|aching|itching)))\b"
)
_BE = r"(?:'s|\s+is|\s+are|'re|\s+has been|\s+have been|'s been|\s+feels?|\s+keeps?|\s+felt)"
_HEALTH = icase(
    # "this migraine just won't go away", "my allergies are acting up"
    rf"(?:^|,\s*)(?:this|my|the|that|these|those)\s+(?:\w+\s+)??(?P<cond>{_COND})(?P<lasts>"
    rf"{_LASTS})|"
    # "the swelling in my ankle hasn't gone down", "my eyes are itchy", "my knees ache"
    rf"(?:^|,\s*)(?:the\s+(?P<sym>swelling|pain|ache|aching|soreness|stiffness|itching|"
    rf"burning|numbness|tingling|bruising|rash|redness|cramp|cramping|inflammation|sprain|"
    rf"strain|bruise|blister|injury)\s+"
    rf"(?:in|on|around)\s+)?(?:my\s+|(?<![\w,]\s)(?<!,)(?=\w+(?:'s|\s+still|\s+hurts?\b)))"
    rf"(?P<body>{_BODY})(?P<be>(?:\s+still)?{_BE})?\s+{_DEGREE}"
    rf"(?P<how>{_SYMPTOM}|(?:won't|will not|doesn't|does not|isn't|is not|hasn't|has not)\s+"
    rf"(?:\w+\s+)?(?:go(?:ne|ing)? away|go(?:ne|ing)? down|heal(?:ed|ing)?|improv(?:e|ed|"
    rf"ing)|get(?:ting)? better|gotten better|clear(?:ed|ing)? up))|"
    # "still fighting this cold", "I can't shake this cough", "I keep getting headaches"
    rf"(?:^|\b(?:I|I'm|I've been|I have been|I am)\s+)(?:still\s+)?(?P<verb>(?:fighting|"
    rf"battling|nursing|dealing with|struggling with|recovering from|getting over|"
    rf"fighting off|sick with|down with|suffering from|(?:can't|cannot|can not)\s+(?:seem to\s+)?"
    rf"(?:shake|get rid of|kick|beat)|(?:keep|kept)\s+getting|getting|(?<=still )(?:have|got)))"
    rf"\s+(?:this|that|"
    rf"the|my|a|an|these|those|some)?\s*(?:\w+\s+)?(?P<thing>{_COND})\b|"
    # "I have a toothache", "I've got a sore back" ("a cold brew" is no condition)
    rf"\b(?:I|we)\s+(?:have|got)\s+(?:an?\s+|the\s+|some\s+|this\s+)?(?:(?:bad|terrible|"
    rf"awful|nasty|mild|slight|killer|chronic|severe|little|bit of a|touch of|pounding|"
    rf"splitting|really bad|horrible)\s+)*(?:(?P<has>{_COND})|(?P<sore>(?:sore|stiff|bad|"
    rf"swollen|sprained|twisted|pulled|broken|bruised|injured|pinched)\s+{_BODY}))"
    rf"(?=\s*(?:[,.;!?]|$|(?:too|again|today|now|lately|still|since|for|from|and|but|so|"
    rf"that|this|all|right now|at the moment|coming on|in my|on my)\b))"
)
# "I've been sick all week", "I'm still nauseous", "I can't sleep lately"
_FEELING = icase(
    # ("Still feeling queasy": the subject left out)
    r"^(?:I'm\s+|I've been\s+|I have been\s+|I am\s+|I keep\s+|I\s+|(?=still\b))"
    r"(?:still\s+)?(?:feeling\s+|feel\s+|getting\s+)?"
    + _DEGREE
    + r"(?P<v>sick(?!\s+(?:of|and tired))|ill|nauseous|queasy|dizzy|lightheaded|"
    r"light-headed|congested|achy|feverish|run down|under the weather|exhausted|"
    # "tired" said alone or with when ("I'm so tired I could sleep for a week" is a quip)
    r"tired(?=\s*(?:[,.;!?]|$|(?:lately|all|these days|today|again|now|for|since|right now|"
    r"at the moment|recently)\b))|"
    r"worn out|fatigued|drained|sleep-deprived|sore(?!\s+(?:at|about|loser))|"
    r"coughing|sneezing|wheezing|throwing up|vomiting|limping|"
    # "I can't sleep in a hot bedroom" is a stance, "I can't sleep lately" a state
    r"(?:having (?:trouble|a hard time|problems) (?:sleeping|breathing|swallowing)|"
    r"can't sleep|can't stop coughing|not sleeping well)(?=\s*(?:[,.;!?]|$|(?:lately|"
    r"again|at all|at night|well|much|these days|now)\b))|not feeling (?:great|well|good|"
    r"better|100%|so good|so great|myself)|(?:awful|terrible|crappy|lousy|rough|horrible|"
    r"miserable|like crap|like death|like garbage)(?!\s+(?:about|for|that|when|because|"
    r"if|to)\b))\b"
)
# an illness named by a word no list holds, after a verb of living with one: "I'm
# battling cancer", "I suffer from lupus", "fighting leukemia"; the noun is an illness
# when WordNet files its first sense under ill health (:func:`_is_illness`)
_ILL = icase(
    r"\b(?:I|I'm|I am|I've been|I have been)\s+(?:still\s+|currently\s+|now\s+|also\s+)?"
    r"(?:battling|fighting|suffering from|suffer from|struggling with|struggle with|living "
    r"with|being treated for)\s+(?:(?:an?|the|my|some|this)\s+)?"
    r"(?P<v>[a-z'-]+(?:\s+[a-z'-]+){0,2}?)(?=\s*(?:[,.;!?]|$)|\s+(?:for|since|again|now|"
    r"right|these|lately|and|but|at|this|all|every|like)\b)"
)
# "I'm in remission": a state of the body said as where one is
_IN_REMISSION = icase(r"\b(?:I'm|I am)\s+(?:now\s+|still\s+|finally\s+)?in\s+(?P<v>remission)\b")
# what makes being tired a state that lasts: "still", "lately", "for weeks", "always"
_LASTING = icase(
    r"\b(?:still|been|keep|lately|all the time|these days|for (?:days|weeks|months|ages|"
    r"the past)|since|again|recently|constantly|always)\b"
)
# "I can't sleep if I eat late": a cause and its effect (read by the stances), not a
# state that holds now
_CONDITIONAL = gated(r"\b(?:if|when|whenever|every time|unless|after I|once I)\b")
_NOT_NOW = gated(
    r"\b(?:anymore|any more|any longer|(?:is|are|'s|'re|finally|now|all)\s+(?:gone|over)|"
    r"over it|better now|recovered)\b"
)


def _is_illness(phrase: str) -> bool:
    """Whether ``phrase`` names a condition: one the list holds ("depression"), or one
    whose head noun's most frequent sense is an ordeal of the body, an ordeal
    (:func:`~cognimem.text.noun_roots.is_ordeal`) that WordNet files first as a state
    and never as a possession ("cancer", "lupus"; not "debt", "traffic")."""
    if phrase.lower() in _CONDITIONS:
        return True
    noun = phrase.split()[-1]
    classes = noun_classes(noun)
    return is_ordeal(noun) and classes[:1] == ("state",) and "possession" not in classes


class HealthReader(Collector):
    """Reads a condition of the speaker's body said by what it does or how long."""

    def __init__(self, reference: datetime) -> None:
        super().__init__(reference)
        self.health_read: list[ExtractedFact] = []  # no stance: the stances still run

    def _health(self, c: Clause) -> bool:
        if c.past or c.anymore or _NOT_NOW.search(c.text) or _CONDITIONAL.search(c.text):
            return False
        m = _HEALTH.search(c.text)
        if m is not None:
            value = self._health_value(m)
        else:
            m = _FEELING.search(c.text) or _IN_REMISSION.search(c.text) or self._feels(c)
            if m is None:
                m = _ILL.search(c.text)
                if m is None or not _is_illness(m.group("v")):
                    return False
            value = m.group("v")
            if value.lower() == "tired" and not _LASTING.search(c.said):
                return False  # "I'm tired, goodnight": a moment, not a state
        before = len(self.facts)
        self.add(c, Cat.STATE, "health", value.lower(), tags=["health"], timing="window")
        self.health_read += self.facts[before:]
        return True

    @staticmethod
    def _feels(c: Clause) -> re.Match[str] | None:
        """A feeling said bare (:mod:`.feelings`), unless the sentence ties it to when it
        comes ("when things are hectic and I'm nervous": a habit, not a state now) or it
        is one that passes with the moment and is not said to last."""
        m = None if _CONDITIONAL.search(c.evidence) else FEELS.search(c.said)
        if m is not None and m.group("v").lower() in vocab.PASSING_FEELINGS:
            return m if _LASTING.search(c.said) else None
        return m

    @staticmethod
    def _health_value(m: re.Match[str]) -> str:
        """The condition, or the body part with what is wrong with it, as said
        ("migraine", "swelling in my ankle", "eyes are itchy")."""
        if m.group("cond"):
            return m.group("cond")
        if m.group("thing") or m.group("has") or m.group("sore"):
            return str(m.group("thing") or m.group("has") or m.group("sore"))
        body = m.group("body")
        if m.group("sym"):
            return f"{m.group('sym')} in my {body}"
        be = (m.group("be") or "").strip()
        return f"{body}{'' if be.startswith(chr(39)) else ' '}{be} {m.group('how')}".replace(
            "  ", " "
        )
