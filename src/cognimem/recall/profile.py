"""The standing constraint profile: a user's live constraints consolidated into a short
list, and the entries of it a decision-like request carries (pure).

Consolidation (:func:`consolidate`, once per version of the user's fact rows: the
stores keep one copy of the rows while no fact changes, and the profile is kept on it):

- **paraphrases merge**: two constraints of one stance whose embeddings are at least
  ``ProfileConfig.paraphrase`` close, or whose values hold the same words, are one
  entry, shown as the newest statement, its provenance the union of theirs;
- **a newer stance supersedes**: an older constraint of the opposite stance on the
  same subject (the same predicate, and values that share words or embeddings at least
  ``same_subject`` close) leaves the profile; the fact itself stays stored, with its
  history, and the entry names it (``supersedes``);

and per read (:func:`choose`):

- **stale states decay**: an entry whose effective confidence at the read's reference
  time (``models/fact_decay.py``: the half-life of its category since the latest of its
  statements was validated) fell below ``AGING_BELOW`` is left out — a binding one
  (value, policy) never decays out, as in the sections;
- **what bears on the request**: every live entry is ranked by relevance to the
  request — its closeness in meaning *less how close it sits to the user's other
  constraints* (``crowding``: the mean cosine of its ``crowding_k`` nearest entries of
  other messages), a shared decision area (``text/areas.py``) or scope tag, importance,
  recency and kind (binding first) — and those within ``within`` of the best and at
  least ``stand_out`` standard deviations above the mean score of the user's live
  entries (after the best, ``then_stand_out`` by score or closeness) are carried, best
  first, while they fit ``max_tokens``; an entry needs a shared scope tag or
  ``evidence_floor`` closeness to be ranked at all, and one that shares both a scope
  tag and a decision area with the request need not stand out (``topic_exempt``: two
  close constraints that both bear on it, "I'm vegetarian" and "I am allergic to
  shellfish" for "any ideas for dinner tonight?", are both carried; the mean of the
  two kept one). The mean is what keeps a small scope's profile short: among seven
  constraints every score is within ``within`` of the best. The crowding term is the
  hubness correction of nearest-neighbour retrieval: a constraint that is near all of
  the user's others ("I want to save money") is near every request too, and an
  absolute closeness floor let it into every packet while the one constraint that
  stands out for this request ("I've got gout" for "pick a place for the guys'
  night") stayed below the floor.

Only a decision-like, planning or recommendation request gets a profile
(``recall/reader.py``); it fills the constraint sections after the constraint step's
best pick, up to ``max_entries`` entries in all (``recall/assemble.py``), never twice:
a constraint the step picked shows as its entry (paraphrases once, with their
provenance; a superseded stance as the newer one).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property

import numpy as np

from cognimem.blas import single_threaded
from cognimem.models.fact_decay import AGING_BELOW, FACT_HALF_LIVES, effective_confidence
from cognimem.models.knowledge import BINDING_CATEGORIES, Fact
from cognimem.recall.analyze import query_terms

__all__ = [
    "Profile",
    "ProfileChoice",
    "ProfileConfig",
    "ProfileEntry",
    "Standing",
    "choose",
    "consolidate",
    "part_config",
]

# a value opening with one of these is a stance against what follows ("no pork")
_REFUSALS = frozenset(
    ["no", "not", "never", "avoid", "avoiding", "without", "skip", "stop", "quit", "none"]
)


@dataclass(frozen=True)
class ProfileConfig:
    """How the profile is consolidated and what of it a request carries."""

    # the profile's own token cap in a packet (0: no profile). On
    # benchmarks/cue_trigger_long.py (tune / check), cue in the packet without the
    # profile 0.462 / 0.449 with 3.2 / 3.2 unrelated constraints per packet; 120 tokens
    # (absolute floors, no crowding, no entry cap) 0.554 / 0.480 with 5.9 / 5.5
    max_tokens: int = 120
    # the constraint entries a decision's packet shows in all, the constraint step's
    # best pick included (docs/constraints.md says what was measured)
    max_entries: int = 4
    # an entry is carried when its score is within this of the best entry's, and only
    # with some evidence of bearing on the request: a shared scope tag, or at least
    # evidence_floor close in meaning (nothing is carried for being a constraint alone).
    # 0.4 -> 0.35 on the tune half of benchmarks/cue_trigger_long.py, replayed from the
    # captured profile inputs: the same cues (0.723), unrelated constraints 2.52 -> 2.42
    # a packet; as scopes of 7 (the cue and 6 others of its scope), the same cues with
    # 0.92 -> 0.85 other entries (0.3: a pair of cues lost)
    within: float = 0.35
    evidence_floor: float = 0.05
    # ... and when it stands out among the user's live constraints: its score at least
    # their mean plus this many standard deviations. Among a few constraints every
    # score is within `within` of the best, and the relative floor alone carried three
    # of seven unrelated ones (benchmarks/cue_trigger.py); among a conversation's ~80
    # the mean is far below the best and this floor changes nothing. On the tune half
    # of benchmarks/cue_trigger_long.py replayed as scopes of 7 constraints (the cue and
    # 6 others of its scope, 5 draws each), 0 / 0.25 / 0.5 / 1.0 kept the cue
    # 0.898 / 0.882 / 0.858 / 0.784 of the time (0.911 without) with 0.91 / 0.75 /
    # 0.58 / 0.30 other entries (1.21 without); None: no such floor
    stand_out: float | None = 0.0
    # ... and each after the best this many standard deviations above it by its score or
    # its closeness alone (None: no such floor): among ten preferences on ten topics half
    # are above the mean, and a travel request carried the food and music ones (tune
    # halves, replayed and read: docs/constraints.md)
    then_stand_out: float | None = 0.5
    # an entry that shares a scope tag and a decision area with the request is carried
    # within `within` without having to stand out: the floor judges entries whose only
    # evidence is closeness in meaning, and with two close constraints that both bear on
    # a request ("I'm vegetarian", "I am allergic to shellfish" for "any ideas for
    # dinner tonight?") the mean of the two kept only one. On the tune half of
    # benchmarks/cue_trigger_long.py it changed nothing (docs/constraints.md)
    topic_exempt: bool = True
    # the hubness correction: the score loses this times the mean cosine of the entry's
    # crowding_k nearest entries of the same user. On the tune half of
    # benchmarks/cue_trigger_long.py, read: 2.0 -> 2.5 moved the cue in the packet
    # 0.700 -> 0.723 with 2.55 -> 2.45 unrelated constraints a packet (replayed from the
    # captured candidates: 2.25 / 2.5 / 2.75 / 3.0 all within a pair of it)
    crowding_weight: float = 2.5
    crowding_k: int = 5
    paraphrase: float = 0.85  # cosine: one stance said again in other words
    same_subject: float = 0.6  # cosine: two stances about one subject
    area_weight: float = 0.15
    tag_weight: float = 0.15
    importance_weight: float = 0.1
    recency_weight: float = 0.1
    recency_days: float = 90.0  # the recency signal halves every this many days
    kind_weight: float = 0.05  # binding (value, policy) before goal, state, causal


@dataclass(frozen=True)
class Standing:
    """One consolidated entry: the stance as last said, and what it absorbed."""

    fact: Fact  # the newest statement
    row: int  # its row among the fact rows
    paraphrases: tuple[Fact, ...] = ()  # older statements of the same stance
    rows: tuple[int, ...] = ()  # the rows of the statement and its paraphrases
    supersedes: tuple[Fact, ...] = ()  # older opposite stances on the same subject
    # the mean cosine of its nearest entries of the same user (ProfileConfig.crowding_k)
    crowding: float = 0.0

    @property
    def statements(self) -> tuple[Fact, ...]:
        return (self.fact, *self.paraphrases)

    def event_ids(self) -> list[str]:
        return list(dict.fromkeys(e for f in self.statements for e in f.evidence_event_ids))

    def item_ids(self) -> list[str]:
        return list(dict.fromkeys(i for f in self.statements for i in f.evidence_item_ids))

    def confidence_at(self, at: datetime) -> float:
        return max(effective_confidence(f, at) for f in self.statements)


@dataclass(frozen=True)
class Profile:
    """A user's consolidated live constraints, newest stance first."""

    entries: tuple[Standing, ...]

    def by_fact(self) -> dict[str, Standing]:
        """Every constraint's entry by fact id: the entry a statement is in, or the one
        whose newer stance superseded it."""
        out: dict[str, Standing] = {}
        for s in self.entries:
            for f in (*s.statements, *s.supersedes):
                out[f.id] = s
        return out

    @cached_property
    def columns(self) -> _Columns:
        """The entries as arrays, built once per profile, so a read scores them all in
        a few numpy operations (a scope may hold hundreds of constraints)."""
        return _Columns.of(self.entries)


@dataclass(frozen=True)
class _Columns:
    """Per statement (grouped by entry, in entry order): its entry, fact row, stored
    confidence, half-life and validation time; per entry: where its statements start,
    whether it binds, its crowding, importance and newest validation time."""

    entry: np.ndarray
    rows: np.ndarray
    confidence: np.ndarray
    half_life_s: np.ndarray
    validated: np.ndarray
    starts: np.ndarray
    binding: np.ndarray
    crowding: np.ndarray
    importance: np.ndarray
    newest: np.ndarray

    @classmethod
    def of(cls, entries: Sequence[Standing]) -> _Columns:
        statements = [
            (i, r, f)
            for i, s in enumerate(entries)
            for r, f in zip(s.rows, s.statements, strict=True)
        ]
        validated = np.array([f.last_validated_at.timestamp() for _, _, f in statements])
        entry = np.array([i for i, _, _ in statements], dtype=np.int64)
        starts = np.searchsorted(entry, np.arange(len(entries)))
        return cls(
            entry=entry,
            rows=np.array([r for _, r, _ in statements], dtype=np.int64),
            confidence=np.array([f.confidence for _, _, f in statements]),
            half_life_s=np.array([FACT_HALF_LIVES[f.category] * 86_400 for _, _, f in statements]),
            validated=validated,
            starts=starts,
            binding=np.array([s.fact.category in BINDING_CATEGORIES for s in entries]),
            crowding=np.array([s.crowding for s in entries]),
            importance=np.array([max(f.importance for f in s.statements) for s in entries]),
            newest=np.maximum.reduceat(validated, starts) if len(entries) else validated,
        )


@dataclass(frozen=True)
class ProfileEntry:
    """An entry a request carries, with the signals that put it there."""

    standing: Standing
    score: float
    signals: dict[str, float]

    def reason(self) -> str:
        why = []
        if self.signals.get("area"):
            why.append("shares a decision area with the request")
        if self.signals.get("tags"):
            why.append("shares a scope tag with the request")
        if not why:
            why.append(
                f"close in meaning ({self.signals.get('semantic', 0.0):.2f}, its "
                f"crowding {self.signals.get('crowding', 0.0):.2f})"
            )
        s = self.standing
        if s.paraphrases:
            why.append(f"{len(s.paraphrases)} paraphrase(s) merged")
        if s.supersedes:
            why.append("supersedes " + ", ".join(f.id for f in s.supersedes))
        return "standing profile: " + "; ".join(why)


@dataclass
class ProfileChoice:
    """What a request gets of the profile: the entries that bear on it, best first, and
    every constraint's entry (so a constraint the constraint step picked shows as its
    entry: paraphrases once, a superseded stance not at all)."""

    entries: list[ProfileEntry] = field(default_factory=list)
    by_fact: dict[str, Standing] = field(default_factory=dict)


def _stance(fact: Fact) -> bool:
    words = fact.value.lower().split()
    against = bool(words) and words[0].strip(",.") in _REFUSALS
    return fact.polarity != against


def _words(fact: Fact) -> frozenset[str]:
    return frozenset(w for w in query_terms(fact.value) if w not in _REFUSALS)


def _same_words(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def consolidate(
    facts: Sequence[Fact], rows: Sequence[int], matrix: np.ndarray | None, config: ProfileConfig
) -> Profile:
    """The profile of ``facts`` (the user's live constraints, newest first; ``rows`` their
    rows in the fact rows, whose embeddings are ``matrix``'s rows)."""
    n = len(facts)
    if matrix is not None and n:
        vectors = matrix[list(rows)]
        with single_threaded():
            cosine = vectors @ vectors.T
    else:
        cosine = np.zeros((n, n), dtype=np.float32)
    words = [_words(f) for f in facts]
    stances = [_stance(f) for f in facts]
    owner: list[int | None] = [None] * n  # the entry a fact joined, by its first fact
    gone: set[int] = set()  # superseded by a newer opposite stance
    absorbed: dict[int, list[int]] = {}
    superseded: dict[int, list[int]] = {}
    for i in range(n):  # newest first: a fact joins or is superseded by a newer one
        for j in range(i):
            if (owner[j] is not None and owner[j] != j) or j in gone:
                continue
            shared = _same_words(words[i], words[j])
            if stances[i] == stances[j] and (
                cosine[i, j] >= config.paraphrase or (shared == 1.0 and words[i] == words[j])
            ):
                owner[i] = j
                absorbed.setdefault(j, []).append(i)
                break
            if (
                stances[i] != stances[j]
                and facts[i].predicate == facts[j].predicate
                and (shared >= 0.5 or cosine[i, j] >= config.same_subject)
            ):
                gone.add(i)
                superseded.setdefault(j, []).append(i)
                break
        if owner[i] is None and i not in gone:
            owner[i] = i
    heads = [i for i in range(n) if owner[i] == i]
    one_message = _one_message(facts, heads, absorbed)
    crowding = _crowding(cosine[np.ix_(heads, heads)], config.crowding_k, one_message)
    entries = []
    for i, crowded in zip(heads, crowding, strict=True):
        merged = absorbed.get(i, [])
        older = [k for j in (i, *merged) for k in superseded.get(j, [])]
        entries.append(
            Standing(
                fact=facts[i],
                row=rows[i],
                paraphrases=tuple(facts[k] for k in merged),
                rows=tuple(rows[k] for k in (i, *merged)),
                supersedes=tuple(facts[k] for k in older),
                crowding=crowded,
            )
        )
    return Profile(tuple(entries))


def _one_message(
    facts: Sequence[Fact], heads: Sequence[int], absorbed: dict[int, list[int]]
) -> np.ndarray:
    """Which pairs of entries share an evidence event (were drawn from one message)."""
    holders: dict[str, set[int]] = {}
    for at, i in enumerate(heads):
        for k in (i, *absorbed.get(i, [])):
            for event in facts[k].evidence_event_ids:
                holders.setdefault(event, set()).add(at)
    shared = np.zeros((len(heads), len(heads)), dtype=bool)
    for group in (sorted(g) for g in holders.values() if len(g) > 1):
        shared[np.ix_(group, group)] = True
    return shared


def _crowding(cosine: np.ndarray, k: int, one_message: np.ndarray) -> list[float]:
    """Per entry, the mean cosine of its ``k`` nearest other entries, leaving out those
    drawn from one of its own messages (0 with none): two facts of one sentence ("I avoid
    flying because I get panic attacks" gives a rule and a cause) are one statement, not
    a crowd of the user's constraints around it."""
    n = len(cosine)
    if n < 2 or k <= 0:
        return [0.0] * n
    others = np.array(cosine, dtype=np.float64)
    others[one_message] = -np.inf
    np.fill_diagonal(others, -np.inf)
    nearest = -np.sort(-others, axis=1)[:, : min(k, n - 1)]
    counted = np.isfinite(nearest)
    total = np.where(counted, nearest, 0.0).sum(axis=1)
    many = counted.sum(axis=1)
    mean = np.divide(total, many, out=np.zeros(n), where=many > 0)
    return [round(float(v), 4) for v in mean]


def part_config(config: ProfileConfig) -> ProfileConfig:
    """How one part of a request that asks for several things (``recall/parts.py``)
    ranks the profile: only the entries that share a scope tag with the part, by
    closeness, area, importance, recency and kind, those within ``within`` of the
    part's best. The crowding correction and the stand-out floor are off: the entries
    that share a part's tags are one topic's cluster, whose members crowd each other —
    among "I'm vegetarian", "I'm allergic to peanuts" and "I never fly on Sundays" the
    correction put the lone travel rule first even for "book me a dinner"."""
    return replace(
        config, crowding_weight=0.0, stand_out=None, then_stand_out=None, evidence_floor=math.inf
    )


def choose(
    profile: Profile,
    semantic: np.ndarray,
    area: np.ndarray,
    tagged: np.ndarray,
    at: datetime,
    config: ProfileConfig,
) -> list[ProfileEntry]:
    """The entries that bear on a request, best first: ``semantic``, ``area`` and
    ``tagged`` are per fact row (cosine with the request, shares one of its decision
    areas, shares one of its scope tags); ``at`` is the read's reference time."""
    entries = profile.entries
    if not entries:
        return []
    c = profile.columns
    t = at.timestamp()
    with np.errstate(over="ignore"):
        decayed = c.confidence * 0.5 ** (np.maximum(t - c.validated, 0.0) / c.half_life_s)
    confidence = np.maximum.reduceat(decayed, c.starts)
    sem = np.maximum.reduceat(np.asarray(semantic)[c.rows].astype(np.float64), c.starts)
    shares_area = np.logical_or.reduceat(np.asarray(area, dtype=bool)[c.rows], c.starts)
    shares_tag = np.logical_or.reduceat(np.asarray(tagged, dtype=bool)[c.rows], c.starts)
    recency = 0.5 ** (np.maximum(t - c.newest, 0.0) / 86_400 / config.recency_days)
    score = (
        sem
        - config.crowding_weight * c.crowding
        + config.area_weight * shares_area
        + config.tag_weight * shares_tag
        + config.importance_weight * c.importance
        + config.recency_weight * recency
        + config.kind_weight * c.binding
    )
    live = c.binding | (confidence >= AGING_BELOW)  # a stale one decayed out
    evident = shares_tag | (sem >= config.evidence_floor)  # some evidence of bearing
    candidates = np.flatnonzero(live & evident)
    if not len(candidates):
        return []
    rounded = np.round(score, 4)
    margin = float(rounded[candidates].max() - config.within)
    floor = margin
    if config.stand_out is not None:  # stand out of the user's live constraints
        pool = rounded[live]
        floor = max(floor, float(pool.mean() + config.stand_out * pool.std()))
    carried = candidates[rounded[candidates] >= floor]
    if config.then_stand_out is not None and len(carried) > 1:
        carried = _then_stand_out(profile, carried, rounded, sem, live, config.then_stand_out)
    if config.topic_exempt:  # the lexicon's topic and area are evidence of their own
        on_topic = candidates[shares_tag[candidates] & shares_area[candidates]]
        carried = np.union1d(carried, on_topic[rounded[on_topic] >= margin])
    out = _carried_entries(entries, c, carried, rounded, sem, shares_area, shares_tag, recency)
    out.sort(key=lambda e: (-e.score, e.standing.fact.id))
    return out


def _then_stand_out(
    profile: Profile,
    carried: np.ndarray,
    rounded: np.ndarray,
    sem: np.ndarray,
    live: np.ndarray,
    spread: float,
) -> np.ndarray:
    """Of the ``carried`` positions, the best (ties by fact id, as the entries are
    ordered) and those whose score or closeness is ``spread`` σ above its live mean."""
    top = rounded[carried].max()
    best = min(carried[rounded[carried] == top], key=lambda i: profile.entries[i].fact.id)
    keep = carried == best
    for values in (rounded, sem):
        pool = values[live]
        keep |= values[carried] >= float(pool.mean() + spread * pool.std())
    kept: np.ndarray = carried[keep]
    return kept


def _carried_entries(
    entries: Sequence[Standing],
    c: _Columns,
    carried: np.ndarray,
    rounded: np.ndarray,
    sem: np.ndarray,
    shares_area: np.ndarray,
    shares_tag: np.ndarray,
    recency: np.ndarray,
) -> list[ProfileEntry]:
    """The entries at the ``carried`` positions, each with its score and signals."""
    # the signals as Python numbers in one conversion per column: converting them one
    # numpy scalar at a time was most of choose's cost (~0.5 ms for 27 entries)
    columns = zip(
        carried.tolist(),
        rounded[carried].tolist(),
        np.round(sem[carried], 4).tolist(),
        shares_area[carried].tolist(),
        shares_tag[carried].tolist(),
        np.round(c.importance[carried], 4).tolist(),
        np.round(recency[carried], 4).tolist(),
        c.binding[carried].tolist(),
        strict=True,
    )
    out = []
    for i, scored, close, in_area, tagged_, important, recent, binds in columns:
        st = entries[i]
        signals = {
            "profile": 1.0,
            "semantic": close,
            "crowding": st.crowding,
            "area": 1.0 if in_area else 0.0,
            "tags": 1.0 if tagged_ else 0.0,
            "importance": important,
            "recency": recent,
            "binding": 1.0 if binds else 0.0,
            "merged": float(len(st.paraphrases)),
            "supersedes": float(len(st.supersedes)),
        }
        out.append(ProfileEntry(st, scored, signals))
    return out
