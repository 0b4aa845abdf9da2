"""The final ranking of candidate items: several signals, weighted by configuration,
then MMR diversity over token sets computed once per candidate. Pure.

Signals, each in [0, 1]:

- ``relevance``: the fused lexical + vector score (``recall/fuse.py``), scaled by the best;
- ``graph``: personalized-PageRank mass of the entities the item's facts connect;
- ``fact``: the item is the evidence of a fact the exact key lookup found;
- ``entity``: share of the query's known entity names the item mentions;
- ``dated``: the item's own words date what the query asks about (``recall/temporal.py``);
- ``recency``: halves every ``half_lives.<kind>`` days before the reference time;
- ``importance``; ``novelty`` (the write gate's: 1 - cosine to the nearest item stored
  before it; 0.5 when not scored); ``reinforcement`` (log of the events merged into it);
- ``confidence``: stored confidence with passive decay since it was said (halving every
  ``half_lives.confidence`` days; constraints, mandates and guardrails do not decay);
- ``utility``: how often it was useful when loaded (Laplace-smoothed; 0.5 unknown);
- ``session``: 1 for a memory of the session the read names (a read with ``session_id``
  reads every session of the user and ranks that one's up), else 0.

An item that states what no longer holds for the read (``recall/fact_time.stale_since``:
a superseded or invalidated fact's evidence) has its weighted score multiplied by
``NO_LONGER_TRUE_FACTOR`` and the signal ``no_longer_true`` = 1: it stays findable
(the packet and explain say "no longer true (since ...)") but ranks below what holds.

A user's read ranks the shared levels' items with the user's own (``ItemFilter.
with_organisation``): such an item has the signal ``level`` — 0.5 for the read's agent's
(no user), 0.75 for the namespace's (no user, no agent), 1 for the organisation's (no
user, no agent, every namespace's) — and its weighted score is multiplied by
``1 - LEVEL_PENALTY * level`` (0.95, 0.925, 0.9): on a tie, and a near tie, the user's
own ranks first, then the agent's, then the namespace's, then the organisation's; a
shared item that answers the query better still outranks the user's. The user's own
items carry no ``level`` and keep their score.

Then ``recall/conversation/pairs.py`` adds ``answer`` (weight ``rerank.answer``): a reply to a
candidate question, by that question's score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain

import numpy as np

from cognimem.models import ItemKind, MemoryItem
from cognimem.models.items import utility
from cognimem.recall.presets import HalfLives, RecallConfig
from cognimem.recall.rounding import round_places, round_rows

# the runs of word characters longer than two (a run is matched whole or not at all)
_LONG_WORD = re.compile(r"\w{3,}", re.UNICODE)
SIGNALS = (
    "relevance",
    "graph",
    "fact",
    "entity",
    "dated",
    "recency",
    "importance",
    "novelty",
    "reinforcement",
    "confidence",
    "utility",
    "session",
)
# a stale item keeps this share of its score: well below the statement that replaced it,
# which matches the same question about as well
NO_LONGER_TRUE_FACTOR = 0.25
_STABLE = frozenset({ItemKind.CONSTRAINT, ItemKind.MANDATE, ItemKind.GUARDRAIL})
# how far a shared level's item is from the user's own (the ``level`` signal), and the
# share of its score each step away costs
LEVEL_DISTANCE = {"agent": 0.5, "namespace": 0.75, "organisation": 1.0}
LEVEL_PENALTY = 0.1


@dataclass(slots=True)
class RankInput:
    """One candidate item and what the retrieval steps said about it."""

    item: MemoryItem | None = None  # set once fetched
    relevance: float = 0.0  # fused, already scaled to [0, 1]
    graph: float = 0.0
    fact: float = 0.0
    dated: float = 0.0
    session: float = 0.0  # 1.0: a memory of the session the read names
    level: str = "user"  # whose memory: "user" (the read's own), "agent", "organisation"
    stale_since: datetime | None = None  # what it states no longer holds since then
    raw: dict[str, float] = field(default_factory=dict)  # per-method raw scores
    steps: tuple[str, ...] = ()


@dataclass(slots=True)
class Ranked:
    item: MemoryItem
    score: float
    signals: dict[str, float]
    raw: dict[str, float]
    steps: tuple[str, ...]
    # the item's word set (``tokens_of``) when the read's rerank needs it (``words_needed``:
    # the query names known entities, or MMR diversifies), else empty
    tokens: frozenset[str]
    answers: str | None = None  # the id of the candidate question it replies to
    stale_since: datetime | None = None


def tokens_of(text: str) -> frozenset[str]:
    """The words of ``text`` longer than two characters, lower-cased."""
    return frozenset(_LONG_WORD.findall(text.lower()))


def half_life(kind: ItemKind, lives: HalfLives) -> float:
    if kind in _STABLE:
        return lives.stable
    days: float = {
        ItemKind.EPISODE: lives.episode,
        ItemKind.SUMMARY: lives.summary,
        ItemKind.PREFERENCE: lives.preference,
        ItemKind.FACT: lives.fact,
        ItemKind.PROCEDURE_HINT: lives.procedure,
    }.get(kind, lives.episode)
    return days


def _age_days(since: datetime, now: datetime) -> float:
    return max((now - since).total_seconds(), 0.0) / 86_400


def _halved(age: float, days: float) -> float:
    return float(0.5 ** (age / days))


def signal_values(
    c: RankInput,
    item: MemoryItem,
    entity_tokens: frozenset[str],
    tokens: frozenset[str],
    now: datetime,
    lives: HalfLives,
    life: float,
) -> tuple[float, ...]:
    """The signals of ``c`` (its ``item``), in ``SIGNALS``' order; ``life``: the half-life
    of the item's kind (``half_life``). The item's age is worked out once for both of
    its decays."""
    age = _age_days(item.occurred_at, now)
    confidence = item.confidence
    if item.kind not in _STABLE:
        # since it was said (its own time, as the read's reference time is): decay
        # "since it was recorded" never decayed a replayed conversation at all
        confidence *= _halved(age, lives.confidence)
    events = len(item.source_event_ids)
    return (
        c.relevance,
        c.graph,
        c.fact,
        len(entity_tokens & tokens) / len(entity_tokens) if entity_tokens else 0.0,
        c.dated,
        _halved(age, life),
        item.importance,
        0.5 if item.novelty is None else item.novelty,
        # log2(1) / 4 is 0.0: one event (most items) skips the logarithm
        min(math.log2(events) / 4, 1.0) if events > 1 else 0.0,
        confidence,
        utility(item),
        c.session,
    )


def rerank(
    candidates: Iterable[RankInput],
    config: RecallConfig,
    now: datetime,
    entity_names: Sequence[str] = (),
) -> list[Ranked]:
    """Score every candidate on the weighted signals, best first (ties by id)."""
    weights = [getattr(config.rerank, name) for name in SIGNALS]
    entity_tokens = frozenset(t for name in entity_names for t in tokens_of(name))
    lives = config.half_lives
    days = {kind: half_life(kind, lives) for kind in ItemKind}
    words = words_needed(config, entity_tokens)
    inputs = list(candidates)
    tokens: list[frozenset[str]] = []
    values: list[tuple[float, ...]] = []
    for c in inputs:
        item = c.item
        assert item is not None
        words_of = tokens_of(item.text) if words else _NO_WORDS
        tokens.append(words_of)
        values.append(signal_values(c, item, entity_tokens, words_of, now, lives, days[item.kind]))
    scores, signals = _weighed(values, weights)
    out: list[Ranked] = []
    for c, score, rounded, words_of in zip(inputs, scores, signals, tokens, strict=True):
        if c.stale_since is not None:
            score *= NO_LONGER_TRUE_FACTOR
            rounded["no_longer_true"] = 1.0
        distance = LEVEL_DISTANCE.get(c.level)
        if distance is not None:  # a shared level's: the user's own first on a tie
            score *= 1 - LEVEL_PENALTY * distance
            rounded["level"] = distance
        item = c.item
        assert item is not None
        stale = c.stale_since
        out.append(Ranked(item, score, rounded, c.raw, c.steps, words_of, stale_since=stale))
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out


def _weighed(
    values: list[tuple[float, ...]], weights: list[float]
) -> tuple[list[float], list[dict[str, float]]]:
    """Each candidate's weighted sum of its signals (added in ``SIGNALS``' order from
    0.0, as ``sum`` of the products adds them on Python 3.11) and its signals rounded to
    four places (a signal of 0.0 left as it is), by name: over the candidates' matrix
    at once when every value and weight is a float (the signals always are), else one
    value at a time, as ``round_places`` of an int keeps it an int."""
    kinds = set(map(type, chain.from_iterable(values)))
    if not values or kinds | set(map(type, weights)) != {float}:
        return [sum([w * v for w, v in zip(weights, row, strict=True)]) for row in values], [
            {k: v if v == 0.0 else round_places(v, 4) for k, v in zip(SIGNALS, row, strict=True)}
            for row in values
        ]
    matrix = np.array(values, dtype=np.float64)
    total = np.zeros(len(values))
    for j, w in enumerate(weights):
        total += w * matrix[:, j]
    return total.tolist(), [dict(zip(SIGNALS, row, strict=True)) for row in round_rows(matrix, 4)]


_NO_WORDS: frozenset[str] = frozenset()


def words_needed(config: RecallConfig, entity_tokens: frozenset[str]) -> bool:
    """Whether a read's rerank needs its candidates' word sets: for the ``entity``
    signal (the query names known entities) or for MMR (``mmr_lambda`` below 1)."""
    return bool(entity_tokens) or config.mmr_lambda < 1.0


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def mmr(ranked: Sequence[Ranked], lam: float, limit: int) -> list[Ranked]:
    """Maximal marginal relevance: repeatedly take the candidate with the best
    ``lam * score - (1 - lam) * overlap`` with those already taken, where overlap is
    the token-set overlap coefficient. ``lam = 1`` keeps the score order. Scores are
    scaled by the best first so the two terms are comparable; O(limit × n) set
    intersections over at most ``3 × limit`` candidates."""
    if lam >= 1.0 or len(ranked) <= 1:
        return list(ranked[:limit])
    pool = list(ranked[: max(limit * 3, limit)])
    top = max((r.score for r in pool), default=0.0) or 1.0
    chosen: list[Ranked] = []
    closest = [0.0] * len(pool)
    taken = [False] * len(pool)
    while len(chosen) < min(limit, len(pool)):
        best, best_value = -1, -math.inf
        for i, r in enumerate(pool):
            if taken[i]:
                continue
            value = lam * r.score / top - (1 - lam) * closest[i]
            if value > best_value:
                best, best_value = i, value
        taken[best] = True
        pick = pool[best]
        chosen.append(pick)
        for i, r in enumerate(pool):
            if not taken[i]:
                closest[i] = max(closest[i], _overlap(r.tokens, pick.tokens))
    return chosen
