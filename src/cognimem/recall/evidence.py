"""Whether a ranked memory has evidence for the query (pure).

Ranking alone cannot say "nothing here is relevant": min-max fusion gives the best of
a list of unrelated memories the top score, and the lexical index of each memory also
holds the message said before it (``ingest/funnel.py``), so a filler reply ("That's
great! How is it going?") matches the words of the answer it follows. A memory has
evidence for the query when

- its own text shares a content word with the query (:func:`mentions`: a word sharing
  its first five letters counts, "researching" for "research"; the author's name alone
  does not count);
- it touches a domain the query touches (scope tags, the vocabulary constraints and
  queries already meet on: "I'm allergic to shellfish" and "recommend a restaurant" are
  both food);
- its embedding is within ``RecallConfig.min_similarity`` cosine of the query's;
- it is the evidence of a fact the exact key lookup found, or the graph reached it from
  an entity the query names; or
- the query asks about a period ("what did I do last week?") and the read kept to it:
  then the period is the evidence, and every memory of it may answer; or
- it was said by the person whose name the vector search left out of the query
  (``recall/topic.py``): the name gave their messages that closeness before (a message
  is embedded with its author's name), and the dense query must not take it away.

A lexical match through the neighbour alone is weak support: it helps the rank, it does
not keep a memory in the packet. A memory the vector search did not return (it was
beyond the search's depth) is taken to be as close as the last one it did return, an
upper bound, so nothing is dropped on a guess. When the read has no vector list (the
``lexical`` preset, ``fast`` skipping it, or the step failed, which ``degraded`` says),
meaning cannot be judged and no memory is dropped for it.

Constraints and facts reach the sections by their own relevance tests
(``recall/constraints.py``), not by this one. ``forget(query=...)`` keeps to memories
that :func:`mentions` the query too (``lifecycle/edits.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cognimem.recall.analyze import query_terms, word_key
from cognimem.recall.rerank import Ranked
from cognimem.store.base import Candidate
from cognimem.text.keys import normalize_name
from cognimem.text.scope_tags import scope_tags

NO_EVIDENCE = "dropped: no evidence for the query (no shared word, not close in meaning)"


def mentions(text: str, terms: Sequence[str]) -> bool:
    """Whether ``text`` holds one of the (lower-cased content) ``terms``, or a word
    sharing its first five letters with one ("returns" for "return")."""
    words = set(query_terms(text))
    if words & set(terms):
        return True
    stems = {word_key(t) for t in terms if len(t) >= 5}
    return any(word_key(w) in stems for w in words if len(w) >= 5)


@dataclass(frozen=True)
class EvidenceCheck:
    """What a read knows about the query to judge each ranked memory."""

    terms: tuple[str, ...]  # the query's content words
    domains: frozenset[str]  # the query's scope tags
    floor: float  # ``RecallConfig.min_similarity``
    # cosine assumed for a memory the vector search did not return; None: the read has
    # no vector list, so meaning is not judged
    beyond: float | None
    period: bool = False  # the query names a period and the read kept to it
    author: str | None = None  # normalised: the person the dense query left out

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
    ) -> EvidenceCheck:
        """``terms``: the query's content words; ``vector``: the vector step's list
        (None when the step did not run or failed); ``author``: the name the vector
        search left out of the query (``topic.split_subject``)."""
        beyond = None if vector is None else min((c.score for c in vector), default=-1.0)
        domains = frozenset(scope_tags(query.replace("-", " ")))
        said_by = normalize_name(author) if author else None
        return cls(tuple(terms), domains, floor, beyond, period, said_by)

    def holds(self, r: Ranked) -> bool:
        if self.period or self.beyond is None:
            return True
        if r.signals.get("fact") or r.signals.get("graph"):
            return True
        if self.author and r.item.author and normalize_name(r.item.author) == self.author:
            return True
        if r.raw.get("vector", self.beyond) >= self.floor:
            return True
        if mentions(r.item.text, self.terms):
            return True
        return bool(self.domains) and not self.domains.isdisjoint(scope_tags(r.item.text))

    def split(self, ranked: Iterable[Ranked]) -> tuple[list[Ranked], list[Ranked]]:
        """``ranked`` in order: those with evidence, and those without."""
        kept: list[Ranked] = []
        unsupported: list[Ranked] = []
        for r in ranked:
            (kept if self.holds(r) else unsupported).append(r)
        return kept, unsupported
