"""Coreference without an LLM: who "she", "his" or "my sister" is.

A :class:`Discourse` follows the people a conversation names, in order, each with what
tells their pronoun: the relation word the speaker gave them ("my sister Sarah"), a
title ("Mrs Patel"), or a first name the shipped list knows (``text/gazetteer.py``).
Before a sentence is read, :meth:`Discourse.resolve` rewrites what refers back to one
of them with their name, so the detectors read "Sarah Jones just got promoted" from
"She just got promoted", and returns each rewrite as a :class:`Link` with its
evidence (kept on the facts read from the sentence).

- "he"/"she" (subject, also after a discourse marker or a fronted time: "Oh and he
  ...", "After college she ..."; object; "his"/"her" before a noun) is the most recent
  person whose pronoun is known and matches; a more recent person whose pronoun is
  unknown, or two matching people named in that same sentence, leave it unresolved (no
  guess); when no one of a known matching pronoun is named, the one person of unknown
  pronoun whom everyone else named rules out is it, and the pronoun tells theirs;
- "they"/"them"/"their" is left alone (a group or an unknown person, never guessed),
  except right after the one person named last, who said or was said to use "they"
  ("Alex uses they/them", "Sam is nonbinary"), in a sentence that opens with it or
  names no group and no one else before it ("I think they live in Denver", not "my
  parents came and they ..."); "she/her", "he/him" given so tell the pronoun too;
- "my sister", "my boss" (with no name after them) is the one person that role was
  given to in the window; a relative of someone else ("Jamal and his wife Nia") tells
  her pronoun (and "his" his), never who "my wife" is;
- the speaker ("I", the message's author) is never a third person's antecedent;
- a person is known from a sentence that no fact is read from too (:func:`introduced`):
  a relation word and a name ("My friend Bram is a talented guy"), or a name that opens
  the sentence with a person's noun after "is a" ("Ottilie is such a kind person") or,
  when the shipped first-name lists hold it, "is so ..." ("Sarah is so sweet"); no
  fact is written for it, only the people "he" or "she" may be grow.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.kinds import kind_of
from cognimem.ingest.extract.patterns import MODS, NAME, NAME1, REL, TITLE, gated, icase
from cognimem.ingest.extract.third_person import FRONT
from cognimem.models.extraction import Link
from cognimem.models.knowledge import EntityType as ET
from cognimem.text.gazetteer import Gender, first_name_gender, is_first_name
from cognimem.text.names import normalize_name
from cognimem.text.noun_senses import first_class

__all__ = ["Discourse", "Link", "introduced", "may_refer", "names_pronouns", "refers_back"]

# she, he, or singular "they" (said of the person, never guessed)
Pronoun = Gender | Literal["n"]

_FEMALE_ROLES = frozenset(
    ["sister", "mother", "wife", "daughter", "aunt", "niece", "girlfriend", "grandmother",
     "sister-in-law", "mother-in-law", "daughter-in-law"]
)  # fmt: skip
_MALE_ROLES = frozenset(
    ["brother", "father", "husband", "son", "uncle", "nephew", "boyfriend", "grandfather",
     "brother-in-law", "father-in-law", "son-in-law"]
)  # fmt: skip
_TITLE_GENDER: dict[str, Gender] = {"mrs": "f", "ms": "f", "miss": "f", "mr": "m"}
_PRONOUN_GENDER: dict[str, Pronoun] = {
    "she": "f", "her": "f", "hers": "f", "he": "m", "him": "m", "his": "m", "they": "n",
}  # fmt: skip
# a third-person singular pronoun, a role reference, or "they" (checked, never resolved)
_REFERS = icase(rf"\b(?:she|he|her|him|his|my\s+{MODS}(?:{REL}))\b")
_SUBJECT = icase(r"(?:^|(?<=[,;:]\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s)|(?<=\bbecause\s))"
                 r"(?P<p>she|he)\b(?!')")  # fmt: skip
# ... also after a discourse marker or a fronted time ("Oh and he's vegan", "After
# college she moved to Leeds"): the words before it are kept
_FRONTED = icase(rf"^(?P<front>{FRONT.pattern[1:]})(?P<p>she|he)\b(?!')")
_POSSESSIVE = icase(r"\b(?P<p>his|her)\s+(?=[a-z])(?!(?:to|with|for|at|in|on|about|and|"
                    r"a|an|the|that|this|some|up|out|off|back|again|too|so)\b)")  # fmt: skip
# "him", "her" as an object: before the clause ends or a preposition, or before the
# name they are called ("everyone calls him Will")
_OBJECT = icase(r"(?<=\s)(?P<p>him|her)\b(?=\s*(?:[,.!?;]|$|\b(?:to|with|for|about|at|"
                r"and|yesterday|today|tonight|again|too|back|up)\b))|"
                r"(?:(?<=\bcall )|(?<=\bcalls ))(?P<q>him|her)\b"
                r"(?=\s+(?-i:[A-Z][a-z]))")  # fmt: skip
# "she's" spelled out, so that it reads as the person's name and a verb ("Nia is a
# cellist", "Linda has been sick"), not as a possessive ("Nia's")
_HAS = icase(r"\b(?P<p>she|he)'s(?=\s+(?:been|got|gotten)\b)")
_IS = icase(r"\b(?P<p>she|he)'s\b")
# the pronouns someone uses, said of them: "Alex uses they/them", "Sam's pronouns are
# she/her", "my friend Sam is nonbinary" (they)
_GIVEN = icase(
    rf"(?P<name>{NAME1})(?:'s pronouns are|\s+(?:uses|goes by|prefers))\s+(?P<p>they|she|he)/"
    r"(?:them|her|him|theirs|hers|his)\b|"
    rf"(?P<who>{NAME1})(?:'s|\s+is)\s+(?:non-?binary|enby|genderqueer|genderfluid|agender)\b"
)
_GIVEN_WORDS = ("binary", "enby", "queer", "fluid", "agender")
# a word without which _GIVEN cannot match, in one scan: most sentences hold none
_GIVEN_HINT = gated("/|" + "|".join(_GIVEN_WORDS))
# a sentence that opens with singular "they": the verb after it agrees with one person
_THEY_LEAD = icase(r"^(?:(?:oh|so|and|but|well|also|anyway),?\s+)?(?:they|their)\b")
# a verb in the present after "they", read with one person as its subject: "they live"
# -> "lives" (past forms, modals and adverbs before it are left as they are)
_VERB_AFTER = re.compile(
    r"(?P<adv>(?:\s+(?:still|also|just|really|always|never|usually|often|sometimes|now|"
    r"currently|mostly|only|actually|finally))*)\s+(?P<verb>[a-z]+)\b(?!')"
)
_NOT_PRESENT = frozenset(
    ["can", "could", "will", "would", "should", "might", "must", "may", "shall", "did",
     "had", "used", "got", "went", "was", "were", "is", "has", "does", "am", "and", "or",
     "but", "to", "not"]
)  # fmt: skip
_THEY = icase(
    r"\b(?P<p>they)(?P<be>'re|'ve|\s+(?:are|were|have|do|don't|aren't|weren't|haven't)\b)?"
    r"|\b(?P<their>their)(?=\s+[a-z])|(?<=\s)(?P<them>them)\b"
)
_THEY_ANY = icase(r"\b(?:they|their|them)\b")
# before a "they" inside a sentence, words that may name who else "they" is: a group
# ("my parents", "the kids") or anyone by name
_OTHERS_BEFORE = re.compile(
    r"\b(?i:my|our|the|these|those|some|all|both|his|her|your)\s+(?:[\w-]+\s+)?[\w-]*s\b|"
    r"(?<!^)\b(?!I\b|I')[A-Z][a-z]+"
)
_FIRST_WORD = re.compile(r"^\W*(?P<w>[A-Z][a-z]+)\b")
# a capitalised word that may be a short form of a name said before ("Dom" for "Dominic
# Price"): three letters or more, no possessive or hyphen after it
_SHORT = re.compile(r"\b[A-Z][a-z]{2,}\b(?!['-])")
# ... not in a sentence about names ("Niko is his nickname", "we call him Teddy"): there
# the other name is what is said
_NAMING = gated(r"\b(?:(?:nick)?names?|short for|go(?:es)? by|known as|aka|calls?|called)\b")
_AGREE = {
    "'re": " is", " are": " is", " were": " was", "'ve": " has", " have": " has",
    " do": " does", " don't": " doesn't", " aren't": " isn't", " weren't": " wasn't",
    " haven't": " hasn't",
}  # fmt: skip
_ROLE = icase(rf"\bmy\s+{MODS}(?P<rel>{REL})\b(?!\s*,?\s*{NAME1})(?!\s+(?:and|or)\s+I\b)")

# a person introduced with no fact: "my friend Bram", "Ottilie is such a kind person"
_MY_REL_NAMED = gated(rf"\bmy\s+{MODS}(?P<rel>{REL})\s*,?\s+(?P<v>{NAME})\b(?!')")
# ... a name said as one, capital and small letters ("GP" is an abbreviation)
_MY_NOUN_NAMED = icase(
    rf"\bmy\s+{MODS}(?P<noun>[a-z]+)\s*,?\s+(?:{TITLE}\s+)?(?P<v>(?=(?-i:[A-Z][a-z])){NAME})\b(?!')"
)
_NAME_IS_A = icase(
    rf"^(?P<v>{NAME1})\s+(?:is|was)\s+(?:(?:such|really|truly|just|always|quite)\s+)?"
    r"an?\s+(?:[a-z-]+\s+){0,3}?(?P<noun>[a-z]+)\s*(?:[.!,;]|$)"
)

# ... or said to be so by a first name the shipped lists hold: "Sarah is so sweet"
_NAME_IS_SO = icase(
    rf"^(?P<v>{NAME1}(?:\s+{NAME1})?)\s+(?:is|was)\s+(?:so|such|really|very|super|always|"
    r"truly|honestly|incredibly|pretty)\s+[a-z]"
)


@dataclass
class _Person:
    name: str
    gender: Pronoun | None
    roles: list[str] = field(default_factory=list)
    sentence: int = 0
    position: int = 0  # where in that sentence they were last named
    given: bool = False  # their pronouns were said ("uses they/them"): no role overrides

    @property
    def why(self) -> str:
        if self.roles:
            return f"as my {self.roles[-1]}"
        return "by name"


def introduced(sentence: str) -> list[tuple[str, str | None, int]]:
    """The people ``sentence`` introduces, with no fact needed: each name with the
    relation word given it (None when named alone) and where it stands."""
    low = sentence.lower()
    found = []
    if "my " in low:
        found = [(m["v"], m["rel"].lower(), m.start("v")) for m in _MY_REL_NAMED.finditer(sentence)]
        # "my mentor Olusegun", "my trainer Kwabena": a noun naming a person first of all
        for said in _MY_NOUN_NAMED.finditer(sentence):
            noun = said["noun"].lower()
            if (
                noun not in vocab.RELATIONS
                and first_class(noun) == "person"
                and said["v"].lower() not in vocab.NOT_NAMES  # "my parents I ..."
            ):
                found.append((said["v"], noun, said.start("v")))
    m = _NAME_IS_A.match(sentence.strip()) if " a" in low else None
    if (
        (m and (m["noun"].lower() == "person" or first_class(m["noun"].lower()) == "person"))
        or ((m := _NAME_IS_SO.match(sentence.strip())) and kind_of(m["v"]) is ET.PERSON)
    ) and m["v"].lower() not in vocab.NOT_NAMES:  # "He is a vegan", no one before: nobody
        found.append((m["v"], None, m.start("v")))
    return found


def may_refer(text: str) -> bool:
    """Whether ``text`` has anything :meth:`Discourse.resolve` could rewrite (cheap)."""
    return _REFERS.search(text) is not None or _THEY_LEAD.match(text.lstrip()) is not None


def refers_back(text: str, window: tuple[str, ...]) -> bool:
    """Whether ``text`` may refer to someone named in ``window`` (cheap): "she", "my
    sister", or "they" when the window says what pronouns someone uses."""
    if _REFERS.search(text) is not None or _shortens(text, window):
        return True
    return _THEY_ANY.search(text) is not None and any(map(names_pronouns, window))


def short_forms(text: str) -> set[str]:
    """The capitalised words of ``text`` that may be short forms of a name said before
    ("Dom"), lower-cased: no pronoun, function word or common noun that is no first
    name (cheap; whether one shortens a person's name is the caller's question)."""
    return {low for w in _SHORT.findall(text) if _may_shorten(w, low := w.lower())}


def _may_shorten(word: str, low: str) -> bool:
    return not (
        low in _PRONOUN_GENDER
        or low in vocab.NOT_NAMES
        or (not is_first_name(word) and first_class(low) is not None)
    )


def _shortens(text: str, window: tuple[str, ...]) -> bool:
    """Whether a capitalised word of ``text`` opens a longer one in ``window`` ("Dom",
    "Dominic"): a short form of a name said before, perhaps (cheap)."""
    words = {w for w in _SHORT.findall(text) if w.lower() not in vocab.NOT_NAMES}
    return bool(words) and any(re.search(rf"\b{w}[a-z]", said) for w in words for said in window)


def names_pronouns(text: str) -> bool:
    """Whether ``text`` says what pronouns someone uses (cheap)."""
    if _GIVEN_HINT.search(text) is None:
        return False
    return _GIVEN.search(text) is not None


class Discourse:
    """The people named so far in a conversation window, most recent last."""

    def __init__(self, speakers: tuple[str, ...] = ()) -> None:
        self._people: dict[str, _Person] = {}
        self._speakers = {normalize_name(s) for s in speakers if s}
        self._sentence = 0
        # the window talked of someone's job ("Karen is leaving the company"): "she's
        # joining Fabrikam" then names an employer
        self.about_work = False
        # ... or of a pet: "she named it Pepper" then names one
        self.about_pets = False
        # ... or of school: "she's going to Purdue in the fall" then names one
        self.about_school = False
        # every reference :meth:`resolve` made, in order: a sentence the rules read no
        # fact from ("Her clinic is in Brooklyn") still links its item to the person
        self.heard: list[Link] = []

    def next_sentence(self) -> None:
        self._sentence += 1

    @property
    def _they(self) -> bool:
        """Whether someone named so far uses "they"."""
        return any(p.gender == "n" for p in self._people.values())

    @property
    def known(self) -> bool:
        return bool(self._people)

    def is_person(self, name: str) -> bool:
        """Whether the conversation named ``name`` as a person."""
        return normalize_name(name) in self._people

    def note(
        self,
        name: str,
        *,
        position: int = 0,
        role: str | None = None,
        mine: bool = True,
        pronoun: str | None = None,
    ) -> None:
        """``name`` was said in the current sentence (as ``role``: "sister", "boss"; the
        speaker's own unless not ``mine``: "Jamal and his wife Nia" tells her pronoun,
        not who "my wife" is; ``pronoun``: "his" said of them)."""
        key = normalize_name(name)
        if not key or key in self._speakers or key == "user":
            return
        person = self._people.pop(key, None) or _Person(name, _gender_of(name))
        if pronoun:
            person.gender = _PRONOUN_GENDER.get(pronoun.lower(), person.gender)
            person.given = person.given or pronoun.lower() in {"they", "she", "he"}
        if role:
            if mine:
                person.roles.append(role)
            if not person.given:  # the words said win
                person.gender = _role_gender(role) or person.gender
        person.sentence, person.position = self._sentence, position
        self._people[key] = person  # re-inserted: the most recent is last

    def resolve(self, sentence: str) -> tuple[str, list[Link]]:
        """``sentence`` with each resolvable reference replaced by its person's name."""
        if not self._people:
            return sentence, []
        links: list[Link] = []
        text = sentence
        if not _NAMING.search(sentence):
            text = _SHORT.sub(lambda m: self._short_form(m.group(0), links), sentence)
        if not links and not (may_refer(sentence) or (self._they and _THEY_ANY.search(sentence))):
            return sentence, []

        def by_role(m: re.Match[str]) -> str:
            role = vocab.RELATIONS.get(m.group("rel").lower(), m.group("rel").lower())
            holders = [p for p in self._people.values() if role in p.roles]
            if len(holders) != 1:
                return m.group(0)
            why = f"{m.group(0)}: the one person named as my {role}"
            links.append(Link(said=m.group(0), name=holders[0].name, evidence=why))
            return holders[0].name

        def by_pronoun(possessive: bool) -> Callable[[re.Match[str]], str]:
            def sub(m: re.Match[str]) -> str:
                said = m.group("p") or m.group("q")
                gender = _PRONOUN_GENDER[said.lower()]
                person = self._antecedent(gender)
                only = None if person else self._only_one(gender)
                if only is not None:
                    person, only.gender = only, gender  # the pronoun tells theirs from now on
                if person is None:
                    return m.group(0)
                noun = "woman" if person.gender == "f" else "man"
                why = f"{said.lower()}: the latest {noun} named ({person.why})"
                if only is not None:
                    why = (
                        f"{said.lower()}: the only person named who may be a {noun} ({person.why})"
                    )
                links.append(Link(said=said, name=person.name, evidence=why))
                return f"{person.name}'s " if possessive else person.name

            return sub

        text = _IS.sub(r"\g<p> is", _HAS.sub(r"\g<p> has", text))
        text = self._singular_they(text, links)
        text = _ROLE.sub(by_role, text)
        subject = by_pronoun(False)

        def fronted(m: re.Match[str]) -> str:
            name = subject(m)
            return m.group(0) if name == m.group(0) else m.group("front") + name

        text = _FRONTED.sub(fronted, text, count=1)
        text = _SUBJECT.sub(subject, text)
        text = _POSSESSIVE.sub(by_pronoun(True), text)
        text = _OBJECT.sub(by_pronoun(False), text)
        said = sentence.strip()
        made = [link.model_copy(update={"sentence": said}) for link in links]
        self.heard += made
        return text, made

    def hear(self, sentence: str) -> None:
        """Learn the pronouns ``sentence`` says someone uses ("Alex uses they/them")."""
        for m in _GIVEN.finditer(sentence):
            name = m.group("name") or m.group("who")
            self.note(name, position=m.start(), pronoun=m.group("p") or "they")

    def _singular_they(self, text: str, links: list[Link]) -> str:
        """``text`` with "they" / "them" / "their" as the one person named last, when
        that person uses "they" and nothing before the first of them in the sentence
        may name who else they are (see the module docstring)."""
        first = _THEY_ANY.search(text)
        if first is None:
            return text
        ordered = sorted(self._people.values(), key=lambda p: (p.sentence, p.position))
        last = ordered[-1] if ordered else None
        if last is None or last.gender != "n":
            return text
        if any(p.sentence == last.sentence for p in ordered[:-1]):
            return text  # two people named together: "they" may be both
        before = text[: first.start()].replace(last.name, "")
        lead = _FIRST_WORD.match(before)  # "Jo and I think they ...", not "Honestly, they"
        if not _THEY_LEAD.match(text.lstrip()) and (
            _OTHERS_BEFORE.search(before) or (lead and first_name_gender(lead["w"]))
        ):
            return text  # "my parents visited and they ...": a group, or someone else

        def sub(m: re.Match[str]) -> str:
            said = m.group("p") or m.group("their") or m.group("them")
            why = f"{said.lower()}: the latest person named, who uses they ({last.why})"
            links.append(Link(said=said, name=last.name, evidence=why))
            if m.group("their"):
                return f"{last.name}'s"
            be = m.group("be")
            if be:
                return last.name + _AGREE[be.lower()]
            return last.name + ("\x00" if m.group("p") else "")

        return _VERB_AGREES.sub(_agree, _THEY.sub(sub, text)).replace("\x00", "")

    def _short_form(self, word: str, links: list[Link]) -> str:
        """The one person named so far whose first name ``word`` shortens ("Dom": Dominic
        Price), when nothing else makes it a word of its own (a pronoun, a function
        word, a common noun that is no first name: "Can", "Will"), nobody is named so
        already and their pronouns agree; else ``word`` as said."""
        low = word.lower()
        if low in self._people or not _may_shorten(word, low):
            return word
        gender = first_name_gender(word)
        fits = [
            p
            for p in self._people.values()
            if len(first := p.name.split()[0].lower()) > len(low)
            and first.startswith(low)
            and (gender is None or p.gender in (None, gender))
        ]
        if len(fits) != 1:
            return word
        why = f"{word}: a short form of {fits[0].name}, the one person named so"
        links.append(Link(said=word, name=fits[0].name, evidence=why))
        return fits[0].name

    def _antecedent(self, gender: Pronoun) -> _Person | None:
        """The most recent person of ``gender``; ``None`` when a more recent person's
        pronoun is unknown or another of the same sentence matches as well."""
        ordered = sorted(self._people.values(), key=lambda p: (p.sentence, p.position))
        for i in range(len(ordered) - 1, -1, -1):
            person = ordered[i]
            if person.gender is None:
                return None
            if person.gender != gender:
                continue
            rivals = [
                p
                for p in ordered[:i]
                if p.sentence == person.sentence and p.gender in (None, gender)
            ]
            return None if rivals else person
        return None

    def _only_one(self, gender: Pronoun) -> _Person | None:
        """The one person named so far who may be ``gender`` when nothing told their
        pronoun ("My friend Zephyrin called. He sounded happy"): every other person
        named is of another pronoun. ``None`` when there are two such or none."""
        if gender == "n":
            return None
        fits = [p for p in self._people.values() if p.gender in (None, gender)]
        return fits[0] if len(fits) == 1 and fits[0].gender is None else None


_VERB_AGREES = re.compile(rf"\x00{_VERB_AFTER.pattern}")


def _agree(m: re.Match[str]) -> str:
    """A present verb after a singular "they" in the third person singular."""
    verb = m.group("verb")
    if verb in _NOT_PRESENT or verb.endswith(("ed", "s")):
        return f"{m.group('adv')} {verb}"
    if verb == "go" or verb.endswith(("sh", "ch", "x", "z", "o")):
        verb += "es"
    elif verb.endswith("y") and verb[-2:-1] not in "aeiou":
        verb = verb[:-1] + "ies"
    else:
        verb += "s"
    return f"{m.group('adv')} {verb}"


def _gender_of(name: str) -> Gender | None:
    words = name.replace(".", " ").split()
    if len(words) > 1 and words[0].lower() in _TITLE_GENDER:
        return _TITLE_GENDER[words[0].lower()]
    return first_name_gender(name)


def _role_gender(role: str) -> Gender | None:
    if role in _FEMALE_ROLES:
        return "f"
    if role in _MALE_ROLES:
        return "m"
    return None
