"""Which learnt procedures a request matches (pure): the read's ``learned_procedures``
step, and the trigger test procedure detection groups requests by.

A trigger's features are the content words of the request (``models/procedures.py``:
``trigger_terms``, so "deploying" meets "deploy"). A query matches a procedure when it
holds at least ``MIN_COVERAGE`` of the trigger's words and the two share at least
``MIN_DICE`` of their words (Dice): "deploy the staging build" matches "please deploy
the staging build now", not "what did I deploy yesterday?" (one word of three).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cognimem.models.packets import Explanation, PacketSections, ProcedureEntry
from cognimem.models.procedures import Procedure
from cognimem.text.tokens import trigger_terms

MIN_COVERAGE = 0.75  # share of the trigger's words the query must hold
MIN_DICE = 0.5  # 2·shared / (query words + trigger words)
MIN_CONFIDENCE = 0.5  # a procedure less sure than this is not offered
MAX_MATCHES = 3
STEP = "learned_procedures"


@dataclass(frozen=True)
class ProcedureMatch:
    procedure: Procedure
    score: float  # Dice of the query's and the trigger's words
    coverage: float  # share of the trigger's words the query holds
    matched: tuple[str, ...]  # the trigger words the query holds


def match(query: str, procedures: Sequence[Procedure]) -> list[ProcedureMatch]:
    """The procedures ``query`` matches (see the module docstring) that are at least
    ``MIN_CONFIDENCE`` sure, best first (score × confidence), at most ``MAX_MATCHES``."""
    words = set(trigger_terms(query))
    if not words:
        return []
    found: list[ProcedureMatch] = []
    for p in procedures:
        trigger = set(p.trigger_terms)
        if not trigger or p.confidence < MIN_CONFIDENCE:
            continue
        shared = words & trigger
        coverage = len(shared) / len(trigger)
        dice = 2 * len(shared) / (len(words) + len(trigger))
        if coverage < MIN_COVERAGE or dice < MIN_DICE:
            continue
        matched = tuple(t for t in p.trigger_terms if t in shared)
        found.append(ProcedureMatch(p, round(dice, 6), round(coverage, 6), matched))
    found.sort(key=lambda m: (-m.score * m.procedure.confidence, m.procedure.id))
    return found[:MAX_MATCHES]


def entry(m: ProcedureMatch) -> ProcedureEntry:
    p = m.procedure
    return ProcedureEntry(
        id=p.id,
        trigger=p.trigger,
        action=p.action.render(),
        observed_count=p.observed_count,
        confidence=p.confidence,
        score=m.score,
        signals={"dice": m.score, "coverage": m.coverage, "confidence": p.confidence},
        matched=list(m.matched),
        source_event_ids=p.source_event_ids,
    )


def explain(
    matches: Sequence[ProcedureMatch], sections: PacketSections, dropped: dict[str, str]
) -> list[Explanation]:
    """Why each matched procedure is in the packet (or was cut for the budget)."""
    placed = {e.id for e in sections.learned_procedures}
    out = []
    for m in matches:
        p = m.procedure
        outcome = f"section:{STEP}" if p.id in placed else dropped.get(p.id, "dropped")
        out.append(
            Explanation(
                id=p.id,
                type="procedure",
                steps=[STEP],
                signals={"dice": m.score, "coverage": m.coverage, "confidence": p.confidence},
                score=m.score,
                outcome=outcome,
                reason=(
                    f"the query holds {len(m.matched)} of the trigger's {len(p.trigger_terms)}"
                    f' words ({", ".join(m.matched)}) of "{p.trigger}"'
                ),
            )
        )
    return out
