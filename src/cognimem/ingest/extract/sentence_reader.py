"""Reading one sentence: whether it states anything, its clauses, and the detectors run
over each clause in order, most binding first.

A question, a hypothetical ("if I were vegetarian", "I wish ...", "let's say ...", "I
wonder if ..."), reported speech or belief ("she said ...", "people say ...", "my mom
believes ...") or hearsay ("apparently ...", "rumor has it ...", "I heard that ..."), a
denial of the past ("No, I never lived in Seattle", "we never actually moved": revision
invalidates the fact it names), a belief taken back ("I used to think I was ...") or a
joke taken back ("just kidding", or "Kidding!" as the next sentence: that one's facts
are dropped, :mod:`.message_reader`), sarcasm ("/s"), a question inside a statement
("trying to figure out if I'm ...") or others' words ("my son told his class I'm ...":
:mod:`.earnest`) yields no fact; so does an "allergy" to a time, a chore, work or an
action ("allergic to Mondays", "to waking up early"), nor does a clause that says by a
figure of speech what someone or something is ("my coworker is a snake", "this heat is
killing me": :mod:`.figures`), and a sentence that laughs at itself ("lol") yields no
constraint and no partner or friend named by a name that is no one's first name
("married to Netflix lol"). Three exceptions keep a stance read by its grammar
(:mod:`.detect_choices`): one said before a question, a hypothetical or someone's
opinion of its own ("I hate camping, what's the point?", "I can't stand crowded pubs,
I'd go mad": only the stance of the statement it opens with is read,
:func:`.clauses.stated_head`), one said with a laugh ("I hate camping lol") and one said
by a figure ("Cruises are my idea of hell"); a sentence that does not mean what it says
keeps none. A statement said as the premise of a question to the listener ("I'm
allergic to sesame, is hummus safe?", "I live in Bristol, where should I eat?") is the
speaker's own: all of it is read, not only its stance; so is a statement followed by a
remark on it ("I'm 31, which my mum says is ancient", "I'm from Lima, though people
think I'm Brazilian": the remark is someone's opinion, the age or city is the
speaker's). A "real" condition with "if"
("If I'm cooking for the kids I skip the chilli": present in the "if" clause, a
standing rule after it) is read as one with "when".

A sentence is first read whole for a causal statement ("coffee gives me migraines"),
then split into clauses. Each clause is cleaned (contractions spelled one way,
"actually", "I think", "really" dropped, "used to" / "no longer" / "anymore" turned into
flags), its time expressions are resolved against the message's ``occurred_at``
(:mod:`~cognimem.text.temporal`) and blanked out, and the detectors read it, most
binding first: allergy, diet, policy (each ends the clause), then identity, location,
occupation, relationship, what few words say of others (:mod:`.detect_others`: a pet
someone named, "she's at Intel", a child's age in words), possession, event, then a
condition of the body said by how it lasts (:mod:`.detect_health`: "this cough won't go
away"), a stance, goal, value or state (one of them ends the clause), then preference. A
clause that opens with its condition ("When I travel I ...") is read as the condition
and what follows it; the condition states no constraint of its own and ends the value
of the stance it frames. A detector runs only when the clause holds one of its trigger
words (``lexicon.TRIGGERS``), which keeps a typical chat sentence near 100 µs.
"""

from __future__ import annotations

from collections.abc import Callable

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import (
    Clause,
    clause_parts,
    is_laughing,
    is_statement,
    is_subordinate,
    lead_condition,
    prepare_clause,
    shield_stops,
    stated_head,
    tidy,
)
from cognimem.ingest.extract.detect_constraints import ConstraintReader
from cognimem.ingest.extract.detect_events import EventReader
from cognimem.ingest.extract.detect_health import HealthReader
from cognimem.ingest.extract.detect_identity import IdentityReader
from cognimem.ingest.extract.detect_location import LocationReader
from cognimem.ingest.extract.detect_occupation import OccupationReader
from cognimem.ingest.extract.detect_others import OthersReader
from cognimem.ingest.extract.detect_preferences import PreferenceReader
from cognimem.ingest.extract.detect_stances import StanceReader
from cognimem.ingest.extract.detect_turns import TurnReader
from cognimem.ingest.extract.earnest import laughed_off
from cognimem.ingest.extract.figures import copula, is_figure
from cognimem.ingest.extract.habit_forms import HABIT_WORDS
from cognimem.ingest.extract.patterns import icase
from cognimem.ingest.extract.then_now import ThenNowReader
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.models.knowledge import FactCategory as Cat
from cognimem.text.noun_senses import first_class

__all__ = ["SentenceReader"]

# a question to the listener after a statement ("I'm allergic to cats, which breeds are
# safe for me?"): the statement is the speaker's own, said as the question's premise
_ASKED_AFTER = icase(
    r"^\s*,\s*(?:(?:so|but|and)\s+)?(?:is|are|can|could|would|should|do|does|what|which|where|"
    r"how|when|who|any)\b[^.!;]*\?\s*$"
)
# ... or a remark on the statement before it, by the speaker or someone else ("I'm 31,
# which my mum says is ancient", "I live in Leeds, which my friends think is dull", "I'm
# from Lima, though people take me for ..."): the remark is no statement, what it
# remarks on is the speaker's own
_REMARKED_AFTER = icase(r"^\s*,\s*(?:which|(?:even\s+)?though|although)\b")
# the speaker's own statement opens the sentence ("Tom just asked if I want ..." is his)
_FIRST_PERSON_HEAD = icase(r"^(?:I|I'm|I've|I'd|we|we're|we've|my|our)\b")
_PET_WORDS = frozenset(t for w in vocab.PETS for t in (w, f"{w}s") if " " not in w)
# an animal taken in that the list lacks ("just adopted a greyhound"): its noun names an
# animal first of all (WordNet), so "he named it Comet" next names a pet
_TOOK_IN = icase(
    r"\b(?:adopted|rescued|got|bought|found)\s+(?:an?|a new|our|my|his|her)\s+"
    r"(?:[a-z-]+\s+)?(?P<n>[a-z]+)\b"
)


def _takes_in_animal(text: str) -> bool:
    m = _TOOK_IN.search(text)
    return m is not None and first_class(m["n"].lower()) == "animal"


def _claimed(c: Clause, readers: tuple[tuple[str, Callable[[Clause], bool]], ...]) -> bool:
    """Whether one of ``readers`` (a kind and its reader, tried in order where ``c`` may
    state that kind) reads ``c`` as its own; the ones after it are not tried."""
    return any(c.may(kind) and read(c) for kind, read in readers)


class SentenceReader(
    ConstraintReader,
    HealthReader,
    TurnReader,
    StanceReader,
    OthersReader,
    IdentityReader,
    LocationReader,
    OccupationReader,
    EventReader,
    PreferenceReader,
    ThenNowReader,
):
    """Reads one sentence: its clauses, detector by detector in the order of the module
    docstring."""

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
                rest = text[len(head) :]
                premise = _FIRST_PERSON_HEAD.match(head) and (
                    _ASKED_AFTER.search(rest) or _REMARKED_AFTER.match(rest)
                )
                whole = head.rstrip(" .!,").lower()
                self.facts[before:] = [
                    f
                    for f in self.facts[before:]
                    if any(f is s for s in self.stances_read)
                    # the premise's facts, not the whole sentence read as a last resort ("I
                    # want X to read, what do you suggest?" is a request, no goal)
                    or (premise and f.value.rstrip(" .!,").lower() != whole)
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
        if self._turned(text, evidence):  # "X and I don't get along, so ...": read whole
            self._causal(text, evidence)
            return
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
        self._then_now(text, before)  # "I've worked at A and B, and now I'm at C"
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

    # ---------------------------------------------------------------- clauses

    def _clause(self, c: Clause) -> None:
        before = len(self.facts)
        self._detect(c)
        if len(self.facts) == before and not c.words.isdisjoint(HABIT_WORDS):
            self._habitual(c)  # "I tend to cycle to work": a habit, when nothing else is read

    def _detect(self, c: Clause) -> None:
        # "she named it Pepper" next
        self.pet_window |= not c.words.isdisjoint(_PET_WORDS) or _takes_in_animal(c.text)
        said = copula(c.text)
        if is_figure(c.text, said):  # "my coworker is a snake": nothing else is read
            # ... but a stance said by a figure is one ("Open-plan offices are a nightmare")
            self.figurative = not (self._may_choose(c) and self._choice(c))
            return
        if said is not None:
            self._kind_owned(c, said)  # "my car is a Toyota", "my dog is a poodle"
        if _claimed(
            c, (("allergy", self._allergy), ("diet", self._diet), ("policy", self._policy))
        ):
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
        if _claimed(c, (("goal", self._goal), ("value", self._value), ("state", self._state))):
            return
        if c.may("preference"):
            self._preference(c)
