"""Which of the user's constraints and facts bear on a query — pure scoring.

Constraints rarely share words with the question that needs them ("I'm allergic to
shellfish" / "recommend a restaurant"), so a constraint is relevant by any of: its scope
tags meet the query's domains (the same vocabulary the extractor tags with), its meaning
is close to the query's (embedding cosine), or it shares words with it. Unrelated
constraints stay out: nothing is included for being a constraint alone. Facts that are
not constraints (identity, preferences, places ...) need a closer match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from cognimem.blas import single_threaded
from cognimem.models.knowledge import (
    BINDING_CATEGORIES,
    CONSTRAINT_CATEGORIES,
    Fact,
    FactCategory,
)
from cognimem.recall.analyze import classify, query_terms
from cognimem.recall.profile import ProfileConfig
from cognimem.recall.rounding import round_places
from cognimem.store.types import FactRows
from cognimem.text.areas import AreaCloseness, areas_of_tags, closest_areas, tags_under
from cognimem.text.scope_tags import scope_tags

# a request is in the areas its scope tags fall under and in the two areas closest to it
# in meaning (the write path's rule, ingest/implications.py; text/areas.py)
READ_CLOSENESS = AreaCloseness(floor=0.2, margin=0.1, top=2)


@dataclass(frozen=True)
class SectionConfig:
    """How facts and constraints earn a place in a packet's sections."""

    # a constraint this close in meaning is relevant; on the cue → trigger set
    # (benchmarks/cue_trigger.py, local MiniLM) 0.35 / 0.25 / 0.15 put the cue in the
    # sections for 0.10 / 0.16 / 0.26 of pairs with 0.11 / 0.17 / 0.61 (of 6) unrelated
    # constraints beside it
    semantic_floor: float = 0.25
    # a request that asks for a decision also gets the constraints closest to it in
    # meaning, this many, when at least semantic_near close: a constraint in other words
    # than the request's ("I've got gout" / "pick a place for the guys' night") is rarely
    # 0.25 close, but among the user's constraints it is often among the closest
    # (benchmarks/cue_trigger_long.py)
    nearest: int = 2
    semantic_near: float = 0.15
    # ... and only when it stands out from the user's other constraints: at least this
    # many standard deviations above their mean cosine with the request (a nearest
    # that does not stand out is just the least unrelated)
    near_spread: float = 1.5
    fact_floor: float = 0.5  # a non-constraint fact needs this (or shared words)
    tag_weight: float = 0.35
    # a constraint that bears on one of the request's decision areas (text/areas.py)
    # scores this much higher and, on a decision, is relevant when at least area_floor
    # close in meaning: on benchmarks/cue_trigger_long.py the cue reached the packet
    # for 0.446 -> 0.462 of the tune half and 0.433 -> 0.449 of the check half (the
    # weight alone: no change on the tune half; floor 0.1: the same hits with more
    # unrelated constraints; 0.2: no gain)
    area_weight: float = 0.15
    area_floor: float = 0.15
    lexical_weight: float = 0.3
    decision_weight: float = 0.1  # binding constraints of the query's domains, on decisions
    category_weight: float = 0.15  # a constraint of a type the query asks about
    light_floor: float = 0.35  # a light step (no dimension, no decision) needs this
    max_light: int = 2
    max_constraints: int = 5
    # the standing constraint profile a decision-like request carries (recall/profile.py)
    profile: ProfileConfig = field(default_factory=ProfileConfig)
    max_facts: int = 5
    # shares of max_tokens: every section but the mandates together, then each one
    share_of_budget: float = 0.35
    constraint_share: float = 0.25
    domain_share: float = 0.2  # the domain database's rows (a read with a domain mapping)
    fact_share: float = 0.12
    procedure_share: float = 0.1
    summary_share: float = 0.1
    conflict_share: float = 0.05


@dataclass(frozen=True)
class QueryView:
    """What the scoring needs to know about the query."""

    terms: frozenset[str]
    domains: frozenset[str]
    decision: bool
    vector: np.ndarray | None
    # the decision areas of the request, and every scope tag under them
    areas: frozenset[str] = frozenset()
    area_tags: frozenset[str] = frozenset()
    # per FactRows scored in this read: (the rows, their cosine with the query)
    memo: dict[int, tuple[FactRows, np.ndarray]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def of(
        cls,
        query: str,
        vector: np.ndarray | None,
        decision: bool | None = None,
        descriptions: np.ndarray | None = None,
    ) -> QueryView:
        """The view of ``query``; ``descriptions`` are the decision areas' vectors
        (``text/areas.py``), without which only the lexicon puts it in areas."""
        tags = scope_tags(query.replace("-", " "))
        areas = frozenset(
            [*areas_of_tags(tags), *closest_areas(vector, descriptions, READ_CLOSENESS)]
        )
        return cls(
            terms=frozenset(query_terms(query)),
            domains=frozenset(tags),
            decision=classify(query).decision if decision is None else decision,
            vector=vector,
            areas=areas,
            area_tags=tags_under(areas),
        )


@dataclass(frozen=True)
class Scored:
    fact: Fact
    score: float
    signals: dict[str, float]


@dataclass(frozen=True)
class Pick:
    """A relevant fact by id, before its full record is fetched."""

    fact_id: str
    constraint: bool
    score: float
    signals: dict[str, float]


_CONSTRAINT_VALUES = frozenset(c.value for c in CONSTRAINT_CATEGORIES)
_BINDING_VALUES = frozenset(c.value for c in BINDING_CATEGORIES)


def cosines(view: QueryView, rows: FactRows) -> np.ndarray:
    """Cosine of every fact row with the query, computed once per read and kept on the
    view."""
    cached = view.memo.get(id(rows))
    if cached is not None and cached[0] is rows:
        return cached[1]
    if view.vector is not None and rows.matrix is not None:
        with single_threaded():
            semantic = rows.matrix @ np.asarray(view.vector, dtype=np.float32)
    else:
        semantic = np.zeros(len(rows.ids), dtype=np.float32)
    view.memo[id(rows)] = (rows, semantic)
    return semantic


def _signals(sem: float, tag: bool, lexical: float) -> dict[str, float]:
    return {
        "semantic": round_places(sem, 4),
        "tags": 1.0 if tag else 0.0,
        "lexical": round_places(lexical, 4),
    }


def pick_constraints(
    view: QueryView,
    rows: FactRows,
    config: SectionConfig,
    categories: Iterable[FactCategory] = CONSTRAINT_CATEGORIES,
    *,
    light: bool = False,
) -> list[Pick]:
    """The relevant active constraints, best first. A constraint is relevant by its
    scope tags meeting the query's domains, its meaning, or shared words — never for
    being a constraint alone. Those of the asked ``categories`` score higher; a
    ``light`` step (the query names no dimension and asks no decision) keeps only the
    plainly relevant few."""
    if not rows.ids:
        return []
    wanted = frozenset(c.value for c in categories)
    semantic = cosines(view, rows).astype(np.float64)  # compared as Python floats were
    tagged = rows.tagged(view.domains)
    lexical = np.round(rows.word_share(view.terms), 4)
    if light:
        relevant = tagged | (semantic >= config.light_floor) | (lexical >= 0.5)
    else:
        relevant = tagged | (semantic >= config.semantic_floor) | (lexical > 0)
    constraint = rows.in_categories(_CONSTRAINT_VALUES)
    shared = rows.tagged(view.area_tags)
    if view.decision and not light and config.nearest > 0:
        relevant = relevant | _nearest(semantic, constraint, config)
    if view.decision and not light:
        relevant = relevant | (shared & (semantic >= config.area_floor))
    # every relevant constraint scored, a pick built for the kept ones alone (a read
    # finds ~45 relevant and keeps a handful)
    scored: list[tuple[float, bool, int, float]] = []
    for i in np.flatnonzero(relevant & constraint).tolist():
        category = rows.categories[i]
        tag, typed = bool(tagged[i]), 1.0 if category in wanted else 0.0
        binding = category in _BINDING_VALUES
        decision = 1.0 if view.decision and tag and binding else 0.0
        score = (
            float(semantic[i])
            + config.tag_weight * (1.0 if tag else 0.0)
            + config.area_weight * (1.0 if shared[i] else 0.0)
            + config.lexical_weight * round_places(float(lexical[i]), 4)
            + config.decision_weight * decision
            + config.category_weight * typed
        )
        scored.append((-round_places(score, 4), not binding, -i, typed))
    # a tie goes to the binding constraint (a rule before its cause, as the profile's
    # kind weight ranks them), then to the older (the rows are newest first), as the
    # ids' time order gave it: never to the fact id itself, whose tail is random, so the
    # rule and the cause one sentence gives ("I avoid harsh chemical cleaners because my
    # son has asthma.") took turns
    scored.sort(key=lambda s: s[:3])
    out: list[Pick] = []
    for negative, _, at, typed in scored[: config.max_light if light else config.max_constraints]:
        i = -at
        signals = _signals(float(semantic[i]), bool(tagged[i]), float(lexical[i]))
        signals["category"] = typed
        signals["area"] = 1.0 if shared[i] else 0.0
        out.append(Pick(rows.ids[i], True, -negative, signals))
    return out


def _nearest(semantic: np.ndarray, constraint: np.ndarray, config: SectionConfig) -> np.ndarray:
    """The ``config.nearest`` constraints closest in meaning, when at least
    ``config.semantic_near`` close and ``config.near_spread`` standard deviations above
    the mean of the user's constraints."""
    chosen = np.zeros(len(semantic), dtype=bool)
    if not constraint.any():
        return chosen
    others = semantic[constraint]
    floor = max(config.semantic_near, float(others.mean() + config.near_spread * others.std()))
    candidates = np.flatnonzero(constraint & (semantic >= floor))
    if len(candidates):
        best = candidates[np.argsort(-semantic[candidates], kind="stable")[: config.nearest]]
        chosen[best] = True
    return chosen


def pick_other_facts(view: QueryView, rows: FactRows, config: SectionConfig) -> list[Pick]:
    """Facts that are not constraints and are close to the query (meaning or words)."""
    if not rows.ids:
        return []
    semantic = cosines(view, rows).astype(np.float64)
    lexical = np.round(rows.word_share(view.terms), 4)
    close = (semantic >= config.fact_floor) | (lexical >= 0.5)
    tagged = rows.tagged(view.domains)
    found: list[tuple[float, int, Pick]] = []
    for i in np.flatnonzero(close & ~rows.in_categories(_CONSTRAINT_VALUES)).tolist():
        signals = _signals(float(semantic[i]), bool(tagged[i]), float(lexical[i]))
        score = float(semantic[i]) + config.lexical_weight * signals["lexical"]
        found.append(
            (-round_places(score, 4), -i, Pick(rows.ids[i], False, round_places(score, 4), signals))
        )
    found.sort(key=lambda f: f[:2])  # a tie to the older (rows are newest first), not by id
    return [pick for _, _, pick in found[: config.max_facts]]
