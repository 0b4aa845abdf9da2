"""Which of the user's constraints and facts bear on a query — pure scoring.

Constraints rarely share words with the question that needs them ("I'm allergic to
shellfish" / "recommend a restaurant"), so a constraint is relevant by any of: its scope
tags meet the query's domains (the same vocabulary the extractor tags with), its meaning
is close to the query's (embedding cosine), or it shares words with it. Unrelated
constraints stay out: nothing is included for being a constraint alone. Facts that are
not constraints (identity, preferences, places ...) need a closer match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from cognimem.ingest.extract.lexicon import scope_tags
from cognimem.models.knowledge import BINDING_CATEGORIES, CONSTRAINT_CATEGORIES, Fact
from cognimem.recall.analyze import query_terms
from cognimem.store.base import FactRows

# requests for a decision or a recommendation: the constraints of the query's domains
# apply even when nothing else matches
_DECISION = re.compile(
    r"\b(?:should|shall|can|could|may|must)\s+(?:i|we)\b|\bis\s+it\s+(?:ok|okay|safe|fine|"
    r"wise|a good idea)\b|\b(?:recommend|suggest|advise|which|choose|pick|plan|book|buy|"
    r"order|reserve|schedule|ideas?)\b|\bwhat\s+(?:should|to|can)\b|\bwhere\s+(?:should|"
    r"to|can)\b|\bhelp\s+me\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SectionConfig:
    """How facts and constraints earn a place in a packet's sections."""

    # a constraint this close in meaning is relevant; on the cue → trigger set
    # (benchmarks/cue_trigger.py, local MiniLM) 0.35 / 0.25 / 0.15 put the cue in the
    # sections for 0.10 / 0.16 / 0.26 of pairs with 0.11 / 0.17 / 0.61 (of 6) unrelated
    # constraints beside it
    semantic_floor: float = 0.25
    fact_floor: float = 0.5  # a non-constraint fact needs this (or shared words)
    tag_weight: float = 0.35
    lexical_weight: float = 0.3
    decision_weight: float = 0.1  # binding constraints of the query's domains, on decisions
    max_constraints: int = 5
    max_facts: int = 5
    share_of_budget: float = 0.35  # the most the sections may take of max_tokens


@dataclass(frozen=True)
class QueryView:
    """What the scoring needs to know about the query."""

    terms: frozenset[str]
    domains: frozenset[str]
    decision: bool
    vector: np.ndarray | None

    @classmethod
    def of(cls, query: str, vector: np.ndarray | None) -> QueryView:
        return cls(
            terms=frozenset(query_terms(query)),
            domains=frozenset(scope_tags(query.replace("-", " "))),
            decision=bool(_DECISION.search(query)),
            vector=vector,
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


def pick_facts(view: QueryView, rows: FactRows, config: SectionConfig) -> list[Pick]:
    """The relevant constraints (at most ``max_constraints``) and other facts (at most
    ``max_facts``), each group best first. One matrix product scores meaning."""
    if not rows.ids:
        return []
    if view.vector is not None and rows.matrix is not None:
        semantic = rows.matrix @ np.asarray(view.vector, dtype=np.float32)
    else:
        semantic = np.zeros(len(rows.ids), dtype=np.float32)
    constraints: list[Pick] = []
    others: list[Pick] = []
    for i, fact_id in enumerate(rows.ids):
        sem = float(semantic[i])
        tag = 1.0 if view.domains.intersection(rows.scope_tags[i]) else 0.0
        lexical = len(view.terms & rows.words[i]) / len(view.terms) if view.terms else 0.0
        signals = {"semantic": round(sem, 4), "tags": tag, "lexical": round(lexical, 4)}
        category = rows.categories[i]
        if category in _CONSTRAINT_VALUES:
            if not (tag > 0 or sem >= config.semantic_floor or lexical > 0):
                continue
            decision = 1.0 if view.decision and tag and category in _BINDING_VALUES else 0.0
            score = (
                sem
                + config.tag_weight * tag
                + config.lexical_weight * lexical
                + config.decision_weight * decision
            )
            constraints.append(Pick(fact_id, True, round(score, 4), signals))
        elif sem >= config.fact_floor or lexical >= 0.5:
            score = sem + config.lexical_weight * lexical
            others.append(Pick(fact_id, False, round(score, 4), signals))
    constraints.sort(key=lambda p: -p.score)
    others.sort(key=lambda p: -p.score)
    return constraints[: config.max_constraints] + others[: config.max_facts]
