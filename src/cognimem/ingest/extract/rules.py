"""The rule extractor: facts from chat messages with patterns only, no LLM.

How a message is read. It is split into sentences; a question, a hypothetical ("if I
were vegetarian", "I wish ...", "let's say ...", "I wonder if ..."), reported speech or
belief ("she said ...", "people say ...", "my mom believes ...") or hearsay
("apparently ...", "rumor has it ...", "I heard that ..."), a denial of the past ("No, I
never lived in Seattle", "we never actually moved": revision invalidates the fact it
names), a belief taken back ("I used to think I was ...") or a joke taken back ("just
kidding", or "Kidding!" as the next sentence: that one's facts are dropped), sarcasm
("/s"), a question inside a statement ("trying to figure out if I'm ...") or others'
words ("my son told his class I'm ...": :mod:`.earnest`) yields no fact; so does an
"allergy" to a time, a chore, work or an action ("allergic to Mondays", "to waking up
early"), nor does a clause that says by a figure of speech what someone or something is
("my coworker is a snake", "this heat is killing me": :mod:`.figures`), and a sentence
that laughs at itself ("lol") yields no constraint and no partner or friend named by a
name that is no one's first name ("married to Netflix lol"). Three exceptions keep a
stance read by its grammar (:mod:`.detect_choices`): one said before a question, a
hypothetical or someone's opinion of its own ("I hate camping, what's the point?", "I
can't stand crowded pubs, I'd go mad": only the stance of the statement it opens with is
read, :func:`.clauses.stated_head`), one said with a laugh ("I hate camping lol") and
one said by a figure ("Cruises are my idea of hell"); a sentence that does not mean what
it says keeps none. A "real" condition with "if" ("If I'm cooking for the kids I skip
the chilli": present in the "if" clause, a standing rule after it) is read as one with
"when". A sentence is first read whole for a causal statement ("coffee gives me
migraines"), then
split into clauses. Each clause is cleaned (contractions spelled one way, "actually",
"I think", "really" dropped, "used to" / "no longer" / "anymore" turned into flags), its
time expressions are resolved against the message's ``occurred_at``
(:mod:`~cognimem.text.temporal`) and blanked out, and the detectors read it,
most binding first: allergy, diet, policy (each ends the clause), then identity,
location, occupation, relationship, what few words say of others (:mod:`.detect_others`:
a pet someone named, "she's at Intel", a child's age in words), possession, event, then
a condition of the body
said by how it lasts (:mod:`.detect_health`: "this cough won't go away"), a stance,
goal, value or state (one of them ends the clause), then preference. A clause that opens with its
condition ("When I travel I ...") is read as the condition and what follows it; the
condition states no constraint of its own and ends the value of the stance it frames.
A detector runs only when the clause holds one of its trigger words
(``lexicon.TRIGGERS``), which keeps a typical chat sentence near 100 µs. Names after a
greeting, in object position or after a preposition of place become entities even when
no fact is read. A plain statement about a person the conversation named that the
detectors read nothing about them in ("Linda has pneumonia") is read again as that
person's own words ("I have pneumonia", :mod:`.third_person`), its facts theirs.

Conventions the fact keys rely on (keys are subject + category + predicate, + value
when multi-valued; see ``text.keys``):

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
- a stance (:mod:`.read_choices`) is a ``policy`` (``value`` when exclusive: "only buy
  ...") whose value is the whole object, polarity false for what the speaker is against:
  "I dislike apps that gamify everything" is ``policy`` = "apps that gamify everything",
  negated; "When I travel I always pack my own pillow" is "pack my own pillow when I
  travel". A reasoned stance ("I avoid X because Y") is read beside its cause;
- a constraint's predicate is its primary scope tag: for a goal the first tag
  mentioned; for a state, policy or value the first by a fixed priority
  (``_TAG_PRIORITY`` in ``detect_constraints``); for a causal statement ``health`` when
  health is involved;
- a graph edge is a fact that names its object (``object_entity``): "Sarah works at
  Acme" is the fact Sarah employer Acme and, through it, the edge Sarah -employer->
  Acme. The rules write no relations of their own, so one statement makes one edge.

Negation flips polarity except where the negated form is the constraint itself ("I
never eat pork"). "used to", "no longer" and a past simple ("I lived in Tokyo") give
``holds=False``; "anymore" does the same for a city, employer or possession and flips a
preference. Hedges ("I think", "maybe", "kind of") multiply confidence by 0.6. A time
expression sets ``valid_from`` for what started then (a move, a purchase, an event), both
ends for a state ("this month"), ``valid_to`` after "until"; within one message, a value
that no longer holds ends when its successor begins.

Where each part lives: :mod:`.clauses` splits a message into sentences and clauses and
prepares them, :mod:`.phrases` trims values and checks names, :mod:`.collector` turns
what a detector reads into facts. The detectors are in :mod:`.read_constraints`
(allergy, diet, policy, goal, value, state, causal), :mod:`.read_choices` (stances),
:mod:`.read_identity` (identity,
location, occupation, relationship), :mod:`.read_events` and :mod:`.read_preferences`
(possession, preference); their patterns are built from :mod:`.patterns` and the word
lists of :mod:`.vocabulary` and :mod:`.lexicon`. This module reads a message in order.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import (
    Clause,
    clause_parts,
    is_laughing,
    is_statement,
    prepare_clause,
    shield_stops,
    stated_head,
    tidy,
    unify,
)
from cognimem.ingest.extract.coref import Discourse, names_pronouns, refers_back
from cognimem.ingest.extract.detect_choices import ChoiceReader, is_subordinate, lead_condition
from cognimem.ingest.extract.detect_constraints import ConstraintReader
from cognimem.ingest.extract.detect_events import EventReader
from cognimem.ingest.extract.detect_health import HealthReader
from cognimem.ingest.extract.detect_others import OthersReader
from cognimem.ingest.extract.detect_preferences import PreferenceReader
from cognimem.ingest.extract.detect_stances import StanceReader
from cognimem.ingest.extract.earnest import laughed_off, takes_back
from cognimem.ingest.extract.figures import copula, is_figure
from cognimem.ingest.extract.kinds import kind_of
from cognimem.ingest.extract.patterns import NAME, NAME1, PLACE, TITLE, icase
from cognimem.ingest.extract.stance_forms import joined_refusals
from cognimem.ingest.extract.third_person import as_first_person
from cognimem.ingest.extract.work_phrases import talks_of_work
from cognimem.models.clock import to_utc
from cognimem.models.extraction import Extraction, ExtractionInput, Link
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.models.knowledge import EntityType as ET
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.sentences import split_sentences

__all__ = ["RuleExtractor"]

# what a person's statement read as the speaker's own may not say about them: whose
# relative or name it is belongs to the speaker's words, not theirs
_NOT_THIRD_PERSON = frozenset({Cat.RELATIONSHIP, "identity/name", "identity/nickname"})
_SPEAKER_WORD = icase(r"\b(?:i|i'm|i've|me|my)\b")
_OWN = frozenset({"his", "her"})
_MY = icase(r"\bmy\b")
_PET_WORDS = frozenset(t for w in vocab.PETS for t in (w, f"{w}s") if " " not in w)


def _theirs(value: str, possessive: str | None) -> str:
    """``value`` read from a person's words said as the speaker's, with "my" theirs
    again when the sentence said "his" / "her" of them."""
    return _MY.sub(possessive, value) if possessive else value


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
# names worth an entity even when no fact is read: people greeted or in object position,
# places after a preposition of place
_PERSON_MENTION = icase(
    rf"^(?:hi|hey|hello|thanks|thank you|congrats|congratulations|good morning|morning|"
    rf"wow|oh|yay|aw+)[,!\s]+(?P<v>{NAME1})\b|,\s*(?P<w>{NAME1})\s*[!.?]*$|"
    rf"\b(?:with|met|saw|told|asked|texted|called|hugged|thanked|and|(?:talked|spoke|"
    rf"talking|speaking)\s+(?:to|with))\s+(?P<x>(?:{TITLE}\s+)?{NAME})\b|"
    rf"^(?P<y>{NAME1})\s+and\s+(?:I|me)\b|"
    rf"^(?P<z>{NAME1})\s+from\s+(?:the\s+|my\s+|our\s+)?(?-i:[a-z])"  # "Sarah from accounting"
)
_PLACE_MENTION = icase(
    rf"(?:\b(?P<motion>went|go|going|moved|moving|flew|flying|drove|driving|traveled|"
    rf"travelled|traveling|travelling|trip|back|headed|heading|been)\s+to|\bin|\bfrom|"
    rf"\bnear|\baround|\bat)\s+(?:the\s+)?(?P<v>{PLACE})"
)
# any capitalised name past a sentence's first word: a person when its first word is a
# first name the shipped lists hold ("lunch with my old roommate Priya") and nothing
# else typed it
_NAME_INSIDE = re.compile(rf"(?<=[\w,;:]\s)(?P<v>{NAME})")
# a product by the words before it: "bought a Kindle", "my new Pixel", "I use Notion"
_PRODUCT_MENTION = icase(
    rf"\b(?:(?:bought|ordered|got|getting|buying|love|returned)\s+(?:a|an|the|my)\s+"
    rf"(?:new\s+)?|my\s+new\s+|I\s+(?:use|am using|'m using|switched to|upgraded to)\s+)"
    rf"(?P<v>{NAME1}(?:\s+{NAME1})?)"
)


class _Reader(
    ConstraintReader,
    HealthReader,
    ChoiceReader,
    StanceReader,
    OthersReader,
    EventReader,
    PreferenceReader,
):
    """Reads one message: its sentences, then each sentence's clauses, detector by
    detector in the order of the module docstring."""

    def read(self, text: str, discourse: Discourse) -> None:
        self.work_window, self.pet_window = discourse.about_work, discourse.about_pets
        last = len(self.facts)
        for sentence in split_sentences(joined_refusals(unify(text))):
            if takes_back(sentence):  # "I'm moving to Alaska. Kidding!"
                del self.facts[last:]
            last = len(self.facts)
            discourse.about_work |= talks_of_work(sentence)
            said, links = discourse.resolve(sentence)
            facts, mentions = len(self.facts), len(self.mentioned)
            self._mentions(said)
            self._sentence(said)
            self._note_people(discourse, said, facts, mentions)
            # a job read of anyone: "she's at Intel" in a later sentence is work
            discourse.about_work |= any(f.category is Cat.OCCUPATION for f in self.facts[facts:])
            self.work_window |= discourse.about_work
            discourse.about_pets |= self.pet_window
            if names_pronouns(said):
                discourse.hear(said)  # "Alex uses they/them"
            self._about_person(said, discourse, facts, links)
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
        # named before as a person, or by a first name the shipped lists hold
        if about is None or not (
            discourse.is_person(about.name) or kind_of(about.name) is ET.PERSON
        ):
            return
        if any(f.subject == about.name for f in self.facts[since:]):
            return
        before = len(self.facts)
        self._sentence(about.text, evidence=said.strip())
        # "his" / "her" said of them comes back in their value: "broke his hip"
        own = next(
            (k.said.lower() for k in links if k.name == about.name and k.said.lower() in _OWN),
            None,
        )
        read = [
            f.model_copy(update={"subject": about.name, "value": _theirs(f.value, own)})
            for f in self.facts[before:]
            if f.subject == "user"
            # a value quoting the rewrite's "I"
            and not _SPEAKER_WORD.search(_theirs(f.value, own))
            and f.category not in _NOT_THIRD_PERSON
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
        """Tell ``discourse`` who this sentence named, and as whom ("my sister")."""
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

    def _mentions(self, sentence: str) -> None:
        sentence, mentions = shield_stops(sentence), len(self.mentioned)
        for m in _PERSON_MENTION.finditer(sentence):
            name = phrases.name(
                m.group("v") or m.group("w") or m.group("x") or m.group("y") or m.group("z")
            )
            if name and name.lower() not in vocab.NATIONALITIES:
                kind = kind_of(name)  # "met Sarah", but "with Acme Corp", "and London"
                self.mentioned.append((name, ET.PERSON if kind is ET.OTHER else kind))
        for m in _PLACE_MENTION.finditer(sentence):
            place = phrases.name(m.group("v"))
            if place and m.start("v") > 0 and place.lower() not in vocab.NATIONALITIES:
                place = place.split(",")[0]
                kind = kind_of(place, "motion" if m.group("motion") else "place")
                self.mentioned.append((place, kind))
        for m in _PRODUCT_MENTION.finditer(sentence):
            product = phrases.name(m.group("v"))
            if product and product.lower() not in vocab.NATIONALITIES:
                self.mentioned.append((product, kind_of(product, "product")))
        self._first_names(sentence, len(self.mentioned) - mentions)

    def _first_names(self, sentence: str, typed: int) -> None:
        """People named with nothing else around them to tell what they are: a name led
        by a known first name that no other evidence typed."""
        seen = {n.split()[0] for n, _ in self.mentioned[len(self.mentioned) - typed :]}
        for m in _NAME_INSIDE.finditer(sentence):
            name = phrases.name(m.group("v"))
            if name and name.split()[0] not in seen and kind_of(name) is ET.PERSON:
                self.mentioned.append((name, ET.PERSON))

    def _sentence(self, sentence: str, evidence: str | None = None) -> None:
        evidence = evidence or sentence.strip()
        text = shield_stops(tidy(sentence.strip()))
        if not text:
            return
        before = len(self.facts)
        if evidence.endswith("?") or not is_statement(text):
            # a stance said before a question or a hypothetical of its own ("I hate
            # camping, what's the point?"): only the stance is read
            head = stated_head(text)
            if head is not None:
                self._statement(head, evidence)
                self.facts[before:] = [
                    f for f in self.facts[before:] if any(f is s for s in self.stances_read)
                ]
            return
        self._statement(text, evidence)
        if is_laughing(text):  # a stance read by its grammar stands ("I hate camping lol")
            self.facts[before:] = [
                f
                for f in self.facts[before:]
                if not laughed_off(f) or any(f is s for s in self.stances_read)
            ]

    def _statement(self, text: str, evidence: str) -> None:
        self.condition = lead_condition(text)
        self.figurative = False
        self.sentence_start = len(self.facts)
        if self._causal(text, evidence):
            self._choices(text, evidence)  # "I avoid X because Y": the stance too
            return
        before = len(self.facts)
        self._appositive(text, evidence)
        for part in clause_parts(text):
            clause = prepare_clause(part, evidence, self.ref)
            if clause is None:
                continue
            if clause.times and self.first_time is None:
                self.first_time = clause.times[0].start
            self._clause(clause)
        if self.figurative:
            return
        self._keep_reason(text, evidence, before)  # "I avoid X since Y": Y kept as a cause
        read = self.facts[before:]
        health = [f for f in read if any(f is h for h in self.health_read)]
        kinds = [f for f in read if any(f is k for k in self.kinds_read)]
        if not any(f.category in CONSTRAINT_CATEGORIES for f in read if f not in health):
            # a condition of the body is no stance: "I keep a heating pad at my desk
            # because my back is bad" is still read whole, beside "back is bad"
            stanced = len(self.facts)
            self._stance(text, evidence, read=len(read) > len(health) + len(kinds))
            if health:
                self.facts[stanced:] = [
                    f for f in self.facts[stanced:] if f.category is not Cat.STATE
                ]

    def _conditioned(self, c: Clause) -> None:
        """A clause that opens with its condition ("When I eat out I go for ..."): the
        condition states no constraint of its own; what follows it is read alone."""
        cond = self.condition
        if cond is None or not c.said.lower().startswith(cond.lower()):
            return
        main = prepare_clause(c.said[len(cond) :].strip(" ,"), c.evidence, self.ref)
        if main is not None:
            self._clause(main)

    def _choices(self, text: str, evidence: str) -> None:
        for part in clause_parts(text):
            clause = prepare_clause(part, evidence, self.ref)
            if clause is not None and not is_subordinate(clause.said) and self._may_choose(clause):
                self._choice(clause)

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

    def _clause(self, c: Clause) -> None:
        self.pet_window |= not c.words.isdisjoint(_PET_WORDS)  # "she named it Pepper" next
        said = copula(c.text)
        if is_figure(c.text, said):  # "my coworker is a snake": nothing else is read
            # ... but a stance said by a figure is one ("Open-plan offices are a nightmare")
            self.figurative = not (self._may_choose(c) and self._choice(c))
            return
        if said is not None:
            self._kind_owned(c, said)  # "my car is a Toyota", "my dog is a poodle"
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
            ("others", self._others),
            ("possession", self._possession),
            ("event", self._event),
        ):
            if c.may(name):
                detector(c)
        if is_subordinate(c.said):
            self._conditioned(c)
            return
        if c.may("health") and self._health(c):
            return  # "I can't shake this cold" is a state, not a refusal
        if self._may_choose(c) and self._choice(c):
            return
        for name, exclusive in (
            ("goal", self._goal),
            ("value", self._value),
            ("state", self._state),
        ):
            if c.may(name) and exclusive(c):
                return
        if c.may("preference"):
            self._preference(c)


class RuleExtractor:
    """Reads facts, entities and times from chat messages with patterns only.

    Deterministic and cheap (a few hundred microseconds per message): it runs on every
    write, and as the fallback when an LLM extractor fails. Messages from the assistant,
    the system or tools yield nothing: their claims are not facts about the user.
    """

    name = "rules"

    def extract_one(
        self, message: ExtractionInput, discourse: Discourse | None = None
    ) -> Extraction:
        """Everything ``message`` states, with times resolved against its
        ``occurred_at``; "she" and "my sister" are who ``discourse`` (the conversation
        so far, this message's ``context`` when none is given) says they are."""
        if message.role not in {"user", "human"} or not message.text.strip():
            return Extraction()
        if discourse is None:
            discourse = self.discourse([message])
        reader = _Reader(to_utc(message.occurred_at))
        reader.read(message.text, discourse)
        facts = reader.facts
        return Extraction(
            entities=list(reader.entities.values()),
            facts=facts,
            importance=max((_IMPORTANCE.get(f.category, 0.5) for f in facts), default=None),
            event_time=reader.fact_time or reader.first_time,
        )

    def discourse(self, messages: list[ExtractionInput]) -> Discourse:
        """Who the conversation named before ``messages``: the first one's ``context``
        read, only when a message refers back to someone (most cost nothing)."""
        first = messages[0]
        discourse = Discourse(tuple(m.author for m in messages if m.author))
        if first.context and any(refers_back(m.text, first.context) for m in messages):
            for text in first.context:
                _Reader(to_utc(first.occurred_at)).read(text, discourse)
        return discourse

    async def extract(self, messages: list[ExtractionInput]) -> list[Extraction]:
        """One extraction per message, in order; a pronoun may point back to a person
        named in an earlier message of the batch or of its first message's context."""
        if not messages:
            return []
        discourse = self.discourse(messages)
        return [self.extract_one(m, discourse) for m in messages]
