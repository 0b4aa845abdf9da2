"""Coreference without an LLM: who "she", "his" or "my sister" is.

A :class:`Discourse` follows the people a conversation names, in order, each with what
tells their pronoun: the relation word the speaker gave them ("my sister Sarah"), a
title ("Mrs Patel"), or a first name the shipped list knows (``text/gazetteer.py``).
Before a sentence is read, :meth:`Discourse.resolve` rewrites what refers back to one
of them with their name, so the detectors read "Sarah Jones just got promoted" from
"She just got promoted", and returns each rewrite as a :class:`Link` with its
evidence (kept on the facts read from the sentence).

- "he"/"she" (subject, object, "his"/"her" before a noun) is the most recent person
  whose pronoun is known and matches; a more recent person whose pronoun is unknown,
  or two matching people named in that same sentence, leave it unresolved (no guess);
- "they"/"them"/"their" is left alone: a group or an unknown person, never guessed;
- "my sister", "my boss" (with no name after them) is the one person that role was
  given to in the window; a relative of someone else ("Jamal and his wife Nia") tells
  her pronoun (and "his" his), never who "my wife" is;
- the speaker ("I", the message's author) is never a third person's antecedent.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.patterns import MODS, NAME1, REL, icase
from cognimem.models.extraction import Link
from cognimem.text.gazetteer import Gender, first_name_gender
from cognimem.text.names import normalize_name

__all__ = ["Discourse", "Link", "may_refer"]

_FEMALE_ROLES = frozenset(
    ["sister", "mother", "wife", "daughter", "aunt", "niece", "girlfriend", "grandmother",
     "sister-in-law", "mother-in-law", "daughter-in-law"]
)  # fmt: skip
_MALE_ROLES = frozenset(
    ["brother", "father", "husband", "son", "uncle", "nephew", "boyfriend", "grandfather",
     "brother-in-law", "father-in-law", "son-in-law"]
)  # fmt: skip
_TITLE_GENDER: dict[str, Gender] = {"mrs": "f", "ms": "f", "miss": "f", "mr": "m"}
_PRONOUN_GENDER: dict[str, Gender] = {
    "she": "f", "her": "f", "hers": "f", "he": "m", "him": "m", "his": "m",
}  # fmt: skip
# a third-person singular pronoun, a role reference, or "they" (checked, never resolved)
_REFERS = icase(rf"\b(?:she|he|her|him|his|my\s+{MODS}(?:{REL}))\b")
_SUBJECT = icase(r"(?:^|(?<=[,;:]\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s)|(?<=\bbecause\s))"
                 r"(?P<p>she|he)\b(?!')")  # fmt: skip
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
_ROLE = icase(rf"\bmy\s+{MODS}(?P<rel>{REL})\b(?!\s*,?\s*{NAME1})(?!\s+(?:and|or)\s+I\b)")


@dataclass
class _Person:
    name: str
    gender: Gender | None
    roles: list[str] = field(default_factory=list)
    sentence: int = 0
    position: int = 0  # where in that sentence they were last named

    @property
    def why(self) -> str:
        if self.roles:
            return f"as my {self.roles[-1]}"
        return "by name"


def may_refer(text: str) -> bool:
    """Whether ``text`` has anything :meth:`Discourse.resolve` could rewrite (cheap)."""
    return _REFERS.search(text) is not None


class Discourse:
    """The people named so far in a conversation window, most recent last."""

    def __init__(self, speakers: tuple[str, ...] = ()) -> None:
        self._people: dict[str, _Person] = {}
        self._speakers = {normalize_name(s) for s in speakers if s}
        self._sentence = 0
        # the window talked of someone's job ("Karen is leaving the company"): "she's
        # joining Fabrikam" then names an employer
        self.about_work = False

    def next_sentence(self) -> None:
        self._sentence += 1

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
        if role:
            if mine:
                person.roles.append(role)
            person.gender = _role_gender(role) or person.gender  # the words said win
        person.sentence, person.position = self._sentence, position
        self._people[key] = person  # re-inserted: the most recent is last

    def resolve(self, sentence: str) -> tuple[str, list[Link]]:
        """``sentence`` with each resolvable reference replaced by its person's name."""
        if not self._people or not may_refer(sentence):
            return sentence, []
        links: list[Link] = []

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
                person = self._antecedent(_PRONOUN_GENDER[said.lower()])
                if person is None:
                    return m.group(0)
                noun = "woman" if person.gender == "f" else "man"
                why = f"{said.lower()}: the latest {noun} named ({person.why})"
                links.append(Link(said=said, name=person.name, evidence=why))
                return f"{person.name}'s " if possessive else person.name

            return sub

        text = _IS.sub(r"\g<p> is", _HAS.sub(r"\g<p> has", sentence))
        text = _ROLE.sub(by_role, text)
        text = _SUBJECT.sub(by_pronoun(False), text)
        text = _POSSESSIVE.sub(by_pronoun(True), text)
        text = _OBJECT.sub(by_pronoun(False), text)
        said = sentence.strip()
        return text, [link.model_copy(update={"sentence": said}) for link in links]

    def _antecedent(self, gender: Gender) -> _Person | None:
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
