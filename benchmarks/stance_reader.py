"""A learned stance reader beside the rules: tried for issue 29 item 1, not wired in.

The rules read a constraint one idiom family at a time, and an idiom they never saw
gives nothing. Beside them, two logistic regressions over the message's MiniLM vector
(the vector the write funnel embeds every item with, so reading would cost no
embedding) and its words and word pairs (hashed into ``BUCKETS`` slots: the vector
alone hears "not" and "I" faintly) say whether a message states a standing stance of
the speaker's and whether it is for or against what it names.

The reader reads only what the rules would read as a statement at all: not a question,
a hypothetical, reported speech, hearsay, a joke, a sentence that laughs at itself or
says something by a figure, a habit of the past ("used to", "no longer") or a request
for one occasion (the extractor's own gates: ``clauses.is_statement`` and the rest);
with ``first_person`` set (tried on branch ``stance24``), only a sentence with a
first-person word (the stance detector's own pattern).
When the rules read no constraint and no preference from such a one-sentence user
message and the stance head scores it at or above its threshold, the message becomes
one ``policy`` fact: its value the sentence, its polarity the polarity head's (flipped
when the sentence opens with a word of refusal, "No shoes in the house", as the fact
conventions of ``docs/extraction.md`` read such a value), its confidence the heads'
scores times ``BASE_CONFIDENCE`` (lowered by a hedge as the rules lower theirs), its
evidence the sentence. With ``rule_gates`` set (the default since branch ``stance25``)
the reader's decision goes through the gates the rules' own whole-sentence stances go
through: not someone else's stance said with them as the subject ("My parents refuse
to fly", the stance detector's ``THEIR_STANCE``), and the fact is added by the rules'
:class:`~cognimem.ingest.extract.collector.Collector`, which keeps no constraint from a
request for one occasion or a stance in the moment ("I refuse to answer that",
``passing.in_the_moment``), marks a habit of the past as no longer holding, hedges and
dates it as it does a rule-read fact.

The weights are ``benchmarks/results/stance_reader.npz`` (12 KB), rebuilt from the
tune halves of the labelled sets by ``benchmarks/train_stance_reader.py``; they are
for the 384-dimension vectors of the shipped MiniLM embedder. What the reader scored,
and why it was not wired into the write funnel: ``benchmarks/results/stance_reader.md``.
"""

from __future__ import annotations

import itertools
import re
import zlib
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path

import numpy as np

from cognimem.errors import UsageError
from cognimem.ingest.extract.clauses import (
    Clause,
    is_laughing,
    is_statement,
    prepare_clause,
    shield_stops,
    tidy,
)
from cognimem.ingest.extract.collector import Collector, category_scores
from cognimem.ingest.extract.detect_constraints import primary_tag
from cognimem.ingest.extract.detect_stances import FIRST_PERSON, THEIR_STANCE
from cognimem.ingest.extract.figures import copula, is_figure
from cognimem.ingest.extract.passing import is_request_for_one_occasion, past_habit
from cognimem.models.extraction import ExtractedFact, Extraction
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, FactCategory
from cognimem.text.scope_tags import scope_tags
from cognimem.text.sentences import split_sentences

__all__ = ["READ_AS_STANCE", "WEIGHTS", "StanceReader", "features", "shipped_reader", "stated"]

WEIGHTS = Path(__file__).resolve().parent / "results" / "stance_reader.npz"
DIMENSION = 384
BUCKETS = 1024  # hashed words and word pairs
LEXICAL_SCALE = 2.0  # the length of the words' part of the input, the vector's being 1
WIDTH = DIMENSION + BUCKETS
_WORD = re.compile(r"[a-z']+")
# how sure a reader-read fact is at best, below the rules' 0.9 for a policy they read
BASE_CONFIDENCE = 0.7
_REFUSAL = re.compile(
    r"^(?:no|not|never|avoid|avoiding|without|skip|skipping|stop|don't|do not|won't|can't|"
    r"cannot|refuse)\b",
    re.IGNORECASE,
)
_TRIM = " \t\n.!;:,\"'"
_HEDGE = 0.6  # as the rules lower a hedged fact (``collector``)
# what the rules read a stance as: a constraint, or a plain like ("I like tea")
READ_AS_STANCE = CONSTRAINT_CATEGORIES | {FactCategory.PREFERENCE}


def stated(sentence: str, reference: datetime) -> Clause | None:
    """``sentence`` as the rules' one clause of it, when it states anything a standing
    stance could be (see the module docstring); else None."""
    if sentence.rstrip().endswith("?"):
        return None
    text = shield_stops(tidy(sentence))
    if not is_statement(text) or is_laughing(text) or is_request_for_one_occasion(sentence):
        return None
    clause = prepare_clause(text, sentence, reference)
    if clause is None or clause.past or past_habit(clause.said):
        return None
    return None if is_figure(clause.text, copula(clause.text)) else clause


def features(vector: np.ndarray, text: str) -> np.ndarray:
    """The heads' input for a text and its vector: the vector at unit length, then the
    text's words and word pairs hashed (crc32, so the same on every machine), at length
    ``LEXICAL_SCALE``."""
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    lexical = np.zeros(BUCKETS, dtype=np.float32)
    for gram in (*words, *(f"{a} {b}" for a, b in itertools.pairwise(words))):
        lexical[zlib.crc32(gram.encode()) % BUCKETS] = 1.0
    count = float(np.linalg.norm(lexical))
    if count:
        lexical *= LEXICAL_SCALE / count
    return np.concatenate([v / norm if norm else v, lexical])


@dataclass(frozen=True)
class StanceReader:
    """Two logistic heads (weights, bias last) and the stance head's threshold;
    ``first_person``: speak only on a sentence with a first-person word (the stance
    detector's own pattern); ``rule_gates``: the rules' gates for a whole-sentence
    stance decide whether the fact is kept (the module docstring)."""

    stance: np.ndarray
    polarity: np.ndarray
    threshold: float
    first_person: bool = False
    rule_gates: bool = True

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> StanceReader:
        """The reader stored at ``path``; a missing or malformed file is a
        :class:`~cognimem.errors.UsageError`."""
        try:
            with np.load(path) as data:
                stance, polarity = data["stance"], data["polarity"]
                threshold = float(data["threshold"])
        except (OSError, KeyError, ValueError) as exc:
            raise UsageError(f"cannot read the stance reader's weights at {path}: {exc}") from exc
        if stance.shape != (WIDTH + 1,) or polarity.shape != (WIDTH + 1,):
            raise UsageError(f"the stance reader's weights at {path} are not for {WIDTH} inputs")
        return cls(stance.astype(np.float32), polarity.astype(np.float32), threshold)

    def inputs(self, vector: np.ndarray, text: str) -> np.ndarray:
        """The heads' input for ``text`` and its vector (``features``)."""
        return features(vector, text)

    @property
    def vector_shape(self) -> tuple[int, ...]:
        """The shape of the vector :meth:`read` takes."""
        return (DIMENSION,)

    def scores(self, vector: np.ndarray, text: str) -> tuple[float, float]:
        """How likely ``text`` (whose vector ``vector`` is) states a standing stance,
        and that the stance is for what it names."""
        x = self.inputs(vector, text)
        s = float(x @ self.stance[:-1] + self.stance[-1])
        p = float(x @ self.polarity[:-1] + self.polarity[-1])
        return 1 / (1 + np.exp(-s)), 1 / (1 + np.exp(-p))

    def read(
        self, extraction: Extraction, text: str, vector: np.ndarray | None, said_at: datetime
    ) -> Extraction:
        """``extraction`` (the rules' reading of the user message ``text``, said at
        ``said_at``) with the stance the reader finds in ``text``'s vector, when the
        rules read no constraint or preference and the message is one sentence that
        states something;
        else ``extraction`` itself."""
        if vector is None or vector.shape != self.vector_shape:
            return extraction
        if any(f.category in READ_AS_STANCE for f in extraction.facts):
            return extraction
        sentences = split_sentences(text.strip())
        if len(sentences) != 1:
            return extraction
        if self.first_person and FIRST_PERSON.search(text) is None:
            return extraction
        stance, for_it = self.scores(vector, text)
        if stance < self.threshold:
            return extraction
        clause = stated(sentences[0], said_at)
        if clause is None:
            return extraction
        if self.rule_gates:
            fact = self._gated_fact(clause, sentences[0], stance, for_it, said_at)
        else:
            fact = self._fact(sentences[0], stance * (_HEDGE if clause.hedged else 1.0), for_it)
        if fact is None:
            return extraction
        importance = category_scores(FactCategory.POLICY).importance
        return extraction.model_copy(
            update={
                "facts": [*extraction.facts, fact],
                "importance": max(extraction.importance or 0.0, importance),
            }
        )

    def _gated_fact(
        self, clause: Clause, sentence: str, stance: float, for_it: float, said_at: datetime
    ) -> ExtractedFact | None:
        """The reader's fact as the rules' collector keeps it, or None when a gate of the
        rules' whole-sentence stances drops it (the module docstring)."""
        if THEIR_STANCE.match(shield_stops(tidy(sentence))):
            return None
        fact = self._fact(sentence, stance, for_it)  # hedged by the collector
        if fact is None:
            return None
        collector = Collector(said_at)
        collector.add(
            clause,
            fact.category,
            fact.predicate,
            fact.value,
            polarity=fact.polarity,
            multi=True,
            tags=fact.scope_tags,
            confidence=fact.confidence,
        )
        return collector.facts[0] if collector.facts else None

    def _fact(self, sentence: str, stance: float, for_it: float) -> ExtractedFact | None:
        value = sentence.strip(_TRIM)
        if not value:
            return None
        tags = scope_tags(value.lower())
        favours = for_it >= 0.5
        sure = max(for_it, 1 - for_it)
        return ExtractedFact(
            subject="user",
            category=FactCategory.POLICY,
            predicate=primary_tag(FactCategory.POLICY, tags, "general"),
            value=value[:500],
            # a value opening with a refusal is against what follows at polarity true
            polarity=favours != bool(_REFUSAL.match(value)),
            multi_valued=True,
            scope_tags=tags[:12],
            confidence=round(BASE_CONFIDENCE * stance * sure, 3),
            evidence=sentence.strip()[:2000],
        )


@cache
def shipped_reader() -> StanceReader:
    """The reader of the committed weights (read once)."""
    return StanceReader.load()
