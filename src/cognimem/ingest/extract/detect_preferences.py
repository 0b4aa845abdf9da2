"""Detectors for what the user likes and has: preferences ("I love Thai food", "my
favourite colour is green", "I'm a big jazz fan") in a domain (cuisine, music, activity
...) and possessions ("we bought a new car").
"""

from __future__ import annotations

import re
from datetime import datetime

from cognimem.ingest.extract import lexicon as lx
from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.collector import Collector
from cognimem.ingest.extract.figures import Copula, kind_owned
from cognimem.ingest.extract.lexicon import alternation
from cognimem.ingest.extract.patterns import NAME, gated, icase
from cognimem.models.extraction import ExtractedFact
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.scope_tags import COUNTRIES
from cognimem.text.tokens import words

__all__ = ["LIKING_VERBS", "PREFERENCE_TAGS", "PreferenceReader"]

_MORE_THAN = icase(r"^(?:more|better)\s+than\s+")  # "nothing I love more than X"

_SHORT_CVC = re.compile(r"[^aeiou]*[aeiou][bdgmnprt]")  # swim -> swimming
_INFINITIVE = icase(r"to\s+([a-z]+)\b(.*)")
_PUNCTUATION = re.compile(r"[,.;!?]")
_GOING = icase(r"going\s+(?:to\s+|on\s+)?(?:the\s+)?")
_MINE = icase(r"(?:my|our)\s+(\w+)")
_ARTICLE = icase(r"(?:the|a|an)\b")
_POSSESSED = icase(r"(?:my|our|his|her|their|the way)\b")
_PROPER = re.compile(NAME)
# not an object: a fan's intensifier, or the degree of "what I enjoy most"
_INTENSIFIERS = frozenset(
    words(
        "big, huge, massive, real, total, diehard, die-hard, great, most, best, the most, the best"
    )
)
_NEGATIVE_VERBS = frozenset({"hate", "dislike", "detest", "loathe", "have hated"})
_OWN = icase(
    rf"\b(?:I|we)\s+(?P<verb>have|own|bought|got|purchased|picked up|leased|don't have|"
    rf"don't own|sold|gave away|got rid of)\s+(?:an?|my|our|the|one|two|myself an?|a new|"
    rf"my first|our first|a brand new|a used|a second)?\s*(?!never\b|not\b|no\b|ever\b)"
    rf"(?P<v>(?:[\w-]+\s+){{0,3}}?(?:"
    rf"{alternation(vocab.OWNABLES)}))\b"
)
# the owner a denied thing belongs to, said after it: "I don't own a boat, it's my
# uncle's", "I don't have a car, I borrow my sister's": who owns it is what the
# sentence is about (a correction), not a fact of the speaker's to keep
_OWNER_GIVEN = icase(
    r"\b(?:(?:it|that|this|they)(?:'s| is| was|'re| are| were)|I\s+(?:just\s+|only\s+)?"
    r"(?:borrow|use|share|drive|ride))\s+(?:(?:my|our|his|her|their)\s+[\w-]+|"
    r"(?-i:[A-Z][a-z]+))'s?(?!\w)"
)
# a make bought or owned, after its model year too ("I own a 2015 Honda Civic")
_BOUGHT_BRAND = icase(
    r"\b(?:I|we)\s+(?P<verb>bought|got|purchased|leased|drive|own)\s+(?:an?|myself an?|my|"
    r"our)\s+(?:(?:new|used|old|little|vintage|beat-up|first|red|blue|black|white|silver|"
    r"gray|grey|(?:19|20)\d\d)\s+)*(?P<v>(?-i:[A-Z][\w-]+(?:\s+[A-Z0-9][\w-]*)?))"
)
# whatever is owned, said with "own" and an indefinite object ("I own a small bakery",
# "we own two rental flats"); "own up to", "own my decisions" are no possession
_OWN_ANY = icase(
    r"\b(?:I|we)\s+(?:also\s+|still\s+|now\s+|even\s+)?own\s+(?:an?|two|three|four|a couple "
    r"of|several|a few)\s+(?!(?:lot|bunch|ton|few|couple|piece|share|stake)\b)"
    r"(?P<v>(?-i:[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3}?))(?=\s+(?:in|on|at|near|"
    r"with|that|which|and|but|downtown|outside|up|back|together|now|too)\b|\s*[,.;!?]|\s*$)"
)
_FAVORITE = gated(
    r"\bmy\s+(?:all[- ]time\s+)?(?:favou?rite|fave|fav)\s+"
    r"(?P<kind>thing\s+to\s+do|[a-z]+(?:\s+[a-z]+)?)\s+"
    r"(?:is|are|has to be|would be|'s)\s+(?P<v>[^.,;!?]+)|^(?P<v2>[^,;!?]+?)\s+(?:is|are)\s+"
    r"my\s+(?:all[- ]time\s+)?(?:favou?rite|fave|fav)\s+(?P<kind2>thing\s+to\s+do\b|"
    r"[a-z]+(?:\s+[a-z]+)?)"
)
# the verbs of liking read here into a preference (a verb of feeling they lack is read
# by :mod:`.feeling_verbs`)
LIKING_VERBS = (
    "love", "like", "enjoy", "adore", "prefer", "hate", "dislike", "detest", "loathe",
    "stand", "care for",
)  # fmt: skip
_PREFER = icase(
    r"\b(?:I|we)\s+(?:(?P<neg>don't|never|didn't use to|can't|have never)\s+)?(?P<verb>"
    + "|".join(LIKING_VERBS)
    + r"|have loved|have liked|"
    r"have enjoyed|have always loved|have hated|liked|loved|enjoyed)\b(?:\s+(?:love|like))*"
    r"\s+(?P<rest>[^.;!?]+)"
)
_FAN = icase(
    r"\b(?:(?:I'm|we're)\s+(?P<neg>not\s+)?(?:an?\s+(?:big\s+|huge\s+|massive\s+|great\s+)?"
    r"fan\s+of|into|obsessed with|crazy about|a sucker for|hooked on|(?:that\s+|too\s+)?big "
    r"on)|(?:I|we)\s+can't get enough of)\s+(?P<rest>[^.;!?]+)"
)
_PERSON_FAN = gated(
    r"\b(?:I'm|we're)\s+(?P<neg>not\s+)?an?\s+(?:(?:big|huge|massive|real|total|diehard|"
    r"die-hard)\s+)?(?P<rest>[\w' -]+?)\s+(?:person|fan|lover|addict|nerd|junkie)\b"
)
_IDIOM = icase(
    r"^(?P<rest>[a-z][\w' -]{1,40}?)\s+(?:(?P<neg>isn't|aren't|is not|are not)|is|are)\s+"
    r"(?:really\s+|totally\s+|so\s+|definitely\s+|exactly\s+)?(?:my|our)\s+(?:jam|thing|"
    r"weakness|guilty pleasure|go-to|happy place|cup of tea|vibe|kryptonite)\b"
)
_HABIT = icase(r"\bI have been\s+(?P<v>[a-z]+ing)\b(?=[^.;!?]*\bsince\b)")
# an activity done often: "I swim every morning", "I run five miles every day", "I go
# hiking most weekends", "I paint in my spare time": a verb, what or where it is done
# (a few words, no clause of its own), then how often
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_HOW_OFTEN = (
    rf"(?:(?:every|most|each)\s+(?:other\s+)?(?:day|morning|afternoon|evening|night|week|"
    rf"weekend|{_DAYS})s?|daily|regularly|(?:once|twice|three times|four times|a few times)\s+a\s+"
    rf"(?:day|week)|on\s+(?:the\s+)?(?:weekends|{_DAYS})|in\s+(?:my|his|her|their)\s+(?:spare|"
    rf"free)\s+time)"
)
_OFTEN = gated(
    r"\bI\s+(?:usually\s+|also\s+|still\s+|try to\s+|often\s+)?"
    r"(?:(?P<go>go)\s+(?P<pre>[a-z]+\s+)?)?(?P<v>[a-z]+)(?P<rest>(?:\s+(?!(?:and|but|or|because|if|when|so|that|who|I)\b)"
    rf"[a-z'-]+){{0,5}}?)\s+{_HOW_OFTEN}\b"
)
# where the words after the verb stop being what is done: "run | along the river"
_NOT_OBJECT = icase(
    r"(?:to|along|in|at|on|around|with|before|after|by|near|through|for|from|"
    r"into|across|up|down|over|outside|my|his|her|their|our)$"
)
# a pastime or a drink had as a habit: "I play chess", "I do pottery", "I drink a lot
# of tea"; the object's domain word decides what it is
_PLAY_OR_DRINK = icase(
    r"\bI\s+(?:usually\s+|also\s+|still\s+|often\s+|regularly\s+)?(?P<verb>play|do|"
    r"practi[cs]e|drink)\s+(?:(?:way\s+)?(?:too\s+much|a\s+lot\s+of|lots\s+of|so\s+much)\s+)?"
    r"(?P<v>[a-z][a-z' -]*?)(?=\s+(?:every|most|each|on|at|with|in|after|before|daily|"
    r"regularly|twice|almost|whenever|when|probably|like)\b|\s*[,.!;]|\s*$)"
)
_PASTIMES = {"sport": "sport", "activity": "activity", "hobby": "hobby", "game": "hobby"}
_NATIONALITY = icase(rf"^(?P<n>{alternation(vocab.NATIONALITIES)})\s+(?P<head>\w+)$")
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
# the scope tags of a preference domain
PREFERENCE_TAGS: dict[str, tuple[str, ...]] = {
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


def _gerund(verb: str) -> str:
    verb = verb.lower()
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if _SHORT_CVC.fullmatch(verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


class PreferenceReader(Collector):
    """Reads preferences and possessions."""

    def __init__(self, reference: datetime) -> None:
        super().__init__(reference)
        # a make or breed read beside the sentence: its stance is still read whole
        # ("my laptop is an old Mac" owns a Mac and is a state of old equipment)
        self.kinds_read: list[ExtractedFact] = []

    def _possession(self, c: Clause) -> None:
        m: re.Match[str] | None
        for m in _OWN.finditer(c.base):
            verb = m.group("verb").lower()
            thing = phrases.bare(m.group("v"))
            if not thing or phrases.refers(thing):
                continue
            gone = verb in {"sold", "gave away", "got rid of"} or (
                verb.startswith("don't") and c.anymore
            )
            negated = verb.startswith("don't") and not c.anymore
            if negated and _OWNER_GIVEN.search(c.evidence):
                continue  # "I don't own a boat, that's my uncle's"
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
        m = _OWN_ANY.search(c.text)
        owned = phrases.bare(m.group("v")) if m else ""
        if owned and not phrases.refers(owned) and not self._owned(owned):
            self.add(c, Cat.POSSESSION, "owns", owned)
        m = _BOUGHT_BRAND.search(c.text)
        brand = phrases.name(m.group("v")) if m else None
        if m and brand and not self._owned(brand):  # "a Fender guitar" read: not "Fender"
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

    def _kind_owned(self, c: Clause, said: Copula) -> None:
        """The make or breed of a thing or pet the speaker has ("my car is a Toyota", "my
        dog is a poodle"): something they own, by its kind."""
        kind = kind_owned(said)
        if kind and not self._owned(kind):
            named = not kind.islower()
            before = len(self.facts)
            self.add(c, Cat.POSSESSION, "owns", kind, obj=kind if named else None,
                     obj_type=ET.THING if named else None)  # fmt: skip
            self.kinds_read += self.facts[before:]

    def _owned(self, thing: str) -> bool:
        """Whether a possession read from this message already names ``thing``: by its
        end ("an old Mac" after "Mac") or as one of its words ("Fender" after "Fender
        guitar")."""
        said = thing.casefold()
        return any(
            f.category is Cat.POSSESSION
            and (said.endswith(f.value.casefold()) or said in f.value.casefold().split())
            for f in self.facts
        )

    def _preference(self, c: Clause) -> None:
        m = _FAVORITE.search(c.text)
        if m:
            kind = (m.group("kind") or m.group("kind2") or "").lower()
            value = phrases.clean(m.group("v") or m.group("v2") or "")
            slot = vocab.FAVORITE_KINDS.get(kind) or vocab.FAVORITE_KINDS.get(kind.split()[-1])
            if slot and value and not phrases.refers(value):
                domain = lx.DOMAIN_WORDS.get(slot.replace("_", " "), slot)
                self.add(
                    c,
                    Cat.PREFERENCE,
                    f"favorite_{slot}",
                    value,
                    multi=False,
                    tags=PREFERENCE_TAGS.get(domain, ()),
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
        habit = lx.DOMAIN_WORDS.get(m.group("v").lower(), "") if m else ""
        if m and habit in {"hobby", "activity", "sport"}:
            self.add(c, Cat.PREFERENCE, habit, m.group("v").lower(), confidence=0.6, timing="start")
        m = _OFTEN.search(c.timed)  # "I swim every morning": the activity, as said
        often = self._often(m) if m else None
        if often:
            self.add(c, Cat.PREFERENCE, often[0], often[1], confidence=0.6)
        self._pastime(c)

    @staticmethod
    def _often(m: re.Match[str]) -> tuple[str, str] | None:
        """What an activity done often is ("hobby", "bake bread"): the verb, with its
        object when that names a thing one likes ("go hiking": "hiking"), when the verb
        names a pastime."""
        verb = m.group("v").lower()
        if m.group("go"):
            if not verb.endswith("ing"):
                return None
            value = f"{(m.group('pre') or '').lower()}{verb}"
            kind = lx.domain_of(value)
        else:
            kind = lx.DOMAIN_WORDS.get(_gerund(verb))
            what: list[str] = []
            for word in m.group("rest").split()[:3]:
                if _NOT_OBJECT.match(word):
                    break
                what.append(word.lower())
            # the object when it names a thing liked ("bake bread"), not a measure ("run
            # five miles": "run")
            obj = " ".join(what)
            value = f"{verb} {obj}" if obj and lx.domain_of(obj) else verb
        return (kind, value) if kind in {"hobby", "activity", "sport"} else None

    def _pastime(self, c: Clause) -> None:
        """A pastime played or done, or a drink drunk, as a habit ("I play chess most
        evenings", "I drink way too much coffee"); "I don't ..." is not read here."""
        m = _PLAY_OR_DRINK.search(c.text)
        if m is None:
            return
        value = phrases.bare(m.group("v"))
        domain = lx.domain_of(value) if value else None
        drink = m.group("verb").lower() == "drink"
        if value and domain is None and m.group("verb").lower() == "play":
            domain = lx.domain_of(f"playing {value}")  # "I play guitar": playing guitar
        kind = ("drink" if domain == "drink" else None) if drink else _PASTIMES.get(domain or "")
        if value and kind and all(f.value != value for f in self.facts):
            tags = PREFERENCE_TAGS.get(kind, ())
            self.add(c, Cat.PREFERENCE, kind, value, confidence=0.6, tags=tags)

    def _liked(self, c: Clause, rest: str, *, polarity: bool) -> None:
        rest = _MORE_THAN.sub("", rest.strip())  # "nothing I love more than a swim"
        infinitive = _INFINITIVE.match(rest)
        if infinitive:
            rest = _gerund(infinitive.group(1)) + infinitive.group(2)
        full = _PUNCTUATION.split(phrases.join_adjectives(rest), maxsplit=1)[0].strip()
        going = _GOING.match(full)
        if going:
            full = full[going.end() :]
        mine = _MINE.match(full)
        if mine and lx.DOMAIN_WORDS.get(mine.group(1).lower()) in {"food", "drink"}:
            full = mine.group(1)
        head = phrases.OBJ_STOP.sub("", full).strip()
        if not head or phrases.refers(head) or len(head.split()) > 6:
            return
        if phrases.NOT_AN_ITEM.fullmatch(head) or head.lower() in _INTENSIFIERS:
            return
        article = _ARTICLE.match(head) is not None
        if _POSSESSED.match(head):
            return
        readings: list[tuple[str | None, str]] = []
        for item in phrases.items(head):
            nation = _NATIONALITY.match(item)
            if nation and nation.group("head").lower() in _NATIONAL_HEADS:
                readings.append((_NATIONAL_HEADS[nation.group("head").lower()], nation.group("n")))
                continue
            kind = lx.domain_of(item)
            first = item.split()[0].lower()
            if kind is None and first.endswith("ing") and first not in lx.DOMAIN_WORDS:
                continue  # "getting lost", "curling up": no object to remember
            hobby = lx.DOMAIN_WORDS.get(first)
            if kind in {"food", "drink"} and hobby in {"hobby", "activity"}:
                kind = hobby  # "baking bread" is baking
            readings.append((kind, item))
        fallback = next((k for k, _ in reversed(readings) if k), None) or lx.domain_of(full)
        if fallback is None and going:
            fallback = "activity"
        for domain, value in readings:
            kind = domain or fallback
            item = value
            if kind is None and item.lower() in vocab.NATIONALITIES:
                kind = "cuisine"
            if kind is None:
                proper = _PROPER.fullmatch(item) is not None
                if infinitive or item.lower().endswith("ing") or not (proper or " " not in item):
                    continue
                if article:
                    continue
                kind = "travel" if item.lower() in COUNTRIES and proper else "general"
            self.add(
                c,
                Cat.PREFERENCE,
                kind,
                value,
                polarity=polarity,
                tags=PREFERENCE_TAGS.get(kind, ()),
                confidence=0.6 if kind == "general" else None,
            )
