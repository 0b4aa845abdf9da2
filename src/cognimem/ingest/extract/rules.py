"""The rule extractor: facts from chat messages with patterns only, no LLM.

How a message is read. It is split into sentences; a question, a hypothetical ("if I
were vegetarian", "I wish ...") or reported speech ("she said ...") yields no fact. A
sentence is first read whole for a causal statement ("coffee gives me migraines"), then
split into clauses. Each clause is cleaned (contractions spelled one way, "actually",
"I think", "really" dropped, "used to" / "no longer" / "anymore" turned into flags), its
time expressions are resolved against the message's ``occurred_at``
(:mod:`~cognimem.ingest.extract.temporal`) and blanked out, and the detectors read it,
most binding first: allergy, diet, policy (each ends the clause), then identity,
location, occupation, relationship, possession, event, then goal, value or state (one
of them ends the clause), then preference. A detector runs only when the clause holds
one of its trigger words (``lexicon.TRIGGERS``), which keeps a typical chat sentence
near 100 µs. Names after a greeting, in object position or after a preposition of place
become entities even when no fact is read.

Conventions the fact keys rely on (keys are subject + category + predicate, + value
when multi-valued; see ``ingest.keys``):

- the speaker is ``"user"``; a named third party is the subject by name ("Sarah"), an
  unnamed one by the relation word ("brother"), as the LLM extractor does;
- values are the shortest phrase, without articles, in the speaker's casing; an unnamed
  relative or pet keeps its article ("a dog");
- diet is one single-valued ``value`` fact, predicate ``diet``, whose value is a label
  ("vegetarian", "vegan", "kosher", "pescatarian") or a change ("eats fish", "no meat",
  "no red meat"): every diet statement supersedes the previous one. Avoiding one food
  is a ``policy`` with predicate ``food`` and value "no pork"; an allergy is predicate
  ``allergy`` with the allergen as value;
- a rule given as an imperative ("Never schedule meetings before 10am") keeps its
  wording as the value;
- a constraint's predicate is its primary scope tag: for a goal the first tag
  mentioned; for a state, policy or value the first by a fixed priority
  (``_TAG_PRIORITY``); for a causal statement ``health`` when health is involved.

Negation flips polarity except where the negated form is the constraint itself ("I
never eat pork"). "used to", "no longer" and a past simple ("I lived in Tokyo") give
``holds=False``; "anymore" does the same for a city, employer or possession and flips a
preference. Hedges ("I think", "maybe", "kind of") multiply confidence by 0.6. A time
expression sets ``valid_from`` for what started then (a move, a purchase, an event), both
ends for a state ("this month"), ``valid_to`` after "until"; within one message, a value
that no longer holds ends when its successor begins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from cognimem.ingest.extract import lexicon as lx
from cognimem.ingest.extract.schema import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
    ExtractionInput,
)
from cognimem.ingest.extract.temporal import TimeMention, find_times
from cognimem.models.clock import to_utc
from cognimem.models.knowledge import EntityType, FactCategory

__all__ = ["RuleExtractor"]

Cat = FactCategory
ET = EntityType


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_ALT = lx.alternation

# ------------------------------------------------------------------ building blocks

_CAP = "A-ZÀ-ÖØ-Þ"
_WORD1 = rf"[{_CAP}][^\W\d_]*(?:['-][^\W\d_]+)*"
_NAME1 = rf"(?-i:{_WORD1})"
_NAME = rf"(?-i:{_WORD1}(?:\s+{_WORD1}){{0,2}})"
_PLACE_WORD = rf"[{_CAP}][^\W_]*(?:['.&-][^\W_]+)*"
_PLACE = (
    rf"(?-i:(?:St\.\s+|Saint\s+)?{_PLACE_WORD}(?:\s+(?:(?:de|del|da|do|of|upon|on|am)\s+)?"
    rf"{_PLACE_WORD}){{0,3}}(?:,\s+{_PLACE_WORD})?)"
)
_ORG = rf"(?-i:(?:St\.\s+)?{_PLACE_WORD}(?:\s+(?:&\s+|of\s+|and\s+)?{_PLACE_WORD}){{0,3}})"
_REL = _ALT(lx.RELATIONS)
_PET = _ALT(lx.PETS)
_MODS = rf"(?:(?:{_ALT(lx.RELATION_MODIFIERS)})\s*)*"
_JOB = _ALT(lx.JOBS)
_NUMBER = r"(?:a|an|one|two|three|four|five|six|\d)"
_TAG_PRIORITY = {
    Cat.STATE: ("work", "finance", "family", "legal", "education", "travel", "health"),
    Cat.POLICY: ("privacy", "communication", "schedule", "travel", "food", "finance"),
    Cat.VALUE: ("environment", "religion", "family", "shopping", "food", "finance"),
}
_CONFIDENCE = {
    Cat.IDENTITY: 0.9,
    Cat.LOCATION: 0.85,
    Cat.OCCUPATION: 0.85,
    Cat.RELATIONSHIP: 0.85,
    Cat.PREFERENCE: 0.75,
    Cat.POSSESSION: 0.75,
    Cat.EVENT: 0.75,
    Cat.POLICY: 0.9,
    Cat.VALUE: 0.85,
    Cat.GOAL: 0.75,
    Cat.STATE: 0.8,
    Cat.CAUSAL: 0.7,
}
_IMPORTANCE = {
    Cat.POLICY: 0.95,
    Cat.VALUE: 0.9,
    Cat.IDENTITY: 0.85,
    Cat.GOAL: 0.85,
    Cat.STATE: 0.85,
    Cat.CAUSAL: 0.8,
    Cat.RELATIONSHIP: 0.75,
    Cat.LOCATION: 0.75,
    Cat.OCCUPATION: 0.75,
    Cat.PREFERENCE: 0.6,
    Cat.EVENT: 0.55,
    Cat.POSSESSION: 0.5,
}
_SINGLE_VALUED = frozenset({Cat.IDENTITY, Cat.LOCATION, Cat.OCCUPATION})
_HEDGE = 0.6
_SPACES = re.compile(r"\s+")
_BLANKED = re.compile(r"\s+,(?:\s*,)*")  # where a time expression was blanked out

# ------------------------------------------------------------------ text cleaning

_UNIFY = ((re.compile(r"[’‘`´]"), "'"), (re.compile(r"[“”]"), '"'), (re.compile(r"\s+"), " "))
_CONTRACTIONS = tuple(
    (_re(p), r)
    for p, r in (
        (r"(?<![\w'])(?-i:i)(?=['\s,.!?;]|$)", "I"),
        (r"\bim\b", "I'm"),
        (r"\bI am\b", "I'm"),
        (r"\bwe are\b", "we're"),
        (r"\b(I|we)'ve\b", r"\1 have"),
        (r"\b(I|we) have got\b", r"\1 have"),
        (r"\b(do|does|did|is|are|was|were|could|would|should|have|has) not\b", r"\1n't"),
        (r"\bcan ?not\b", "can't"),
        (r"\b(don|can|won|didn|doesn)t\b", r"\1't"),
    )
)
_LEAD = _re(
    r"^(?:(?:actually|honestly|btw|by the way|oh|ah|so|also|and|but|plus|anyway|anyways|"
    r"hey|hi|hello|haha+|lol|um+|uh+|now|then|tbh|to be honest|personally|fun fact|fyi|"
    r"just so you know|as for me|for the record|speaking of which|guess what)\b[\s,!.:;-]*|"
    r"(?:no|yes|yeah|yep|yup|ok|okay|sure|right|true|well|wow|thanks|thank you|nice|cool|"
    r"great|awesome|aw+|omg|same|me too)\s*[,!.:;-]+\s*)+"
)
_HEDGE_LEAD = _re(
    r"^(?:I think|I guess|I suppose|I believe(?! in\b)|I feel like|I'd say|I reckon|"
    r"I'm pretty sure|I'm fairly sure|pretty sure)(?: that)?\b[\s,]*"
)
_HEDGE_WORD = _re(r"\b(?:maybe|probably|perhaps|possibly|might|kind of|sort of|kinda|sorta)\b")
_ADVERBS = _re(
    r"\b(I|we|I'm|we're|I have|we have|I have been|we have been|I'd|don't|didn't|not|can't)\s+"
    r"(?:(?:really|absolutely|totally|also|just|recently|actually|currently|still|truly|"
    r"honestly|genuinely|definitely|seriously|literally|finally|now|even|first|kind of|"
    r"sort of|kinda|sorta|probably|maybe|possibly|pretty|super|so|very|quite|both|all|"
    r"already|originally|mostly|mainly|officially|completely|particularly|certainly|"
    r"usually|generally|normally|typically|obviously|clearly|always|simply|absolutely|"
    r"personally|happily|proudly|secretly)\s+)+"
)
_DO_VERB = _re(r"\b(I|we) do (love|like|enjoy|hate|prefer|adore)\b")
_USED_TO_BE = _re(r"\b(I|we) used to be\b")
_USED_TO = _re(r"\b(I|we) used to\b")
_NO_LONGER = _re(r"\b(I|we|I'm|we're) no longer\b")
_ANYMORE = _re(r"\s*\b(?:anymore|any more|any longer)\b")
_CHANGE = _re(r"\b(?:now|again|anymore|any more|no longer|these days|nowadays|started|stopped)\b")
_FUTURE = _re(
    r"\b(?:will|'ll|going to|gonna|plan|planning|hope to|want to|about to|can't wait|soon|"
    r"upcoming|next)\b"
)
_SENTENCE = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\s*\n+\s*")
_ABBREVIATION = _re(r"\b(?:St|Dr|Mr|Mrs|Ms|Prof|Jr|Sr|Mt|vs|etc|e\.g|i\.e|approx)\.$")
_CLAUSE_BREAK = _re(
    r"\s*(?:[;:]|\s-\s|—)\s*|(?<!^me)(?<!^I),?\s+(?:but|and|so|because|though|although|while|"
    r"whereas|plus|cause|cuz)\s+(?=(?:I|I'm|I'd|I'll|we|we're|my|our|please|don't|never|now)\b)|"
    r",\s+(?=(?:I|I'm|I'd|we|we're|my|our|please|now|but)\b)"
)
_QUESTION = _re(
    r"^(?:(?:do|does|did|are|is|was|were|can|could|would|will|should|have|has|had|shall)\s+"
    r"(?:you|we|they|he|she|it|there|your|that|this|the|u|ya|anyone|I)\b|"
    r"(?:what|where|when|why|who|which|how)(?:'s|\s+(?:do|does|did|is|are|was|were|can|"
    r"could|would|will|should|have|has|about|long|often|much|many|come))\b)"
)
_HYPOTHETICAL = _re(
    r"^(?:if|imagine|suppose|supposing|what if|unless|hypothetically)\b|"
    r"\bif (?:I|we) (?:were|was|had|could|would|lived|moved)\b|\b(?:I|we) wish\b|"
    r"\b(?:I|we)(?:'d| would)\b(?! (?:like|love) to\b)"
)
_REPORTED = _re(
    r"\b(?P<who>he|she|they|(?-i:[A-Z][a-z]+)|my \w+) (?:said|says|told me|tells me|thinks|"
    r"thought|mentioned|claims|claimed|asked)\b"
)
_MEDICAL_REPORTER = frozenset({"my doctor", "my dentist", "my allergist", "my therapist"})
_TRAILING = _re(
    r"(?:\s+(?:right now|at the moment|these days|nowadays|lately|recently|for now|"
    r"for a while|all week|all day|anymore|though|too|as well|again|now|please|ok|lol|"
    r"haha|for me)|[\s,.;:!?\"'-])+$"
)
_DET = _re(
    r"^(?:(?:the|a|an|some|any|all|most|many|lots of|a lot of|plenty of|my|our|his|her|"
    r"their|two|three|several|both|either|on)\s+)+"
)
_OBJ_STOP = _re(
    r"\s+(?:on|in|at|with|during|after|before|for|from|over|than|when|while|because|but|"
    r"since|so|if|especially|except|as|like|around|near|every|each|whenever|until|till|"
    r"rather|instead|which|who|that|now|lately|these days|nowadays|too|a lot|so much|very "
    r"much|more than|the most|all the time|sometimes|though|again|already|as well|right "
    r"now|at the moment|yet|and it|and I|and we|but|to be honest|tbh)\b.*$"
)
_NOT_AN_ITEM = _re(
    r"(?:so|but|who|which|and|or|if|because|though|then|it|that|this|I|we|you|to|too|also|"
    r"well|as|for|of|with|really|just|[a-z]+ly)\b"
)
_LIST_SPLIT = _re(r"\s*(?:,\s*(?:and|or)?|\band\b|\bor\b|&|/|\bplus\b)\s*")


def _refers(text: str) -> bool:
    """Whether a phrase points back into the conversation ("that", "your painting", "the
    way you ...") rather than naming something lasting."""
    low = text.lower()
    return not lx.CONTEXT_WORDS.isdisjoint(lx.tokens(low)) or any(
        p in low for p in lx.CONTEXT_PHRASES
    )


def _points(text: str) -> bool:
    """Whether a goal or rule points at something in the conversation ("see it")."""
    return not lx.POINTER_WORDS.isdisjoint(lx.tokens(text))


def _clean(text: str) -> str:
    return _TRAILING.sub("", text).strip()


def _bare(text: str) -> str:
    """A value phrase: no clause tail, no leading article, no trailing filler."""
    return _clean(_DET.sub("", _OBJ_STOP.sub("", text.strip())))


def _name(text: str | None) -> str | None:
    """A proper name as captured, without trailing possessive or common words; ``None``
    when it is not a name after all."""
    if not text:
        return None
    tokens = _POSSESSIVE_S.sub("", text.strip(" ,.'")).split()
    while tokens and tokens[-1].lower().strip(",") in lx.NOT_NAMES:
        tokens.pop()
    if not tokens or tokens[0].lower() in lx.NOT_NAMES:
        return None
    return " ".join(tokens).strip(",")


def _items(text: str) -> list[str]:
    """The members of a list ("peanuts, tree nuts and shellfish"); a part that starts
    like a new clause ("so who knows ...") is not a member."""
    parts = (_bare(p) for p in _LIST_SPLIT.split(text))
    return [p for p in parts if p and not _NOT_AN_ITEM.match(p)]


def _primary(category: FactCategory, tags: list[str], default: str) -> str:
    for tag in _TAG_PRIORITY.get(category, ()):
        if tag in tags:
            return tag
    return tags[0] if tags else default


def _gerund(verb: str) -> str:
    verb = verb.lower()
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if _SHORT_CVC.fullmatch(verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


@dataclass
class _Clause:
    text: str  # cleaned, time expressions blanked out (read by the detectors)
    base: str  # cleaned before "used to" / "no longer" / "anymore" were rewritten
    timed: str  # cleaned, with its time expressions
    evidence: str
    times: list[TimeMention]
    hedged: bool
    past: bool  # "used to", "no longer": the statement held before, not now
    anymore: bool
    change: bool  # "now", "again", "started": a new state replaces an old one
    words: frozenset[str]  # lower-case words, to skip detectors that cannot fire

    def may(self, detector: str) -> bool:
        return not self.words.isdisjoint(lx.TRIGGERS[detector])


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for piece in _SENTENCE.split(text):
        piece = piece.strip()
        if not piece:
            continue
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def _tidy(sentence: str) -> str:
    """Contractions spelled one way, opening discourse markers dropped."""
    text = sentence
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text.strip()


def _clause(part: str, evidence: str, reference: datetime) -> _Clause | None:
    text = _LEAD.sub("", part.strip()).strip()
    hedged = False
    stripped = _HEDGE_LEAD.sub("", text)
    if stripped != text:
        hedged, text = True, _LEAD.sub("", stripped)
    if _HEDGE_WORD.search(text):
        hedged = True
    text = _DO_VERB.sub(r"\1 \2", _ADVERBS.sub(r"\1 ", text))
    if len(text) < 3:
        return None
    change = _CHANGE.search(text) is not None
    times = find_times(text, reference, prefer_future=_FUTURE.search(text) is not None)
    base = _blank(text, times)
    past = bool(_USED_TO.search(base) or _NO_LONGER.search(base))
    rewritten = _USED_TO.sub(r"\1", _USED_TO_BE.sub(lambda m: _BE[m.group(1).lower()], base))
    rewritten = _NO_LONGER.sub(r"\1", rewritten)
    anymore = _ANYMORE.search(rewritten) is not None
    rewritten = _ANYMORE.sub("", rewritten)
    return _Clause(
        text=rewritten,
        base=base,
        timed=text,
        evidence=evidence,
        times=times,
        hedged=hedged,
        past=past,
        anymore=anymore,
        change=change,
        words=frozenset(lx.tokens(f"{base} {rewritten}")),
    )


_BE = {"i": "I'm", "we": "we're"}


def _blank(text: str, times: list[TimeMention]) -> str:
    """``text`` with each time expression replaced by a comma (an object ends there)."""
    for mention in reversed(times):
        start, end = mention.span
        text = f"{text[:start]} ,{text[end:]}"
    return text


# ------------------------------------------------------------------ small patterns

_POSSESSIVE_S = re.compile(r"'s$")
_SHORT_CVC = re.compile(r"[^aeiou]*[aeiou][bdgmnprt]")  # swim -> swimming
_SURE = _re(r"deathly|sever|life|extreme|serious|danger")
_ADVERB_LY = re.compile(r"[a-z]+ly")
_PLURAL_S = re.compile(r"(?<=[^s])s$")
_TRAILING_S = re.compile(r"s$")
_ENDED_REL = _re(r"\b(?:ex-?|late)\s*(?=\w)")  # "my ex-wife", "my late husband"
_ADOPTED = _re(r"\badopted\b")
_LEADING_PLACE = _re(rf"(?:the\s+)?({_PLACE})")
_GERUND_START = _re(r"([a-z]+ing)\b")
_CALLED = _re(rf"\b(?:named|called)\s+({_NAME1})")
_CALLED_TAIL = _re(r"\s+(?:named|called)\b.*")
_KIND = _re(rf"\b({_PET}|{_REL})\b")
_EVENT_DET = _re(r"^(?:an?|the|my|our)\s+(?:\w+'s\s+)?")
_EVENT_LEAD = _re(r"^(?:\w+'s\s+|first\s+place\s+in\s+)")
_MY = _re(r"(?:my|our)\b")
_JOB_WORD = _re(r"\bjob\b")
_WISH = _re(r"(?:'d|would)\s+love")
_NOT_TO = _re(r"\bnot\s+to\b")
_INFINITIVE = _re(r"to\s+([a-z]+)\b(.*)")
_PUNCTUATION = re.compile(r"[,.;!?]")
_GOING = _re(r"going\s+(?:to\s+|on\s+)?(?:the\s+)?")
_MINE = _re(r"(?:my|our)\s+(\w+)")
_ARTICLE = _re(r"(?:the|a|an)\b")
_POSSESSED = _re(r"(?:my|our|his|her|their|the way)\b")
_PROPER = re.compile(_NAME)

_ONLY_VERB_TAGS = {
    "buy": "shopping",
    "shop": "shopping",
    "eat": "food",
    "drink": "food",
    "fly": "travel",
    "wear": "shopping",
    "use": "shopping",
}
_INTENSIFIERS = frozenset(
    ["big", "huge", "massive", "real", "total", "diehard", "die-hard", "great"]
)
_PLURAL_RELATIONS = {
    "boys": "son",
    "sons": "son",
    "girls": "daughter",
    "daughters": "daughter",
    "twins": "child",
    "kids": "child",
    "children": "child",
}
_NEGATIVE_VERBS = frozenset({"hate", "dislike", "detest", "loathe", "have hated"})
_NOT_A_NAME_AFTER_IM = lx.NATIONALITIES | frozenset(lx.RELIGIONS) | frozenset(lx.DIET_LABELS)
_EVENT_ITEM = _re(
    r"\b(?:novel|book|degree|course|marathon|race|project|thesis|program|painting|class|"
    r"contest|competition|award|prize|tournament|championship|lottery|raffle|5k|10k|"
    r"half marathon|ultra|triathlon|blog|podcast|business|company|band|garden|diet)$"
)
_JUST_AMOUNT = _re(r"(?:a lot|a ton|so much|loads|lots|more|heaps|a bunch)")
# a "would love to" is a goal only in a domain people plan for, not "join in"
_DURABLE_TAGS = frozenset(
    {"travel", "education", "fitness", "finance", "home", "work", "health", "family"}
)
_LEARN_TO = _re(r"^(?:how\s+)?to\s+")
_OBJ_TAIL = _re(
    r"\s+(?:right now|at the moment|someday|one day|eventually|soon|whenever possible|as much "
    r"as (?:I|we) can|if (?:I|we) can|when(?:ever)? (?:I|we) can)\b.*$"
)
_DANGLING = _re(r"\s+(?:by|before|within|in|for|during|until)\s*[,\s]*$")

# ------------------------------------------------------------------ detector patterns

_ALLERGIC = _re(
    r"\b(?:I'm|we're|I have been|I was|I have always been|I became|I got)\s+(?P<lvl>(?:"
    r"deathly|severely|very|highly|extremely|seriously|super|really|so|mildly|slightly|"
    r"a bit|a little|quite|badly|incredibly|dangerously|also)\s+)*allergic to\s+"
    r"(?P<what>[^.;!?]+)"
)
_ALLERGY_NOUN = _re(
    r"\b(?:I have|I got|I developed|I suffer from|my)\s+(?:an?\s+)?(?P<lvl>(?:severe|"
    r"serious|bad|mild|life-threatening|deadly|deathly|terrible|major|slight|minor)\s+)*"
    r"(?P<what>[a-z][a-z -]{1,30}?)\s+allerg(?:y|ies)\b"
)
_ALLERGY_BECAUSE = _re(
    r"\b(?:never|don't|can't|won't|avoid)\s+(?:eat|eating|have|drink|touch|use|take)?\s*"
    r"(?P<what>[a-z][a-z ,-]*?)\s+(?:due to|because of|because I'm|since I'm|as I'm)\s+"
    r"(?:an?\s+|my\s+|the\s+)?(?:\w+\s+)?allerg"
)
_NOT_ALLERGENS = frozenset({"seasonal", "spring", "bad", "terrible", "some", "many", "food"})
_INTOLERANT = _re(
    r"\b(?:I'm\s+(?P<a>lactose|gluten|fructose|histamine|wheat|dairy)[\s-]+intolerant|"
    r"I have\s+(?:an?\s+)?(?P<b>lactose|gluten|fructose|histamine|wheat|dairy)\s+"
    r"intolerance|I(?:'m| have)\s+(?P<c>celiac|coeliac))"
)
_DIET_IS = _re(
    rf"\b(?P<subj>I'm|we're|I have been|we have been|I was|we were|I became|we became|"
    rf"I went|we went|I have gone|I'm going|I turned)\s+(?P<neg>not\s+)?(?:(?:a|an|fully|"
    rf"strictly|mostly|mainly|completely|100%|practically|basically|now)\s+)*"
    rf"(?P<label>{_ALT(lx.DIET_LABELS)})\b(?!\s+(?:food|restaurants?|options?|recipes?|"
    rf"dish|dishes|meals?|places?|cook|friends?))"
)
_DIET_KEEP = _re(
    r"\b(?:I|we)\s+(?:keep|eat|only eat|follow|observe|stay)\s+(?P<label>kosher|halal)\b|"
    r"\b(?:I'm|we're|I|we)\s+(?:on|follow|do|eat)\s+(?:an?\s+|the\s+)?(?P<label2>keto|paleo|"
    r"vegan|vegetarian|low-carb|mediterranean|plant-based|whole30|carnivore|gluten-free)\s+"
    r"diet\b"
)
_DIET_STOP = _re(
    rf"\b(?:I|we)\s+(?:don't|never|no longer|stopped|quit|gave up|cut out|won't|can't)\s+"
    rf"(?:eating\s+|eat\s+|consume\s+)?(?:any\s+|all\s+)?(?P<group>"
    rf"{_ALT(lx.DIET_FOOD_GROUPS)})\b"
)
_DIET_START = _re(
    r"\b(?:I|we)\s+(?P<start>started eating|have started eating|eat|am eating|'m eating|"
    r"have been eating|now eat)\s+(?P<group>fish|meat|chicken|seafood|eggs|dairy|red meat|"
    r"poultry|pork|beef)\b"
)
_AVOID_FOOD = _re(
    r"\b(?:I|we)\s+(?P<verb>never|don't|can't|won't|shouldn't|mustn't|must not|try not to|"
    r"refuse to|avoid)\s+(?:ever\s+)?(?P<eat>eat|drink|have|consume|touch)\s+(?P<what>[^.;!?]+)"
)
_CANT_DO = _re(
    r"\b(?:I|we)\s+(?P<what>(?:can't|am unable to|'m unable to|am not able to|'m not able "
    r"to)\s+(?:fly|drive|swim|travel|walk far|walk long distances|climb stairs|take the "
    r"stairs|lift heavy things|sit for long|stand for long|handle crowds|be in crowds|eat "
    r"out)\b[^.;!?]*)"
)
_POLICY_VERBS = (
    "schedule|book|share|send|call|text|email|message|contact|tell|give|post|disclose|"
    "reveal|suggest|recommend|remind|use|reply|respond|order|include|mention|plan|put|add|"
    "wake|ping|invite|buy|assume|sign|ask|bring|forward|publish|show|serve|offer|set|"
    "answer|pick|choose|leave|expect"
)
_IMPERATIVE = _re(
    rf"^(?:please\s+)?(?P<rule>(?:never(?:\s+ever)?|don't(?:\s+ever)?|do not|please don't|"
    rf"always|make sure (?:to|you)|avoid|stop)\s+(?:ever\s+)?(?:{_POLICY_VERBS})\b[^.;!?]*)"
)
_I_NEVER = _re(
    r"\b(?:I|we)\s+(?P<rule>(?:never|don't|won't)\s+(?:work|answer|take calls|check|do|"
    r"share|post|travel|fly|drive|book|schedule|accept)\b[^.;!?]*)"
)
_QUALIFIER = _re(
    r"\s(?:on|during|before|after|at|in)\s+(?:\w+days|weekends|weekdays|lent|ramadan|passover|"
    r"night|noon|the evening|dinner|work|\d{1,2}\s*(?:am|pm))\b"
)
_AVOID = _re(r"\b(?:I|we)\s+(?:avoid|stay away from|steer clear of)\s+(?P<what>[^.;!?]+)")

_MY_NAME = _re(
    rf"\bmy (?:full |real |first |legal |given )?name(?:'s| is)\s+(?P<v>{_NAME})|"
    rf"^(?:it's|this is)\s+(?P<w>{_NAME1})\s+here\b"
)
_IM_NAME = _re(rf"^I'm\s+(?P<v>{_NAME1})(?=\s*(?:[,.!;—-]|$|\band\b|\bby the way\b))")
_NICKNAME = _re(
    rf"\b(?:call me|calls me|called me|go by|my nickname is|my nickname's)\s+(?P<v>{_NAME1})"
)
_AGE = _re(
    r"\bI(?:'m| just turned| turned)\s+(?P<v>\d{1,3})(?:\s+(?:years?|yrs?) old|\s*y/?o\b)?"
    r"(?=\s*(?:[,.!;]|$|and\b|now\b|this\b|today\b|years?\b))"
)
_PRONOUNS = _re(
    r"\b(?:my pronouns are|I use|I go by)\s+(?P<v>(?:she|he|they|xe|ze|it)/(?:her|him|"
    r"them|hers|his|theirs|xem|zir|its|she|he|they))\b"
)
_BIRTH_YEAR = _re(r"\bI was born in (?P<v>(?:19|20)\d{2})\b")
_LIVE = _re(
    rf"\b(?:I|we)(?P<verb>\s+live|\s+reside|\s+lived|\s+have lived|\s+have been living|'m "
    rf"living|'re living|'m based|'re based|'m staying|'m settled|\s+live and work)\s+in\s+"
    rf"(?:(?:a|an|the|our|my)\s+[a-z ]+?\s+(?:in|near|outside|outside of)\s+)?(?P<v>{_PLACE})"
)
_LIVE_NOT = _re(rf"\b(?:I|we)\s+don't\s+live\s+in\s+(?P<v>{_PLACE})")
_MOVED = _re(
    rf"\b(?:I|we)\s+(?:have\s+)?(?:moved|relocated)(?:\s+back|\s+away)?\s+(?:from\s+"
    rf"(?P<old>{_PLACE})\s+)?to\s+(?P<v>{_PLACE})"
)
_MOVED_FROM = _re(rf"\b(?:I|we)\s+(?:moved|moved away|left)\s+from\s+(?P<v>{_PLACE})")
_HOMETOWN = _re(
    rf"(?:\b(?:I'm|we're)\s+(?:originally\s+)?from|\bI\s+(?:originally\s+)?come\s+from|"
    rf"\b(?:I|we)\s+grew\s+up\s+in|\bI was born in|born and raised in|\bI was raised in)"
    rf"\s+(?:(?:a|an|the)\s+[a-z ]+?\s+(?:in|near|outside|outside of)\s+)?(?P<v>{_PLACE})"
)
_WORK_AS = _re(
    rf"\b(?:I|we)(?P<verb>\s+work|\s+worked|\s+have been working|\s+have worked|'m working)"
    rf"\s+as\s+(?:an?\s+)?(?P<v>(?:[a-z-]+\s+){{0,3}}?(?:{_JOB}))\b(?:\s+(?:at|for)\s+"
    rf"(?P<org>{_ORG}))?"
)
_IM_A = _re(
    rf"\b(?P<verb>I'm|I was|I have been)\s+(?:an?\s+)(?P<v>(?:[a-z-]+\s+){{0,3}}?(?:{_JOB}))s?"
    rf"\b(?:\s+(?:at|for)\s+(?P<org>{_ORG}))?"
)
_TEACH = _re(r"\bI\s+teach\b(?!\s+(?:myself|me)\b)")
_RETIRED = _re(r"\bI(?:'m| have| just)?\s+(?:retired|am retired)\b")
_WORK_AT = _re(
    rf"\b(?:I|we)\s+(?P<verb>work|worked|have worked|have been working|'m working|work "
    rf"full-time|work part-time)\s+(?:at|for|with)\s+(?P<v>{_ORG})"
)
_WORK_AT_PLACE = _re(
    rf"\b(?:I|we)\s+(?P<verb>work|worked|have worked|have been working|'m working|quit my "
    rf"job|left my job|lost my job|got a job|started a (?:new )?job|started working|quit|"
    rf"teach|taught)(?:\s+[a-z]+\s+grade)?"
    rf"\s+(?:at|for|in)\s+(?:an?|the)\s+(?P<v>(?:[a-z-]+\s+){{0,2}}?(?:"
    rf"{_ALT(lx.WORKPLACES)}))\b"
)
_JOB_START = _re(
    rf"\b(?:I|we)\s+(?P<verb>got a (?:new )?job|started a (?:new )?job|started (?:a new )?"
    rf"(?:working|work)|landed a (?:new )?job|accepted a (?:new )?job|quit my job|left my "
    rf"job|quit|got laid off from|was laid off from|got fired from|was fired from)\s+"
    rf"(?:(?:my\s+job\s+)?(?:at|with)\s+)?(?P<v>{_ORG})"
)
_STUDENT_AT = _re(rf"\bstudent at\s+(?P<v>{_ORG})|\bI (?:go to|attend|study at)\s+(?P<w>{_ORG})")
_STUDIES = _re(
    rf"\bI(?:'m| am)?\s+(?:studying|majoring in|study|doing (?:a|my) (?:degree|masters|"
    rf"master's|PhD|phd|bachelor's|doctorate) in)\s+(?!for\b|hard\b|a lot\b)(?P<v>[a-z][a-z ]+?)"
    rf"(?=\s+(?:at|in)\b|[,.!;]|$)(?:\s+at\s+(?P<school>{_ORG}))?"
)
_MY_REL_NAME = _re(
    rf"\b(?:my|our)\s+{_MODS}(?P<rel>{_REL}|{_PET})(?:\s*,\s*|\s+)(?P<v>{_NAME}"
    rf"(?:\s*(?:,|and|&)\s*{_NAME1})*)\b"
)
_REL_NAME_IS = _re(rf"\b(?:my|our)\s+{_MODS}(?P<rel>{_REL}|{_PET})'s\s+name\s+is\s+(?P<v>{_NAME})")
_NAME_MY_REL = _re(rf"^(?P<v>{_NAME1})\s*,\s*(?:my|our)\s+{_MODS}(?P<rel>{_REL}|{_PET})\b")
_PARENT_OF = _re(
    rf"\bI'm\s+an?\s+(?:[a-z-]+\s+)?(?:mom|mother|dad|father|parent|mum)\s+(?:of|to)\s+"
    rf"(?P<v>{_NUMBER}\s+(?:[a-z-]+\s+)?(?P<rel>boys|girls|kids|children|sons|daughters))\b"
)
_NAMED = _re(
    rf"\b(?:an?|my|our|one|two)\s+{_MODS}(?:[a-z]+\s+)?(?P<rel>{_REL}|{_PET})\s+(?:named|"
    rf"called)\s+(?P<v>{_NAME1})"
)
_IS_MY_REL = _re(rf"(?:^|\b)(?P<v>{_NAME1})\s+is\s+my\s+{_MODS}(?P<rel>{_REL}|{_PET})\b")
_HAVE_REL = _re(
    rf"\b(?:I|we)\s+(?:have|got)\s+(?P<v>{_NUMBER}\s+{_MODS}(?P<rel>{_REL}|{_PET}|kids|"
    rf"children|sisters|brothers|sons|daughters|dogs|cats))\b(?!\s+(?:named|called|who))"
)
_PRONOUN_NAME = _re(rf"^(?:his|her|its|their)\s+name(?:'s|\s+is)\s+(?P<v>{_NAME1})")
_MARRIED = _re(rf"\b(?:I'm|I got)\s+(?:married|engaged)\s+to\s+(?P<v>{_NAME})")
_OWN = _re(
    rf"\b(?:I|we)\s+(?P<verb>have|own|bought|got|purchased|picked up|leased|don't have|"
    rf"don't own|sold|gave away|got rid of)\s+(?:an?|my|our|the|one|two|myself an?|a new|"
    rf"my first|our first|a brand new|a used|a second)?\s*(?P<v>(?:[\w-]+\s+){{0,3}}?(?:"
    rf"{_ALT(lx.OWNABLES)}))\b"
)
_BOUGHT_BRAND = _re(
    r"\b(?:I|we)\s+(?P<verb>bought|got|purchased|leased|drive|own)\s+(?:an?|myself an?|my|"
    r"our)\s+(?:(?:new|used|old|little|vintage|beat-up|first|red|blue|black|white|silver|"
    r"gray|grey)\s+)*(?P<v>(?-i:[A-Z][\w-]+(?:\s+[A-Z0-9][\w-]*)?))"
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
_EVENT = _re(
    rf"\b{_SUBJ}\s+(?:"
    + "|".join(f"(?P<e{i}>{v})" for i, (_, v) in enumerate(_EVENT_VERBS))
    + r")\b\s*(?P<rest>[^.;!?]*)"
)
_WENT_GERUND = _re(rf"\b{_SUBJ}\s+went\s+(?P<v>{_ALT(lx.GERUND_OUTINGS)})\b")
_MET_WHOM = _re(
    rf"^(?:up\s+)?(?:with\s+)?(?:some\s+|a\s+few\s+|my\s+|our\s+|an?\s+)?(?P<v>(?:[a-z'-]+\s+)"
    rf"{{0,3}}?(?:friends?|family|cousins?|colleagues|coworkers|classmates|neighbou?rs|"
    rf"{_REL}))\b"
)
_TITLE = re.compile(r"^(?:reading|watching|writing|listening to)?\s*['\"](?P<v>[^'\"]{2,60})['\"]")
_GOT_LIFE = _re(r"\b(?:I|we)\s+got\s+(?P<v>married|engaged|divorced|promoted)\b")
_EVENT_NOUNS = lx.PhraseIndex(lx.EVENT_NOUNS)
_GOAL = _re(
    r"\b(?:(?:I|we)(?P<plain>\s+(?:want|wanna|hope|plan|intend|aim|need|try|have been trying)"
    r"\s+(?:not\s+)?to|(?:'d|\s+would)\s+(?:like|love)\s+to)|(?:I'm|we're)\s+(?P<plain2>(?:hoping|planning|"
    r"trying|aiming|determined|going to try)\s+(?:not\s+)?to|planning\s+on|working\s+(?:on|"
    r"towards?))|"
    r"(?:I'm|we're)\s+(?P<topic>saving\s+(?:up\s+)?(?:for|to)|training\s+(?:for|to)|"
    r"learning(?:\s+how)?(?:\s+to)?|studying\s+for|saving\s+up)|(?:my|our)\s+(?:main\s+|big\s+|"
    r"new\s+|biggest\s+)?(?:goal|resolution|new year's resolution|dream|plan|aim|priority)"
    r"(?:\s+for\s+the\s+year)?\s+is\s+(?:to\s+)?)\s*(?P<rest>[^.;!?]+)|^(?P<rest2>[a-z][\w' "
    r"-]{2,40}?)\s+is\s+(?:my|our)\s+(?:main\s+|big\s+|biggest\s+|new\s+)?(?:goal|resolution|"
    r"dream|priority)\b"
)
_CARE = _re(
    r"\b(?:I|we)\s+(?:care(?:\s+a lot|\s+deeply)?|'m passionate|feel strongly)\s+about\s+"
    r"(?P<v>[^.,;!?]+)"
)
_ONLY = _re(
    r"\b(?:I|we)\s+(?P<v>only\s+(?:buy|eat|use|shop at|shop|wear|drink|fly|support|choose|"
    r"bank with)\s+[^.,;!?]+)"
)
_IMPORTANT = _re(
    r"^(?P<v>[a-z][a-z ]{2,40}?)\s+(?:(?:is|are)\s+(?:really\s+|very\s+|so\s+|super\s+|"
    r"extremely\s+)?(?:important|everything)|matters?(?:\s+(?:a lot|so much|a great deal|"
    r"most))?)\s+to\s+(?:me|us)\b"
)
_COMES_FIRST = _re(r"^(?P<v>[a-z][a-z ]{2,30}?)\s+(?:always\s+)?comes?\s+first\b")
_BELIEVE = _re(
    r"\b(?<!what\s)(?:I|we)\s+(?:value|believe in|stand for)\s+(?!and\b|or\b|but\b|that\b)"
    r"(?P<v>[^.,;!?]+)"
)
_RELIGION = _re(
    rf"\b(?:I'm|we're)\s+(?:an?\s+|(?:devout|practicing|practising|observant)\s+)*"
    rf"(?P<v>{_ALT(lx.RELIGIONS)})\b"
)
_STATE_BE = _re(
    r"\b(?:I'm|we're)\s+(?P<v>pregnant|expecting a baby|sick(?!\s+of)|ill|injured|"
    r"hospitalized|in (?:the )?hospital|in a cast|on crutches|on bed rest|on (?:medication|"
    r"meds|antibiotics|chemo|insulin|blood thinners)|(?:recovering|healing) from [^,;]+|"
    r"diabetic|immunocompromised|undergoing [^,;]+|getting over [^,;]+|going through (?:an? )?"
    r"(?:divorce|breakup|chemo|treatment|ivf|rough patch|hard time)[^,;]*|under the weather|"
    r"unemployed|out of work|between jobs|laid off|broke|in debt|on an? (?:(?:tight|strict|"
    r"limited|small|shoestring)\s+)?budget|grieving|(?:stressed|stressed out|overwhelmed|"
    r"burned out|burnt out|swamped|anxious) (?:at|about|with|from|by|over) [^,;]+|taking "
    r"(?:antibiotics|medication|meds|pills|insulin|[a-z]+ medication)[^,;]*|"
    r"(?:\d+|a few|two|three|four|five|six|seven|eight|nine) (?:weeks|months) pregnant)"
)
_STATE_DID = _re(
    r"\b(?:I|we)\s+(?P<v>(?:broke|fractured|sprained|tore|twisted|hurt|injured|dislocated|"
    r"pulled|strained) my [^,;]+|had (?:an? |my )?(?:surgery|operation|c-section|knee surgery|"
    r"back surgery|procedure|stroke|heart attack|concussion|miscarriage)[^,;]*|(?:was|got) "
    r"(?:just |recently )?diagnosed with [^,;]+|caught (?:a|the|covid)[^,;]*|tested positive "
    r"for [^,;]+|lost my job|got laid off|got fired|was laid off|was fired|got let go|"
    r"(?:have|had|got|have had|have got) (?:an? |the )?(?:(?:terrible|bad|nasty|awful|"
    r"horrible|mild|slight|really bad|chronic|severe|major|killer|pounding|splitting|"
    r"bit of a|touch of the|bad case of the|bad case of)\s+)*(?:cold|flu|fever|covid|migraines?|"
    r"headache|stomach bug|sore throat|cough|back pain|chronic pain|concussion|infection|"
    r"ear infection|sinus infection|strep throat|bronchitis|pneumonia|diabetes|type [12] "
    r"diabetes|asthma|arthritis|anxiety|depression|adhd|insomnia|high blood pressure|bad back|"
    r"bad knee|injury|kidney stones?|food poisoning|morning sickness|ptsd|cancer|long covid|"
    r"heart condition|broken (?:leg|arm|wrist|ankle|foot|hand|finger|toe|rib|nose)|sprained "
    r"(?:ankle|wrist)|torn (?:acl|meniscus|ligament|muscle))\b[^,;]*)"
)
_STATE_SUBJECT = _re(
    r"^(?P<v>(?P<money>money|cash|finances|my budget)(?:'s|\s+is|\s+has been|\s+are|"
    r"\s+have been)\s+(?:really\s+|super\s+|so\s+|very\s+|pretty\s+|a bit\s+|quite\s+|"
    r"extremely\s+)?(?:tight|tough|short|limited)|(?P<work>work|my job|my workload|my boss)"
    r"(?:'s|\s+is|\s+has been|\s+was|\s+have been)\s+(?:really\s+|super\s+|so\s+|very\s+|"
    r"pretty\s+|a bit\s+|quite\s+|extremely\s+|incredibly\s+)?(?:stressful|crazy|hectic|"
    r"overwhelming|insane|brutal|intense|exhausting|a nightmare|killing me|draining|chaotic)|"
    r"(?P<family>my\s+(?:mom|dad|mother|father|wife|husband|partner|son|daughter|kid|child|"
    r"sister|brother|grandma|grandpa|grandmother|grandfather))\s+(?:is|has been)\s+(?:in "
    r"(?:the )?hospital|sick|ill|recovering from [^,;]+|undergoing [^,;]+))"
)
_STATE_MORE = _re(
    r"\b(?:I|we)(?:'m|\s+have\s+been|'re|\s+am)?\s+(?P<v>(?:dealing|struggling|coping|"
    r"living|battling|suffering)\s+(?:with|from)\s+(?:an?\s+|my\s+|some\s+|the\s+)?(?:bad\s+|"
    r"chronic\s+|severe\s+)?(?:insomnia|anxiety|depression|migraines?|back pain|chronic pain|"
    r"an injury|injury|illness|grief|burnout|long covid|covid|cancer|arthritis|asthma|"
    r"diabetes|adhd|ptsd|allergies|a cold|the flu|flu|pain)\b[^,;]*|expecting\s+(?:our|a|my|"
    r"another)\s+(?:first\s+|second\s+|third\s+)?(?:baby|child|kid))|^(?:my|our)\s+(?P<body>"
    r"(?:knee|back|ankle|wrist|shoulder|neck|hip|foot|feet|leg|arm|hand|stomach|head|tooth|"
    r"eyes?)(?:\s+(?:has been|is|keeps|have been|are))?\s+(?:acting up|killing me|hurting|"
    r"hurts|sore|swollen|bothering me|aching|aches|injured|broken|flaring up|in pain))"
)
_CAUSE_FIRST = _re(
    r"^(?:because of|due to|since|ever since|after|thanks to)\s+(?P<cause>[^,]+?),?\s+"
    r"(?=(?:I|I'm|I have|I can't|my|we)\b)"
)
_BECAUSE = _re(r"^(?:I|I'm|I have|I can't|we|my)\b.+?\s*,?\s+(?:because|since|due to|cuz)\s+")
_MAKES_ME = _re(
    r"^(?P<cause>[a-z][\w' -]+?)(?:\s*,\s*(?:it|that|this|which|they))?\s+(?:makes?|made|gives?|"
    r"gave|triggers?|triggered|causes?|caused|keeps?|kept|upsets?|ruins?|ruined|hurts?|"
    r"affects?|affected|disrupts?|wrecks?|worsens?|bothers?|messes up|mess up)\s+(?:me|my)\b"
)
_WHEN_I = _re(
    r"^(?:I\s+(?:get|got|feel|can't|start|break|have|always get|tend to)\b|I'm\s|my\s).+?\s+"
    r"(?:when(?:ever)?|after)\s+I\s+"
)
_FAVORITE = _re(
    r"\bmy\s+(?:all[- ]time\s+)?(?:favou?rite|fave|fav)\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+"
    r"(?:is|are|has to be|would be|'s)\s+(?P<v>[^.,;!?]+)|^(?P<v2>[^,;!?]+?)\s+(?:is|are)\s+"
    r"my\s+(?:all[- ]time\s+)?(?:favou?rite|fave|fav)\s+(?P<kind2>[a-z]+(?:\s+[a-z]+)?)"
)
_PREFER = _re(
    r"\b(?:I|we)\s+(?:(?P<neg>don't|never|didn't use to|can't|have never)\s+)?(?P<verb>love|"
    r"like|enjoy|adore|prefer|hate|dislike|detest|loathe|stand|care for|have loved|have liked|"
    r"have enjoyed|have always loved|have hated|liked|loved|enjoyed)\b(?:\s+(?:love|like))*"
    r"\s+(?P<rest>[^.;!?]+)"
)
_FAN = _re(
    r"\b(?:(?:I'm|we're)\s+(?P<neg>not\s+)?(?:an?\s+(?:big\s+|huge\s+|massive\s+|great\s+)?"
    r"fan\s+of|into|obsessed with|crazy about|a sucker for|hooked on|(?:that\s+|too\s+)?big "
    r"on)|(?:I|we)\s+can't get enough of)\s+(?P<rest>[^.;!?]+)"
)
_PERSON_FAN = _re(
    r"\b(?:I'm|we're)\s+(?P<neg>not\s+)?an?\s+(?:(?:big|huge|massive|real|total|diehard|"
    r"die-hard)\s+)?(?P<rest>[\w' -]+?)\s+(?:person|fan|lover|addict|nerd|junkie)\b"
)
_IDIOM = _re(
    r"^(?P<rest>[a-z][\w' -]{1,40}?)\s+(?:(?P<neg>isn't|aren't|is not|are not)|is|are)\s+"
    r"(?:really\s+|totally\s+|so\s+|definitely\s+|exactly\s+)?(?:my|our)\s+(?:jam|thing|"
    r"weakness|guilty pleasure|go-to|happy place|cup of tea|vibe|kryptonite)\b"
)
_HABIT = _re(r"\bI have been\s+(?P<v>[a-z]+ing)\b(?=[^.;!?]*\bsince\b)")
_NATIONALITY = _re(rf"^(?P<n>{_ALT(lx.NATIONALITIES)})\s+(?P<head>\w+)$")
_NATIONAL_HEADS = {
    "food": "cuisine",
    "cuisine": "cuisine",
    "dishes": "cuisine",
    "dish": "cuisine",
    "cooking": "cuisine",
    "restaurants": "cuisine",
    "music": "music",
    "songs": "music",
    "movies": "movie",
    "films": "movie",
    "cinema": "movie",
    "wine": "drink",
    "beer": "drink",
}
_DOMAIN_WORDS = {w: d for d, ws in lx.PREFERENCE_DOMAINS.items() for w in ws}
_DOMAINS = lx.PhraseIndex(_DOMAIN_WORDS)
_COLOR = _re(rf"^(?:the\s+colou?r\s+)?(?P<v>{_ALT(lx.COLORS)})$")
_PREF_TAGS = {
    "cuisine": ("food",),
    "food": ("food",),
    "drink": ("food",),
    "music": ("entertainment",),
    "movie": ("entertainment",),
    "book": ("entertainment",),
    "game": ("entertainment",),
    "art": ("entertainment",),
    "sport": ("fitness",),
    "activity": ("fitness",),
    "travel": ("travel",),
    "animal": ("pets",),
}
# names worth an entity even when no fact is read: people greeted or in object position,
# places after a preposition of place
_PERSON_MENTION = _re(
    rf"^(?:hi|hey|hello|thanks|thank you|congrats|congratulations|good morning|morning|"
    rf"wow|oh|yay|aw+)[,!\s]+(?P<v>{_NAME1})\b|,\s*(?P<w>{_NAME1})\s*[!.?]*$|"
    rf"\b(?:with|met|saw|told|asked|texted|called|hugged|thanked|and|(?:talked|spoke|"
    rf"talking|speaking)\s+(?:to|with))\s+(?P<x>{_NAME1})\b|"
    rf"^(?P<y>{_NAME1})\s+and\s+(?:I|me)\b"
)
_PLACE_MENTION = _re(
    rf"(?:\b(?:went|go|going|moved|moving|flew|flying|drove|driving|traveled|travelled|"
    rf"traveling|travelling|trip|back|headed|heading|been)\s+to|\bin|\bfrom|\bnear|\baround|"
    rf"\bat)\s+(?:the\s+)?(?P<v>{_PLACE})"
)
_THIRD = (
    rf"(?:^|\bmy\s+{_MODS}(?P<rel>{_REL})\s*,?\s+|\bour\s+{_MODS}(?P<rel2>{_REL})\s*,?\s+)"
    rf"(?P<who>{_NAME})?\s*,?\s+"
)
_THIRD_LIVES = _re(
    rf"{_THIRD}(?:lives|is living|now lives|currently lives|has lived|resides|moved|has "
    rf"moved|just moved|relocated)\s+(?:in|to)\s+(?P<v>{_PLACE})"
)
_THIRD_WORKS = _re(
    rf"{_THIRD}(?:works|is working|now works|started working|just started working)\s+"
    rf"(?:at|for)\s+(?P<v>{_ORG})"
)
_THIRD_JOB = _re(rf"{_THIRD}is\s+(?:an?\s+)(?P<v>(?:[a-z-]+\s+){{0,2}}?(?:{_JOB}))\b")


def _domain_of(text: str) -> str | None:
    """The preference domain of an object: its last domain word decides ("coffee ice
    cream" is food), a bare colour is ``color``."""
    if _COLOR.match(text.strip()):
        return "color"
    hits = _DOMAINS.find(text)
    return _DOMAIN_WORDS.get(hits[-1][1]) if hits else None


def _ends_with_event(text: str) -> bool:
    """Whether ``text`` ends with an event noun ("a pottery workshop")."""
    hits = _EVENT_NOUNS.find(text)
    return bool(hits) and text.lower().rstrip(" .!").endswith(hits[-1][1])


def _is_food(item: str) -> bool:
    low = item.lower()
    return (
        "food" in lx.scope_tags(low)
        or low in lx.FOOD_ALLERGENS
        or _DOMAIN_WORDS.get(low) in {"food", "drink"}
        or _domain_of(low) in {"food", "drink"}
    )


def _allergy_tags(item: str) -> list[str]:
    low = item.lower()
    singular = _TRAILING_S.sub("", low)
    tags = ["allergy", "health"]
    if low in lx.FOOD_ALLERGENS or singular in lx.FOOD_ALLERGENS or _is_food(low):
        tags.insert(0, "food")
    if low in lx.PETS or singular in lx.PETS:
        tags.append("pets")
    if low in lx.DRUG_ALLERGENS or singular in lx.DRUG_ALLERGENS:
        tags.append("medical")
    return tags


# ------------------------------------------------------------------ reading


class _Reader:
    """Collects what one message states."""

    def __init__(self, reference: datetime) -> None:
        self.ref = reference
        self.facts: list[ExtractedFact] = []
        self.entities: dict[str, ExtractedEntity] = {}
        self.relations: list[ExtractedRelation] = []
        self.first_time: datetime | None = None
        self.mentioned: list[tuple[str, EntityType]] = []  # registered after the facts
        self.fact_time: datetime | None = None
        self._seen: set[tuple[str, str, str, str, bool, bool]] = set()
        self.unnamed: str | None = None  # the last pet or relative mentioned without a name

    # ---------------------------------------------------------------- output

    def entity(self, name: str | None, kind: EntityType) -> None:
        if not name:
            return
        key = name.casefold()
        known = self.entities.get(key)
        if known is None or (known.type is ET.OTHER and kind is not ET.OTHER):
            self.entities[key] = ExtractedEntity(name=name, type=kind)

    def relate(self, source: str, relation: str, target: str) -> None:
        edge = ExtractedRelation(source=source, relation=relation, target=target)
        if edge not in self.relations:
            self.relations.append(edge)

    def add(
        self,
        c: _Clause,
        category: FactCategory,
        predicate: str,
        value: str,
        *,
        polarity: bool = True,
        holds: bool = True,
        multi: bool | None = None,
        tags: Iterable[str] = (),
        confidence: float | None = None,
        obj: str | None = None,
        obj_type: EntityType | None = None,
        subject: str = "user",
        timing: str | None = None,
    ) -> None:
        """One fact. ``timing`` says what the clause's time expression means for it:
        ``start`` (valid_from), ``end`` (valid_to) or ``window`` (both, while it lasts)."""
        value = _SPACES.sub(" ", _BLANKED.sub(",", value)).strip(" ,.;:!?\"'")
        if not value:
            return
        holds = holds and not c.past
        key = (subject.casefold(), category.value, predicate, value.casefold(), polarity, holds)
        if key in self._seen:
            return
        self._seen.add(key)
        if multi is None:
            multi = category not in _SINGLE_VALUED
        score = confidence if confidence is not None else _CONFIDENCE.get(category, 0.7)
        if c.hedged:
            score *= _HEDGE
        valid_from, valid_to = self._validity(c, holds, timing)
        self.facts.append(
            ExtractedFact(
                subject=subject,
                category=category,
                predicate=predicate,
                value=value[:500],
                polarity=polarity,
                multi_valued=multi,
                holds=holds,
                scope_tags=[t for t in dict.fromkeys(tags) if t in lx.SCOPE_TAGS][:12],
                confidence=round(min(score, 1.0), 3),
                valid_from=valid_from,
                valid_to=valid_to,
                object_entity=obj,
                object_type=obj_type if obj else None,
                evidence=c.evidence[:2000],
            )
        )
        if obj and obj_type is not None:
            self.entity(obj, obj_type)

    def _validity(
        self, c: _Clause, holds: bool, timing: str | None
    ) -> tuple[datetime | None, datetime | None]:
        if not c.times:
            return None, None
        mention = c.times[0]
        before = c.timed[: mention.span[0]].rstrip().lower()
        said = mention.text.lower()
        if said.startswith(("until", "till")) or before.endswith(("until", "till")):
            return None, mention.end
        if said.startswith("since") or before.endswith("since"):
            return (mention.start, None) if holds else (None, None)
        if timing is None:
            return None, None
        if self.fact_time is None:
            self.fact_time = mention.start
        if timing == "end" or not holds:
            return None, mention.start
        if timing == "window":
            return mention.start, mention.end if mention.end > self.ref else None
        return mention.start, None

    # ---------------------------------------------------------------- sentences

    def read(self, text: str) -> None:
        for pattern, replacement in _UNIFY:
            text = pattern.sub(replacement, text)
        for sentence in _sentences(text):
            self._mentions(sentence)
            self._sentence(sentence)
        self._close_old_values()
        for name, kind in self.mentioned:  # a fact's typing of a name wins
            self.entity(name, kind)

    def _mentions(self, sentence: str) -> None:
        for m in _PERSON_MENTION.finditer(sentence):
            name = _name(m.group("v") or m.group("w") or m.group("x") or m.group("y"))
            if name and name.lower() not in lx.NATIONALITIES:
                self.mentioned.append((name, ET.PERSON))
        for m in _PLACE_MENTION.finditer(sentence):
            place = _name(m.group("v"))
            if place and m.start("v") > 0 and place.lower() not in lx.NATIONALITIES:
                self.mentioned.append((place.split(",")[0], ET.PLACE))

    def _sentence(self, sentence: str) -> None:
        evidence = sentence.strip()
        if evidence.endswith("?"):
            return
        text = _tidy(evidence)
        if not text or _QUESTION.match(text) or _HYPOTHETICAL.search(text):
            return
        reported = _REPORTED.search(text)
        if reported and reported.group("who").lower() not in _MEDICAL_REPORTER:
            return
        if _ALLERGIC.search(text) is None and self._causal(text, evidence):
            return
        appositive = _NAME_MY_REL.match(text)  # "Oliver, my neighbor, ..." spans a clause break
        whole = _clause(text, evidence, self.ref) if appositive else None
        if appositive and whole and _name(appositive.group("v")):
            name = _name(appositive.group("v")) or ""
            self._relative(whole, appositive.group("rel").lower(), name, named=True, text="")
        for part in _CLAUSE_BREAK.split(text):
            clause = _clause(part, evidence, self.ref)
            if clause is None:
                continue
            if clause.times and self.first_time is None:
                self.first_time = clause.times[0].start
            self._clause(clause)

    def _close_old_values(self) -> None:
        """A single-valued fact that no longer holds ended when its successor in the same
        message began ("I used to live in Paris. I moved to Berlin last year.")."""
        for i, old in enumerate(self.facts):
            if old.holds or old.valid_to is not None or old.multi_valued:
                continue
            for new in self.facts:
                if (
                    new.holds
                    and new.valid_from is not None
                    and (new.subject, new.category, new.predicate)
                    == (old.subject, old.category, old.predicate)
                ):
                    self.facts[i] = old.model_copy(update={"valid_to": new.valid_from})
                    break

    # ---------------------------------------------------------------- clauses

    def _clause(self, c: _Clause) -> None:
        for name, binding in (
            ("allergy", self._allergy),
            ("diet", self._diet),
            ("policy", self._policy),
        ):
            if c.may(name) and binding(c):
                return
        for name, detector in (
            ("identity", self._identity),
            ("location", self._location),
            ("occupation", self._occupation),
            ("relationship", self._relationship),
            ("possession", self._possession),
            ("event", self._event),
        ):
            if c.may(name):
                detector(c)
        for name, exclusive in (
            ("goal", self._goal),
            ("value", self._value),
            ("state", self._state),
        ):
            if c.may(name) and exclusive(c):
                return
        if c.may("preference"):
            self._preference(c)

    def _causal(self, text: str, evidence: str) -> bool:
        if lx.CONDITION_WORDS.isdisjoint(lx.tokens(text)):
            return False
        clause = _clause(text, evidence, self.ref)
        if clause is None:
            return False
        said = clause.timed
        made = _MAKES_ME.match(said)
        if made and _refers(made.group("cause")):
            made = None
        if not (made or _CAUSE_FIRST.match(said) or _BECAUSE.match(said) or _WHEN_I.match(said)):
            return False
        tags = lx.scope_tags(said)
        if not tags:
            return False
        predicate = "health" if "health" in tags else tags[0]
        self.add(clause, Cat.CAUSAL, predicate, _clean(said), tags=tags)
        return True

    def _allergy(self, c: _Clause) -> bool:
        m: re.Match[str] | None
        found = False
        for pattern in (_ALLERGIC, _ALLERGY_NOUN, _ALLERGY_BECAUSE):
            for m in pattern.finditer(c.text):
                level = (m.groupdict().get("lvl") or "").lower()
                sure = 0.98 if _SURE.search(level) else 0.95
                for item in _items(m.group("what")):
                    if item.lower() in _NOT_ALLERGENS or _refers(item) or len(item) > 40:
                        continue
                    if _ADVERB_LY.fullmatch(item.lower()):
                        continue
                    self.add(
                        c,
                        Cat.POLICY,
                        "allergy",
                        item,
                        tags=_allergy_tags(item),
                        confidence=sure,
                        timing="start",
                    )
                    found = True
        m = _INTOLERANT.search(c.text)
        if m:
            what = (m.group("a") or m.group("b") or "gluten").lower()
            tags = ["food", "diet", "health"] + (["medical"] if m.group("c") else [])
            self.add(c, Cat.POLICY, "intolerance", what, tags=tags, confidence=0.9)
            found = True
        return found

    def _diet(self, c: _Clause) -> bool:
        tags = ["food", "diet"]
        m = _DIET_IS.search(c.text)
        if m:
            label = m.group("label").lower().replace(" ", "-")
            past = m.group("subj").lower() in {"i was", "we were"}
            extra = ["religion"] if label in {"kosher", "halal"} else []
            self.add(
                c,
                Cat.VALUE,
                "diet",
                label,
                polarity=m.group("neg") is None,
                holds=not past,
                multi=False,
                tags=tags + extra,
                timing="start",
            )
            return True
        m = _DIET_KEEP.search(c.text)
        if m:
            label = (m.group("label") or m.group("label2")).lower()
            extra = ["religion"] if label in {"kosher", "halal"} else []
            self.add(c, Cat.VALUE, "diet", label, multi=False, tags=tags + extra, timing="start")
            return True
        m = _DIET_STOP.search(c.base)
        if m and not _QUALIFIER.match(c.base[m.end() :]):
            self.add(
                c,
                Cat.VALUE,
                "diet",
                f"no {m.group('group').lower()}",
                multi=False,
                tags=tags,
                holds=True,
                timing="start",
            )
            return True
        m = _DIET_START.search(c.text)
        if m and (c.change or "start" in m.group("start").lower()) and not c.past:
            self.add(
                c,
                Cat.VALUE,
                "diet",
                f"eats {m.group('group').lower()}",
                multi=False,
                tags=tags,
                timing="start",
            )
            return True
        return False

    def _policy(self, c: _Clause) -> bool:
        m: re.Match[str] | None
        found = False
        for m in _AVOID_FOOD.finditer(c.text):
            if m.group("eat").lower() == "have" and m.group("verb").lower() == "don't":
                continue  # "I don't have a recipe" is not a rule
            strength = {"never": 0.9, "can't": 0.9, "won't": 0.85}.get(m.group("verb").lower(), 0.8)
            what = m.group("what").split(",")[0]
            when = _QUALIFIER.search(what)
            for item in _items(what):
                if _refers(item) or not _is_food(item):
                    continue
                rule = f"no {item} {when.group(0).strip()}" if when else f"no {item}"
                tags = lx.scope_tags(f"eat {rule}")
                self.add(c, Cat.POLICY, "food", rule, tags=tags, confidence=strength)
                found = True
        for pattern, group in ((_IMPERATIVE, "rule"), (_I_NEVER, "rule"), (_CANT_DO, "what")):
            m = pattern.search(c.text)
            said = m.group(group).split(",")[0] if m else ""
            if m is None or _points(said.replace("make sure you", "")):
                continue
            rule = _clean(m.group(group).split(",")[0])
            tags = lx.scope_tags(rule) or (["health"] if pattern is _CANT_DO else [])
            if not tags:
                continue
            self.add(c, Cat.POLICY, _primary(Cat.POLICY, tags, "general"), rule, tags=tags)
            found = True
        m = _AVOID.search(c.text)
        if m and not found:
            what = _bare(m.group("what"))
            tags = lx.scope_tags(what)
            if what and tags and not _refers(what):
                self.add(
                    c,
                    Cat.POLICY,
                    _primary(Cat.POLICY, tags, "general"),
                    f"avoid {what}",
                    tags=tags,
                    confidence=0.8,
                )
                found = True
        return found

    def _identity(self, c: _Clause) -> None:
        for pattern, predicate in ((_MY_NAME, "name"), (_NICKNAME, "nickname")):
            m = pattern.search(c.text)
            name = _name(m.group("v") or m.groupdict().get("w")) if m else None
            if name and name.lower() not in lx.NATIONALITIES:
                self.add(c, Cat.IDENTITY, predicate, name, multi=False)
        m = _IM_NAME.match(c.text)
        if m and not _MY_NAME.search(c.text):
            name = _name(m.group("v"))
            if name and name.lower() not in _NOT_A_NAME_AFTER_IM:
                self.add(c, Cat.IDENTITY, "name", name, multi=False, confidence=0.75)
        m = _AGE.search(c.text)
        if m and 1 <= int(m.group("v")) <= 120:
            self.add(c, Cat.IDENTITY, "age", m.group("v"), multi=False)
        m = _PRONOUNS.search(c.text)
        if m:
            self.add(c, Cat.IDENTITY, "pronouns", m.group("v").lower(), multi=False)
        m = _BIRTH_YEAR.search(c.timed)
        if m:
            self.add(c, Cat.IDENTITY, "birth_year", m.group("v"), multi=False)

    def _place(
        self,
        c: _Clause,
        raw: str | None,
        *,
        holds: bool,
        timing: str | None,
        subject: str = "user",
        predicate: str = "city",
    ) -> None:
        place = _name(raw)
        if not place:
            return
        if predicate == "city" and place.lower() in lx.COUNTRIES:
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

    def _location(self, c: _Clause) -> None:
        m = _LIVE.search(c.text)
        if m:
            verb = m.group("verb").strip().lower()
            past = verb == "lived"
            self._place(c, m.group("v"), holds=not past, timing="end" if past else None)
        m = _LIVE_NOT.search(c.base)
        if m and c.anymore:
            self._place(c, m.group("v"), holds=False, timing=None)
        m = _MOVED.search(c.text)
        if m:
            if m.group("old"):
                self._place(c, m.group("old"), holds=False, timing=None)
            self._place(c, m.group("v"), holds=True, timing="start")
        m = _MOVED_FROM.search(c.text)
        if m and not (_MOVED.search(c.text)):
            self._place(c, m.group("v"), holds=False, timing="end")
        m = _HOMETOWN.search(c.text)
        if m:
            self._place(c, m.group("v"), holds=True, timing=None, predicate="hometown")
        for m in _THIRD_LIVES.finditer(c.text):
            who = self._third_party(m)
            if who:
                self._place(c, m.group("v"), holds=True, timing=None, subject=who)
                place = _name(m.group("v"))
                if place and who[0].isupper():
                    self.relate(who, "lives_in", place.split(",")[0])

    def _third_party(self, m: re.Match[str]) -> str | None:
        """The subject of a third-party statement: the name, or the relation word."""
        rel = m.group("rel") or m.group("rel2")
        who = _name(m.group("who"))
        if who:
            self.entity(who, ET.PERSON)
            return who
        return lx.RELATIONS[rel.lower()] if rel else None

    def _occupation(self, c: _Clause) -> None:
        m: re.Match[str] | None
        for m in (*_WORK_AS.finditer(c.text), *_IM_A.finditer(c.text)):
            past = m.group("verb").strip().lower() in {"worked", "i was"}
            self.add(c, Cat.OCCUPATION, "job", m.group("v").lower(), holds=not past)
            org = _name(m.group("org"))
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
        if _TEACH.search(c.text):
            self.add(c, Cat.OCCUPATION, "job", "teacher", confidence=0.7)
        if _RETIRED.search(c.text):
            self.add(c, Cat.OCCUPATION, "job", "retired", timing="start")
        m = _WORK_AT.search(c.text) or _JOB_START.search(c.text)
        org = _name(m.group("v")) if m else None
        if m and org:
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
                obj_type=ET.ORGANIZATION,
                timing="end" if ended else "start",
            )
        elif (m := _WORK_AT_PLACE.search(c.text)) is not None:
            verb = m.group("verb").lower()
            ended = verb in {"worked", "quit my job", "left my job", "lost my job", "quit"}
            self.add(
                c,
                Cat.OCCUPATION,
                "employer",
                _bare(m.group("v")),
                holds=not ended,
                timing="end" if ended else "start",
            )
        m = _STUDENT_AT.search(c.text)
        school = _name(m.group("v") or m.group("w")) if m else None
        if school and ((m and m.group("v")) or lx.STUDY_PLACE.search(school)):
            self.add(c, Cat.OCCUPATION, "school", school, obj=school, obj_type=ET.ORGANIZATION)
        m = _STUDIES.search(c.text)
        if m and not lx.scope_tags(m.group("v")).count("fitness"):
            self.add(c, Cat.OCCUPATION, "studies", _bare(m.group("v")))
            school = _name(m.group("school"))
            if school:
                self.add(c, Cat.OCCUPATION, "school", school, obj=school, obj_type=ET.ORGANIZATION)
        for m in _THIRD_WORKS.finditer(c.text):
            who, org = self._third_party(m), _name(m.group("v"))
            if who and org:
                self.add(
                    c,
                    Cat.OCCUPATION,
                    "employer",
                    org,
                    subject=who,
                    obj=org,
                    obj_type=ET.ORGANIZATION,
                )
                if who[0].isupper():
                    self.relate(who, "works_at", org)
        for m in _THIRD_JOB.finditer(c.text):
            who = self._third_party(m)
            if who and who != "user":
                self.add(c, Cat.OCCUPATION, "job", m.group("v").lower(), subject=who)

    def _relationship(self, c: _Clause) -> None:
        m: re.Match[str] | None
        for pattern in (_MY_REL_NAME, _NAMED, _IS_MY_REL, _MARRIED, _REL_NAME_IS):
            for m in pattern.finditer(c.text):
                word = (m.groupdict().get("rel") or "partner").lower()
                for part in _LIST_SPLIT.split(m.group("v")):
                    name = _name(part)
                    if name:
                        self._relative(c, word, name, named=True, text=m.group(0))
        m = _PRONOUN_NAME.search(c.text)
        if m and self.unnamed and _name(m.group("v")):
            self._relative(c, self.unnamed, _name(m.group("v")) or "", named=True, text="")
        for m in (*_HAVE_REL.finditer(c.text), *_PARENT_OF.finditer(c.text)):
            value = _clean(m.group("v"))  # a description keeps its article: "a dog"
            self._relative(c, m.group("rel").lower(), value, named=False, text=m.group(0))

    def _relative(self, c: _Clause, word: str, value: str, *, named: bool, text: str) -> None:
        if not named:
            self.unnamed = word
        word = _PLURAL_RELATIONS.get(word, word)
        singular = _PLURAL_S.sub("", word) if word not in lx.RELATIONS else word
        pet = singular in lx.PETS or word in lx.PETS
        predicate = "pet" if pet else lx.RELATIONS.get(singular, lx.RELATIONS.get(word, word))
        ended = _ENDED_REL.search(text) is not None
        tags = lx.RELATION_TAGS.get(predicate, ("family",))
        self.add(
            c,
            Cat.RELATIONSHIP,
            predicate,
            value,
            holds=not ended,
            multi=predicate not in lx.SINGLE_RELATIONS,
            tags=tags,
            confidence=0.85 if named else 0.7,
            obj=value if named else None,
            obj_type=ET.PET if pet else ET.PERSON,
            timing="start" if _ADOPTED.search(c.text) else None,
        )

    def _possession(self, c: _Clause) -> None:
        m: re.Match[str] | None
        for m in _OWN.finditer(c.base):
            verb = m.group("verb").lower()
            thing = _bare(m.group("v"))
            if not thing or _refers(thing):
                continue
            gone = verb in {"sold", "gave away", "got rid of"} or (
                verb.startswith("don't") and c.anymore
            )
            negated = verb.startswith("don't") and not c.anymore
            bought = verb in {"bought", "got", "purchased", "picked up", "leased"}
            self.add(
                c,
                Cat.POSSESSION,
                "owns",
                thing,
                polarity=not negated,
                holds=not gone,
                timing="end" if gone else "start" if bought else None,
            )
        m = _BOUGHT_BRAND.search(c.text)
        brand = _name(m.group("v")) if m else None
        if m and brand:
            bought = m.group("verb").lower() not in {"drive", "own"}
            self.add(
                c,
                Cat.POSSESSION,
                "owns",
                brand,
                obj=brand,
                obj_type=ET.THING,
                timing="start" if bought else None,
            )

    def _event(self, c: _Clause) -> None:
        m = _WENT_GERUND.search(c.text)
        if m:
            self.add(c, Cat.EVENT, "went", m.group("v").lower(), timing="start")
        m = _GOT_LIFE.search(c.text)
        if m:
            what = m.group("v").lower()
            self.add(c, Cat.EVENT, f"got_{what}", what, timing="start")
        for m in _EVENT.finditer(c.text):
            index = next(i for i in range(len(_EVENT_VERBS)) if m.group(f"e{i}"))
            predicate = _EVENT_VERBS[index][0]
            self._event_object(c, predicate, m.group("rest"))

    def _event_object(self, c: _Clause, predicate: str, rest: str) -> None:
        rest = rest.split(",")[0].strip()
        named = _LEADING_PLACE.match(rest)
        if predicate == "met":
            name = _name(named.group(1)) if named else None
            whom = _MET_WHOM.match(rest)
            if name:
                self.add(c, Cat.EVENT, "met", name, obj=name, obj_type=ET.PERSON, timing="start")
            elif whom and not _refers(whom.group("v")):
                self.add(c, Cat.EVENT, "met", whom.group("v"), timing="start")
            return
        title = _TITLE.match(rest)
        if title and predicate in {"finished", "started"}:
            self.add(c, Cat.EVENT, predicate, title.group("v"), timing="start")
            return
        gerund = _GERUND_START.match(rest)
        if predicate == "started" and gerund and gerund.group(1).lower() not in lx.CHORE_GERUNDS:
            phrase = _bare(rest)
            what = phrase if phrase and not _refers(phrase) else gerund.group(1)
            self.add(c, Cat.EVENT, "started", what.lower(), timing="start")
            return
        if predicate == "adopted":
            called = _CALLED.search(rest)
            what = _name(called.group(1)) if called else _bare(_CALLED_TAIL.sub("", rest))
            if what:
                self.add(c, Cat.EVENT, "adopted", what, timing="start")
                kind = _KIND.search(what)
                if kind and not called:
                    self.unnamed = kind.group(1).lower()
            return
        place = _name(named.group(1)) if named else None
        if place and predicate in {"went_to", "visited", "traveled_to"}:
            self.add(c, Cat.EVENT, predicate, place, obj=place, obj_type=ET.PLACE, timing="start")
            return
        what = _bare(_EVENT_DET.sub("", rest))
        what = _EVENT_LEAD.sub("", what)
        if not what or _refers(what) or len(what.split()) > 5:
            return
        kin = _TRAILING_S.sub("", what.lower()) in lx.RELATIONS or what.lower() in lx.RELATIONS
        if kin and predicate == "visited" and _MY.match(rest):
            self.add(c, Cat.EVENT, "visited", what, timing="start")
            return
        if (
            predicate == "graduated"
            or _ends_with_event(what)
            or (predicate in {"finished", "won", "ran", "started"} and _EVENT_ITEM.search(what))
        ):
            if predicate == "started" and _JOB_WORD.search(what):
                return
            self.add(c, Cat.EVENT, predicate, what, timing="start")

    def _goal(self, c: _Clause) -> bool:
        m = _GOAL.search(c.text)
        if m is None:
            return False
        said = m.group("rest") or m.group("rest2")
        rest = _clean(_DANGLING.sub("", _OBJ_TAIL.sub("", said)))
        topic = m.group("topic")
        if not rest or _points(rest) or _JUST_AMOUNT.fullmatch(rest):
            return False
        tags = lx.scope_tags(f"{topic} {rest}" if topic else rest)
        wish = _WISH.search(m.group(0))
        if not tags or (wish and not _DURABLE_TAGS.intersection(tags)):
            return False
        value = rest
        if _NOT_TO.search(m.group(0)):
            value = f"not {rest}"
        if topic and topic.lower().startswith("learning"):
            value = ("learn to " if " to" in topic.lower() else "learn ") + _LEARN_TO.sub("", rest)
        elif topic:
            value = _bare(rest) or rest
        if "environment" in tags or "religion" in tags:
            self.add(c, Cat.VALUE, _primary(Cat.VALUE, tags, "principle"), value, tags=tags)
            return True
        self.add(
            c,
            Cat.GOAL,
            tags[0],
            value,
            tags=tags,
            confidence=0.6 if "love" in m.group(0).lower() else None,
        )
        return True

    def _value(self, c: _Clause) -> bool:
        m = _RELIGION.search(c.text)
        if m:
            self.add(
                c, Cat.VALUE, "religion", m.group("v").capitalize(), multi=False, tags=["religion"]
            )
            return True
        for pattern in (_CARE, _ONLY, _IMPORTANT, _COMES_FIRST, _BELIEVE):
            m = pattern.search(c.text)
            if m is None:
                continue
            bare = pattern in {_CARE, _BELIEVE}
            what = _bare(m.group("v")) if bare else _clean(_DET.sub("", m.group("v")))
            if not what or _refers(what):
                continue
            tags = lx.scope_tags(what)
            verb = _ONLY_VERB_TAGS.get(what.split()[1].lower(), "") if pattern is _ONLY else ""
            tags = [verb, *tags] if verb and verb not in tags else tags
            self.add(c, Cat.VALUE, _primary(Cat.VALUE, tags, "principle"), what, tags=tags)
            return True
        return False

    def _state(self, c: _Clause) -> bool:
        m = _STATE_BE.search(c.text) or _STATE_DID.search(c.text) or _STATE_MORE.search(c.text)
        base: list[str] = ["health"]
        if m is None:
            m = _STATE_SUBJECT.search(c.text)
            if m is None:
                return False
            base = (
                ["finance", "budget"]
                if m.group("money")
                else ["work"]
                if m.group("work")
                else ["family", "health"]
            )
        value = _clean(m.group("v") or m.group("body"))
        tags = [*lx.scope_tags(value)]
        if not tags or base[0] != "health":
            tags = [*base, *tags]
        self.add(
            c, Cat.STATE, _primary(Cat.STATE, tags, "health"), value, tags=tags, timing="window"
        )
        return True

    def _preference(self, c: _Clause) -> None:
        m = _FAVORITE.search(c.text)
        if m:
            kind = (m.group("kind") or m.group("kind2") or "").lower()
            value = _clean(m.group("v") or m.group("v2") or "")
            slot = lx.FAVORITE_KINDS.get(kind) or lx.FAVORITE_KINDS.get(kind.split()[-1])
            if slot and value and not _refers(value):
                domain = _DOMAIN_WORDS.get(slot.replace("_", " "), slot)
                self.add(
                    c,
                    Cat.PREFERENCE,
                    f"favorite_{slot}",
                    value,
                    multi=False,
                    tags=_PREF_TAGS.get(domain, ()),
                )
            return
        for pattern in (_PREFER, _FAN, _PERSON_FAN, _IDIOM):
            m = pattern.search(c.text)
            if m is None:
                continue
            groups = m.groupdict()
            verb = (groups.get("verb") or "").lower()
            if verb in {"liked", "loved", "enjoyed"} and groups.get("neg") != "have never":
                return
            negative = bool(groups.get("neg")) != (verb in _NEGATIVE_VERBS)
            if verb == "stand" and not groups.get("neg"):
                return
            if verb == "stand":
                negative = True
            if verb in {"hate", "dislike", "detest", "loathe"} and groups.get("neg"):
                return
            self._liked(c, m.group("rest"), polarity=not negative)
            return
        m = _HABIT.search(c.timed)  # "I've been painting since 2022"
        habit = _DOMAIN_WORDS.get(m.group("v").lower(), "") if m else ""
        if m and habit in {"hobby", "activity", "sport"}:
            self.add(c, Cat.PREFERENCE, habit, m.group("v").lower(), confidence=0.6, timing="start")

    def _liked(self, c: _Clause, rest: str, *, polarity: bool) -> None:
        rest = rest.strip()
        infinitive = _INFINITIVE.match(rest)
        if infinitive:
            rest = _gerund(infinitive.group(1)) + infinitive.group(2)
        full = _PUNCTUATION.split(rest, maxsplit=1)[0].strip()
        going = _GOING.match(full)
        if going:
            full = full[going.end() :]
        mine = _MINE.match(full)
        if mine and _DOMAIN_WORDS.get(mine.group(1).lower()) in {"food", "drink"}:
            full = mine.group(1)
        head = _OBJ_STOP.sub("", full).strip()
        if not head or _refers(head) or len(head.split()) > 6:
            return
        if _NOT_AN_ITEM.fullmatch(head) or head.lower() in _INTENSIFIERS:
            return
        article = _ARTICLE.match(head) is not None
        if _POSSESSED.match(head):
            return
        readings: list[tuple[str | None, str]] = []
        for item in _items(head):
            nation = _NATIONALITY.match(item)
            if nation and nation.group("head").lower() in _NATIONAL_HEADS:
                readings.append((_NATIONAL_HEADS[nation.group("head").lower()], nation.group("n")))
                continue
            kind = _domain_of(item)
            first = item.split()[0].lower()
            if kind is None and first.endswith("ing") and first not in _DOMAIN_WORDS:
                continue  # "getting lost", "curling up": no object to remember
            hobby = _DOMAIN_WORDS.get(first)
            if kind in {"food", "drink"} and hobby in {"hobby", "activity"}:
                kind = hobby  # "baking bread" is baking
            readings.append((kind, item))
        fallback = next((k for k, _ in reversed(readings) if k), None) or _domain_of(full)
        if fallback is None and going:
            fallback = "activity"
        for domain, value in readings:
            kind = domain or fallback
            item = value
            if kind is None and item.lower() in lx.NATIONALITIES:
                kind = "cuisine"
            if kind is None:
                proper = _PROPER.fullmatch(item) is not None
                if infinitive or item.lower().endswith("ing") or not (proper or " " not in item):
                    continue
                if article:
                    continue
                kind = "travel" if item.lower() in lx.COUNTRIES and proper else "general"
            self.add(
                c,
                Cat.PREFERENCE,
                kind,
                value,
                polarity=polarity,
                tags=_PREF_TAGS.get(kind, ()),
                confidence=0.6 if kind == "general" else None,
            )


class RuleExtractor:
    """Reads facts, entities, relations and times from chat messages with patterns only.

    Deterministic and cheap (a few hundred microseconds per message): it runs on every
    write, and as the fallback when an LLM extractor fails. Messages from the assistant,
    the system or tools yield nothing: their claims are not facts about the user.
    """

    name = "rules"

    def extract_one(self, message: ExtractionInput) -> Extraction:
        """Everything ``message`` states, with times resolved against its
        ``occurred_at``."""
        if message.role not in {"user", "human"} or not message.text.strip():
            return Extraction()
        reader = _Reader(to_utc(message.occurred_at))
        reader.read(message.text)
        facts = reader.facts
        return Extraction(
            entities=list(reader.entities.values()),
            facts=facts,
            relations=reader.relations,
            importance=max((_IMPORTANCE.get(f.category, 0.5) for f in facts), default=None),
            event_time=reader.fact_time or reader.first_time,
        )

    async def extract(self, messages: list[ExtractionInput]) -> list[Extraction]:
        """One extraction per message, in order."""
        return [self.extract_one(m) for m in messages]
