"""Themes, pure: what one speaker said about one topic across all their sessions,
gathered into a compact summary of one dated sentence per turn.

A session window's gist states a few of that window's turns; what a speaker says about
one subject (what they do to relax, where they have travelled) is scattered across
sessions, one turn in each. A theme gathers those turns, so one summary can state
several of them at the cost of one or two turns.

Rules:

- **Statements**: a speaker's (``author``'s) episodes that say something: at least
  ``min_theme_words`` words longer than three letters outside questions (a greeting,
  a thank-you or a question says nothing about its speaker and joins no theme).
- **Clusters**: a speaker's statements, in time order, join the cluster whose centroid
  they lie within ``theme_similarity`` (cosine) of, greedily; a cluster of at least
  ``min_theme`` statements from at least two session windows
  (``consolidate.windows``) is a theme. Greedy in time order,
  a later episode never moves an earlier one: a re-run with more episodes extends the
  same clusters.
- **Chunks**: a theme is written in runs in time order, of at most ``max_theme_claims``
  statements whose claims take at most ``max_theme_chars`` characters together, each
  run one summary keyed by the speaker and its first statement (so a re-run replaces
  the run it extends instead of adding another).
- **Claims**: one per statement, a whole sentence of it (never cut): of its statements
  (not questions, at least ``MIN_CLAIM_WORDS`` words of meaning), the one in the first
  person (what the speaker says of themself, not a reaction to the other speaker), then
  the one with the most words of meaning (longer than three letters, not function
  words), with the statement's events and ids as its provenance. A turn whose
  sentence is longer than ``max_claim_chars`` is no claim and joins no theme. A
  claim is dated by the day it was said, written once before the first claim of each
  day (the year only on the first and where it changes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

import numpy as np

from cognimem.lifecycle.consolidate import (
    Claim,
    ConsolidationPolicy,
    Gist,
    Group,
    GroupKind,
    day,
    windows,
)
from cognimem.models import MemoryItem
from cognimem.text.sentences import split_sentences
from cognimem.text.stopwords import STOP_WORDS

_WORD = re.compile(r"[A-Za-z0-9']+")
# the speaker speaking of themself: a sentence with one of these states the speaker's
# own news rather than a reaction to the other speaker ("That sounds great!")
_FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself"})


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with its whitespace runs written as one space."""
    return [" ".join(s.split()) for s in split_sentences(text)]


def is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?")


def content_words(sentence: str) -> int:
    return sum(len(w) > 3 for w in _WORD.findall(sentence))


def meaning_words(sentence: str) -> int:
    """Words longer than three letters that are not English function words."""
    return sum(len(w) > 3 and w.lower() not in STOP_WORDS for w in _WORD.findall(sentence))


def in_first_person(sentence: str) -> bool:
    return any(w.lower() in _FIRST_PERSON for w in _WORD.findall(sentence))


def says_something(item: MemoryItem, min_words: int) -> bool:
    """Whether a turn states something: ``min_words`` content words outside questions."""
    return sum(content_words(s) for s in sentences(item.text) if not is_question(s)) >= min_words


def claim_of(text: str, limit: int) -> str | None:
    """The whole sentence of ``text`` that states what its speaker says, or None when
    it is longer than ``limit`` characters (the turn is then no claim: a sentence is
    never cut, and a lesser sentence would not state the turn). Of the statements
    (not questions, at least ``MIN_CLAIM_WORDS`` words longer than three letters that
    are not function words): one in the first person singular (the speaker's own news,
    not a reaction to the other speaker) first, then the one with the most such words,
    then the shorter."""
    stated = [
        s for s in sentences(text) if not is_question(s) and meaning_words(s) >= MIN_CLAIM_WORDS
    ]
    if not stated:
        return None
    best = max(stated, key=lambda s: (in_first_person(s), meaning_words(s), -len(s)))
    return best if len(best) <= limit else None


# a claim is a statement with at least this many words longer than three letters that
# are not function words ("Yeah totally!", "I'll keep you posted." state nothing)
MIN_CLAIM_WORDS = 3


def themes(
    episodes: Sequence[MemoryItem],
    vectors: Mapping[str, np.ndarray],
    policy: ConsolidationPolicy,
) -> list[Group]:
    """The themes of ``episodes`` (any order; ``vectors``: item id → unit vector), one
    group per run of at most ``max_theme_claims`` statements of one speaker."""
    window_of = {m.id: g.key for g in windows(episodes, policy) for m in g.members}
    by_author: dict[str, list[MemoryItem]] = {}
    for e in sorted(episodes, key=lambda e: (e.occurred_at, e.id)):
        if (
            e.author
            and e.id in vectors
            and says_something(e, policy.min_theme_words)
            and claim_of(e.text, policy.max_claim_chars) is not None
        ):
            by_author.setdefault(e.author, []).append(e)
    groups: list[Group] = []
    for author, said in sorted(by_author.items()):
        for cluster in _clusters(said, vectors, policy.theme_similarity):
            if len(cluster) < policy.min_theme or len({window_of[m.id] for m in cluster}) < 2:
                continue
            for run in _runs(cluster, policy):
                groups.append(
                    Group(
                        GroupKind.THEME,
                        f"theme:{author}:{run[0].id}",
                        tuple(run),
                        title=f"{author}:",
                    )
                )
    return groups


def _runs(cluster: Sequence[MemoryItem], policy: ConsolidationPolicy) -> list[list[MemoryItem]]:
    """``cluster`` in runs, in order: a run ends at ``max_theme_claims`` statements or
    before the claim that would take its claims over ``max_theme_chars`` characters
    (a later statement only ever extends the last run)."""
    runs: list[list[MemoryItem]] = []
    chars = 0
    for m in cluster:
        size = len(claim_of(m.text, policy.max_claim_chars) or "")
        if (
            not runs
            or len(runs[-1]) >= policy.max_theme_claims
            or chars + size > policy.max_theme_chars
        ):
            runs.append([])
            chars = 0
        runs[-1].append(m)
        chars += size
    return runs


def _clusters(
    said: Sequence[MemoryItem], vectors: Mapping[str, np.ndarray], similarity: float
) -> list[list[MemoryItem]]:
    """Greedy clusters in the order of ``said``: each joins the cluster whose centroid
    it is closest to, when within ``similarity``, else starts one."""
    if not said:
        return []
    dim = len(vectors[said[0].id])
    sums = np.zeros((len(said), dim), dtype=np.float32)  # at most one cluster each
    clusters: list[list[MemoryItem]] = []
    for e in said:
        v = np.asarray(vectors[e.id], dtype=np.float32)
        n = len(clusters)
        if n:
            block = sums[:n]
            norms = np.linalg.norm(block, axis=1)
            sims = (block @ v) / np.where(norms > 0, norms, 1.0)
            best = int(np.argmax(sims))
            if float(sims[best]) >= similarity:
                sums[best] += v
                clusters[best].append(e)
                continue
        sums[n] = v
        clusters.append([e])
    return clusters


def theme_gist(group: Group, policy: ConsolidationPolicy) -> Gist:
    """A theme's summary: its heading, then one clause per statement, each day's
    first dated."""
    claims: list[Claim] = []
    dated: datetime | None = None
    for m in group.members:
        said = claim_of(m.text, policy.max_claim_chars)
        if said is None:  # themes() admits only turns with a claim
            raise ValueError(f"theme member {m.id} has no sentence of a claim")
        at = m.occurred_at
        if dated is None or at.date() != dated.date():
            # the year only when it changes: "8 May 2023: ... 25 May: ..."
            when = day(at) if dated is None or at.year != dated.year else f"{at.day} {at:%B}"
            said, dated = f"{when}: {said}", at
        claims.append(Claim.said_in(m, said))
    return Gist(group.title, claims)
