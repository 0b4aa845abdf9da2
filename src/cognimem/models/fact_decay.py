"""Passive decay of a fact's confidence (pure).

A fact's stored confidence is what was known when it was last validated (said again,
affirmed, or first said). Its **effective confidence** at a time is the stored
confidence halved for every half-life of its category since ``last_validated_at``:
identity barely decays, a state ("I'm exhausted") within weeks, but a state said as a
lasting condition of the person ("I'm colorblind", "I've got gout": grammar, not a
list, ``models/state_span.py``) as an attribute does. Nothing is written for
it: a read computes it at its own ``reference_time``, so a replayed conversation decays
in its own time. A live fact whose effective confidence is below :data:`AGING_BELOW`
is **aging**: it needs validation before an answer relies on it. The lifecycle
operation ``decay`` (``lifecycle/decay.py``) records that as the fact's status.
Reinforcement (``models/fact_changes.reinforced``) sets ``last_validated_at`` and so
resets the decay.
"""

from __future__ import annotations

from datetime import datetime

from cognimem.models.knowledge import Fact, FactCategory
from cognimem.models.state_span import is_lasting_state

# days for a fact's confidence to halve, by category
FACT_HALF_LIVES: dict[FactCategory, float] = {
    FactCategory.IDENTITY: 7300.0,  # a name, a birthday: barely
    FactCategory.RELATIONSHIP: 1825.0,
    FactCategory.EVENT: 3650.0,  # what happened stays so; only its relevance fades
    FactCategory.OCCUPATION: 730.0,
    FactCategory.LOCATION: 730.0,
    FactCategory.ATTRIBUTE: 730.0,
    FactCategory.POSSESSION: 365.0,
    FactCategory.PREFERENCE: 365.0,
    FactCategory.CUSTOM: 365.0,
    FactCategory.VALUE: 1825.0,  # "I'm vegetarian": binding, and lasting
    FactCategory.POLICY: 1825.0,
    FactCategory.CAUSAL: 365.0,
    FactCategory.GOAL: 180.0,
    FactCategory.STATE: 30.0,  # "I'm exhausted", "my knee hurts": fast
}
# a state said as a lasting condition of the person ("I'm colorblind", "I've got gout",
# models/state_span.py) decays as an attribute does, not as a passing state
LASTING_STATE_HALF_LIFE = FACT_HALF_LIVES[FactCategory.ATTRIBUTE]
# below this effective confidence a live fact is aging: at the default confidence of a
# fact said once (0.7), after one half-life of its category
AGING_BELOW = 0.35


def half_life(fact: Fact) -> float:
    """Days for ``fact``'s confidence to halve: its category's, but for a state said as
    a lasting condition (:data:`LASTING_STATE_HALF_LIFE`)."""
    if fact.category is FactCategory.STATE and is_lasting_state(
        fact.text, fact.last_validated_at, fact.valid_to
    ):
        return LASTING_STATE_HALF_LIFE
    return FACT_HALF_LIVES[fact.category]


def effective_confidence(fact: Fact, at: datetime) -> float:
    """``fact.confidence`` halved per :func:`half_life` since it was last validated (no
    decay before that moment: ``at`` earlier counts as no time)."""
    days = max((at - fact.last_validated_at).total_seconds(), 0.0) / 86_400
    return float(fact.confidence * 0.5 ** (days / half_life(fact)))


def is_aging(fact: Fact, at: datetime) -> bool:
    """Whether the fact's effective confidence at ``at`` is below :data:`AGING_BELOW`."""
    return effective_confidence(fact, at) < AGING_BELOW
