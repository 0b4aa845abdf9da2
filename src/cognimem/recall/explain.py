"""Why each candidate of a read was returned or dropped (``read(..., explain=True)``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from cognimem.models.fact_decay import effective_confidence
from cognimem.models.knowledge import Fact
from cognimem.models.packets import (
    SECTION_TITLES,
    Explanation,
    PacketItem,
    PacketSections,
    claims_of,
    no_longer_true,
)
from cognimem.models.references import COREFERENCE, reference_reason
from cognimem.recall.constraints import Pick, Scored
from cognimem.recall.rerank import Ranked

# the sections whose entries are facts and constraints
FACT_SECTIONS = ("must_follow", "consider", "facts", "preferences", "needs_validation")


def explanations(
    ranked: Sequence[Ranked],
    picks: Sequence[Pick],
    scored: dict[str, Scored],
    sections: PacketSections,
    chosen: Sequence[PacketItem],
    dropped: dict[str, str],
    looked_up: Sequence[Fact],
    now: datetime,
    evidence: dict[str, str] | None = None,
) -> list[Explanation]:
    """Every ranked item, every summary in the Summaries section and every fact a step
    picked (``looked_up``: the facts the exact key lookup found), with its signals,
    score and outcome; a summary's or profile's with its claims (each sentence and the
    events it states). A fact's signals include its stored ``confidence`` and its
    ``effective_confidence`` at ``now`` (the read's reference time, ``models/fact_decay.py``).
    A returned item's ``reason`` says why it is there however low it scored: the
    section entry it stands behind, if any ("behind the Must follow entry
    user:policy:allergy:peanuts"), and its evidence for the query (``evidence``, from
    ``recall/conversation/evidence.py``)."""
    returned = {p.id for p in chosen}
    out = _item_explanations(ranked, returned, dropped, _behind(sections), evidence or {})
    out += [
        Explanation(
            id=s.id,
            type="item",
            steps=["summaries"],
            signals=dict(s.signals),
            score=s.score,
            outcome="section:summaries",
            claims=s.claims,
        )
        for s in sections.summaries
    ]
    out += _fact_explanations(picks, scored, sections, dropped, looked_up, now)
    return out


def _item_explanations(
    ranked: Sequence[Ranked],
    returned: set[str],
    dropped: dict[str, str],
    behind: dict[str, str],
    why: dict[str, str],
) -> list[Explanation]:
    """Each ranked item's explanation: its signals (raw ones too), score and outcome."""
    out = []
    for r in ranked:
        signals = dict(r.signals)
        signals.update({f"raw_{k}": round(v, 4) for k, v in r.raw.items()})
        outcome = "returned" if r.item.id in returned else dropped.get(r.item.id, "dropped")
        reasons = [behind.get(r.item.id), why.get(r.item.id)] if outcome == "returned" else []
        reasons.append(item_references(r.item.metadata))  # "Her" is Maya (...)
        if r.stale_since is not None:
            reasons.append(no_longer_true(r.stale_since))
        if "level" in r.signals:  # a shared level's, ranked with the user's own
            whose = r.item.scope.level
            reasons.append(f"the {whose}'s memory, ranked with the user's own (level signal)")
        out.append(
            Explanation(
                id=r.item.id,
                type="item",
                steps=list(r.steps),
                signals=signals,
                score=round(r.score, 6),
                outcome=outcome,
                reason="; ".join(x for x in reasons if x) or None,
                claims=claims_of(r.item) or None,
            )
        )
    return out


def _fact_explanations(
    picks: Sequence[Pick],
    scored: dict[str, Scored],
    sections: PacketSections,
    dropped: dict[str, str],
    looked_up: Sequence[Fact],
    now: datetime,
) -> list[Explanation]:
    """Each fact a step picked or the key lookup found: its signals (with its stored and
    effective confidence), score, the section it went to or why it was dropped."""
    placed = {e.id: name for name in FACT_SECTIONS for e in getattr(sections, name)}
    step_of = {p.fact_id: ("constraints" if p.constraint else "facts") for p in picks}
    facts = {f.id: f for f in looked_up}
    facts.update({fact_id: s.fact for fact_id, s in scored.items()})
    for f in looked_up:
        step_of.setdefault(f.id, "fact_lookup")
    out = []
    for fact_id, step in step_of.items():
        s = scored.get(fact_id)
        signals = dict(s.signals) if s else {"key": 1.0}
        fact = facts.get(fact_id)
        if fact is not None:
            signals["confidence"] = round(fact.confidence, 4)
            signals["effective_confidence"] = round(effective_confidence(fact, now), 4)
        score = s.score if s else 1.0
        out.append(
            Explanation(
                id=fact_id,
                type="fact",
                steps=[step],
                signals=signals,
                score=score,
                outcome=placement(fact_id, placed, dropped),
                reason=None if fact is None else coreference_reason(fact),
            )
        )
    return out


def placement(record_id: str, placed: Mapping[str, str], dropped: Mapping[str, str]) -> str:
    """A record's outcome in a packet: ``section:<name>`` where it was ``placed``, else
    why it was ``dropped``."""
    if record_id in placed:
        return f"section:{placed[record_id]}"
    return dropped.get(record_id, "dropped")


def coreference_reason(fact: Fact) -> str | None:
    """Who the fact's pronouns and role words were read as, and why: "She" is Sarah
    Jones (she: the latest woman named (as my sister))."""
    return reference_reason(fact.provenance.get(COREFERENCE) or [])


def item_references(metadata: Mapping[str, Any]) -> str | None:
    """Who an item's pronouns and role words were read as (``models/references.py``)."""
    links = metadata.get(COREFERENCE)
    return reference_reason(links) if isinstance(links, list) else None


def _behind(sections: PacketSections) -> dict[str, str]:
    """For each item that is the evidence of a fact or constraint in a section, the
    first such entry, as "behind the <section> entry <key>"."""
    out: dict[str, str] = {}
    for name, title in SECTION_TITLES:
        if name not in FACT_SECTIONS:
            continue
        label = title.removeprefix("### ").split(" (")[0]
        for e in getattr(sections, name):
            for item_id in e.item_ids:
                out.setdefault(item_id, f"behind the {label} entry {e.key}")
    return out
