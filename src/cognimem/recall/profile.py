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
  time (``recall/decay.py``: the half-life of its category since the latest of its
  statements was validated) fell below ``AGING_BELOW`` is left out — a binding one
  (value, policy) never decays out, as in the sections;
- **what bears on the request**: entries that share a scope tag with the request, are
  at least ``bears_floor`` close in meaning, or share one of its decision areas
  (``text/areas.py``) and are at least ``area_floor`` close, ranked by relevance
  (meaning, area, tags), importance, recency and kind (binding first), taken in that
  order while they fit ``max_tokens``.

Only a decision-like, planning or recommendation request gets a profile
(``recall/retrieve.py``); it goes in the constraint sections beside what the
constraint step picked, never twice: a constraint the step picked shows as its entry
(paraphrases once, with their provenance; a superseded stance as the newer one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from cognimem.blas import single_threaded
from cognimem.models.knowledge import BINDING_CATEGORIES, Fact
from cognimem.recall.analyze import query_terms
from cognimem.recall.decay import AGING_BELOW, effective_confidence

__all__ = [
    "Profile",
    "ProfileChoice",
    "ProfileConfig",
    "ProfileEntry",
    "Standing",
    "choose",
    "consolidate",
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
    # 0.554 / 0.480 with 5.9 / 5.5; 60 tokens 0.538 / 0.472 with 4.8 / 4.6; 40 tokens
    # 0.508 (tune) with 4.3; 120 with the stand-out floor at 1.0 0.523 (tune) with 4.9
    max_tokens: int = 120
    paraphrase: float = 0.85  # cosine: one stance said again in other words
    same_subject: float = 0.6  # cosine: two stances about one subject
    # an entry bears on a request when it shares a scope tag with it, or is this close
    # in meaning, or shares a decision area and is area_floor close (the constraint
    # step's floors, recall/constraints.py)
    bears_floor: float = 0.25
    area_floor: float = 0.15
    area_weight: float = 0.15
    tag_weight: float = 0.15
    importance_weight: float = 0.1
    recency_weight: float = 0.1
    recency_days: float = 90.0  # the recency signal halves every this many days
    kind_weight: float = 0.05  # binding (value, policy) before goal, state, causal
    # an entry must also stand out: at least this many standard deviations above the
    # mean closeness of the user's entries to the request (0: no such floor)
    stand_out: float = 0.0


@dataclass(frozen=True)
class Standing:
    """One consolidated entry: the stance as last said, and what it absorbed."""

    fact: Fact  # the newest statement
    row: int  # its row among the fact rows
    paraphrases: tuple[Fact, ...] = ()  # older statements of the same stance
    rows: tuple[int, ...] = ()  # the rows of the statement and its paraphrases
    supersedes: tuple[Fact, ...] = ()  # older opposite stances on the same subject

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
        if self.signals.get("semantic", 0.0) > 0 and not why:
            why.append(f"close in meaning ({self.signals['semantic']:.2f})")
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
    entries = []
    for i in range(n):
        if owner[i] != i:
            continue
        merged = absorbed.get(i, [])
        older = [k for j in (i, *merged) for k in superseded.get(j, [])]
        entries.append(
            Standing(
                fact=facts[i],
                row=rows[i],
                paraphrases=tuple(facts[k] for k in merged),
                rows=tuple(rows[k] for k in (i, *merged)),
                supersedes=tuple(facts[k] for k in older),
            )
        )
    return Profile(tuple(entries))


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
    out: list[ProfileEntry] = []
    closeness = [max(float(semantic[r]) for r in s.rows) for s in profile.entries]
    floor = -1.0
    if config.stand_out > 0 and closeness:
        floor = float(np.mean(closeness) + config.stand_out * np.std(closeness))
    for s, sem in zip(profile.entries, closeness, strict=True):
        binding = s.fact.category in BINDING_CATEGORIES
        if not binding and s.confidence_at(at) < AGING_BELOW:
            continue  # stale: decayed out
        if sem < floor:
            continue
        shares_area = any(bool(area[r]) for r in s.rows)
        shares_tag = any(bool(tagged[r]) for r in s.rows)
        near = sem >= config.bears_floor or (shares_area and sem >= config.area_floor)
        if not (shares_tag or near):
            continue
        newest = max(f.last_validated_at for f in s.statements)
        age_days = max((at - newest).total_seconds(), 0.0) / 86_400
        recency = 0.5 ** (age_days / config.recency_days)
        importance = max(f.importance for f in s.statements)
        signals = {
            "profile": 1.0,
            "semantic": round(sem, 4),
            "area": 1.0 if shares_area else 0.0,
            "tags": 1.0 if shares_tag else 0.0,
            "importance": round(importance, 4),
            "recency": round(recency, 4),
            "binding": 1.0 if binding else 0.0,
            "merged": float(len(s.paraphrases)),
            "supersedes": float(len(s.supersedes)),
        }
        score = (
            sem
            + config.area_weight * signals["area"]
            + config.tag_weight * signals["tags"]
            + config.importance_weight * importance
            + config.recency_weight * recency
            + config.kind_weight * signals["binding"]
        )
        out.append(ProfileEntry(s, round(score, 4), signals))
    out.sort(key=lambda e: (-e.score, e.standing.fact.id))
    return out
