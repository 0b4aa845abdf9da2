"""A last reading of a first-person sentence that no constraint detector took: does it
still bind later answers?

The detectors of :mod:`.read_constraints` read a constraint into a short value
("no shellfish", "learn Spanish") and need a known domain word. People state
constraints in far more ways ("I treasure my alone time, it keeps me sane", "Lifting
heavy gave me a hernia, so I'm careful now", "It's Lent, so I've given up meat for
now"). This reader looks for the *grammar* of a constraint — a rule word, a value
phrase, a goal verb, a present condition, a cause and its effect on the speaker — and
keeps the whole sentence as the constraint's value, so that its meaning (the read path
compares embeddings) and its scope tags, when it has any, route later requests to it.
Nothing here names a topic: the markers are English function words and the verbs that
state rules, values, goals, conditions and causes — among them a rule the speaker set
("I made myself a rule", "I keep X to myself", a daily habit kept for a reason), a
value said as what should be ("for me X should ..."), a goal whose subject was said
once ("..., and want to keep it that way"), a state of the body or the home ("I'm
deaf", "we just split up", "the doctor put me on X", "my X's been out", "our X
flooded", "she lives with us", a lack for now) and a cause without "because" ("X keeps
me sane", "doing X stopped the Y", "..., so I do X now", "my dog gets anxious when").
"""

from __future__ import annotations

from cognimem.ingest.extract.clauses import prepare_clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.patterns import TRAINING_TO_BECOME, icase, names_occupation
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.scope_tags import scope_tags

__all__ = ["StanceReader"]

_FIRST_PERSON = icase(r"\b(?:I|I'm|I'd|I'll|me|my|we|we're|our|us)\b")
# "I never thought ...", "I don't know": narration and filler, not rules
_NOT_A_RULE = icase(
    r"\b(?:never|don't|didn't)\s+(?:thought|think|knew|know|expected|expect|imagined|"
    r"realized|realised|been|had|got|felt|saw|believed|forget|forgot|mind|remember|"
    r"want to miss|regret|understand|get it|care)\b"
)
# "I don't have the receipt anymore": a thing at hand that is gone, no rule or state
_GONE_AT_HAND = icase(
    r"\b(?:don't|do not|no longer)\s+(?:have|own)\s+(?:the|that|this|those|these|it|them)\b"
)
_RULE = icase(
    r"\b(?:I|we)\s+(?:(?:just|really|absolutely|strictly|simply)\s+)?(?:never|refuse to|"
    r"always|only|avoid|stay away from|steer clear of|stick to|no longer)\b|"
    r"\b(?:my|our)\s+(?:\w+\s+){0,2}rule\b|\brule (?:in|for|at) (?:our|my|this)\b|"
    r"\b(?:I|we)(?:'ve)?\s+(?:made|make|have|set|got)\s+(?:(?:myself|ourselves|it)\s+)?an?\s+"
    r"(?:\w+\s+)?rule\b(?!\s+of\s+thumb)|\b(?:I|we)\s+keep\s+(?:[\w'-]+\s+){1,4}(?:private|secret|quiet|"
    r"separate|to (?:myself|ourselves))\b|"
    # a habit kept for a reason: "I'm in bed by ten every night because ..."
    r"^(?:I|we)(?:'m|'re|\s+(?!went\b|was\b|were\b|did\b|had\b|used\b)[a-z]+)\b[^.;]*"
    r"\bevery\s+(?:single\s+)?(?:day|morning|evening|night|week|weekday|weekend)\b[^.;]*"
    r"\b(?:because|since)\b|"
    r"\bno exceptions\b|\bnon-negotiable\b|,\s*(?:period|ever|at all|no matter what)\s*[.!]?$|"
    r"\b(?:I|we)\s+(?:don't|won't|can't)\s+(?:\w+\s+){0,4}(?:ever|anymore|at all)\b"
)
_VALUE = icase(
    r"\bmatters?\s+(?:\w+\s+){0,3}to\s+(?:me|us)\b|\b(?:important|everything|a big (?:thing|"
    r"deal)|sacred)\s+(?:to|for)\s+(?:me|us)\b|\bmeans?\s+(?:a lot|everything|so much|the "
    r"world)\s+to\s+(?:me|us)\b|\b(?:I|we)(?:'d|\s+would)\s+(?:much\s+)?rather\b|"
    r"\b(?:I|we)\s+(?:really\s+|truly\s+|deeply\s+)?(?:care|value|treasure|cherish|"
    r"believe)\b|\bbugs me\b|\bin my book\b|\bhow I feel\b|"
    r"\bwhat I (?:look for|want most|care about|value)\b|\bcomes? first\b|"
    r"\b(?:my|our) (?:top |number one |first )?priority\b|\bnot who I am\b|"
    r"^(?:for|to)\s+(?:me|us)\b,?\s+(?:\w+\s+){1,4}(?:should|must)\b|"
    r"\bmakes? all the difference\b|\bat the (?:center|centre|heart) of (?:my|our)\b|"
    r"\b(?:over|more than) (?:any|anything|a|an|the)\b.*\bto me\b"
)
_GOAL = icase(
    r"\b(?:I'm|we're)\s+(?:(?:really|currently|still|also|now)\s+)?(?:trying|working|aiming|"
    r"hoping|planning|determined|building|saving|putting|training|studying|prepping|preparing|"
    r"learning|rehabbing|doing a|going for)\b|\b(?:I|we)\s+(?:really\s+)?(?:want|hope|plan|"
    r"intend|aim)\s+(?:to|the|my|our|a)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:aim|goal|plan|"
    r"dream|resolution)\b|\b(?:I|we)(?:'d|\s+would) love to\b|"
    r"^(?:I|we)\b[^,;]*\band\s+(?:really\s+)?(?:want|hope|plan|intend|mean)\s+to\b"
)
_STATE = icase(
    r"\b(?:right now|at the moment|these days|currently|for now|for the next|lately|"
    r"this (?:month|week|quarter|semester)|since (?:last|the)|anymore|barely|"
    r"in the middle of|(?:weeks?|months?) (?:old|ago))\b|"
    r"\b(?:I'm|we're|I've been|we've been)\s+(?:(?:completely|really|so|totally|terribly|"
    r"super|still|partially|legally)\s+)?"
    r"(?:[a-z]+ic|terrified|scared|afraid|allergic|intolerant|pregnant|expecting|nursing|"
    r"breastfeeding|fasting|grieving|exhausted|burned out|burnt out|broke|injured|"
    r"recovering|on call|on probation|going through|in debt|[a-z]*blind|deaf|disabled|"
    r"hard of hearing)\b|"
    # a change of life just made: a breakup, a loss
    r"\b(?:I|we)\s+(?:just|recently)\s+(?:broke up|split up|separated|got divorced|lost (?:my|"
    r"our))\b|\bput (?:me|us) on\b|"
    # someone who now shares the speaker's home
    r"\b(?:lives|is living|has been living|is staying|moved in)\s+with\s+(?:me|us)\b|"
    r"\b(?:I|we)\s+(?:have|have got)\s+(?:got\s+)?(?:an?\s+)?(?:newborn|baby|[a-z]+itis|"
    r"gout|flu|fever|cold|infection|condition|disorder|disease)\b|"
    r"\b(?:my|our)\s+(?:[\w'-]+\s+){0,2}[\w-]+(?:'s\s+been|'s|\s+(?:got|is|was|has been))\s+"
    r"(?:\w+\s+)?(?:stolen|suspended|expired|cancel(?:l)?ed|broken|dead|flooded|out|in the "
    r"shop|in the hospital)\b|\b(?:my|our)\s+(?:[\w-]+\s+){1,2}?(?:flooded|broke down|died|"
    r"burst|caught fire)\b"
)
# "X stopped my ...", "Y made our ...": an effect on the speaker needs no connective
_EFFECT_ON_ME = icase(
    r"\b(?:made|makes|gave|gives|helped|helps|stopped|stops|fixed|cured|cut|cleared|kills|"
    r"killed|wrecked|lowered|doubled|calmed|lifted|saved|ruined|improved|got)\s+"
    r"(?:me|my|us|our)\b|\bis (?:how|why) (?:I|we)\b|\bthe only reason (?:I|we)\b|"
    # "Traditions keep us close" (not "keep me posted")
    r"^\w+(?:\s+\w+)?\s+(?:keeps?|kept)\s+(?:me|us)\s+(?!posted|updated|informed|waiting|"
    r"company|in the loop)\w+|"
    # the speaker's own doing and what it changed: "Taking X with Y stopped the Z"
    r"^[a-z]+ing\s+(?:my|our|me|us)\b[^,;]{0,60}?\b(?:stopped|fixed|cured|helped|cleared|"
    r"eased|calmed|improved|ruined|triggered|lowered)\b|"
    # a behaviour changed by what happened: "..., so I keep it to one now"
    r"\s(?:so\s+now\s+(?:I|we)\b|so\s+(?:I|we)\s+(?:\w+\s+){1,6}?now\b)|"
    # what sets off a condition in one the speaker looks after: "my dog gets anxious when"
    r"\b(?:my|our)\s+(?:\w+\s+){0,2}(?:gets?|becomes?|is|are)\s+(?:really\s+|very\s+|so\s+)?"
    r"(?:[a-z]+ous|[a-z]+ed|sick|upset|ill|restless|aggressive)\s+(?:when(?:ever)?|if)\b"
)
# "it makes me happy", "your help gave me strength": a reaction to something said, whose
# cause is a pronoun, is not a cause the speaker will act on
_REACTION = icase(r"^(?:it|that|this|which|you|your|their|his|her|its)\b")
# small talk that reads like a stance: "I'd love to hear more", "I can't believe it"
_SMALL_TALK = icase(
    r"\b(?:love to|like to|want to|trying to)\s+(?:hear|see|know|chat|talk|catch up|figure "
    r"out|decide|remember|understand|think|say|meet (?:you|up|your|with you))\b|"
    r"\bcan't (?:believe|wait)\b|"
    r"\b(?:I'll|let me) (?:think|know|get back)\b|\bthank|\bfan of\b"
)
# "we don't have a car at the moment": a lack for now binds later answers, even when
# the detectors read what is lacked (a possession) from it
_LACK_FOR_NOW = icase(
    r"\b(?:don't|do not|can't|cannot|no longer)\s+(?:have|use|get|access)\b.*\b(?:right now|"
    r"at the moment|for now|currently|these days|this (?:week|month))\b"
)
_CAUSE = icase(
    r"\b(?:so|because|since|ever since|after|once|that's why|is how|is why|the only "
    r"(?:reason|thing)|thanks to|if)\b"
)
_EFFECT = icase(
    r"\b(?:makes?|made|gives?|gave|helped|helps|stopped|stops|fixed|fixes|cured|cut|cuts|"
    r"cleared|kills?|killed|wrecked|wrecks|wrecking|lowered|doubled|dropped|calmed|lifted|"
    r"triggers?|triggered|got (?:me|my)|left me|taught|keeps? me|saved|ruined|improved|"
    r"crash|get|feel|felt|sleeping|sleep|happier|better|worse|done with|careful|paranoid)\b"
)


class StanceReader(Collector):
    """Reads a constraint's grammar from a whole first-person sentence."""

    def _stance(self, text: str, evidence: str, *, read: bool) -> bool:
        """A constraint read from ``text`` when it states one in a form the detectors
        did not read; the whole sentence is its value. When the detectors ``read``
        other facts from it, only a cause and its effect is added ("Joining the club is
        how I met my friends" is an event and a cause)."""
        if _FIRST_PERSON.search(text) is None or len(text) > 240:
            return False
        category = self._kind(text)
        if category is None:
            return False
        if read and category is not Cat.CAUSAL and not _LACK_FOR_NOW.search(text):
            return False
        clause = prepare_clause(text, evidence, self.ref)
        if clause is None:
            return False
        tags = scope_tags(text.replace("-", " "))
        predicate = tags[0] if tags else "general"
        self.add(clause, category, predicate, text, tags=tags, confidence=0.6, timing="window")
        return True

    @staticmethod
    def _kind(text: str) -> Cat | None:
        if _SMALL_TALK.search(text) or _GONE_AT_HAND.search(text):
            return None
        training = TRAINING_TO_BECOME.search(text)
        if training and not names_occupation(training.group("role")):
            return None  # "training to be a ..." with no occupation: a quip
        if _REACTION.search(text) is None and (
            (_CAUSE.search(text) and _EFFECT.search(text)) or _EFFECT_ON_ME.search(text)
        ):
            return Cat.CAUSAL
        if _RULE.search(text) and not _NOT_A_RULE.search(text):
            return Cat.POLICY
        if _VALUE.search(text):
            return Cat.VALUE
        if _GOAL.search(text):
            return Cat.GOAL
        if _STATE.search(text):
            return Cat.STATE
        return None
