"""Reading one message: its sentences in order, with the conversation so far.

Each sentence is read with its references resolved (:mod:`.coref`: "she" is who the
conversation says), the people it names noted for the next (:mod:`.mentions`), and a
sentence that takes back the one before ("Kidding!") drops that one's facts; a value
corrected inside its sentence is read as corrected (:mod:`.corrections`), and words
about the conversation ("if that helps", "after all") are left out (:mod:`.asides`). A plain
statement about a person the conversation named that the detectors read nothing about
them in ("Linda has pneumonia") is read again as that person's own words ("I have
pneumonia", :mod:`.third_person`), its facts theirs. At the end a single-valued fact
that no longer holds ends when its successor in the message begins, and the names
mentioned become entities unless a fact already typed them.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.asides import without_asides
from cognimem.ingest.extract.clauses import unify
from cognimem.ingest.extract.coref import Discourse, introduced, names_pronouns
from cognimem.ingest.extract.corrections import corrected
from cognimem.ingest.extract.earnest import takes_back
from cognimem.ingest.extract.kinds import kind_of
from cognimem.ingest.extract.mentions import MentionReader
from cognimem.ingest.extract.patterns import icase
from cognimem.ingest.extract.sentence_reader import SentenceReader
from cognimem.ingest.extract.stance_forms import joined_refusals
from cognimem.ingest.extract.third_person import as_first_person
from cognimem.ingest.extract.work_phrases import talks_of_school, talks_of_work
from cognimem.models.extraction import Link
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.sentences import split_sentences

__all__ = ["MessageReader"]

# what a person's statement read as the speaker's own may not say about them: whose
# relative or name it is belongs to the speaker's words, not theirs
_NOT_THIRD_PERSON = frozenset({Cat.RELATIONSHIP, "identity/name", "identity/nickname"})
_SPEAKER_WORD = icase(r"\b(?:i|i'm|i've|me|my)\b")
_OWN = frozenset({"his", "her"})
# ... except the relatives they have: "Ana has two daughters" ("I have two daughters")
_HAS_RELATIVES = icase(
    r"\bI\s+(?:(?:just|also|still|now)\s+)?(?:have|own|keep)\s+(?:got\s+)?(?:an?|one|two|"
    r"three|four|"
    r"five|six|\d+|twin|several|a few)\b"
)
_MY = icase(r"\bmy\b")


def _theirs(value: str, possessive: str | None) -> str:
    """``value`` read from a person's words said as the speaker's, with "my" theirs
    again when the sentence said "his" / "her" of them."""
    return _MY.sub(possessive, value) if possessive else value


class MessageReader(SentenceReader, MentionReader):
    """Reads one message: its sentences, then each sentence's clauses
    (:class:`~.sentence_reader.SentenceReader`) and the names it mentions."""

    def read(self, text: str, discourse: Discourse) -> None:
        self.work_window, self.pet_window = discourse.about_work, discourse.about_pets
        last = len(self.facts)
        for said_first in split_sentences(joined_refusals(unify(text))):
            sentence = corrected(said_first)  # "in Leeds, sorry, I mean Bradford"
            if takes_back(sentence):  # "I'm moving to Alaska. Kidding!"
                del self.facts[last:]
            last = len(self.facts)
            discourse.about_work |= talks_of_work(sentence)
            discourse.about_school |= talks_of_school(sentence)
            self.school_window = discourse.about_school
            said, links = discourse.resolve(sentence)
            facts, mentions = len(self.facts), len(self.mentioned)
            self._mentions(said)
            read = without_asides(said)  # "in Denver, if that helps": kept as evidence
            self._sentence(read, evidence=said.strip() if read != said else None)
            self._note_people(discourse, said, facts, mentions)
            # a job read of anyone: "she's at Intel" in a later sentence is work
            discourse.about_work |= any(f.category is Cat.OCCUPATION for f in self.facts[facts:])
            self.work_window |= discourse.about_work
            discourse.about_pets |= self.pet_window
            if names_pronouns(said):
                discourse.hear(said)  # "Alex uses they/them"
            self._about_person(read, discourse, facts, links)
            self.unnamed_relatives(said, facts)
            if links:  # also on what was read as the person's own words ("He wants ...")
                self._keep_links(sentence, links, facts)
            discourse.next_sentence()
        self._close_old_values()
        # a fact's typing of a name wins; another name of someone (a nickname, the
        # user's own name) is an alias, not an entity of its own
        other_names = {a.casefold() for e in self.entities.values() for a in e.aliases}
        other_names |= {f.value.casefold() for f in self.facts if f.category is Cat.IDENTITY}
        for name, kind in self.mentioned:
            if name.casefold() not in other_names:
                self.entity(name, kind)

    def _about_person(self, said: str, discourse: Discourse, since: int, links: list[Link]) -> None:
        """A plain statement about a person the conversation named, that the detectors
        found nothing in about them ("Linda has pneumonia"), read as that person's own
        ("I have pneumonia"): what it states is about them (``third_person.py``)."""
        about = as_first_person(said)
        # named before as a person, or by a first name the shipped lists hold, or a
        # relative left unnamed ("My wife is allergic to shellfish")
        if about is None or not (
            about.relative or discourse.is_person(about.name) or kind_of(about.name) is ET.PERSON
        ):
            return
        # read already: about them, or, of a relative left unnamed, as the speaker's own
        # life ("My mom is in the hospital": the family's state; the relation itself,
        # "My partner is a vegan", is no reading of what is said of them)
        if any(
            f.subject == about.name or (about.relative and f.category is not Cat.RELATIONSHIP)
            for f in self.facts[since:]
        ):
            return
        before = len(self.facts)
        self._sentence(about.text, evidence=said.strip())
        # "his" / "her" said of them comes back in their value: "broke his hip"
        own = next(
            (k.said.lower() for k in links if k.name == about.name and k.said.lower() in _OWN),
            None,
        )
        kin = _HAS_RELATIVES.search(about.text) is not None
        read = [
            f.model_copy(update={"subject": about.name, "value": _theirs(f.value, own)})
            for f in self.facts[before:]
            if f.subject == "user"
            # a value quoting the rewrite's "I"
            and not _SPEAKER_WORD.search(_theirs(f.value, own))
            and (f.category not in _NOT_THIRD_PERSON or (kin and f.category is Cat.RELATIONSHIP))
            and not any(f is s for s in self.stances_read)  # their stance binds no answer
            and f"{f.category.value}/{f.predicate}" not in _NOT_THIRD_PERSON
        ]
        self.facts[before:] = read

    def _keep_links(self, sentence: str, links: list[Link], since: int) -> None:
        """The facts read from a rewritten sentence keep the links that name their
        subject or object; their evidence is the sentence with the names in it (found
        by a later question about the person), the sentence as said is in the links."""
        for i in range(since, len(self.facts)):
            f = self.facts[i]
            named = {f.subject, f.value, f.object_entity}
            mine = [link for link in links if link.name in named]
            if mine:
                self.facts[i] = f.model_copy(update={"coreference": mine})

    def _note_people(self, discourse: Discourse, said: str, facts: int, mentions: int) -> None:
        """Tell ``discourse`` who this sentence named, and as whom ("my sister"): first
        whom it introduced, read or not ("My friend Bram is a talented guy"), then whom
        its facts and mentions name."""
        for name, rel, at in introduced(said):
            if kind_of(name) in (ET.PERSON, ET.OTHER):
                discourse.note(
                    name, position=at, role=vocab.RELATIONS.get(rel, rel) if rel else None
                )
                if rel and rel not in vocab.RELATIONS:  # "my mentor Olusegun": a person
                    self.mentioned.append((name, ET.PERSON))
        for f in self.facts[facts:]:
            if f.subject != "user" and f.category is Cat.RELATIONSHIP:
                # "Jamal and his wife Nia": "his" tells Jamal's pronoun
                m = re.search(rf"\b{re.escape(f.subject)}\s+and\s+(his|her)\b", said, re.I)
                if m:
                    discourse.note(f.subject, position=m.start(), pronoun=m.group(1))
            if f.category is Cat.RELATIONSHIP and f.object_type is ET.PERSON and f.object_entity:
                discourse.note(f.object_entity, position=said.find(f.object_entity),
                               role=f.predicate, mine=f.subject == "user")  # fmt: skip
            elif f.subject != "user" and f.subject[:1].isupper():
                discourse.note(f.subject, position=said.find(f.subject))
        for name, kind in self.mentioned[mentions:]:
            if kind is ET.PERSON:
                discourse.note(name, position=said.find(name))

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
