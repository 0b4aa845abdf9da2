"""Whether a ranked memory has evidence for the query (pure).

Ranking alone cannot say "nothing here is relevant": min-max fusion gives the best of
a list of unrelated memories the top score, and the lexical index of each memory also
holds the message said before it (``ingest/funnel.py``), so a filler reply ("That's
great! How is it going?") matches the words of the answer it follows. A memory has
evidence for the query when

- its own text shares a content word with the query (:func:`mentions`: a word sharing
  its first five letters counts, "researching" for "research"; the author's name alone
  does not count);
- its embedding is within ``RecallConfig.min_similarity`` cosine of the query's;
- it is the evidence of a fact the exact key lookup found, or of a constraint or fact
  the packet's sections show, or the graph reached it from an entity the query names; or
- the query asks about a period ("what did I do last week?") and the read kept to it:
  then the period is the evidence, and every memory of it may answer; or
- it was said by the person whose name the vector search left out of the query
  (``recall/conversation/topic.py``): the name gave their messages that closeness before (a message
  is embedded with its author's name), and the dense query must not take it away; or
- it replies to a question that has evidence for the query (``recall/conversation/pairs.py``).

A message that only asks or makes small talk (``text/speech.py``: "Any ideas for dinner
tonight?", "Thanks, that's great!") has no evidence of its own whatever it shares with
the query: it tells nothing, and what answers it does — a question is evidence only
through the reply that follows it, which it ranks up (``RecallConfig.drop_filler``; off
in the plain ``lexical`` and ``vector`` baselines, and when the query asks what was
asked: "what did I ask about dinner?").

A lexical match through the neighbour alone is weak support: it helps the rank, it does
not keep a memory in the packet. A memory the vector search did not return (it was
beyond the search's depth) is taken to be as close as the last one it did return, an
upper bound, so nothing is dropped on a guess. When the read has no vector list (the
``lexical`` preset, ``fast`` skipping it, or the step failed, which ``degraded`` says),
meaning cannot be judged and no memory is dropped for it.

Touching a domain of the query (a shared scope tag) is not evidence for a memory: the
tags are broad ("Morning! The coffee machine is working again." is food, "We played
board games until midnight" is schedule), and on ``benchmarks/dilution.py`` they kept
most of the chatty lines a request drew. Constraints and facts reach the sections by
their own relevance tests (``recall/constraints.py``: there a shared tag does count, as
"I'm allergic to shellfish" and "recommend a restaurant" are both food), and the memory
a shown constraint was drawn from stays with it. ``forget(query=...)`` keeps to memories
that :func:`mentions` the query too (``services/editing.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cognimem.recall.analyze import query_terms, word_key
from cognimem.recall.rerank import Ranked
from cognimem.store.types import Candidate
from cognimem.text.names import normalize_name
from cognimem.text.speech import Filler, filler, is_phatic

NO_EVIDENCE = "dropped: no evidence for the query (no shared word, not close in meaning)"
# the signal of a turn brought in beside the best-ranked item of a "when" question
# (``recall/conversation/told_before.py``)
TOLD_BEFORE = "told_before"
# the signal of the dated turn after the one that names a thing (``told_after.py``)
TOLD_AFTER = "told_after"
# why a memory is kept when the read asks no reasons (no ``explain``): the same memories
# have evidence either way, the cheapest test first (``EvidenceCheck.split``)
HAS_EVIDENCE = "has evidence for the query"
ONLY_ASKS = "dropped: only asks (a question is evidence through the reply to it)"
SMALL_TALK = "dropped: small talk (no evidence of its own)"
# a query about what was asked: then the questions are what it looks for
_ABOUT_ASKING = re.compile(r"\b(?:ask|asks|asked|asking|question|questions)\b", re.IGNORECASE)


def shared_word(text: str, terms: Sequence[str]) -> str | None:
    """The first word of ``text`` that is one of the (lower-cased content) ``terms``, or
    shares its first five letters with one ("returns" for "return"); None if none."""
    words = query_terms(text)
    wanted = set(terms)
    stems = {word_key(t) for t in terms if len(t) >= 5}
    for w in words:
        if w in wanted or (len(w) >= 5 and word_key(w) in stems):
            return w
    return None


def mentions(text: str, terms: Sequence[str]) -> bool:
    """Whether ``text`` holds one of the (lower-cased content) ``terms``, or a word
    sharing its first five letters with one ("returns" for "return")."""
    return shared_word(text, terms) is not None


@dataclass(frozen=True)
class EvidenceCheck:
    """What a read knows about the query to judge each ranked memory."""

    terms: tuple[str, ...]  # the query's content words
    floor: float  # ``RecallConfig.min_similarity``
    # cosine assumed for a memory the vector search did not return; None: the read has
    # no vector list, so meaning is not judged
    beyond: float | None
    period: bool = False  # the query names a period and the read kept to it
    author: str | None = None  # normalised: the person the dense query left out
    # questions and small talk have no evidence of their own (``RecallConfig.drop_filler``
    # and the query does not ask what was asked)
    drop_filler: bool = False
    # the memories the packet's constraint and fact entries were drawn from
    behind: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        query: str,
        terms: Iterable[str],
        vector: Sequence[Candidate] | None,
        floor: float,
        *,
        period: bool = False,
        author: str | None = None,
        drop_filler: bool = False,
        behind: Iterable[str] = (),
    ) -> EvidenceCheck:
        """``terms``: the query's content words; ``vector``: the vector step's list
        (None when the step did not run or failed); ``author``: the name the vector
        search left out of the query (``topic.split_subject``); ``drop_filler``: keep
        questions and small talk out on their own words (unless the query asks what
        was asked); ``behind``: the items the packet's section entries were drawn
        from."""
        beyond = None if vector is None else min((c.score for c in vector), default=-1.0)
        said_by = normalize_name(author) if author else None
        filler_out = drop_filler and _ABOUT_ASKING.search(query) is None
        return cls(tuple(terms), floor, beyond, period, said_by, filler_out, frozenset(behind))

    def evidence(self, r: Ranked) -> str | None:
        """Why ``r`` bears on the query on its own (a short reason, for explain), or
        None when it has no evidence of its own. Questions and small talk are judged
        here as any memory: :meth:`split` keeps them out."""
        if self.period:
            return "the query names a period and it is of that period"
        if self.beyond is None:
            return "meaning not judged: the read has no vector list"
        if r.signals.get("fact"):
            return "the evidence of a fact the key lookup found"
        if r.item.id in self.behind:
            return "the evidence of an entry the packet's sections show"
        if r.signals.get("graph"):
            return "reached through the graph from an entity the query names"
        if self.author and r.item.author and normalize_name(r.item.author) == self.author:
            return f"said by {r.item.author}, whom the query asks about"
        word = shared_word(r.item.text, self.terms)
        if word is not None:
            return f"shares the word {word!r} with the query"
        cosine = r.raw.get("vector", self.beyond)
        if cosine >= self.floor:
            return f"close in meaning (cosine {cosine:.2f}, floor {self.floor:.2f})"
        return None

    def holds(self, r: Ranked) -> bool:
        """Whether ``r`` has evidence of its own for the query (see :meth:`split`):
        what :meth:`evidence` finds, with the cheap tests first (the closeness in
        meaning is a lookup; a shared word scans the memory's words)."""
        if self.period or self.beyond is None or r.item.id in self.behind:
            return True
        if r.signals.get("fact") or r.signals.get("graph"):
            return True
        if r.raw.get("vector", self.beyond) >= self.floor:
            return True
        if self.author and r.item.author and normalize_name(r.item.author) == self.author:
            return True
        return shared_word(r.item.text, self.terms) is not None

    def split(
        self, ranked: Sequence[Ranked], *, reasons: bool = True
    ) -> tuple[list[tuple[Ranked, str]], list[tuple[Ranked, str]]]:
        """``ranked`` in order: those with evidence, each with why, and those without,
        each with why it is dropped. With ``drop_filler`` a message that only asks or
        makes small talk is dropped whatever it shares with the query, and a reply to a
        question (``Ranked.answers``) is kept through the question's evidence. Without
        ``reasons`` (a read that explains nothing) the same memories are kept and
        dropped, each kept one with ``HAS_EVIDENCE`` (:meth:`holds`, not
        :meth:`evidence`: the cheap tests first)."""
        if reasons:
            own = {r.item.id: self.evidence(r) for r in ranked}
        else:
            own = {r.item.id: HAS_EVIDENCE if self.holds(r) else None for r in ranked}
        kept: list[tuple[Ranked, str]] = []
        unsupported: list[tuple[Ranked, str]] = []
        for r in ranked:
            kind = quick_filler(r.item.text) if self.drop_filler else None
            why = own[r.item.id]
            if kind == "question" and r.signals.get(TOLD_BEFORE):
                kept.append((r, 'the turn before the best-ranked item of a "when" question'))
            elif kind is not None:
                unsupported.append((r, ONLY_ASKS if kind == "question" else SMALL_TALK))
            elif why is not None:
                kept.append((r, why))
            elif r.answers is not None and own.get(r.answers) is not None:
                kept.append((r, "replies to a question that bears on the query"))
            elif r.signals.get(TOLD_BEFORE):
                kept.append((r, 'the turn before the best-ranked item of a "when" question'))
            elif r.signals.get(TOLD_AFTER):
                kept.append((r, 'the dated turn after one a "when" question ranks high'))
            else:
                unsupported.append((r, NO_EVIDENCE))
        return kept, unsupported


def quick_filler(text: str) -> Filler | None:
    """``text.speech.filler``'s answer, without splitting sentences when ``text`` holds
    no question mark: then no sentence asks, and every sentence is phatic exactly when
    every word of the text is (each non-space character is in one sentence, and a word
    never spans two); a text of spaces alone has no sentence."""
    if "?" in text:
        return filler(text)
    return "small talk" if text.strip() and is_phatic(text) else None
