"""Detectors for constraints, the facts that should bind later answers: allergies and
intolerances, diets and food rules, rules the user sets ("Never schedule meetings before
10am"), goals, values, states ("I'm on crutches") and causal statements ("coffee gives me
migraines"). Allergy, diet and policy each end the clause they are found in; so does one
of goal, value or state.

A constraint's predicate is its primary scope tag: for a goal the first tag mentioned;
for a state, policy or value the first by ``_TAG_PRIORITY``; for a causal statement
``health`` when health is involved.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import lexicon as lx
from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause, prepare_clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.figures import no_allergen
from cognimem.ingest.extract.kin_constraints import kin_constraint
from cognimem.ingest.extract.lexicon import alternation
from cognimem.ingest.extract.patterns import (
    TRAILING_S,
    TRAINING_TO_BECOME,
    gated,
    icase,
    names_occupation,
)
from cognimem.ingest.extract.state_phrases import STATE_SUBJECT, state_said
from cognimem.ingest.extract.wanted_things import wants_a_character
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.scope_tags import scope_tags
from cognimem.text.tokens import tokens

__all__ = ["ConstraintReader", "primary_tag"]

# which tag names a state, policy or value that has several (see _primary)
_TAG_PRIORITY = {
    Cat.STATE: ("work", "finance", "family", "legal", "education", "travel", "health"),
    Cat.POLICY: ("privacy", "communication", "schedule", "travel", "food", "finance"),
    Cat.VALUE: ("environment", "religion", "family", "shopping", "food", "finance"),
}
_SURE = icase(r"deathly|sever|life|extreme|serious|danger")
_ADVERB_LY = re.compile(r"[a-z]+ly")
_WISH = icase(r"(?:'d|would)\s+love")
_NOT_TO = icase(r"\bnot\s+to\b")
_JUST_AMOUNT = icase(r"(?:a lot|a ton|so much|loads|lots|more|heaps|a bunch)")
# a "would love to" is a goal only in a domain people plan for, not "join in"
_DURABLE_TAGS = frozenset(
    {"travel", "education", "fitness", "finance", "home", "work", "health", "family"}
)
_LEARN_TO = icase(r"^(?:how\s+)?to\s+")
_OBJ_TAIL = icase(
    r"\s+(?:right now|at the moment|someday|one day|eventually|soon|whenever possible|as much "
    r"as (?:I|we) can|if (?:I|we) can|when(?:ever)? (?:I|we) can)\b.*$"
)
_DANGLING = icase(r"\s+(?:by|before|within|in|for|during|until)\s*[,\s]*$")

_ALLERGIC = gated(
    r"\b(?:I'm|we're|I have been|I was|I have always been|I became|I got)\s+(?P<lvl>(?:"
    r"deathly|severely|very|highly|extremely|seriously|super|really|so|mildly|slightly|"
    r"a bit|a little|quite|badly|incredibly|dangerously|also)\s+)*allergic to\s+"
    r"(?P<what>[^.;!?]+)"
)
_ALLERGY_NOUN = icase(
    r"\b(?:I have|I got|I developed|I suffer from|my)\s+(?:an?\s+)?(?P<lvl>(?:severe|"
    r"serious|bad|mild|life-threatening|deadly|deathly|terrible|major|slight|minor)\s+)*"
    r"(?P<what>[a-z][a-z -]{1,30}?)\s+allerg(?:y|ies)\b"
)
_ALLERGY_BECAUSE = icase(
    r"\b(?:never|don't|can't|won't|avoid)\s+(?:eat|eating|have|drink|touch|use|take)?\s*"
    r"(?P<what>[a-z][a-z ,-]*?)\s+(?:due to|because of|because I'm|since I'm|as I'm)\s+"
    r"(?:an?\s+|my\s+|the\s+)?(?:\w+\s+)?allerg"
)
# "my eyes are itchy from allergies": a clause before the word, not an allergen
_CLAUSE_WORD = icase(r"\b(?:is|are|was|were|am|get|gets|got|from|with|because)\b")
_NOT_ALLERGENS = frozenset({"seasonal", "spring", "bad", "terrible", "some", "many", "food"})
_INTOLERANT = icase(
    r"\b(?:I'm\s+(?P<a>lactose|gluten|fructose|histamine|wheat|dairy)[\s-]+intolerant|"
    r"I have\s+(?:an?\s+)?(?P<b>lactose|gluten|fructose|histamine|wheat|dairy)\s+"
    r"intolerance|I(?:'m| have)\s+(?P<c>celiac|coeliac))"
)
_DIET_IS = icase(
    rf"\b(?P<subj>I'm|we're|I have been|we have been|I was|we were|I became|we became|"
    rf"I went|we went|I have gone|I'm going|I turned)\s+(?P<neg>not\s+)?(?:(?:a|an|fully|"
    rf"strictly|mostly|mainly|completely|100%|practically|basically|now)\s+)*"
    rf"(?P<label>{alternation(vocab.DIET_LABELS)})\b(?!\s+(?:food|restaurants?|options?|recipes?|"
    rf"dish|dishes|meals?|places?|cook|friends?))"
)
_DIET_KEEP = icase(
    r"\b(?:I|we)\s+(?:keep|eat|only eat|follow|observe|stay)\s+(?P<label>kosher|halal)\b|"
    r"\b(?:I'm|we're|I|we)\s+(?:on|follow|do|eat)\s+(?:an?\s+|the\s+)?(?P<label2>keto|paleo|"
    r"vegan|vegetarian|low-carb|mediterranean|plant-based|whole30|carnivore|gluten-free)\s+"
    r"diet\b"
)
_DIET_STOP = icase(
    rf"\b(?:I|we)\s+(?:don't|never|no longer|stopped|quit|gave up|cut out|won't|can't)\s+"
    rf"(?:eating\s+|eat\s+|consume\s+)?(?:any\s+|all\s+)?(?P<group>"
    rf"{alternation(vocab.DIET_FOOD_GROUPS)})\b"
)
_DIET_START = icase(
    r"\b(?:I|we)\s+(?P<start>started eating|have started eating|eat|am eating|'m eating|"
    r"have been eating|now eat)\s+(?P<group>fish|meat|chicken|seafood|eggs|dairy|red meat|"
    r"poultry|pork|beef)\b"
)
_AVOID_FOOD = icase(
    r"\b(?:I|we)\s+(?P<verb>never|don't|can't|won't|shouldn't|mustn't|must not|try not to|"
    r"refuse to|avoid)\s+(?:ever\s+)?(?P<eat>eat|drink|have|consume|touch)\s+(?P<what>[^.;!?]+)"
)
_CANT_DO = icase(
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
_IMPERATIVE = icase(
    rf"^(?:please\s+)?(?P<rule>(?:never(?:\s+ever)?|don't(?:\s+ever)?|do not|please don't|"
    rf"always|make sure (?:to|you)|avoid|stop)\s+(?:ever\s+)?(?:{_POLICY_VERBS})\b[^.;!?]*)"
)
_I_NEVER = icase(
    # "I don't work for X" denies a job, "I don't work for free" is a rule
    r"\b(?:I|we)\s+(?P<rule>(?:never|don't|won't)\s+(?:work(?!\s+(?:at|as)\b|\s+for\s+(?!free\b))|"
    r"answer|take calls|check|do|share|post|travel|fly|drive|book|schedule|accept)\b[^.;!?]*)"
)
_QUALIFIER = icase(
    r"\s(?:on|during|before|after|at|in)\s+(?:\w+days|weekends|weekdays|lent|ramadan|passover|"
    r"night|noon|midday|midnight|the evening|breakfast|brunch|lunch|dinner|bedtime|work|"
    r"\d{1,2}\s*(?:am|pm))\b"
)
# a career wanted: "(I want to) be a pilot", "become a vet" (not "be a better cook")
_CAREER = icase(
    r"^(?:be|become)\s+an?\s+(?!(?:better|good|great|decent|nicer|worse|bad|real|proper)\b)"
    r"[\w -]+$"
)
_GOAL = icase(
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
_CARE = icase(
    r"\b(?:I|we)\s+(?:care(?:\s+a lot|\s+deeply)?|'m passionate|feel strongly)\s+about\s+"
    r"(?P<v>[^.,;!?]+)"
)
_IMPORTANT = icase(
    r"^(?P<v>[a-z][a-z ]{2,40}?)\s+(?:(?:is|are)\s+(?:really\s+|very\s+|so\s+|super\s+|"
    r"extremely\s+)?(?:important|everything)|matters?(?:\s+(?:a lot|so much|a great deal|"
    r"most))?)\s+to\s+(?:me|us)\b"
)
_COMES_FIRST = icase(r"^(?P<v>[a-z][a-z ]{2,30}?)\s+(?:always\s+)?comes?\s+first\b")
_BELIEVE = icase(
    r"\b(?<!what\s)(?:I|we)\s+(?:value|believe in|stand for)\s+(?!and\b|or\b|but\b|that\b)"
    r"(?P<v>[^.,;!?]+)"
)
_RELIGION = icase(
    rf"\b(?:I'm|we're)\s+(?:an?\s+|(?:devout|practicing|practising|observant)\s+)*"
    rf"(?P<v>{alternation(vocab.RELIGIONS)})\b"
)
_CAUSE_FIRST = icase(
    r"^(?:because of|due to|since|ever since|after|thanks to)\s+(?P<cause>[^,]+?),?\s+"
    r"(?=(?:I|I'm|I have|I can't|my|we)\b)"
)
_BECAUSE = icase(r"^(?:I|I'm|I have|I can't|we|my)\b.+?\s*,?\s+(?:because|since|due to|cuz)\s+")
# one thing done once, for how it was then: "I returned the wool jumper because it was
# itchy" (a cause that binds nothing later, unlike "coffee gives me migraines")
_DONE_ONCE = icase(
    r"^(?:I|we)\s+(?:just\s+)?(?:took|sent|gave|threw|left|sold|[a-z]+ed)\s+(?:back\s+|away\s+|"
    r"out\s+)?(?:the|that|this|those|these|my|our)\b[^,;]*?\s+(?:because|since|as|cuz)\s+(?:it|"
    r"they|he|she|the\s+\w+)\s+(?:was|were)\b"
)
_MAKES_ME = icase(
    r"^(?P<cause>[a-z][\w' -]+?)(?:\s*,\s*(?:it|that|this|which|they))?\s+(?:makes?|made|gives?|"
    r"gave|triggers?|triggered|causes?|caused|keeps?|kept|upsets?|ruins?|ruined|hurts?|"
    r"affects?|affected|disrupts?|wrecks?|worsens?|bothers?|messes up|mess up)\s+(?:me|my)\b"
)
_WHEN_I = icase(
    r"^(?:I\s+(?:get|got|feel|can't|start|break|have|always get|tend to)\b|I'm\s|my\s).+?\s+"
    r"(?:when(?:ever)?|after)\s+I\s+"
)


def primary_tag(category: Cat, tags: list[str], default: str) -> str:
    """A constraint's predicate: its first tag in the category's priority order, else
    its first tag."""
    for tag in _TAG_PRIORITY.get(category, ()):
        if tag in tags:
            return tag
    return tags[0] if tags else default


def _is_food(item: str) -> bool:
    low = item.lower()
    return (
        "food" in scope_tags(low)
        or low in vocab.FOOD_ALLERGENS
        or lx.DOMAIN_WORDS.get(low) in {"food", "drink"}
        or lx.domain_of(low) in {"food", "drink"}
    )


# what an allergy can be to: a food, a drug, an animal, or a substance no life area names
# (pollen, latex); a time, a chore or a place of work is a joke ("allergic to Mondays",
# "allergic to exercise")
_BODILY_TAGS = frozenset({"food", "diet", "health", "medical", "allergy", "pets"})


def _figurative_allergen(item: str) -> bool:  # or an action ("to waking up early")
    tags = set(scope_tags(item.lower()))
    return (
        (bool(tags) and tags.isdisjoint(_BODILY_TAGS))
        or phrases.is_action(item)
        or (
            no_allergen(item)  # "allergic to responsibility": no substance at all
        )
    )


def _allergy_tags(item: str) -> list[str]:
    low = item.lower()
    singular = TRAILING_S.sub("", low)
    tags = ["allergy", "health"]
    if low in vocab.FOOD_ALLERGENS or singular in vocab.FOOD_ALLERGENS or _is_food(low):
        tags.insert(0, "food")
    if low in vocab.PETS or singular in vocab.PETS:
        tags.append("pets")
    if low in vocab.DRUG_ALLERGENS or singular in vocab.DRUG_ALLERGENS:
        tags.append("medical")
    return tags


class ConstraintReader(Collector):
    """Reads allergies, diets, rules, goals, values, states and causal statements."""

    condition: str | None = None  # the condition the current sentence opens with

    def _causal(self, text: str, evidence: str) -> bool:
        """Reads a whole sentence for a cause and its effect on a condition ("coffee
        gives me migraines"); an allergy statement is left to :meth:`_allergy`."""
        if _ALLERGIC.search(text) is not None:
            return False
        if vocab.CONDITION_WORDS.isdisjoint(tokens(text)):
            return False
        clause = prepare_clause(text, evidence, self.ref)
        if clause is None:
            return False
        said = clause.timed
        made = _MAKES_ME.match(said)
        if made and phrases.refers(made.group("cause")):
            made = None
        if not (made or _CAUSE_FIRST.match(said) or _BECAUSE.match(said) or _WHEN_I.match(said)):
            return False
        if _DONE_ONCE.match(said):
            return False
        tags = scope_tags(said)
        if not tags:
            return False
        predicate = "health" if "health" in tags else tags[0]
        self.add(clause, Cat.CAUSAL, predicate, phrases.clean(said), tags=tags)
        return True

    def _allergy(self, c: Clause) -> bool:
        m: re.Match[str] | None
        found = False
        for pattern in (_ALLERGIC, _ALLERGY_NOUN, _ALLERGY_BECAUSE):
            for m in pattern.finditer(c.text):
                if pattern is _ALLERGY_NOUN and _CLAUSE_WORD.search(m.group("what")):
                    continue
                level = (m.groupdict().get("lvl") or "").lower()
                sure = 0.98 if _SURE.search(level) else 0.95
                for item in phrases.items(m.group("what")):
                    if item.lower() in _NOT_ALLERGENS or phrases.refers(item) or len(item) > 40:
                        continue
                    if _ADVERB_LY.fullmatch(item.lower()):
                        continue
                    if _figurative_allergen(item):
                        self.figurative = found = True  # a joke: nothing else is read
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
        for item in kin_constraint(c.evidence) if c.evidence.startswith(c.said) else ():
            self.add(c, Cat.POLICY, "family", item, polarity=False, tags=["family", "health"])
            found = True  # "My son can't have dairy, so ...": the household's rule
        m = _INTOLERANT.search(c.text)
        if m:
            what = (m.group("a") or m.group("b") or "gluten").lower()
            tags = ["food", "diet", "health"] + (["medical"] if m.group("c") else [])
            self.add(c, Cat.POLICY, "intolerance", what, tags=tags, confidence=0.9)
            found = True
        return found

    def _diet(self, c: Clause) -> bool:
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

    def _policy(self, c: Clause) -> bool:
        m: re.Match[str] | None
        found = False
        for m in _AVOID_FOOD.finditer(c.text):
            if m.group("eat").lower() == "have" and m.group("verb").lower() == "don't":
                continue  # "I don't have a recipe" is not a rule
            strength = {"never": 0.9, "can't": 0.9, "won't": 0.85}.get(m.group("verb").lower(), 0.8)
            what = m.group("what").split(",")[0]
            when = _QUALIFIER.search(what)
            for item in phrases.items(what):
                if phrases.refers(item) or not _is_food(item):
                    continue
                rule = f"no {item} {when.group(0).strip()}" if when else f"no {item}"
                rule = self._framed_rule(c, rule)
                tags = scope_tags(f"eat {rule}")
                self.add(c, Cat.POLICY, "food", rule, tags=tags, confidence=strength)
                found = True
        for pattern, group in ((_IMPERATIVE, "rule"), (_I_NEVER, "rule"), (_CANT_DO, "what")):
            m = pattern.search(c.text)
            said = m.group(group).split(",")[0] if m else ""
            if m is None or phrases.points(said.replace("make sure you", "")):
                continue
            rule = phrases.clean(m.group(group).split(",")[0])
            tags = scope_tags(rule) or (["health"] if pattern is _CANT_DO else [])
            if not tags:
                continue
            rule = self._framed_rule(c, rule)
            self.add(c, Cat.POLICY, primary_tag(Cat.POLICY, tags, "general"), rule, tags=tags)
            found = True
        if found and self.condition and c.said.lower().startswith(self.condition.lower()):
            self.condition = None  # the rules read here took it
        return found

    def _framed_rule(self, c: Clause, rule: str) -> str:
        """``rule`` with the condition its clause opens with ("After dinner I never
        check work email": "never check work email after dinner")."""
        cond = self.condition or ""
        if not cond or not c.said.lower().startswith(cond.lower()):
            return rule
        return f"{rule} {cond[0].lower()}{cond[1:]}"

    def _goal(self, c: Clause) -> bool:
        m = _GOAL.search(c.text)
        if m is None:
            return False
        said = m.group("rest") or m.group("rest2")
        rest = phrases.clean(_DANGLING.sub("", _OBJ_TAIL.sub("", said)))
        topic = m.group("topic")
        if not rest or phrases.points(rest) or _JUST_AMOUNT.fullmatch(rest):
            return False
        if wants_a_character(rest):  # "I'd love to be someone who reads more"
            return False
        tags = scope_tags(f"{topic} {rest}" if topic else rest)
        if topic and (becoming := TRAINING_TO_BECOME.search(m.group(0))):
            if not names_occupation(becoming.group("role")):
                return False  # training to be something that is no occupation: a quip
            tags = scope_tags(f"work {rest}")  # training to become a nurse: a career
        elif m.group("plain") and (career := _CAREER.match(rest)) and names_occupation(career[0]):
            tags = scope_tags(f"work {rest}")  # "I want to be a pilot": a career
        wish = _WISH.search(m.group(0))
        if not tags or (wish and not _DURABLE_TAGS.intersection(tags)):
            return False
        value = rest
        if _NOT_TO.search(m.group(0)):
            value = f"not {rest}"
        if topic and topic.lower().startswith("learning"):
            value = ("learn to " if " to" in topic.lower() else "learn ") + _LEARN_TO.sub("", rest)
        elif topic:
            value = phrases.bare(rest) or rest
        if "environment" in tags or "religion" in tags:
            self.add(c, Cat.VALUE, primary_tag(Cat.VALUE, tags, "principle"), value, tags=tags)
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

    def _value(self, c: Clause) -> bool:
        m = _RELIGION.search(c.text)
        if m:
            self.add(
                c, Cat.VALUE, "religion", m.group("v").capitalize(), multi=False, tags=["religion"]
            )
            return True
        for pattern in (_CARE, _IMPORTANT, _COMES_FIRST, _BELIEVE):
            m = pattern.search(c.text)
            if m is None:
                continue
            bare = pattern in {_CARE, _BELIEVE}
            what = (
                phrases.bare(m.group("v"))
                if bare
                else phrases.clean(phrases.DET.sub("", m.group("v")))
            )
            if not what or phrases.refers(what):
                continue
            tags = scope_tags(what)
            self.add(c, Cat.VALUE, primary_tag(Cat.VALUE, tags, "principle"), what, tags=tags)
            return True
        return False

    def _state(self, c: Clause) -> bool:
        m = state_said(c.text)
        base: list[str] = ["health"]
        if m is None:
            m = STATE_SUBJECT.search(c.text)
            if m is None:
                return False
            base = (
                ["finance", "budget"]
                if m.group("money")
                else ["work"]
                if m.group("work")
                else ["family", "health"]
            )
        value = phrases.clean(m.group("v") or m.group("body") or m.group("hurts"))
        tags = [*scope_tags(value)]
        if not tags or base[0] != "health":
            tags = [*base, *tags]
        self.add(
            c, Cat.STATE, primary_tag(Cat.STATE, tags, "health"), value, tags=tags, timing="window"
        )
        return True
