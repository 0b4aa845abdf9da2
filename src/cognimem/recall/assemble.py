"""Assemble the context packet: best first, cut to the token budget (pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cognimem.models import MemoryItem, PacketItem
from cognimem.models.knowledge import BINDING_CATEGORIES
from cognimem.models.packets import (
    MARKDOWN_HEADER,
    MEMORIES_TITLE,
    SECTION_TITLES,
    FactEntry,
    PacketSections,
    fact_line,
    markdown_line,
)
from cognimem.recall.constraints import Scored


def entry(scored: Scored) -> FactEntry:
    f = scored.fact
    return FactEntry(
        id=f.id,
        key=f.key,
        text=f.text,
        category=f.category.value,
        value=f.value,
        polarity=f.polarity,
        scope_tags=f.scope_tags,
        confidence=f.confidence,
        score=scored.score,
        signals=scored.signals,
        valid_from=f.valid_from,
        recorded_at=f.recorded_at,
        source_event_ids=f.evidence_event_ids,
        item_ids=f.evidence_item_ids,
    )


def assemble_sections(
    constraints: Sequence[Scored],
    facts: Sequence[Scored],
    budget: int,
    count_tokens: Callable[[str], int],
    *,
    first_budget: int | None = None,
) -> tuple[PacketSections, int]:
    """Constraints first (best first, "must follow" for value and policy, "consider" for
    the rest), then facts, inside ``budget`` tokens (titles included). The best
    constraint may use up to ``first_budget`` (the whole packet's room) so that it goes
    in whenever it fits at all. Returns the sections and tokens used."""
    sections = PacketSections()
    used = 0
    titled: set[str] = set()
    titles = dict(SECTION_TITLES)
    for scored, name in [
        *((c, "must_follow" if c.fact.category in BINDING_CATEGORIES else "consider")
          for c in constraints),
        *((f, "facts") for f in facts),
    ]:  # fmt: skip
        e = entry(scored)
        cost = count_tokens(fact_line(e) + "\n")
        if name not in titled:
            cost += count_tokens(titles[name] + "\n\n")
        room = budget
        if not sections.entries() and scored in constraints[:1] and first_budget is not None:
            room = max(budget, first_budget)
        if used + cost > room:
            continue
        e.token_count = cost
        used += cost
        titled.add(name)
        getattr(sections, name).append(e)
    if sections.entries():
        used += count_tokens(MEMORIES_TITLE + "\n")
    return sections, used


def assemble(
    ranked: Sequence[tuple[MemoryItem, float, dict[str, float]]],
    limit: int,
    max_tokens: int,
    count_tokens: Callable[[str], int],
    reserved: int = 0,
) -> tuple[list[PacketItem], int, bool]:
    """Take up to ``limit`` items in rank order whose rendered lines fit ``max_tokens``.

    The budget counts the markdown rendering (header plus one line per item, plus
    ``reserved`` tokens the sections already took). An item
    that does not fit is left out and smaller ones below it may still fit. Returns the
    packet items, the tokens used and whether anything was cut for the budget.
    """
    chosen: list[PacketItem] = []
    used = count_tokens(MARKDOWN_HEADER) + reserved
    truncated = False
    for item, score, signals in ranked:
        if len(chosen) >= limit:
            break
        candidate = PacketItem(
            id=item.id,
            text=item.text,
            kind=item.kind,
            score=round(score, 6),
            signals={k: round(v, 6) for k, v in signals.items()},
            occurred_at=item.occurred_at,
            author=item.author,
            source_event_ids=item.source_event_ids,
            external_ids=item.external_ids,
            confidence=item.confidence,
            token_count=item.token_count,
        )
        cost = count_tokens(markdown_line(candidate) + "\n")
        if used + cost > max_tokens:
            truncated = True
            continue
        used += cost
        chosen.append(candidate)
    return chosen, used, truncated
