"""Stances said in the turns of phrase of :mod:`.stance_turns`, read after the choice
detector (:mod:`.detect_choices`) found none in a clause, and from a whole sentence
before it is split into clauses ("X and I don't get along", "Gave X a go, and never
again")."""

from __future__ import annotations

from cognimem.ingest.extract.clauses import Clause, prepare_clause
from cognimem.ingest.extract.detect_choices import ChoiceReader
from cognimem.ingest.extract.stance_turns import TURN_WORDS, sentence_turn, turn
from cognimem.text.tokens import tokens

__all__ = ["TurnReader"]


class TurnReader(ChoiceReader):
    """The choice detector, and the turns of phrase it does not read."""

    def _may_choose(self, c: Clause) -> bool:
        return super()._may_choose(c) or not c.words.isdisjoint(TURN_WORDS)

    def _choice(self, c: Clause, *, moved: bool = False) -> bool:
        before = len(self.facts)
        chose = super()._choice(c, moved=moved)
        if chose or len(self.facts) > before:
            return chose  # a like read on ("I adore X") is still a preference
        read = turn(c.said)
        if read is None:
            return False
        what, polarity, only = read
        return self._stance_fact(c, what, polarity=polarity, only=only, compared=polarity)

    def _turned(self, text: str, evidence: str) -> bool:
        """A stance said across two clauses of ``text``, read whole; the condition it
        is said under goes with it."""
        read = sentence_turn(text, frozenset(tokens(text)))
        if read is None:
            return False
        clause = prepare_clause(text, evidence, self.ref)
        if clause is None:
            return False
        (what, polarity, only), condition = read
        if condition:
            self.condition = condition
        return self._stance_fact(clause, what, polarity=polarity, only=only)
